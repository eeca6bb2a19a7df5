//! debug
use bait::{
    bound::PushBound,
    sim::{parse_actions, play},
    Level, DEFAULT_GAME,
};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let t = std::fs::read_to_string(&a[1]).unwrap();
    let level = Level::parse(DEFAULT_GAME.parse().unwrap(), &t).unwrap();
    let b = PushBound::new(&level).unwrap();
    let acts = parse_actions(&a[2]).unwrap();
    let states = play(&level, &acts);
    let n = states.len() - 1;
    for (k, s) in states.iter().enumerate() {
        print!("{}:{}/{} ", k, b.estimate(s).unwrap_or(999), n - k);
    }
    println!();
}
