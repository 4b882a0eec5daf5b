//! skelpad's media: drawing poses ([`render`]: draw lists, epaint meshes,
//! tiny-skia pictures) and other tools' files ([`formats`]: SkelForm `.skf`
//! import and export, Spriter `.scml`/`.scon` import, scripts from both).
//!
//! It builds on `skelpad-lang`; the language's modules are imported at this
//! crate's root, so `crate::model`, `crate::runtime`, … name them here.

#![forbid(unsafe_code)]

#[allow(
    unused_imports,
    reason = "the language's modules are imported for `crate::` paths; not every one is used"
)]
use skelpad_lang::{compile, generate, io, model, runtime, syntax};

pub mod formats;
pub mod png;
pub mod render;
