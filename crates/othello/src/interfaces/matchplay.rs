//! Matches between deciders: pairs of games from the same random opening, each side playing
//! black once, run in parallel threads. The openings are seeded random plies from the start
//! (eight by default), all different even turned or reflected, so that deterministic players
//! never replay a game. The report gives wins, draws and losses for A, the mean disc difference
//! and a 95% confidence interval on A's score rate (win = 1, draw = 1/2) from the pairs' scores,
//! so that "the improved heuristic is better" is a measured claim.
//!
//! A side may also be an external engine speaking the NBoard protocol (NTest, Edax, this
//! tool's own `othello nboard`), started as a child process for each game and sent the whole
//! game as GGF before each `go`. An engine that crashes, answers an illegal move or nothing
//! within its time forfeits the game (scored as a loss by 64 discs) and the match goes on.

use crate::eval::course::{status, Status};
use crate::formats::ggf::{parse_ggf_move, Clock, GgfGame};
use crate::interfaces::trace::trace_turn;
use crate::rules::position::{Color, Move, Position};
use crate::search::deciders::{decide, Decider, HeuristicKind, MoveOrder};
use rand::{Rng, SeedableRng};
use search_core::SmallRng;
use std::path::Path;
use std::time::Duration;

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

/// An external engine speaking the NBoard protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NboardEngine {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The midgame depth it is given (`set depth`).
    pub depth: u32,
    /// How long it may think about one move before it forfeits the game.
    pub move_timeout: Duration,
}

impl NboardEngine {
    /// An engine from a command line split at spaces (`othello nboard`, `./ntest x`).
    pub fn new(command: &str, depth: u32, move_timeout: Duration) -> Result<NboardEngine, String> {
        let command: Vec<String> = command.split_whitespace().map(String::from).collect();
        if command.is_empty() {
            return Err("an NBoard engine needs a command, like nboard:./ntest".into());
        }
        Ok(NboardEngine {
            command,
            depth,
            move_timeout,
        })
    }
}

/// Who plays one side of a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contestant {
    /// One of this tool's deciders.
    Builtin(Player),
    /// An external engine speaking NBoard.
    Nboard(NboardEngine),
}

impl Contestant {
    /// `nboard:COMMAND` is an external engine given midgame depth `depth` and `move_timeout`
    /// per move; anything else is a decider (`alphabeta:4`, `id:500`, ...) with `heuristic`
    /// and `order`.
    pub fn parse(
        spec: &str,
        heuristic: HeuristicKind,
        order: MoveOrder,
        depth: u32,
        move_timeout: Duration,
    ) -> Result<Contestant, String> {
        match spec.strip_prefix("nboard:") {
            Some(command) => {
                NboardEngine::new(command, depth, move_timeout).map(Contestant::Nboard)
            }
            None => Ok(Contestant::Builtin(Player {
                decider: spec.parse()?,
                heuristic,
                order,
            })),
        }
    }

    /// The name a game record gives it: the decider with its heuristic, or the engine's
    /// command.
    pub fn name(&self) -> String {
        match self {
            Contestant::Builtin(p) => format!("{:?} {:?}", p.decider, p.heuristic),
            Contestant::Nboard(e) => e.command.join(" "),
        }
    }
}

impl From<Player> for Contestant {
    fn from(p: Player) -> Contestant {
        Contestant::Builtin(p)
    }
}

/// An external engine during one game.
struct NboardClient {
    process: batch::LineProcess,
    move_timeout: Duration,
    pings: u32,
}

impl NboardClient {
    fn start(engine: &NboardEngine) -> Result<NboardClient, String> {
        let mut command = std::process::Command::new(&engine.command[0]);
        command.args(&engine.command[1..]);
        let process = batch::LineProcess::spawn(command)
            .map_err(|e| format!("cannot start `{}`: {e}", engine.command.join(" ")))?;
        let mut client = NboardClient {
            process,
            move_timeout: engine.move_timeout,
            pings: 0,
        };
        client.send("nboard 2")?;
        client.send(&format!("set depth {}", engine.depth))?;
        client.sync(engine.move_timeout)?;
        Ok(client)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        self.process
            .send(line)
            .map_err(|e| format!("the engine stopped reading: {e}"))
    }

