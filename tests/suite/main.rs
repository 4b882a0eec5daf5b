//! Every integration test of skelpad but the editor's, in one binary (one link
//! of the whole stack instead of one per file). Each module is one subject;
//! `common` holds what several share. `cargo test --test suite MODULE::` runs one.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

#[path = "../common/mod.rs"]
mod common;

mod backends;
mod bad_input;
mod bezier_oracle;
mod blend;
mod cli;
mod cli_batch;
mod cli_export;
mod cli_render;
mod compile_semantics;
mod conformance;
mod curves;
mod dotlottie;
mod events;
mod examples;
mod expect;
mod fixtures;
mod function_length;
mod geometry;
mod gltf;
mod gltf_between;
mod godot;
mod godot_blend;
mod golden;
mod grammar;
mod ik;
mod incremental;
mod layering;
mod lint;
mod lottie;
mod lottie_between;
mod lottie_pictures;
mod lsp;
mod modifiers;
mod props;
mod save_faults;
mod skf_errors;
mod skf_export;
mod skf_format;
mod skf_import;
mod springs;
mod spriter;
mod spriter_reference;
