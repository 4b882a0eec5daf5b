//! skelpad's media: drawing poses ([`render`]: draw lists, epaint meshes,
//! tiny-skia pictures) and other tools' files ([`formats`]: SkelForm `.skf`
//! import and export, Spriter `.scml`/`.scon` import, scripts from both).
//!
//! It builds on `skelpad-lang`, whose modules it names by their own paths
//! (`skelpad_lang::model`, `skelpad_lang::runtime`, …).

#![forbid(unsafe_code)]

pub mod formats;
pub mod png;
pub mod render;