    /// Waits until the engine has handled every command sent so far (`ping`/`pong`).
    fn sync(&mut self, timeout: Duration) -> Result<(), String> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings))?;
        self.wait_for(timeout, |l| l.trim() == pong).map(|_| ())
    }

    fn wait_for(
        &mut self,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        self.process
            .wait_for(std::time::Instant::now() + timeout, done)
            .map_err(|e| match e {
                batch::WaitError::Timeout => {
                    format!("no answer within {:.1} s", timeout.as_secs_f64())
                }
                batch::WaitError::Exited => "the engine exited".into(),
            })
    }

    /// The engine's move in `game`, within its move timeout and the `time_left` on its clock,
    /// and whether the engine said it came from its opening book (`status Book …`).
    fn choose(&mut self, game: &GgfGame, time_left: Option<f64>) -> Result<(Move, bool), String> {
        self.send(&format!("set game {game}"))?;
        self.send("go")?;
        let timeout = match time_left {
            Some(left) => self
                .move_timeout
                .min(Duration::from_secs_f64(left.max(0.0))),
            None => self.move_timeout,
        };
        let book = std::cell::Cell::new(false);
        let line = self.wait_for(timeout, |l| {
            if l.starts_with("status Book") {
                book.set(true);
            }
            l.starts_with("===")
        })?;
        let answer = line.trim_start_matches('=').trim();
        let token = answer
            .split(|c: char| c == '/' || c.is_whitespace())
            .next()
            .unwrap_or("");
        parse_ggf_move(token)
            .map(|mv| (mv, book.get()))
            .map_err(|_| format!("answered `{line}`, which is not a move"))
    }
}

/// The outcome of a match, from A's side.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
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
    /// 95% confidence interval of the score rate, from the spread of the pairs' scores
    /// ([`batch::paired_ci95`]).
    pub ci95: (f64, f64),
    /// Different openings played, each by one pair (all of them, up to the board's
    /// symmetries, unless the match asked for more pairs than could be found).
    pub openings: usize,
    /// Plies of each random opening.
    pub opening_plies: usize,
    /// The bound on the openings' values, in discs, if any (`--balanced`).
    pub balanced: Option<u32>,
    /// Games lost by forfeit (an external engine that crashed, timed out or played an
    /// illegal move, a side out of time on the game clock), with the reason: `game N: A|B ...`.
    pub forfeits: Vec<String>,
    /// How long A thought.
    pub thinking_a: ThinkingTime,
    /// How long B thought.
    pub thinking_b: ThinkingTime,
}

/// How long one side thought over a match (wall time from the question to the answer).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct ThinkingTime {
    /// Moves it chose (forced passes not counted).
    pub moves: usize,
    /// Seconds in all.
    pub total_seconds: f64,
    /// Seconds of its slowest move.
    pub slowest_seconds: f64,
    /// Empty squares at its slowest move.
    pub slowest_empties: u32,
    /// Moves it said came from its opening book.
    pub book_moves: usize,
}

impl ThinkingTime {
    /// One move of `seconds` asked with `empties` squares empty.
    fn one(seconds: f64, empties: u32) -> ThinkingTime {
        ThinkingTime {
            moves: 1,
            total_seconds: seconds,
            slowest_seconds: seconds,
            slowest_empties: empties,
            book_moves: 0,
        }
    }

    fn merge(&mut self, other: &ThinkingTime) {
        self.moves += other.moves;
        self.book_moves += other.book_moves;
        self.total_seconds += other.total_seconds;
        if other.slowest_seconds > self.slowest_seconds {
            self.slowest_seconds = other.slowest_seconds;
            self.slowest_empties = other.slowest_empties;
        }
    }
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
        p = p.play(Move::Square(crate::rules::bitboard::nth_square(m, k)));
    }
    p
}

