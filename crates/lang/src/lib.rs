//! skelpad's language: text → syntax trees + diagnostics → [`model::Armature`]
//! → poses. No windowing, rendering or file-format crate is reachable from
//! here (see ARCHITECTURE.md); `skelpad-media` draws and converts what this
//! crate computes, `skelpad-ide` answers questions about its texts.
//!
//! Inside this crate the stages keep their layers (checked by
//! `tests/suite/layering.rs`): `model`, `io` < `syntax`, `generate` <
//! `compile` < `runtime` < `check`.

#![forbid(unsafe_code)]

pub mod check;
pub mod compile;
pub mod generate;
pub mod io;
pub mod model;
pub mod runtime;
pub mod syntax;
