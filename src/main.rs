fn main() {
    std::process::exit(skelpad::cli::main());
}
