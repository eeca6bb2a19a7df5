//! Engine against engine, to measure what a search change is worth in games rather than in
//! nodes: pairs of games from the same seeded random opening (a few random legal plies), each
//! engine playing red once, at a fixed time per move, under the repetition rulings of
//! [`crate::repetition`]. Each engine keeps its table from move to move, as in a GUI.

use crate::engine::{think, SearchConfig, SearchPosition};
use crate::eval::EvalKind;
use crate::fen::START_FEN;
use crate::movegen::legal_moves;
use crate::piece::Color;
use crate::position::Position;
use crate::repetition::GameLine;
use crate::square::Move;
use rand::{Rng, SeedableRng};
use search_core::{Searcher, SmallRng, WIN};
use std::time::Duration;

/// Plies after which an undecided game is scored a draw.
pub const MAX_PLIES: usize = 400;

/// Which search an engine of a match runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
pub enum Engine {
    /// The engine's selective search (`uci`'s).
    Selective,
    /// The full-width search with table, killers, history and check extension (the engine
    /// before the selective search; `run` still chooses the course's answers with it).
    FullWidth,
}

/// How a game ended, from red's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Result {
    /// Red won.
    RedWins,
    /// Black won.
    BlackWins,
    /// Drawn (repetition, the natural limit, or [`MAX_PLIES`]).
    Draw,
}

/// One game's record.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GameRecord {
    /// The result.
    pub result: Result,
    /// Why the game ended.
    pub reason: &'static str,
    /// The moves from the start position, opening included.
    pub moves: Vec<String>,
}

/// A position after `plies` random legal moves from the start (seeded).
pub fn random_opening(rng: &mut SmallRng, plies: usize) -> Vec<Move> {
    let mut pos: Position = START_FEN.parse().expect("start position");
    let mut line = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        legal_moves(&pos, &mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        pos.make(m);
        line.push(m);
    }
    line
}

/// The settings of `engine` at `move_time` per move.
fn config_for(engine: Engine, move_time: Duration) -> SearchConfig {
    SearchConfig {
        time: Some(move_time),
        selective: engine == Engine::Selective,
        ..SearchConfig::engine()
    }
}

fn searcher_for(config: &SearchConfig) -> Searcher<SearchPosition> {
    let mut s = Searcher::new(16);
    s.options = config.search_options();
    s
}

/// Plays one game after `opening` with `red` and `black` at `move_time` per move.
pub fn play_game(opening: &[Move], red: Engine, black: Engine, move_time: Duration) -> GameRecord {
    let mut pos: Position = START_FEN.parse().expect("start position");
    let mut line = GameLine::new(&pos);
    let mut record: Vec<String> = Vec::new();
    let configs = [config_for(red, move_time), config_for(black, move_time)];
    let mut searchers = [searcher_for(&configs[0]), searcher_for(&configs[1])];
    let mut legal = Vec::new();
    let mut planned = opening.iter();
    loop {
        legal.clear();
        legal_moves(&pos, &mut legal);
        let side = pos.side();
        if legal.is_empty() {
            let result = if side == Color::Red {
                Result::BlackWins
            } else {
                Result::RedWins
            };
            return finish(result, "no legal move", record);
        }
        if record.len() >= MAX_PLIES {
            return finish(Result::Draw, "move limit", record);
        }
        let mv = match planned.next() {
            Some(&m) => m,
            None => {
                let config = &configs[side as usize];
                let mut game =
                    SearchPosition::with_line(pos.clone(), EvalKind::Course, line.clone());
                let d = think(
                    &mut game,
                    &mut searchers[side as usize],
                    &config.iterative_options(),
                    |_| {},
                );
                d.mv.unwrap_or(legal[0])
            }
        };
        let captured = pos.at(mv.to).is_some();
        pos.make(mv);
        line.record(&pos, captured);
        record.push(mv.to_string());
        // The ruling is for the side to move now.
        let (to_move_wins, to_move_loses) = if pos.side() == Color::Red {
            (Result::RedWins, Result::BlackWins)
        } else {
            (Result::BlackWins, Result::RedWins)
        };
        match line.ruling(0, || false) {
            Some(WIN) => return finish(to_move_wins, "perpetual check", record),
            Some(v) if v == -WIN => return finish(to_move_loses, "perpetual check", record),
            Some(_) => return finish(Result::Draw, "repetition or natural limit", record),
            None => {}
        }
    }
}

fn finish(result: Result, reason: &'static str, moves: Vec<String>) -> GameRecord {
    GameRecord {
        result,
        reason,
        moves,
    }
}

/// Plays `pairs` pairs of games between `a` and `b` from openings of `opening_plies` random
/// plies drawn from `seed`; `on_game` gets each finished game (A's side first in each pair).
/// Returns the score from A's side.
pub fn run_match(
    a: Engine,
    b: Engine,
    pairs: usize,
    move_time: Duration,
    seed: u64,
    opening_plies: usize,
    mut on_game: impl FnMut(&GameRecord, bool),
) -> batch::MatchScore {
    let mut score = batch::MatchScore::default();
    for k in 0..pairs {
        let mut rng =
            SmallRng::seed_from_u64(seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let opening = random_opening(&mut rng, opening_plies);
        for a_is_red in [true, false] {
            let (red, black) = if a_is_red { (a, b) } else { (b, a) };
            let g = play_game(&opening, red, black, move_time);
            let a_wins = match (g.result, a_is_red) {
                (Result::Draw, _) => None,
                (Result::RedWins, red) => Some(red),
                (Result::BlackWins, red) => Some(!red),
            };
            match a_wins {
                Some(true) => score.wins += 1,
                Some(false) => score.losses += 1,
                None => score.draws += 1,
            }
            on_game(&g, a_is_red);
        }
    }
    score
}
