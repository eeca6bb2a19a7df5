//! Engine against engine, to measure what a search change is worth in games rather than in
//! nodes: pairs of games from the same seeded random start (a few random legal plies from the
//! opening position, or a random endgame), each engine playing red once, at a fixed time or
//! number of nodes per move, under the repetition rulings of [`crate::rules::repetition`]. Each
//! engine keeps its table from move to move, as in a GUI. A side
//! may also be an external engine speaking UCI (`uci:COMMAND`, a child process started for
//! each game): another build of this tool, to measure a change against the version before it,
//! or any UCI xiangqi engine.

use crate::board::piece::{Color, Kind};
use crate::board::square::Move;
use crate::eval::EvalKind;
use crate::rules::fen::START_FEN;
use crate::rules::movegen::{in_check, legal_moves};
use crate::rules::position::Position;
use crate::rules::repetition::GameLine;
use crate::search::config::SearchConfig;
use crate::search::engine::{decide, think};
use crate::search::mates::place;
use crate::search::search_position::SearchPosition;
use rand::{Rng, SeedableRng};
use search_core::{Deadline, Searcher, SmallRng, WIN};
use std::time::{Duration, Instant};

/// Plies after which an undecided game is scored a draw.
pub const MAX_PLIES: usize = 400;

/// Which search an engine of a match runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
pub enum Engine {
    /// The engine's selective search (`uci`'s).
    Selective,
    /// The same search with the piece-square evaluation (`uci --eval piece-square`, the
    /// engine's before the network): what `train-net`'s first games are played with.
    PieceSquare,
    /// The full-width search with table, killers, history and check extension (the engine
    /// before the selective search; `run` still chooses the course's answers with it).
    FullWidth,
}

/// Who plays one side of a match: a search of this tool or an external UCI engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contestant {
    /// One of this tool's searches.
    Builtin(Engine),
    /// An external engine.
    Uci(UciEngine),
}

/// An external UCI engine: the program and its arguments, the options sent after `uci`
/// (`setoption name NAME value VALUE`), and how it numbers ranks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UciEngine {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// `(name, value)` of each option, in order.
    pub options: Vec<(String, String)>,
    /// How its moves number the ranks.
    pub ranks: Ranks,
}

/// How a UCI engine numbers the ranks of its moves: this tool's (and ICCS's) 0..9 from red's
/// side, or 1..10 (Fairy-Stockfish's, so `h3e3` is this tool's `h2e2`), or found out when the
/// match starts ([`prepare_contestant`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ranks {
    /// Asked of the engine before the first game: its move from the start position is legal in
    /// one numbering only.
    #[default]
    Auto,
    /// Ranks 0..9.
    FromZero,
    /// Ranks 1..10.
    FromOne,
}

impl std::str::FromStr for Ranks {
    type Err = String;

    /// `auto`, `0` or `1`.
    fn from_str(s: &str) -> std::result::Result<Ranks, String> {
        match s {
            "auto" => Ok(Ranks::Auto),
            "0" => Ok(Ranks::FromZero),
            "1" => Ok(Ranks::FromOne),
            _ => Err(format!("ranks count from `0`, `1` or `auto`, not `{s}`")),
        }
    }
}

impl Ranks {
    /// `mv` as an engine numbering ranks this way writes it.
    ///
    /// ```
    /// use xiangqi_endgame::selfplay::Ranks;
    /// let mv = "h2e2".parse().unwrap();
    /// assert_eq!(Ranks::FromOne.write(mv), "h3e3");
    /// assert_eq!(Ranks::FromZero.write("b9c7".parse().unwrap()), "b9c7");
    /// assert_eq!(Ranks::FromOne.read("b10c8"), "b9c7".parse().ok());
    /// assert_eq!(Ranks::FromOne.read("b0c2"), None);
    /// assert_eq!(Ranks::FromOne.read(""), None);
    /// assert_eq!(Ranks::FromOne.read("é1a2"), None);
    /// ```
    pub fn write(self, mv: Move) -> String {
        let text = mv.to_string();
        match self {
            Ranks::FromOne => shift_ranks(&text, 1).unwrap_or(text),
            _ => text,
        }
    }

    /// The move an engine numbering ranks this way means by `text`, if it is one.
    pub fn read(self, text: &str) -> Option<Move> {
        match self {
            Ranks::FromOne => shift_ranks(text, -1)?.parse().ok(),
            _ => text.parse().ok(),
        }
    }
}