/// Plies of the search that values an opening for `--balanced` ([`opening_value`]).
pub const BALANCE_DEPTH: u32 = 8;

/// An opening's value for the side to move, in hundredths of a disc: the learned evaluation
/// searched [`BALANCE_DEPTH`] plies by the engine's midgame search (MTD(f), no pruning by
/// ProbCut), how far from even `--balanced` measures.
pub fn opening_value(p: &Position) -> i32 {
    crate::search::deciders::mtdf_search(&mut crate::search::engine::engine_game(*p), BALANCE_DEPTH)
        .score
}

/// The openings of `pairs` pairs: positions after `plies` seeded random moves, all different
/// up to the board's symmetries, and with `within` only those valued within that many discs
/// of even ([`opening_value`]). Once no fresh one turns up in 2,000 draws (four plies have
/// only 60), the ones found are played again in order. Returns them and how many differ, or
/// an error when none qualifies.
pub fn distinct_openings(
    seed: u64,
    pairs: usize,
    plies: usize,
    within: Option<u32>,
) -> Result<(Vec<Position>, usize), String> {
    // Its own stream, apart from the pairs' tie-breaks (seeded from `seed` and the pair).
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x6f70_656e_696e_6773);
    let mut seen = std::collections::HashSet::new();
    let mut openings = Vec::with_capacity(pairs);
    let (patience, mut misses) = (2000, 0);
    while openings.len() < pairs && misses < patience {
        let p = random_opening(&mut rng, plies);
        let fresh = seen.insert(p.canonical());
        if fresh && within.is_none_or(|d| opening_value(&p).abs() <= 100 * d as i32) {
            openings.push(p);
            misses = 0;
        } else {
            misses += 1;
        }
    }
    let distinct = openings.len();
    if distinct == 0 {
        let bound = within.map_or(String::new(), |d| format!(" within {d} discs of even"));
        return Err(format!("no opening of {plies} plies{bound} found"));
    }
    for k in distinct..pairs {
        openings.push(openings[k % distinct]);
    }
    Ok((openings, distinct))
}

/// A side during one game.
enum Mover {
    Builtin(Player),
    Nboard(Box<NboardClient>),
}

impl Mover {
    fn start(c: &Contestant) -> Result<Mover, String> {
        match c {
            Contestant::Builtin(p) => Ok(Mover::Builtin(*p)),
            Contestant::Nboard(e) => NboardClient::start(e).map(|c| Mover::Nboard(Box::new(c))),
        }
    }
}

/// How a game ended: the final disc difference for black, or the colour that forfeited and
/// why.
pub type GameOutcome = Result<i32, (Color, String)>;

/// A game's outcome, how long each side thought (black's, then white's), and the game as GGF
/// (with every move's thinking time, and `RE` the result when it was played to the end).
pub type PlayedGame = (GameOutcome, [ThinkingTime; 2], GgfGame);

