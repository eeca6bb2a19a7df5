//! `connect4`: see the library documentation.
fn main() {
    std::process::exit(connect4::cli::main());
}
