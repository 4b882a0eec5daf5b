//! Checks of a compilation that play its animations: pose assertions
//! (`expect` sections, [`expect`]) and the opt-in motion lints ([`lint`]).
//! They sit above both `compile` (whose [`crate::compile::Compilation`]
//! they add diagnostics to) and `runtime` (whose poses they measure), so
//! neither of those reaches the other's way.

pub mod expect;
pub mod lint;
