//! `othello`: see the library documentation.
fn main() {
    std::process::exit(othello::cli::main());
}
