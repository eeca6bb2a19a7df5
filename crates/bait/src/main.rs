//! `bait`: see the library documentation.
fn main() {
    std::process::exit(bait::cli::main());
}
