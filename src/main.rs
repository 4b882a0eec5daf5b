//! The `skelpad` command: the editor with no arguments, otherwise the CLI
//! (`check`, `pose`, `render`, `export`); the exit code comes from `cli::main`.

// The binary, not the library, picks the allocator: a program that links
// skelpad as a library keeps its own.
/// The process's allocator (feature `mimalloc`, on by default): see BENCHMARKS.md.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    #[cfg(feature = "mimalloc")]
    skelpad::alloc::keep_freed_memory();
    std::process::exit(skelpad::cli::main());
}