/// Plays one game from `start`; returns the final disc difference for black, or the side that
/// forfeited, with each side's thinking time. With `clock`, the game carries it as its time
/// control (`TI`) and every move its time, and a side whose moves take longer in all than its
/// clock allows loses on time. With `trace`, each turn of a fixed-depth decider also writes
/// its search tree there (`turnN.dot`/`.svg`); an error is a tree that could not be written.
pub fn play_game(
    start: Position,
    [black, white]: [&Contestant; 2],
    clock: Option<Clock>,
    rng: &mut SmallRng,
    trace: Option<&Path>,
) -> anyhow::Result<PlayedGame> {
    let mut thinking = [ThinkingTime::default(); 2];
    let mut game = GgfGame::new(start);
    if let Some(clock) = clock {
        game.tags.push(("TI".into(), clock.to_string()));
    }
    // The record: the game as the engines saw it, with each move's thinking time.
    let mut record = game.clone();
    record.tags.extend([
        ("PB".to_string(), black.name()),
        ("PW".to_string(), white.name()),
    ]);
    let mut black_mover = match Mover::start(black) {
        Ok(m) => m,
        Err(e) => return Ok((Err((Color::Black, e)), thinking, record)),
    };
    let mut white_mover = match Mover::start(white) {
        Ok(m) => m,
        Err(e) => return Ok((Err((Color::White, e)), thinking, record)),
    };
    let mut p = start;
    while status(&p) == Status::Ongoing {
        let side = p.side;
        let who = if side == Color::Black {
            &mut black_mover
        } else {
            &mut white_mover
        };
        let asked = std::time::Instant::now();
        let time_left = game.time_left(side);
        let mut from_book = false;
        let mv = if p.moves() == 0 {
            Move::Pass
        } else {
            match who {
                Mover::Builtin(player) => {
                    let mv = decide(&p, player.decider, player.heuristic, player.order, rng);
                    if let (Some(dir), Move::Square(_)) = (trace, mv) {
                        if let Some(written) =
                            trace_turn(dir, &p, player.decider, player.heuristic, player.order)
                        {
                            written?;
                        }
                    }
                    mv
                }
                Mover::Nboard(client) => match client.choose(&game, time_left) {
                    // The side has a square to play here, so a pass is illegal too.
                    Ok((mv, book)) if p.is_legal(mv) => {
                        from_book = book;
                        mv
                    }
                    Ok((mv, _)) => {
                        let why = format!("played {mv}, which is illegal");
                        return Ok((Err((side, why)), thinking, record));
                    }
                    Err(e) => return Ok((Err((side, e)), thinking, record)),
                },
            }
        };
        let seconds = asked.elapsed().as_secs_f64();
        let time = if p.moves() == 0 {
            0.0
        } else {
            let mut one = ThinkingTime::one(seconds, p.empties());
            one.book_moves = usize::from(from_book);
            thinking[side as usize].merge(&one);
            seconds
        };
        if let Some(left) = time_left.filter(|&left| time > left) {
            let why = format!("lost on time: {time:.2} s for a move with {left:.2} s left");
            return Ok((Err((side, why)), thinking, record));
        }
        game.push(mv, None, clock.map(|_| time))
            .expect("the harness plays only legal moves");
        record
            .push(mv, None, Some((time * 1000.0).round() / 1000.0))
            .expect("the harness plays only legal moves");
        p = p.play(mv);
    }
    let (b, w) = if p.side == Color::Black {
        (p.me, p.opp)
    } else {
        (p.opp, p.me)
    };
    let black_discs = b.count_ones() as i32 - w.count_ones() as i32;
    record.tags.push(("RE".into(), format!("{black_discs:+}")));
    Ok((Ok(black_discs), thinking, record))
}

/// One game's result for A: the disc difference, the forfeit message if there was one, A's
/// and B's thinking times, and the game's record.
type PairGame = (i32, Option<String>, [ThinkingTime; 2], GgfGame);

/// A's disc difference in game `number` with A playing `a_color`, a forfeit counting as a loss
/// by 64 discs for the side that forfeited.
fn for_a((outcome, [black, white], record): PlayedGame, a_color: Color, number: usize) -> PairGame {
    let (sign, times) = if a_color == Color::Black {
        (1, [black, white])
    } else {
        (-1, [white, black])
    };
    match outcome {
        Ok(d) => (sign * d, None, times, record),
        Err((color, why)) => {
            let who = if color == a_color { "A" } else { "B" };
            let d = if color == a_color { -64 } else { 64 };
            (
                d,
                Some(format!("game {number}: {who} forfeits: {why}")),
                times,
                record,
            )
        }
    }
}

/// Pair `k` of a match: A as black, then B as black, from `start`; returns the results for A.
/// Its games are numbered 2k+1 and 2k+2 (their trace folders).
fn play_pair(
    k: usize,
    start: Position,
    [a, b]: [&Contestant; 2],
    clock: Option<Clock>,
    rng: &mut SmallRng,
    trace: Option<&Path>,
    on_game: &impl Fn(),
) -> anyhow::Result<[PairGame; 2]> {
    let dir = |game: usize| trace.map(|t| t.join(format!("game{game}")));
    let g1 = play_game(start, [a, b], clock, rng, dir(2 * k + 1).as_deref())?;
    on_game();
    let g2 = play_game(start, [b, a], clock, rng, dir(2 * k + 2).as_deref())?;
    on_game();
    Ok([
        for_a(g1, Color::Black, 2 * k + 1),
        for_a(g2, Color::White, 2 * k + 2),
    ])
}

