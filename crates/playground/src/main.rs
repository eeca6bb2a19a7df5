//! `playground`: see the library documentation.
fn main() {
    std::process::exit(playground::cli::main());
}
