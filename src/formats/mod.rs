//! File formats other than the language itself.
//!
//! - [`skf`]: SkelForm's `.skf` (a zip of `armature.json` and atlas PNGs):
//!   data types, the exporter and a validating reader.
//! - [`atlas`]: rectangle packing of textures into atlas pages.
//! - [`atomic`]: writing files so that a failure leaves no partial file.
//! - [`spriter`]: Spriter's `.scml`/`.scon` read into the model.

pub mod atlas;
pub mod atomic;
pub mod skf;
pub mod spriter;
