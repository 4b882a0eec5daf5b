//! The `skelpad` command: the editor with no arguments, otherwise the CLI
//! (`check`, `test`, `pose`, `render`, `export`, `convert`, `lsp`); the exit
//! code comes from `cli::main`. It only sets the allocator
//! (`alloc::keep_freed_memory`) and calls `cli::main`.

// The binary, not the library, picks the allocator: a program that links
// skelpad as a library keeps its own.
skelpad::global_allocator!();

fn main() {
    #[cfg(feature = "mimalloc")]
    skelpad::alloc::keep_freed_memory();
    std::process::exit(skelpad::cli::main());
}
