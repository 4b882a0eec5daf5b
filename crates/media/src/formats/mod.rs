//! File formats other than the language itself.
//!
//! - [`skf`]: SkelForm's `.skf` (a zip of `armature.json` and atlas PNGs):
//!   data types, the exporter and a validating reader.
//! - [`atlas`]: rectangle packing of textures into atlas pages.
//! - [`curves`]: imported curves written as script easings (`convert`).
//! - [`draw_order`]: animated draw orders as static slots, for the files
//!   and scripts that keep one order.
//! - [`lottie`]: Lottie JSON, dotLottie and Telegram stickers (export).
//! - [`spriter`]: Spriter's `.scml`/`.scon` read into the model.
//! - [`export`]: what every export shares: one progress (with its
//!   cancellation) and one error.
//! - [`frames`]: rendered frames to files: PNG, PNG sequence, sprite sheet,
//!   GIF, drawn on every core.

pub mod atlas;
pub mod curves;
pub mod draw_order;
pub mod export;
pub mod frames;
pub mod gltf;
pub mod godot;
pub mod lottie;
pub mod skf;
pub mod spriter;
