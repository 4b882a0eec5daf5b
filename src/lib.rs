//! skelpad: a text editor for 2D skeletal animation.
//!
//! The pipeline runs one way: [`syntax`] (text → trees + diagnostics) →
//! [`compile`] (trees → [`model::Armature`], incrementally) → [`runtime`]
//! (armature + time → [`runtime::Pose`]) → [`render`] (pose → draw list →
//! epaint meshes or pixels). See ARCHITECTURE.md.
//!
//! This crate is the top of a workspace: the language lives in
//! `skelpad-lang`, drawing and other tools' files in `skelpad-media`, the
//! language features and server in `skelpad-ide`. Their modules are
//! re-exported here under the paths users and tests rely on
//! (`skelpad::syntax::parse_document`, `skelpad::compile::Compiler`, …);
//! this crate adds the editor ([`app`], feature `app`) and the command line
//! ([`cli`]).

#[cfg(feature = "mimalloc")]
pub mod alloc;

/// Installs mimalloc as the global allocator of the program it is written
/// in (feature `mimalloc`; without it, nothing). Defined
/// outside the `alloc` module so that callers compile with the feature off.
#[macro_export]
macro_rules! global_allocator {
    () => {
        #[cfg(feature = "mimalloc")]
        #[global_allocator]
        static GLOBAL: $crate::alloc::MiMalloc = $crate::alloc::MiMalloc;
    };
}

#[cfg(feature = "app")]
pub mod app;
pub mod cli;

pub use skelpad_ide::{document, lsp};
pub use skelpad_lang::{check, compile, generate, io, model, runtime, syntax};
pub use skelpad_media::{formats, png, render};