/// `text`, a move `<file><rank><file><rank>`, with both ranks moved by `by` (kept within 0..=10).
fn shift_ranks(text: &str, by: i32) -> Option<String> {
    // Whatever an engine wrote: only ASCII can be a move, and the slicing below needs it.
    if !text.is_ascii() || text.len() < 4 {
        return None;
    }
    let bytes = text.as_bytes();
    let split = 1 + bytes[1..].iter().position(|b| b.is_ascii_alphabetic())?;
    let (from, to) = text.split_at(split);
    let mut out = String::with_capacity(text.len());
    for square in [from, to] {
        let (file, rank) = square.split_at(1);
        if !file.chars().all(|c| ('a'..='i').contains(&c)) {
            return None;
        }
        let rank: i32 = rank.parse().ok()?;
        let shifted = rank + by;
        if !(0..=10).contains(&shifted) || rank.to_string().len() != square.len() - 1 {
            return None;
        }
        out.push_str(file);
        out.push_str(&shifted.to_string());
    }
    Some(out)
}

impl std::str::FromStr for Contestant {
    type Err = String;

    /// `selective`, `piece-square`, `full-width`, or `uci:COMMAND` (the command split at
    /// spaces; no options, ranks found out at the start).
    ///
    /// ```
    /// use xiangqi_endgame::selfplay::{Contestant, Engine};
    /// assert_eq!("selective".parse(), Ok(Contestant::Builtin(Engine::Selective)));
    /// let Ok(Contestant::Uci(engine)) = "uci:./old-build uci".parse() else { panic!() };
    /// assert_eq!(engine.command, ["./old-build", "uci"]);
    /// assert!("uci:".parse::<Contestant>().is_err());
    /// ```
    fn from_str(spec: &str) -> std::result::Result<Contestant, String> {
        if let Some(command) = spec.strip_prefix("uci:") {
            let command: Vec<String> = command.split_whitespace().map(String::from).collect();
            if command.is_empty() {
                return Err("a UCI engine needs a command, like uci:./pikafish".into());
            }
            return Ok(Contestant::Uci(UciEngine {
                command,
                options: Vec::new(),
                ranks: Ranks::Auto,
            }));
        }
        <Engine as clap::ValueEnum>::from_str(spec, true)
            .map(Contestant::Builtin)
            .map_err(|_| {
                format!(
                    "unknown engine `{spec}`: selective, piece-square, full-width or uci:COMMAND"
                )
            })
    }
}

impl std::fmt::Display for Contestant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contestant::Builtin(Engine::Selective) => write!(f, "selective"),
            Contestant::Builtin(Engine::PieceSquare) => write!(f, "piece-square"),
            Contestant::Builtin(Engine::FullWidth) => write!(f, "full-width"),
            Contestant::Uci(engine) => write!(f, "uci:{}", engine.command.join(" ")),
        }
    }
}

/// What each engine may spend on a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// A time per move (`go movetime`).
    Time(Duration),
    /// A number of nodes per move (`go nodes`): the games are the same on every machine and
    /// every run, as training data must be.
    Nodes(u64),
    /// A clock for each side (`go wtime btime winc binc`): `base` for the game plus `increment`
    /// after each move; a side whose clock runs out loses. The engines manage their time.
    Clock {
        /// Each side's time for the game.
        base: Duration,
        /// Added to the mover's clock after each of its moves.
        increment: Duration,
    },
}

impl Budget {
    /// The budget as a PGN `TimeControl` tag: `"10+0.1"` (seconds) for a clock, otherwise the
    /// budget per move.
    ///
    /// ```
    /// use xiangqi_endgame::selfplay::Budget;
    /// use std::time::Duration;
    /// let clock = Budget::Clock { base: Duration::from_secs(10), increment: Duration::from_millis(100) };
    /// assert_eq!(clock.time_control(), "10+0.1");
    /// assert_eq!(Budget::Time(Duration::from_millis(300)).time_control(), "300 ms per move");
    /// ```
    pub fn time_control(&self) -> String {
        match self {
            Budget::Clock { base, increment } => {
                format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            _ => format!("{self} per move"),
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Time(t) => write!(f, "{} ms", t.as_millis()),
            Budget::Nodes(n) => write!(f, "{n} nodes"),
            Budget::Clock { base, increment } => write!(
                f,
                "{} s + {} s a move",
                base.as_secs_f64(),
                increment.as_secs_f64()
            ),
        }
    }
}

/// Parses a clock `BASE+INCREMENT` in seconds (`"10+0.1"`, or `"60"` without an increment).
///
/// ```
/// use xiangqi_endgame::selfplay::{parse_clock, Budget};
/// use std::time::Duration;
/// assert_eq!(parse_clock("5+0.05"), Ok(Budget::Clock { base: Duration::from_secs(5), increment: Duration::from_millis(50) }));
/// assert!(parse_clock("5+x").is_err() && parse_clock("0").is_err());
/// ```
pub fn parse_clock(text: &str) -> std::result::Result<Budget, String> {
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e6)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| {
                format!("`{s}` is not a number of seconds (a clock is BASE+INCREMENT, say 10+0.1)")
            })
    };
    let (base, increment) = (seconds(base)?, seconds(increment)?);
    if base.is_zero() {
        return Err("a clock needs some time for the game".into());
    }
    Ok(Budget::Clock { base, increment })
}

