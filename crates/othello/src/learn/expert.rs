//! Training positions from expert games (WTHOR's tournament games, Logistello's deep-search
//! games): every position where the side to move has a choice, labelled by what the game says
//! it is worth under good play, optionally blended with the engine's own search.
//!
//! A position's label, from its side to move: exact where it has at most
//! [`Labels::solve_empties`] empties (the solver's value); before that, the value of the game's
//! anchor seen from its side, where the anchor is WTHOR's theoretical score (perfect play from
//! its depth) for positions at or above that depth, else the first solved position of the
//! game, else the game's final result. The game itself is the unit held back (every tenth
//! game, by its number in the archive), so that no position of a held-back game is fitted.

use crate::eval::pattern::Evaluator;
use crate::formats::archive::ArchiveGame;
use crate::learn::train::{sample, search, Sample, Workspace};
use crate::rules::position::{Color, Position};
use crate::search::endgame::solve;

/// How expert games are labelled.
#[derive(Debug, Clone, Copy)]
pub struct Labels {
    /// Positions with at most this many empties are solved exactly (0: none).
    pub solve_empties: u32,
    /// Plies of the engine's search whose value is blended in (0: none).
    pub search_depth: u32,
    /// The search value's share of a label not solved exactly (0 to 1).
    pub search_label: f64,
    /// Worker threads (the labels do not depend on it).
    pub threads: usize,
}

/// `black_diff` (black's side) seen from `side`.
fn from_side(black_diff: i32, side: Color) -> i32 {
    if side == Color::Black {
        black_diff
    } else {
        -black_diff
    }
}

/// The labelled positions of one game, numbered `id` for holding back.
pub fn label_game<'w>(
    game: &ArchiveGame,
    id: u32,
    opts: &Labels,
    weights: &'w Evaluator,
    workspace: &mut Workspace<'w>,
) -> Vec<Sample> {
    let replay = game
        .record
        .replay()
        .expect("archive games are replayed when read");
    let choices: Vec<Position> = replay.choices().map(|(p, _)| *p).collect();
    let mut out = Vec::with_capacity(choices.len());
    // The anchor below the theoretical depth: the first solved position, or the result.
    let mut anchor = replay.black_diff;
    let mut anchored = false;
    for p in &choices {
        if p.empties() <= opts.solve_empties {
            let v = solve(p, &mut workspace.endgame).score;
            if !anchored {
                anchor = from_side(v, p.side);
                anchored = true;
            }
            out.push(sample(p, v, id));
        }
    }
    for p in choices.iter().filter(|p| p.empties() > opts.solve_empties) {
        let black = match game.record.theoretical {
            Some(t) if p.empties() >= t.empties => t.black_diff,
            _ => anchor,
        };
        let mut v = from_side(black, p.side);
        if opts.search_depth > 0 && opts.search_label > 0.0 {
            if let Some((_, s)) = search(p, weights, opts.search_depth, &mut workspace.midgame) {
                let s = f64::from(s) / 100.0;
                v = (opts.search_label * s + (1.0 - opts.search_label) * f64::from(v)).round()
                    as i32;
            }
        }
        out.push(sample(p, v.clamp(-64, 64), id));
    }
    out
}

/// Labels every game of `games` (game `i` numbered `i`), on `opts.threads` threads;
/// `progress` is called after each game. The samples come in game order.
pub fn label_games(
    games: &[ArchiveGame],
    opts: &Labels,
    weights: &Evaluator,
    progress: &(dyn Fn() + Sync),
) -> Vec<Sample> {
    batch::parallel_map(
        games.len(),
        opts.threads,
        || Workspace::new(opts.solve_empties.max(8)),
        |workspace, i| {
            let s = label_game(&games[i], i as u32, opts, weights, workspace);
            progress();
            s
        },
    )
    .into_iter()
    .flatten()
    .collect()
}
