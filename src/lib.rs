//! skelpad: a text editor for 2D skeletal animation.
//!
//! The pipeline runs one way: [`syntax`] (text → trees + diagnostics) →
//! [`compile`] (trees → [`model::Armature`], incrementally) → [`runtime`]
//! (armature + time → [`runtime::Pose`]). See ARCHITECTURE.md.

pub mod cli;
pub mod compile;
pub mod formats;
pub mod generate;
pub mod model;
pub mod runtime;
pub mod syntax;