/// How a match is played: its length, openings, seed, threads, clock and trace folder.
#[derive(Debug, Clone)]
pub struct MatchOptions<'a> {
    /// Games (rounded up to pairs).
    pub games: usize,
    /// Random plies of each opening ([`distinct_openings`]; 8 by default).
    pub opening_plies: usize,
    /// Only openings within this many discs of even ([`opening_value`]); any by default.
    pub balanced: Option<u32>,
    /// Seed of the openings and tie-breaks.
    pub seed: u64,
    /// Threads.
    pub jobs: usize,
    /// Each side's time control for a game (see [`play_game`]).
    pub clock: Option<Clock>,
    /// Where game N's search trees go: `trace/gameN/` (games 1, 3, 5, ... have A as black).
    pub trace: Option<&'a Path>,
    /// Where the games go as GGF, one a line in the order played (A black in games 1, 3,
    /// 5, ...), each with the players (`PB`, `PW`), every move's thinking time and the result
    /// for black (`RE`; none for a forfeited game).
    pub record: Option<&'a Path>,
}

impl Default for MatchOptions<'_> {
    /// 100 games from any 8-ply openings, seed 0, one thread, no clock, nothing written.
    fn default() -> Self {
        MatchOptions {
            games: 100,
            opening_plies: 8,
            balanced: None,
            seed: 0,
            jobs: 1,
            clock: None,
            trace: None,
            record: None,
        }
    }
}

/// Plays a match between A and B as `options` say; `on_game` is called after each game (for a
/// progress bar). A tree that cannot be written to the trace folder ends the match with that
/// error.
pub fn run(
    a: &Contestant,
    b: &Contestant,
    options: &MatchOptions<'_>,
    on_game: impl Fn() + Sync,
) -> anyhow::Result<MatchReport> {
    let MatchOptions {
        games,
        opening_plies,
        balanced,
        seed,
        jobs,
        clock,
        trace,
        record,
    } = *options;
    let pairs = games.div_ceil(2);
    let (openings, distinct) =
        distinct_openings(seed, pairs, opening_plies, balanced).map_err(anyhow::Error::msg)?;
    let pairs = batch::parallel_map(
        pairs,
        jobs,
        || (),
        |_, k| {
            let mut rng =
                SmallRng::seed_from_u64(seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            play_pair(k, openings[k], [a, b], clock, &mut rng, trace, &on_game)
        },
    );
    let pairs = pairs
        .into_iter()
        .collect::<anyhow::Result<Vec<[PairGame; 2]>>>()?;
    let games: Vec<PairGame> = pairs.into_iter().flatten().collect();
    let forfeits: Vec<String> = games.iter().filter_map(|g| g.1.clone()).collect();
    if let Some(path) = record {
        let text: String = games.iter().map(|g| format!("{}\n", g.3)).collect();
        batch::write_atomic(path, text.as_bytes())?;
    }
    let (mut thinking_a, mut thinking_b) = (ThinkingTime::default(), ThinkingTime::default());
    for (_, _, [a, b], _) in &games {
        thinking_a.merge(a);
        thinking_b.merge(b);
    }
    let diffs: Vec<i32> = games.iter().map(|g| g.0).collect();
    let n = diffs.len().max(1);
    let points = |d: i32| 0.5 + 0.5 * f64::from(d.signum());
    let pair_rates: Vec<f64> = diffs
        .chunks(2)
        .map(|pair| pair.iter().map(|&d| points(d)).sum::<f64>() / pair.len() as f64)
        .collect();
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
        ci95: batch::paired_ci95(&pair_rates),
        openings: distinct,
        opening_plies,
        balanced,
        forfeits,
        thinking_a,
        thinking_b,
    })
}
