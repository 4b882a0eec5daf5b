//! skelpad's language features for tools: the one document every front end
//! holds ([`document`]: text, incremental compiler, diagnostics), the
//! analyses ([`analysis`]: hover, definition, references, rename, symbols,
//! formatting, completion), the animator's text edits ([`edits`]: canvas
//! write-back, dopesheet keys, animation operations), all changes to the
//! text in one shape ([`text_edit::TextEdit`]), which the editor and the
//! language server ([`lsp`], their adapter to the protocol) both answer
//! from. It builds on
//! `skelpad-lang` only: no rendering, no file formats, no window (pictures
//! are asked of the host through `io::Pictures`).
//!
//! It names the language's modules by their own paths
//! (`skelpad_lang::model`, `skelpad_lang::compile`, …).

#![forbid(unsafe_code)]

pub mod analysis;
pub mod document;
pub mod edits;
pub mod lsp;
pub mod text_edit;