/// What a player may spend on one move: the match's budget and, under a clock, red's and
/// black's time left.
#[derive(Debug, Clone, Copy)]
struct Allowance {
    budget: Budget,
    clocks: [Duration; 2],
}

/// How long an external engine may take to start (`uciok`, `readyok`) and, beyond its time,
/// to answer a move, before it forfeits the game.
const UCI_GRACE: Duration = Duration::from_secs(10);

/// Why a game under a clock ended when the side to move took longer than its clock held.
pub const LOST_ON_TIME: &str = "lost on time";

/// Why a game ended when a side checked perpetually (and lost by the rule).
pub const PERPETUAL_CHECK: &str = "perpetual check";

/// How much later than its time per move an answer may come before it counts as late.
pub const LATE_AFTER: Duration = Duration::from_millis(50);

/// An external engine during one game.
struct UciClient {
    process: batch::LineProcess,
    ranks: Ranks,
}

impl UciClient {
    /// Starts `engine`, sets its options and waits until it is ready for a new game.
    fn start(engine: &UciEngine) -> std::result::Result<UciClient, String> {
        let command = &engine.command;
        let mut cmd = std::process::Command::new(&command[0]);
        cmd.args(&command[1..]);
        let process = batch::LineProcess::spawn(cmd)
            .map_err(|e| format!("cannot start `{}`: {e}", command.join(" ")))?;
        let mut client = UciClient {
            process,
            ranks: engine.ranks,
        };
        client.send("uci")?;
        client.wait_for(UCI_GRACE, "uciok")?;
        for (name, value) in &engine.options {
            client.send(&format!("setoption name {name} value {value}"))?;
        }
        client.send("ucinewgame")?;
        client.send("isready")?;
        client.wait_for(UCI_GRACE, "readyok")?;
        Ok(client)
    }

    fn send(&mut self, line: &str) -> std::result::Result<(), String> {
        self.process
            .send(line)
            .map_err(|e| format!("the engine stopped reading: {e}"))
    }

    /// Reads lines until one whose first word is `word`; returns that line.
    fn wait_for(&mut self, timeout: Duration, word: &str) -> std::result::Result<String, String> {
        self.process
            .wait_for(Instant::now() + timeout, |line| {
                line.split_whitespace().next() == Some(word)
            })
            .map_err(|e| match e {
                batch::WaitError::Timeout => {
                    format!("no `{word}` within {} ms", timeout.as_millis())
                }
                batch::WaitError::Exited => format!("the engine exited before `{word}`"),
            })
    }

    /// The engine's move (as it wrote it) after `moves` from `start` (`startpos` or
    /// `fen FEN`) within `allowed`.
    fn choose(
        &mut self,
        start: &str,
        moves: &[Move],
        allowed: Allowance,
    ) -> std::result::Result<String, String> {
        let Allowance { budget, clocks } = allowed;
        let position = if moves.is_empty() {
            format!("position {start}")
        } else {
            let moves: Vec<String> = moves.iter().map(|&m| self.ranks.write(m)).collect();
            format!("position {start} moves {}", moves.join(" "))
        };
        self.send(&position)?;
        let (go, allowed) = match budget {
            Budget::Time(t) => (format!("go movetime {}", t.as_millis()), t + UCI_GRACE),
            // A node budget has no clock: the grace covers any sensible one.
            Budget::Nodes(n) => (format!("go nodes {n}"), 6 * UCI_GRACE),
            Budget::Clock { increment, .. } => (
                format!(
                    "go wtime {} btime {} winc {} binc {}",
                    clocks[0].as_millis(),
                    clocks[1].as_millis(),
                    increment.as_millis(),
                    increment.as_millis()
                ),
                clocks[0].max(clocks[1]) + UCI_GRACE,
            ),
        };
        self.send(&go)?;
        let line = self.wait_for(allowed, "bestmove")?;
        line.split_whitespace()
            .nth(1)
            .map(String::from)
            .ok_or_else(|| "`bestmove` without a move".to_string())
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        let _ = self.process.send("quit");
    }
}

/// One side's player during a game.
enum Player {
    Builtin(SearchConfig, Box<Searcher<SearchPosition>>),
    Uci(UciClient),
}

