//! skelpad: a text editor for 2D skeletal animation.
//!
//! The pipeline runs one way: [`syntax`] (text → trees + diagnostics) →
//! [`compile`] (trees → [`model::Armature`], incrementally) → [`runtime`]
//! (armature + time → [`runtime::Pose`]) → [`render`] (pose → draw list →
//! epaint meshes or pixels). See ARCHITECTURE.md.

#[cfg(feature = "mimalloc")]
pub mod alloc;
#[cfg(feature = "app")]
pub mod app;
pub mod cli;
pub mod compile;
pub mod formats;
pub mod generate;
pub mod io;
pub mod lsp;
pub mod model;
pub mod render;
pub mod runtime;
pub mod syntax;
