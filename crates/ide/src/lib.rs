//! skelpad's language features for tools: the language server ([`lsp`]) and
//! the analyses it answers from (hover, definition, references, rename,
//! symbols, formatting, completion). It builds on `skelpad-lang` only: no
//! rendering, no file formats, no window.

#![forbid(unsafe_code)]

#[allow(unused_imports)]
use skelpad_lang::{check, compile, generate, io, model, runtime, syntax};

pub mod lsp;
