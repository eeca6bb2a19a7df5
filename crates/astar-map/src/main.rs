//! `astar-map`: see the library documentation.
fn main() {
    std::process::exit(astar_map::cli::main());
}