impl Player {
    fn start(contestant: &Contestant, budget: Budget) -> std::result::Result<Player, String> {
        Ok(match contestant {
            Contestant::Builtin(engine) => {
                let config = config_for(*engine, budget);
                let searcher = Box::new(searcher_for(&config));
                Player::Builtin(config, searcher)
            }
            Contestant::Uci(engine) => Player::Uci(UciClient::start(engine)?),
        })
    }

    /// This player's move in `pos` (reached by `record` from `start`, UCI's `startpos` or
    /// `fen FEN`), or why it has none.
    fn choose(
        &mut self,
        pos: &Position,
        line: &GameLine,
        start: &str,
        record: &[Move],
        legal: &[Move],
        allowed: Allowance,
    ) -> std::result::Result<(Move, Option<i32>), String> {
        let Allowance { budget, clocks } = allowed;
        match self {
            Player::Builtin(config, searcher) => {
                let mut game = SearchPosition::with_line(pos.clone(), config.eval, line.clone());
                let mut options = config.iterative_options();
                match budget {
                    Budget::Nodes(n) => options.node_limit = Some(n),
                    Budget::Clock { increment, .. } => {
                        let left = clocks[pos.side() as usize];
                        let (soft, hard) = crate::search::clock::clock_budget(
                            left,
                            increment,
                            None,
                            Duration::ZERO,
                        );
                        options.deadline = Deadline::after(hard);
                        options.soft_deadline = Deadline::after(soft);
                    }
                    Budget::Time(_) => {}
                }
                let d = think(&mut game, searcher.as_mut(), config, &options, |_| {});
                Ok((d.mv.unwrap_or(legal[0]), Some(d.score)))
            }
            Player::Uci(client) => {
                let text = client.choose(start, record, allowed)?;
                let ranks = client.ranks;
                ranks
                    .read(&text)
                    .filter(|m| legal.contains(m))
                    .map(|m| (m, None))
                    .ok_or_else(|| illegal_move(&text, ranks, legal))
            }
        }
    }
}

/// Why `text` is no move here, with a hint when the other rank numbering would make it one.
fn illegal_move(text: &str, ranks: Ranks, legal: &[Move]) -> String {
    let other = match ranks {
        Ranks::FromOne => Ranks::FromZero,
        _ => Ranks::FromOne,
    };
    match other.read(text).filter(|m| legal.contains(m)) {
        Some(_) => {
            let flag = if other == Ranks::FromOne { "1" } else { "0" };
            format!("illegal move `{text}` (legal if its ranks count from {flag}: --a-ranks/--b-ranks {flag})")
        }
        None => format!("illegal move `{text}`"),
    }
}

/// Checks that `contestant` can play (an external engine starts, takes its options and is
/// ready), so that a match with a wrong command fails at once rather than forfeiting every
/// game; and finds out how an engine with [`Ranks::Auto`] numbers ranks, from its move in the
/// start position (where no move is legal in both numberings). An engine whose answer is legal
/// in neither, or that gives none, is taken to count from 0: its games then show why.
pub fn prepare_contestant(contestant: &mut Contestant) -> std::result::Result<(), String> {
    let Contestant::Uci(engine) = contestant else {
        return Ok(());
    };
    let mut client = UciClient::start(engine)?;
    if engine.ranks != Ranks::Auto {
        return Ok(());
    }
    client.ranks = Ranks::FromZero;
    let answer = client.choose(
        "startpos",
        &[],
        Allowance {
            budget: Budget::Time(Duration::from_millis(50)),
            clocks: [Duration::ZERO; 2],
        },
    );
    let start: Position = START_FEN.parse().expect("start position");
    let mut legal = Vec::new();
    legal_moves(&start, &mut legal);
    let legal_as = |r: Ranks| {
        answer
            .as_ref()
            .is_ok_and(|text| r.read(text).is_some_and(|m| legal.contains(&m)))
    };
    engine.ranks = if !legal_as(Ranks::FromZero) && legal_as(Ranks::FromOne) {
        Ranks::FromOne
    } else {
        Ranks::FromZero
    };
    Ok(())
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
    /// Why the game ended (for a forfeit, the engine's error).
    pub reason: String,
    /// Whether the loser forfeited (an external engine that crashed, hung or answered
    /// nonsense) rather than lost over the board.
    pub forfeit: bool,
    /// The position the game started from (FEN).
    pub start: String,
    /// The moves from `start`, opening included.
    pub moves: Vec<String>,
    /// How long red (index 0) and black (1) took to answer (the opening's moves not counted).
    #[serde(skip)]
    pub times: [batch::AnswerTimes; 2],
    /// Per move of `moves`, the score of the search that chose it, from the mover's view
    /// (`None` for the opening's moves and external engines' moves).
    #[serde(skip)]
    pub scores: Vec<Option<i32>>,
}

