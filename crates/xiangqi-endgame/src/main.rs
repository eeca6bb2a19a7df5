//! `xiangqi-endgame`: see the library documentation.
fn main() {
    std::process::exit(xiangqi_endgame::cli::main());
}
