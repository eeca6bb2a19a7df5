//! A game looked over by the engine: every position searched for a fixed time, its value and
//! best line, and each played move's cost (the best move's value minus the played move's, from
//! the mover's side), marked a mistake or a blunder past the thresholds. Decided scores count
//! as [`DECIDED`] centipawns less their distance, so that missing a mate, or walking into one,
//! weighs as much as losing a rook or more.

use crate::board::piece::Color;
use crate::board::square::Move;
use crate::rules::position::Position;
use crate::search::config::SearchConfig;
use crate::search::engine::{decide, Decision};
use search_core::{Score, WIN, WIN_BOUND};

/// What a decided score counts as, in centipawns, before its distance is taken off.
pub const DECIDED: Score = 5000;

/// How a played move is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Verdict {
    /// It costs at least the mistake threshold.
    Mistake,
    /// It costs at least the blunder threshold.
    Blunder,
}

/// The thresholds of [`Verdict`], in centipawns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thresholds {
    /// A move that costs this much or more is a mistake.
    pub mistake: Score,
    /// A move that costs this much or more is a blunder.
    pub blunder: Score,
}

impl Default for Thresholds {
    /// A mistake from one pawn (100), a blunder from three (300).
    fn default() -> Self {
        Thresholds {
            mistake: 100,
            blunder: 300,
        }
    }
}

/// One move of the game as the engine sees it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MoveAnalysis {
    /// The move played.
    #[serde(serialize_with = "as_text")]
    pub played: Move,
    /// The position's value before it, from red's side, in centipawns ([`DECIDED`] for mates).
    pub before: Score,
    /// The value after it, from red's side.
    pub after: Score,
    /// The engine's move in the position before it.
    #[serde(serialize_with = "as_text_opt")]
    pub best: Option<Move>,
    /// The engine's line from the position before it.
    #[serde(serialize_with = "as_text_vec")]
    pub line: Vec<Move>,
    /// What the played move costs the mover against the best one (0 when it is as good).
    pub cost: Score,
    /// The verdict, when the cost passes a threshold.
    pub verdict: Option<Verdict>,
}

fn as_text<S: serde::Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&m.to_string())
}

fn as_text_opt<S: serde::Serializer>(m: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
    match m {
        Some(m) => s.serialize_str(&m.to_string()),
        None => s.serialize_none(),
    }
}

fn as_text_vec<S: serde::Serializer>(v: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|m| m.to_string()))
}

/// A search's score for the side to move as centipawns: decided scores as [`DECIDED`] less
/// their distance in plies.
pub fn centipawns(score: Score) -> Score {
    if score >= WIN_BOUND {
        DECIDED - (WIN - score).min(DECIDED / 2)
    } else if score <= -WIN_BOUND {
        -(DECIDED - (WIN + score).min(DECIDED / 2))
    } else {
        score
    }
}

/// The value of `d` from red's side, when the side to move is `side` (a finished game's value
/// when it is over: a side with no move has lost).
fn red_value(d: &Decision, side: Color) -> Score {
    let v = if d.game_over.is_some() && d.mv.is_none() {
        -DECIDED
    } else {
        centipawns(d.score)
    };
    if side == Color::Red {
        v
    } else {
        -v
    }
}

/// Looks over `moves` played from `start`, each position searched under `config`; `progress`
/// is called after each position. The moves must be legal (a game read from PGN is).
pub fn analyze(
    start: &Position,
    moves: &[Move],
    config: &SearchConfig,
    thresholds: Thresholds,
    progress: &dyn Fn(),
) -> Vec<MoveAnalysis> {
    let mut p = start.clone();
    let mut decisions = Vec::with_capacity(moves.len() + 1);
    let mut sides = Vec::with_capacity(moves.len() + 1);
    for i in 0..=moves.len() {
        sides.push(p.side());
        decisions.push(decide(&p, config, |_| {}));
        progress();
        if let Some(&m) = moves.get(i) {
            p.make(m);
        }
    }
    moves
        .iter()
        .enumerate()
        .map(|(i, &played)| {
            let before = red_value(&decisions[i], sides[i]);
            let after = red_value(&decisions[i + 1], sides[i + 1]);
            let sign = if sides[i] == Color::Red { 1 } else { -1 };
            let cost = if decisions[i].mv == Some(played) {
                0
            } else {
                (sign * (before - after)).max(0)
            };
            let verdict = if cost >= thresholds.blunder {
                Some(Verdict::Blunder)
            } else if cost >= thresholds.mistake {
                Some(Verdict::Mistake)
            } else {
                None
            };
            MoveAnalysis {
                played,
                before,
                after,
                best: decisions[i].mv,
                line: decisions[i].pv.clone(),
                cost,
                verdict,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_that_hangs_a_rook_is_a_blunder_and_a_good_one_is_not() {
        // The black horse on c2 covers a1: the rook walking there is lost for nothing.
        let start: Position = "3k5/9/9/9/9/9/9/2n6/9/R3K4 w".parse().unwrap();
        let moves: Vec<Move> = ["a0a1", "c2a1"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let config = SearchConfig {
            depth: 6,
            ..SearchConfig::engine()
        };
        let a = analyze(&start, &moves, &config, Thresholds::default(), &|| {});
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].verdict, Some(Verdict::Blunder), "{:?}", a[0]);
        assert!(
            a[0].cost >= 300 && a[0].best != Some(moves[0]),
            "{:?}",
            a[0]
        );
        assert!(a[0].before > 0 && a[0].after < 0, "{:?}", a[0]);
        // Black's capture is the best move: no cost.
        assert_eq!((a[1].cost, a[1].verdict), (0, None), "{:?}", a[1]);
    }

    #[test]
    fn decided_scores_count_as_large_values_that_keep_their_order() {
        assert_eq!(centipawns(120), 120);
        assert!(centipawns(WIN - 1) > centipawns(WIN - 5));
        assert!(centipawns(WIN - 5) > 3000);
        assert_eq!(centipawns(-(WIN - 3)), -centipawns(WIN - 3));
    }
}