/// Where the games of a match start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Starts {
    /// The opening position and this many random legal plies.
    Openings(usize),
    /// The opening position and the moves of one of these lines, pair by pair (the first pair
    /// the first line; once all are played, again from the first): openings people play, taken
    /// from game records ([`record_openings`]).
    Lines(std::sync::Arc<Vec<Vec<Move>>>),
    /// A balanced random endgame ([`balanced_endgame`]): what endgame knowledge is worth.
    Endgames,
    /// An uneven random endgame ([`mixed_endgame`]): training data.
    MixedEndgames,
}

impl Starts {
    /// The start position and opening moves of pair `k` of a match.
    pub fn draw(&self, rng: &mut SmallRng, k: usize) -> (Position, Vec<Move>) {
        match self {
            Starts::Openings(plies) => (
                START_FEN.parse().expect("start position"),
                random_opening(rng, *plies),
            ),
            Starts::Lines(lines) => (
                START_FEN.parse().expect("start position"),
                lines
                    .get(k % lines.len().max(1))
                    .cloned()
                    .unwrap_or_default(),
            ),
            Starts::Endgames => (balanced_endgame(rng), Vec::new()),
            Starts::MixedEndgames => (mixed_endgame(rng), Vec::new()),
        }
    }
}

/// A random endgame in which both sides have the same material (a king, up to two advisors
/// and two elephants, one to three of chariot, horse and cannon, up to three pawns), placed at
/// random on squares each piece may reach, red to move, neither king in check, and a search of
/// five plies scoring it within a pawn of even: a start where the result depends on how the
/// engines play the endgame, not on a piece left hanging.
///
/// ```
/// use rand::SeedableRng;
/// use xiangqi_endgame::piece::{Color, Kind};
/// use xiangqi_endgame::selfplay::balanced_endgame;
/// let p = balanced_endgame(&mut search_core::SmallRng::seed_from_u64(5));
/// for kind in [Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Pawn, Kind::Advisor] {
///     assert_eq!(p.count_of(Color::Red, kind), p.count_of(Color::Black, kind));
/// }
/// ```
pub fn balanced_endgame(rng: &mut SmallRng) -> Position {
    // The course evaluation judges "even", whatever the engine's own evaluation.
    let quick = SearchConfig {
        depth: 5,
        time: None,
        tt_megabytes: 1,
        eval: EvalKind::Course,
        ..SearchConfig::engine()
    };
    loop {
        let material = endgame_material(rng);
        let Some(pos) = place_endgame(rng, &material, &material) else {
            continue;
        };
        let d = decide(&pos, &quick, |_| {});
        if d.mv.is_some() && d.mate_in.is_none() && d.score.abs() <= 100 {
            return pos;
        }
    }
}

/// A random endgame whose two sides draw their material each on its own (as in
/// [`balanced_endgame`], but uneven and with no search to even it out): games from such
/// starts have decisive results that say what each piece is worth at that stage, the data an
/// evaluation is trained on.
///
/// ```
/// use rand::SeedableRng;
/// let p = xiangqi_endgame::selfplay::mixed_endgame(&mut search_core::SmallRng::seed_from_u64(5));
/// assert!(!xiangqi_endgame::movegen::in_check(&p));
/// ```
pub fn mixed_endgame(rng: &mut SmallRng) -> Position {
    loop {
        let red = endgame_material(rng);
        let black = endgame_material(rng);
        if let Some(pos) = place_endgame(rng, &red, &black) {
            return pos;
        }
    }
}

/// One side's endgame material: a king, up to two advisors, two elephants and three pawns, and
/// one to three of chariot, horse and cannon.
fn endgame_material(rng: &mut SmallRng) -> Vec<Kind> {
    let mut material = vec![Kind::King];
    for (kind, most) in [(Kind::Advisor, 2), (Kind::Elephant, 2), (Kind::Pawn, 3)] {
        material.extend(std::iter::repeat_n(kind, rng.random_range(0..=most)));
    }
    let attackers = [Kind::Chariot, Kind::Horse, Kind::Cannon];
    for _ in 0..rng.random_range(1..=3) {
        material.push(attackers[rng.random_range(0..attackers.len())]);
    }
    material
}

