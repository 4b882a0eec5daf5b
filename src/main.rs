//! The `skelpad` command: the editor with no arguments, otherwise the CLI
//! (`check`, `pose`, `render`, `export`); the exit code comes from `cli::main`.

fn main() {
    std::process::exit(skelpad::cli::main());
}
