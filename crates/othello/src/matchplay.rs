//! Matches between deciders: pairs of games from the same random opening (a few random plies,
//! seeded), each side playing black once, run in parallel threads. The report gives wins, draws
//! and losses for A, the mean disc difference and a 95% confidence interval on A's score rate
//! (win = 1, draw = 1/2), so that "the improved heuristic is better" is a measured claim.

use crate::course::{status, Status};
use crate::deciders::{decide, Decider, HeuristicKind, MoveOrder};
use crate::position::{Color, Move, Position};
use crate::trace::trace_turn;
use rand::{Rng, SeedableRng};
use search_core::SmallRng;
use std::path::Path;

/// One side of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Player {
    /// How it searches.
    pub decider: Decider,
    /// How it evaluates.
    pub heuristic: HeuristicKind,
    /// In which order its searches visit moves.
    pub order: MoveOrder,
}

/// The outcome of a match, from A's side.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MatchReport {
    /// Games played.
    pub games: usize,
    /// A's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// A's losses.
    pub losses: usize,
    /// Mean final disc difference for A.
    pub mean_disc_difference: f64,
    /// A's score rate (win 1, draw 1/2).
    pub score_rate: f64,
    /// 95% confidence interval of the score rate (normal approximation).
    pub ci95: (f64, f64),
}

/// A position after `plies` random moves from the start (seeded).
pub(crate) fn random_opening(rng: &mut SmallRng, plies: usize) -> Position {
    let mut p = Position::default();
    for _ in 0..plies {
        let m = p.moves();
        if m == 0 {
            break;
        }
        let k = rng.random_range(0..m.count_ones());
        p = p.play(Move::Square(crate::bitboard::nth_square(m, k)));
    }
    p
}

/// Plays one game from `start`; returns the final disc difference for black. With `trace`,
/// each turn of a fixed-depth decider also writes its search tree there (`turnN.dot`/`.svg`).
pub fn play_game(
    start: Position,
    black: Player,
    white: Player,
    rng: &mut SmallRng,
    trace: Option<&Path>,
) -> anyhow::Result<i32> {
    let mut p = start;
    while status(&p) == Status::Ongoing {
        let who = if p.side == Color::Black { black } else { white };
        let mv = if p.moves() == 0 {
            Move::Pass
        } else {
            decide(&p, who.decider, who.heuristic, who.order, rng)
        };
        if let (Some(dir), Move::Square(_)) = (trace, mv) {
            if let Some(written) = trace_turn(dir, &p, who.decider, who.heuristic, who.order) {
                written?;
            }
        }
        p = p.play(mv);
    }
    let (b, w) = if p.side == Color::Black {
        (p.me, p.opp)
    } else {
        (p.opp, p.me)
    };
    Ok(b.count_ones() as i32 - w.count_ones() as i32)
}

/// Pair `k` of a match: A as black, then B as black, from the same random opening; returns the
/// disc differences for A. Its games are numbered 2k+1 and 2k+2 (their trace folders).
fn play_pair(
    k: usize,
    [a, b]: [Player; 2],
    rng: &mut SmallRng,
    trace: Option<&Path>,
    on_game: &impl Fn(),
) -> anyhow::Result<[i32; 2]> {
    let start = random_opening(rng, 4);
    let dir = |game: usize| trace.map(|t| t.join(format!("game{game}")));
    let d1 = play_game(start, a, b, rng, dir(2 * k + 1).as_deref())?;
    on_game();
    let d2 = -play_game(start, b, a, rng, dir(2 * k + 2).as_deref())?;
    on_game();
    Ok([d1, d2])
}

/// Plays `games` games (rounded up to pairs) between A and B with `jobs` threads; `on_game` is
/// called after each game (for a progress bar). With `trace`, game N's search trees go to
/// `trace/gameN/` (games 1, 3, 5, ... have A as black); a tree that cannot be written ends
/// the match with that error.
pub fn run(
    a: Player,
    b: Player,
    games: usize,
    seed: u64,
    jobs: usize,
    trace: Option<&Path>,
    on_game: impl Fn() + Sync,
) -> anyhow::Result<MatchReport> {
    let pairs = games.div_ceil(2);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::with_capacity(2 * pairs));
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if k >= pairs {
                    break;
                }
                let mut rng =
                    SmallRng::seed_from_u64(seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                let pair = play_pair(k, [a, b], &mut rng, trace, &on_game);
                results.lock().unwrap_or_else(|e| e.into_inner()).push(pair);
            });
        }
    });
    let pairs: anyhow::Result<Vec<[i32; 2]>> = results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .collect();
    let diffs: Vec<i32> = pairs?.into_iter().flatten().collect();
    let n = diffs.len().max(1);
    let wins = diffs.iter().filter(|&&d| d > 0).count();
    let draws = diffs.iter().filter(|&&d| d == 0).count();
    let score = batch::MatchScore {
        wins,
        draws,
        losses: diffs.len() - wins - draws,
    };
    Ok(MatchReport {
        games: diffs.len(),
        wins,
        draws,
        losses: score.losses,
        mean_disc_difference: diffs.iter().map(|&d| d as f64).sum::<f64>() / n as f64,
        score_rate: score.rate(),
        ci95: score.ci95(),
    })
}