/// `red` and `black` placed at random on squares each piece may reach, red to move; `None`
/// when a piece found no square, or the position breaks the FEN reader's rules (one king each
/// in its palace, the side not to move not in check) or has red in check.
fn place_endgame(rng: &mut SmallRng, red: &[Kind], black: &[Kind]) -> Option<Position> {
    let mut pos = Position::empty(Color::Red);
    let mut complete = true;
    for (color, material) in [(Color::Red, red), (Color::Black, black)] {
        for &kind in material {
            // Every piece is tried, placed or not, so the random draws stay as they were.
            complete &= place(&mut pos, color, kind, rng);
        }
    }
    let pos = pos.to_string().parse::<Position>().ok()?;
    (complete && !in_check(&pos)).then_some(pos)
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

/// The settings of `engine` within `budget` per move.
pub fn config_for(engine: Engine, budget: Budget) -> SearchConfig {
    SearchConfig {
        time: match budget {
            Budget::Time(t) => Some(t),
            Budget::Nodes(_) | Budget::Clock { .. } => None,
        },
        selective: engine != Engine::FullWidth,
        // The full-width engine is `run`'s, with the course evaluation.
        eval: match engine {
            Engine::Selective => SearchConfig::engine().eval,
            Engine::PieceSquare => EvalKind::PieceSquare,
            Engine::FullWidth => EvalKind::Course,
        },
        ..SearchConfig::engine()
    }
}

/// A searcher for `config`'s search, with a table of 16 MiB.
pub fn searcher_for(config: &SearchConfig) -> Searcher<SearchPosition> {
    let mut s = Searcher::new(16);
    s.options = config.search_options();
    s
}

/// Plays one game from `start` and `opening` with `red` and `black` within `budget` per move,
/// timing every answer. An external engine that cannot start, answers too late or plays an
/// illegal move loses the game.
pub fn play_game(
    start: &Position,
    opening: &[Move],
    red: &Contestant,
    black: &Contestant,
    budget: Budget,
) -> GameRecord {
    let mut record = Vec::new();
    let mut times = [batch::AnswerTimes::default(); 2];
    let mut scores = Vec::new();
    let (result, reason, forfeit) = play_moves(
        start,
        opening,
        [red, black],
        budget,
        &mut record,
        &mut times,
        &mut scores,
    );
    GameRecord {
        result,
        reason,
        forfeit,
        start: start.to_string(),
        moves: record.iter().map(|m| m.to_string()).collect(),
        times,
        scores,
    }
}

/// The winner when `side` loses.
/// The referee's ruling on the position `line` ends in (`pos`, reached by a move of the game):
/// the side that checked perpetually loses, any other repetition or the natural limit draws,
/// each with its reason; `None` while play goes on. (The ruling is for the side to move.)
pub fn ruled_ending(line: &GameLine, pos: &Position) -> Option<(Result, &'static str)> {
    match line.ruling(0, || in_check(pos))? {
        WIN => Some((loss_of(pos.side().opposite()), PERPETUAL_CHECK)),
        v if v == -WIN => Some((loss_of(pos.side()), PERPETUAL_CHECK)),
        _ => Some((Result::Draw, "repetition or natural limit")),
    }
}

fn loss_of(side: Color) -> Result {
    if side == Color::Red {
        Result::BlackWins
    } else {
        Result::RedWins
    }
}

/// The moves of one game into `record`, each side's answer times into `times` and each move's
/// search score into `scores`: the result, why, and whether it was a forfeit.
fn play_moves(
    start: &Position,
    opening: &[Move],
    contestants: [&Contestant; 2],
    budget: Budget,
    record: &mut Vec<Move>,
    times: &mut [batch::AnswerTimes; 2],
    scores: &mut Vec<Option<i32>>,
) -> (Result, String, bool) {
    let mut pos = start.clone();
    let start_fen = start.to_string();
    let uci_start = if start_fen == START_FEN {
        "startpos".to_string()
    } else {
        format!("fen {start_fen}")
    };
    let forfeit = |side: Color, why: String| {
        let reason = format!("{side:?} forfeits: {why}").to_lowercase();
        (loss_of(side), reason, true)
    };
    let over = |result: Result, reason: &str| (result, reason.to_string(), false);
    let mut players = Vec::with_capacity(2);
    for (color, contestant) in [Color::Red, Color::Black].into_iter().zip(contestants) {
        match Player::start(contestant, budget) {
            Ok(p) => players.push(p),
            Err(why) => return forfeit(color, why),
        }
    }
    let late_after = match budget {
        Budget::Time(t) => Some(t + LATE_AFTER),
        Budget::Nodes(_) | Budget::Clock { .. } => None,
    };
    let mut clocks = match budget {
        Budget::Clock { base, .. } => [base; 2],
        _ => [Duration::ZERO; 2],
    };
    let mut line = GameLine::new(&pos);
    let mut legal = Vec::new();
    let mut planned = opening.iter();
    loop {
        legal.clear();
        legal_moves(&pos, &mut legal);
        let side = pos.side();
        if legal.is_empty() {
            return over(loss_of(side), "no legal move");
        }
        if record.len() >= MAX_PLIES {
            return over(Result::Draw, "move limit");
        }
        let (mv, score) = match planned.next() {
            Some(&m) => (m, None),
            None => {
                let asked = Instant::now();
                let allowed = Allowance { budget, clocks };
                let answer =
                    players[side as usize].choose(&pos, &line, &uci_start, record, &legal, allowed);
                let took = asked.elapsed();
                times[side as usize].add(took, late_after);
                if let Budget::Clock { increment, .. } = budget {
                    let clock = &mut clocks[side as usize];
                    if took > *clock {
                        return over(loss_of(side), LOST_ON_TIME);
                    }
                    *clock = *clock - took + increment;
                }
                match answer {
                    Ok(m) => m,
                    Err(why) => return forfeit(side, why),
                }
            }
        };
        let captured = pos.at(mv.to).is_some();
        pos.make(mv);
        line.record(&pos, captured);
        record.push(mv);
        scores.push(score);
        if let Some((result, why)) = ruled_ending(&line, &pos) {
            return over(result, why);
        }
    }
}

/// One game as a PGN-like record in ICCS coordinates (files a..i, ranks 0..9 from red's side):
/// the tags `Event`, `Round`, `Red`, `Black`, `Result`, `Termination`, `TimeControl`, `FEN`
/// (when the game did not start from the opening position) and `Format "ICCS"`, then the
/// numbered moves and the result.
///
/// ```
/// use xiangqi_endgame::selfplay::{play_game, pgn, Budget, Engine, Contestant};
/// let start = xiangqi_endgame::fen::START_FEN.parse().unwrap();
/// let opening = ["h2e2".parse().unwrap(), "h9g7".parse().unwrap()];
/// let engine = Contestant::Builtin(Engine::Selective);
/// let g = play_game(&start, &opening, &engine, &engine, Budget::Nodes(200));
/// let text = pgn(&g, 1, "selective", "selective", Budget::Nodes(200));
/// assert!(text.contains("[Red \"selective\"]") && text.contains("1. h2e2 h9g7"));
/// ```
pub fn pgn(game: &GameRecord, round: usize, red: &str, black: &str, budget: Budget) -> String {
    let result = match game.result {
        Result::RedWins => "1-0",
        Result::BlackWins => "0-1",
        Result::Draw => "1/2-1/2",
    };
    let quoted = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut text = format!(
        "[Event \"xiangqi-endgame match\"]\n[Round \"{round}\"]\n[Red \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n[Termination \"{}\"]\n[TimeControl \"{}\"]\n",
        quoted(red),
        quoted(black),
        quoted(&game.reason),
        budget.time_control()
    );
    if game.start != START_FEN {
        text.push_str(&format!("[FEN \"{}\"]\n", game.start));
    }
    text.push_str("[Format \"ICCS\"]\n\n");
    // Black may move first from an endgame start: its move then follows "1. ...".
    let black_first = game.start.split_whitespace().nth(1) == Some("b");
    let mut moves = String::new();
    for (i, m) in game.moves.iter().enumerate() {
        let ply = i + usize::from(black_first);
        if ply % 2 == 0 {
            moves.push_str(&format!("{}. ", ply / 2 + 1));
        } else if i == 0 {
            moves.push_str("1. ... ");
        }
        moves.push_str(m);
        moves.push(' ');
    }
    moves.push_str(result);
    // Lines of at most 80 characters, broken between moves.
    let mut width = 0;
    for word in moves.split(' ') {
        if width > 0 && width + 1 + word.len() > 80 {
            text.push('\n');
            width = 0;
        } else if width > 0 {
            text.push(' ');
            width += 1;
        }
        text.push_str(word);
        width += word.len();
    }
    text.push_str("\n\n");
    text
}

/// Openings of `plies` (a range: each game's length drawn from it) moves taken from `games`
/// (the games that start from the usual position and are long enough), each position reached
/// kept once, in an order shuffled by `seed`: what [`Starts::Lines`] plays from.
///
/// ```
/// use xiangqi_endgame::play::selfplay::record_openings;
/// use xiangqi_endgame::notation::pgn::read_games;
/// let games: Vec<_> = read_games("1. h2e2 h9g7 2. h0g2 i9h9 *\n\n1. h2e2 h9g7 2. h0g2 c6c5 *\n")
///     .into_iter().map(Result::unwrap).collect();
/// assert_eq!(record_openings(&games, 3..=3, 1).len(), 1); // one position after 3 plies
/// assert_eq!(record_openings(&games, 4..=4, 1).len(), 2);
/// ```
pub fn record_openings(
    games: &[crate::notation::pgn::Game],
    plies: std::ops::RangeInclusive<usize>,
    seed: u64,
) -> Vec<Vec<Move>> {
    let start: Position = START_FEN.parse().expect("start position");
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut lines = Vec::new();
    for g in games {
        let n = rng.random_range(plies.clone());
        if g.start != start || g.moves.len() < n {
            continue;
        }
        let line = g.moves[..n].to_vec();
        let mut p = start.clone();
        for &m in &line {
            p.make(m);
        }
        if seen.insert(p.hash()) {
            lines.push(line);
        }
    }
    // Fisher-Yates with the seeded generator: every seed its own order.
    for i in (1..lines.len()).rev() {
        let j = rng.random_range(0..=i);
        lines.swap(i, j);
    }
    lines
}

/// Plays `pairs` pairs of games between `a` and `b` from `starts` drawn from `seed`; `on_game`
/// gets each finished game (A's side first in each pair). Returns the score from A's side.
pub fn run_match(
    a: &Contestant,
    b: &Contestant,
    pairs: usize,
    budget: Budget,
    seed: u64,
    starts: &Starts,
    mut on_game: impl FnMut(&GameRecord, bool),
) -> MatchTally {
    let mut tally = MatchTally::default();
    for k in 0..pairs {
        let mut rng =
            SmallRng::seed_from_u64(seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let (start, opening) = starts.draw(&mut rng, k);
        for a_is_red in [true, false] {
            let (red, black) = if a_is_red { (a, b) } else { (b, a) };
            let g = play_game(&start, &opening, red, black, budget);
            tally.add(&g, a_is_red);
            on_game(&g, a_is_red);
        }
    }
    tally
}

/// A match's score from A's side twice: by the rules, and with every game decided by the
/// perpetual-check rule counted as a draw. The second is the fair figure against an engine
/// that does not know the rule (Fairy-Stockfish 11.1 checks perpetually where it sees a
/// repetition's draw, and loses by the rule a game it would have drawn under others).
///
/// ```
/// use xiangqi_endgame::play::selfplay::{GameRecord, MatchTally, Result, PERPETUAL_CHECK};
/// let game = |result, reason: &str| GameRecord {
///     result,
///     reason: reason.to_string(),
///     forfeit: false,
///     start: String::new(),
///     moves: Vec::new(),
///     times: Default::default(),
///     scores: Vec::new(),
/// };
/// let mut tally = MatchTally::default();
/// tally.add(&game(Result::RedWins, "no legal move"), true); // A mates with red
/// tally.add(&game(Result::RedWins, PERPETUAL_CHECK), false); // A, black, checked forever
/// tally.add(&game(Result::BlackWins, PERPETUAL_CHECK), false); // B, red, checked forever
/// tally.add(&game(Result::Draw, "repetition or natural limit"), false);
/// let s = tally.score;
/// assert_eq!((s.wins, s.draws, s.losses), (2, 1, 1));
/// let d = tally.perpetual_as_draws;
/// assert_eq!((d.wins, d.draws, d.losses), (1, 3, 0));
/// assert_eq!((tally.a_won_by_perpetual(), tally.a_lost_by_perpetual()), (1, 1));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatchTally {
    /// The score by the rules the games were refereed by.
    pub score: batch::MatchScore,
    /// The score with the perpetual-check decisions counted as draws.
    pub perpetual_as_draws: batch::MatchScore,
}

impl MatchTally {
    /// Games A won because B checked perpetually (the wins the second score counts as draws).
    pub fn a_won_by_perpetual(&self) -> usize {
        self.score.wins - self.perpetual_as_draws.wins
    }

    /// Games A lost because it checked perpetually.
    pub fn a_lost_by_perpetual(&self) -> usize {
        self.score.losses - self.perpetual_as_draws.losses
    }

    /// Counts game `g`, in which A had red when `a_is_red`.
    pub fn add(&mut self, g: &GameRecord, a_is_red: bool) {
        let a_wins = match g.result {
            Result::Draw => None,
            Result::RedWins => Some(a_is_red),
            Result::BlackWins => Some(!a_is_red),
        };
        let count = |score: &mut batch::MatchScore, a_wins: Option<bool>| match a_wins {
            Some(true) => score.wins += 1,
            Some(false) => score.losses += 1,
            None => score.draws += 1,
        };
        count(&mut self.score, a_wins);
        let by_perpetual = g.reason == PERPETUAL_CHECK;
        count(
            &mut self.perpetual_as_draws,
            if by_perpetual { None } else { a_wins },
        );
    }
}
