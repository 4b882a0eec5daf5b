//! File formats other than the language itself.
//!
//! - [`skf`]: SkelForm's `.skf` (a zip of `armature.json` and atlas PNGs):
//!   data types, the exporter and a validating reader.
//! - [`atlas`]: rectangle packing of textures into atlas pages.

pub mod atlas;
pub mod skf;
