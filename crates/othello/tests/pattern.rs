//! The learned pattern evaluation as shipped: symmetric under the board's eight symmetries,
//! its weights file decodes to what it encodes, and the evaluation says sensible things about
//! positions whose value is obvious.

use othello::pattern::{evaluate, weights, Weights};
use othello::Position;
use proptest::prelude::*;

/// The square `sq` under symmetry `k` (bit 0: mirror files, bit 1: mirror ranks, bit 2:
/// transpose), as the evaluation's own layout defines the eight symmetries.
fn map_square(k: usize, sq: u32) -> u32 {
    let (mut f, mut r) = (sq % 8, sq / 8);
    if k & 1 == 1 {
        f = 7 - f;
    }
    if k & 2 == 2 {
        r = 7 - r;
    }
    if k & 4 == 4 {
        std::mem::swap(&mut f, &mut r);
    }
    r * 8 + f
}

fn map_board(k: usize, b: u64) -> u64 {
    (0..64)
        .filter(|&sq| b >> sq & 1 == 1)
        .fold(0, |acc, sq| acc | 1 << map_square(k, sq))
}

/// The position after `plies` pseudo-random moves drawn from `seed`.
fn random_position(seed: u64, plies: usize) -> Position {
    Position::random_game(seed | 1)
        .take(plies + 1)
        .last()
        .expect("the start at least")
}

proptest! {
    #[test]
    fn the_evaluation_is_the_same_in_every_symmetry(seed in any::<u64>(), plies in 0usize..60) {
        let p = random_position(seed, plies);
        let v = evaluate(&p);
        for k in 1..8 {
            let q = Position { me: map_board(k, p.me), opp: map_board(k, p.opp), side: p.side };
            prop_assert_eq!(evaluate(&q), v, "symmetry {} of {}", k, p);
        }
    }

    #[test]
    fn colours_do_not_matter_only_the_side_to_move(seed in any::<u64>(), plies in 0usize..60) {
        let p = random_position(seed, plies);
        let swapped = Position { side: p.side.other(), ..p };
        prop_assert_eq!(evaluate(&swapped), evaluate(&p));
    }
}

#[test]
fn the_shipped_weights_decode_and_encode_to_the_same_bytes() {
    let bytes = include_bytes!("../data/patterns.bin");
    let w = Weights::from_bytes(bytes).unwrap();
    assert_eq!(&w.to_bytes()[..], &bytes[..]);
    assert_eq!(&w, weights());
    // Trained, not empty: most stages have many non-zero weights.
    let non_zero = w.values.iter().filter(|&&v| v != 0).count();
    assert!(non_zero > 100_000, "{non_zero} non-zero weights");
}

#[test]
fn finished_games_are_worth_their_exact_score() {
    // Black owns everything but a1, which nobody can play: +64 for black (the empty to the winner).
    let p: Position = format!("-{} X", "X".repeat(63)).parse().unwrap();
    assert!(p.game_over());
    assert_eq!(evaluate(&p), 6400);
}

#[test]
fn owning_the_corners_and_edges_is_good() {
    // Black, to move, holds the edges and all four corners against a white centre.
    let rows = [
        "XXXXXXXX", "X------X", "X-OOOO-X", "X-OOOO-X", "X-OOOO-X", "X-OOOO-X", "X------X",
        "XXXXXXXX",
    ];
    let p: Position = format!("{} X", rows.concat()).parse().unwrap();
    assert!(evaluate(&p) > 1000, "{}", evaluate(&p));
    // The same board with white to move is as bad for white.
    let q: Position = format!("{} O", rows.concat()).parse().unwrap();
    assert!(evaluate(&q) < -1000, "{}", evaluate(&q));
}
