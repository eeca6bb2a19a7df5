//! Learning the network of [`crate::eval::nnue`] from the engine's own games. The engine (by
//! default with the piece-square evaluation, the engine before the network) plays itself
//! from seeded random openings at a fixed number of nodes per move (so the games are
//! the same on every machine and for any number of threads); every quiet position (not in
//! check, the move chosen not a capture, no mate in sight) is labelled by the score of the
//! search that moved from it, through the logistic curve the piece-square evaluation fits to
//! the games' results, blended with the game's result. The float network (the accumulator's
//! weights and the output's) is fitted to the labels by Adam on mini-batches in a seeded
//! order, on top of the piece-square evaluation (its output is a correction, so a network
//! that learned nothing is the piece-square evaluation); every tenth game is held back, and
//! the epoch with the least held-back error is kept and written quantised.

use crate::board::piece::Color;
use crate::board::square::{Move, Square};
use crate::eval::nnue::{input, Network, HIDDEN, INPUTS, OUTPUT_SCALE, QA, QB};
use crate::eval::PHASE_FULL;
use crate::eval::{endgame_phase, mating_material, mating_material_factor, piece_square_raw};
use crate::learn::train::{fit_scale, logistic};
use crate::play::selfplay::{play_game, random_opening, Budget, Contestant, Engine, GameRecord};
use crate::rules::fen::START_FEN;
use crate::rules::movegen::in_check;
use crate::rules::position::Position;
use batch::InputError;
use rand::{Rng, SeedableRng};
use search_core::SmallRng;

/// How to make the data and fit the network.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NetOptions {
    /// Self-play games.
    pub games: usize,
    /// Nodes per move of the self-play searches.
    pub nodes: u64,
    /// Random plies of every opening.
    pub opening_plies: usize,
    /// The engine that plays both sides.
    pub play: Engine,
    /// Seed of the openings, the initial weights and the order of the samples.
    pub seed: u64,
    /// Threads for the games (the data does not depend on it).
    pub threads: usize,
    /// Passes over the data.
    pub epochs: usize,
    /// The game result's share of each label (the search's is the rest).
    pub result_weight: f64,
    /// No progress bar.
    pub quiet: bool,
    /// The self-play games start from openings of recorded games (8 to 12 plies of
    /// [`NetOptions::records`]' games) instead of random plies.
    pub record_openings: bool,
    /// Recorded games (master games) whose positions are labelled too ([`record_positions`]).
    pub records: Option<RecordOptions>,
}

/// How the positions of recorded games are labelled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecordOptions {
    /// Nodes of the search that labels each position.
    pub nodes: u64,
    /// Every this many quiet positions of a game are kept (1: all).
    pub every: usize,
    /// The games read (for the data's flags: a different collection makes different data).
    pub games: usize,
}

/// A labelled position: the position, the score of the search that moved from it and the
/// game's result (both from red's view), and the game's number.
#[derive(Debug, Clone, PartialEq)]
pub struct Labelled {
    /// The position.
    pub pos: Position,
    /// The search's score, red's view.
    pub score: i32,
    /// Red's result: 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
    /// The game it comes from.
    pub game: usize,
}

/// Search scores beyond this (mates in sight) make no label.
const SCORE_CAP: i32 = 3000;
/// Samples per step of Adam, its step size, and the weight decay (each step shrinks every
/// weight by `STEP * DECAY` of itself). On 351,512 positions of 4,000 games, the held-back
/// error against the search labels went from 0.00299 (the piece-square evaluation) to 0.00253
/// without decay (the best epoch the third of twelve: the network learns the games), 0.00252
/// at decay 0.1, 0.00242 at 1, 0.00248 at 3 and 0.00264 at 10; a step of 0.0003 without decay
/// gave 0.00249.
const BATCH: usize = 1024;
const STEP: f32 = 0.001;
const DECAY: f32 = 1.0;
/// The accumulator's float weights stay within this, so that 32 pieces and the bias never
/// overflow 16 bits once quantised.
const MAX_INPUT_WEIGHT: f32 = 32_000.0 / (33.0 * QA as f32);
/// The output's float weights stay within 16 bits once quantised.
const MAX_OUTPUT_WEIGHT: f32 = 32_000.0 / QB as f32;

/// Plays `options.games` self-play games and returns their quiet positions, labelled; their
/// openings are random plies, or with [`NetOptions::record_openings`] those of `records`.
pub fn self_play_positions(
    options: &NetOptions,
    records: &[crate::notation::pgn::Game],
) -> Vec<Labelled> {
    let lines = if options.record_openings {
        crate::play::selfplay::record_openings(records, 8..=12, options.seed)
    } else {
        Vec::new()
    };
    let bar = batch::progress_bar(options.games as u64, "games played", options.quiet);
    let engine = Contestant::Builtin(options.play);
    let start: Position = START_FEN.parse().expect("the start FEN");
    let games = batch::parallel_map(
        options.games,
        options.threads,
        || (),
        |_, g| {
            let mut rng = SmallRng::seed_from_u64(
                options.seed ^ (g as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            );
            let opening = if lines.is_empty() {
                random_opening(&mut rng, options.opening_plies)
            } else {
                lines[g % lines.len()].clone()
            };
            let record = play_game(
                &start,
                &opening,
                &engine,
                &engine,
                Budget::Nodes(options.nodes),
            );
            bar.inc(1);
            quiet_labelled(&start, &record, g)
        },
    );
    bar.finish_and_clear();
    games.into_iter().flatten().collect()
}

/// The quiet positions of one game with their search scores.
fn quiet_labelled(start: &Position, game: &GameRecord, number: usize) -> Vec<Labelled> {
    let result = match game.result {
        crate::play::selfplay::Result::RedWins => 1.0,
        crate::play::selfplay::Result::BlackWins => 0.0,
        crate::play::selfplay::Result::Draw => 0.5,
    };
    let mut pos = start.clone();
    let mut out = Vec::new();
    for (text, score) in game.moves.iter().zip(&game.scores) {
        let mv: Move = text.parse().expect("a move the game record wrote");
        if let Some(s) = *score {
            if s.abs() < SCORE_CAP && pos.at(mv.to).is_none() && !in_check(&pos) {
                let fresh = pos.to_string().parse().expect("a FEN of ours");
                let red = if pos.side() == Color::Red { s } else { -s };
                out.push(Labelled {
                    pos: fresh,
                    score: red,
                    result,
                    game: number,
                });
            }
        }
        pos.make(mv);
    }
    out
}

impl NetOptions {
    /// The options that decide the self-play data, as `train-net` flags.
    pub fn data_flags(&self) -> String {
        let mut flags = format!(
            "--games {} --nodes {} --opening-plies {} --play {} --seed {}",
            self.games,
            self.nodes,
            self.opening_plies,
            Contestant::Builtin(self.play),
            self.seed
        );
        if self.record_openings {
            flags += " --record-openings";
        }
        if let Some(r) = self.records {
            flags += &format!(
                " --from-pgn ({} games) --label-nodes {} --every {}",
                r.games, r.nodes, r.every
            );
        }
        flags
    }
}

/// The quiet positions of recorded games (every `every`-th of each game: not in check, the move
/// played not a capture) searched for `nodes` nodes by the engine `play` (the search sees the
/// game's line before the position, for its repetition rulings), labelled by that score and
/// the game's recorded result. Games without a result are left out. Game `i` is numbered
/// `first + i` (the tenth of the numbers are held back); `progress` is called after each game.
pub fn record_positions(
    games: &[crate::notation::pgn::Game],
    options: &RecordOptions,
    play: Engine,
    threads: usize,
    first: usize,
    progress: &(dyn Fn() + Sync),
) -> Vec<Labelled> {
    use crate::search::engine::think;
    use crate::search::search_position::SearchPosition;
    let config = crate::play::selfplay::config_for(play, Budget::Nodes(options.nodes));
    batch::parallel_map(
        games.len(),
        threads,
        || crate::play::selfplay::searcher_for(&config),
        |searcher, i| {
            let g = &games[i];
            let mut out = Vec::new();
            if let Some(red) = g.red_result() {
                let result = (f64::from(red) + 1.0) / 2.0;
                let mut pos = g.start.clone();
                let mut line = crate::rules::repetition::GameLine::new(&pos);
                let mut quiet = 0usize;
                for &mv in &g.moves {
                    let captured = pos.at(mv.to).is_some();
                    if !captured && !in_check(&pos) {
                        quiet += 1;
                        if quiet.is_multiple_of(options.every.max(1)) {
                            let mut game =
                                SearchPosition::with_line(pos.clone(), config.eval, line.clone());
                            let mut iterative = config.iterative_options();
                            iterative.node_limit = Some(options.nodes);
                            let d = think(&mut game, searcher, &config, &iterative, |_| {});
                            if d.score.abs() < SCORE_CAP {
                                let score = if pos.side() == Color::Red {
                                    d.score
                                } else {
                                    -d.score
                                };
                                out.push(Labelled {
                                    pos: pos.to_string().parse().expect("a FEN of ours"),
                                    score,
                                    result,
                                    game: first + i,
                                });
                            }
                        }
                    }
                    pos.make(mv);
                    line.record(&pos, captured);
                }
            }
            progress();
            out
        },
    )
    .into_iter()
    .flatten()
    .collect()
}

/// The positions as text lines, `FEN;score;result;game`, after a `# ` line with the options
/// that made them.
pub fn positions_to_text(positions: &[Labelled], options: &NetOptions) -> String {
    let mut text = format!("# {}\n", options.data_flags());
    for l in positions {
        text.push_str(&format!("{};{};{};{}\n", l.pos, l.score, l.result, l.game));
    }
    text
}

/// Reads what [`positions_to_text`] wrote, and the options of its `# ` line; an error names
/// the line.
///
/// ```
/// use xiangqi_endgame::selfplay::Engine;
/// use xiangqi_endgame::train_net::{positions_from_text, positions_to_text, NetOptions};
/// let text = "# --games 1 --nodes 500 --opening-plies 8 --play piece-square --seed 1\n4k4/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1;512;1;0\n";
/// let (flags, read) = positions_from_text(text).unwrap();
/// assert_eq!(flags, "--games 1 --nodes 500 --opening-plies 8 --play piece-square --seed 1");
/// let options = NetOptions {
///     games: 1, nodes: 500, opening_plies: 8, play: Engine::PieceSquare, seed: 1, threads: 1,
///     epochs: 1,
///     result_weight: 0.25, quiet: true, record_openings: false, records: None,
/// };
/// assert_eq!(positions_to_text(&read, &options), text);
/// assert!(positions_from_text("4k4/9/9/9/9/9/9/9/4R4/4K4 b;x;1;0\n").is_err());
/// ```
pub fn positions_from_text(text: &str) -> Result<(String, Vec<Labelled>), InputError> {
    let flags = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# "))
        .unwrap_or_default()
        .trim()
        .to_string();
    let positions = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, line)| {
            let err = |m: String| InputError::at(i + 1, m);
            let fields: Vec<&str> = line.split(';').collect();
            let [fen, score, result, game] = fields[..] else {
                return Err(err(format!(
                    "expected `FEN;score;result;game`, found `{line}`"
                )));
            };
            let number = |s: &str, what: &str| {
                s.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| err(format!("the {what} `{s}` is not a number")))
            };
            Ok(Labelled {
                pos: fen.parse().map_err(|e: InputError| err(e.message))?,
                score: number(score, "score")? as i32,
                result: number(result, "result")?,
                game: number(game, "game")? as usize,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok((flags, positions))
}

/// One training position, as the network sees it.
struct Sample {
    /// Per view (side to move's, then the other's): the inputs.
    inputs: [Vec<u16>; 2],
    /// The piece-square evaluation before the mating-material rule, red's view.
    base: f32,
    can_mate: [bool; 2],
    /// +1 with red to move, −1 with black (the network's output is the mover's).
    sign: f32,
    /// How far towards the bare endgame (0 to 1).
    late: f32,
    /// The blended label, the search's expectation alone, and the result: red's view.
    target: f32,
    searched: f32,
    result: f32,
}

/// The sample of `l`, with the board's files mirrored (a..i as i..a) when `mirror` is set:
/// the same position for the rules, so the same label.
fn sample(l: &Labelled, k: f64, result_weight: f64, mirror: bool) -> Sample {
    let pos = &l.pos;
    let eg = endgame_phase(pos);
    let side = pos.side();
    let inputs = [side, side.opposite()].map(|view| {
        pos.board()
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let sq = Square(i as u8);
                let sq = if mirror {
                    Square::new(sq.row(), 8 - sq.col())
                } else {
                    sq
                };
                Some(input(view, (*p)?, sq) as u16)
            })
            .collect()
    });
    let searched = logistic(l.score as f64, k);
    Sample {
        inputs,
        base: piece_square_raw(pos, eg) as f32,
        can_mate: mating_material(pos),
        sign: if side == Color::Red { 1.0 } else { -1.0 },
        late: eg as f32 / PHASE_FULL as f32,
        target: (result_weight * l.result + (1.0 - result_weight) * searched) as f32,
        searched: searched as f32,
        result: l.result as f32,
    }
}

/// The float network.
#[derive(Clone)]
struct FloatNet {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl FloatNet {
    fn params(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + 1
    }

    /// The accumulators of `s` into `acc`, and the output in [`OUTPUT_SCALE`] units.
    fn forward(&self, s: &Sample, acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let mut out = self.b2;
        for (view, a) in acc.iter_mut().enumerate() {
            a.copy_from_slice(&self.b1);
            for &i in &s.inputs[view] {
                let row = &self.w1[i as usize * HIDDEN..(i as usize + 1) * HIDDEN];
                for (x, w) in a.iter_mut().zip(row) {
                    *x += w;
                }
            }
            let w2 = &self.w2[view * HIDDEN..(view + 1) * HIDDEN];
            out += a
                .iter()
                .zip(w2)
                .map(|(x, w)| x.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        out
    }

    /// The evaluation of `s` (red's view, the mating-material rule applied) and the rule's
    /// factor, given the network's output.
    fn value(s: &Sample, out: f32) -> (f32, f32) {
        let raw = s.base + s.sign * out * OUTPUT_SCALE as f32;
        let factor = mating_material_factor(raw as f64, s.can_mate) as f32;
        (raw * factor, factor)
    }

    fn quantised(&self, description: String, checks: Vec<(String, f32)>) -> Network {
        let q = |w: f32, scale: i32| (w * scale as f32).round() as i16;
        Network {
            input_weights: self.w1.iter().map(|&w| q(w, QA)).collect(),
            hidden_bias: self.b1.iter().map(|&w| q(w, QA)).collect(),
            output_weights: self.w2.iter().map(|&w| q(w, QB)).collect(),
            output_bias: (self.b2 * (QA * QB) as f32).round() as i32,
            description,
            checks,
        }
    }
}

/// What a network training run found.
#[derive(Debug, Clone)]
pub struct NetTraining {
    /// The quantised network (its description and checks filled in by the caller's words).
    pub network: Network,
    /// The logistic curve's scale.
    pub scale: f64,
    /// Samples fitted (each position twice, as it is and mirrored) and positions held back.
    pub positions: (usize, usize),
    /// The epoch kept (1-based).
    pub epoch: usize,
    /// Held-back mean squared error against the search labels, per stage (opening,
    /// middlegame, endgame, all): the piece-square evaluation, then with the network.
    pub label_error: [(f64, f64); 4],
    /// Held-back mean squared error against the games' results: the piece-square evaluation,
    /// with the network, the labelling searches.
    pub result_error: (f64, f64, f64),
    /// The largest difference between the float network's output and the quantised one's on
    /// the held-back positions, in evaluation units.
    pub quantisation_error: f64,
}

/// The stage of a sample: opening (most attacking pieces on the board), middlegame, endgame.
fn stage(s: &Sample) -> usize {
    match s.late {
        l if l < 0.25 => 0,
        l if l < 0.6 => 1,
        _ => 2,
    }
}

/// Mean squared errors of `net` (or of the piece-square evaluation alone) against `target`
/// per stage and over all.
fn errors(
    samples: &[Sample],
    net: Option<&FloatNet>,
    k: f64,
    target: impl Fn(&Sample) -> f32,
) -> [f64; 4] {
    let mut sum = [0.0f64; 4];
    let mut count = [0usize; 4];
    let mut acc = [[0.0; HIDDEN]; 2];
    for s in samples {
        let out = net.map_or(0.0, |n| n.forward(s, &mut acc));
        let (v, _) = FloatNet::value(s, out);
        let e = (target(s) as f64 - logistic(v as f64, k)).powi(2);
        for i in [stage(s), 3] {
            sum[i] += e;
            count[i] += 1;
        }
    }
    std::array::from_fn(|i| sum[i] / count[i].max(1) as f64)
}

/// Fits the network to `positions` (the games numbered `9 mod 10` held back; each other
/// position is fitted as it is and with its files mirrored).
///
/// ```
/// use xiangqi_endgame::selfplay::Engine;
/// use xiangqi_endgame::train_net::{fit_network, self_play_positions, NetOptions};
/// let options = NetOptions {
///     games: 4, nodes: 300, opening_plies: 6, play: Engine::PieceSquare, seed: 1, threads: 2,
///     epochs: 2,
///     result_weight: 0.25, quiet: true, record_openings: false, records: None,
/// };
/// let positions = self_play_positions(&options, &[]);
/// assert!(!positions.is_empty());
/// let t = fit_network(&positions, &options).unwrap();
/// assert_eq!(t.positions.0 / 2 + t.positions.1, positions.len());
/// ```
pub fn fit_network(
    positions: &[Labelled],
    options: &NetOptions,
) -> Result<NetTraining, InputError> {
    if positions.is_empty() {
        return Err(InputError::at(0, "no positions to learn from"));
    }
    let held = |l: &Labelled| l.game % 10 == 9;
    let base_samples: Vec<Sample> = positions
        .iter()
        .map(|l| sample(l, 1.0, 0.0, false))
        .collect();
    // The curve's scale: the piece-square evaluation against the results.
    let k = fit_scale(|k| {
        base_samples
            .iter()
            .map(|s| (s.result as f64 - logistic(FloatNet::value(s, 0.0).0 as f64, k)).powi(2))
            .sum::<f64>()
    });
    drop(base_samples);
    let (mut fit, mut back) = (Vec::new(), Vec::new());
    for l in positions {
        if held(l) {
            back.push(sample(l, k, options.result_weight, false));
        } else {
            // Each fitted position twice, as it is and mirrored.
            fit.push(sample(l, k, options.result_weight, false));
            fit.push(sample(l, k, options.result_weight, true));
        }
    }
    let mut rng = SmallRng::seed_from_u64(options.seed);
    let mut net = FloatNet {
        w1: (0..INPUTS * HIDDEN)
            .map(|_| rng.random_range(-0.05..0.05))
            .collect(),
        b1: vec![0.25; HIDDEN],
        w2: (0..2 * HIDDEN)
            .map(|_| rng.random_range(-0.01..0.01))
            .collect(),
        b2: 0.0,
    };
    let mut adam = Adam::new(net.params());
    let target = |s: &Sample| s.target;
    let mut best = (f64::INFINITY, net.clone(), 0);
    let mut order: Vec<usize> = (0..fit.len()).collect();
    let mut grad = FloatNet {
        w1: vec![0.0; INPUTS * HIDDEN],
        b1: vec![0.0; HIDDEN],
        w2: vec![0.0; 2 * HIDDEN],
        b2: 0.0,
    };
    let mut acc = [[0.0f32; HIDDEN]; 2];
    for epoch in 1..=options.epochs {
        // The last quarter of the epochs at a tenth of the step.
        let step = if epoch * 4 > options.epochs * 3 {
            STEP / 10.0
        } else {
            STEP
        };
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for batch in order.chunks(BATCH) {
            grad.w1.iter_mut().for_each(|g| *g = 0.0);
            grad.b1.iter_mut().for_each(|g| *g = 0.0);
            grad.w2.iter_mut().for_each(|g| *g = 0.0);
            grad.b2 = 0.0;
            let scale = 1.0 / batch.len() as f32;
            for &j in batch {
                let s = &fit[j];
                let out = net.forward(s, &mut acc);
                let (v, factor) = FloatNet::value(s, out);
                let p = logistic(v as f64, k) as f32;
                // d/d(out) of (p − target)², through the curve, the rule's factor and the
                // side to move's sign.
                let d = 2.0 * (p - s.target) * p * (1.0 - p) / k as f32
                    * factor
                    * s.sign
                    * OUTPUT_SCALE as f32
                    * scale;
                grad.b2 += d;
                for (view, a) in acc.iter().enumerate() {
                    let w2 = &net.w2[view * HIDDEN..(view + 1) * HIDDEN];
                    let g2 = &mut grad.w2[view * HIDDEN..(view + 1) * HIDDEN];
                    let mut da = [0.0f32; HIDDEN];
                    for h in 0..HIDDEN {
                        let x = a[h];
                        g2[h] += d * x.clamp(0.0, 1.0);
                        da[h] = if x > 0.0 && x < 1.0 { d * w2[h] } else { 0.0 };
                    }
                    for (g, x) in grad.b1.iter_mut().zip(&da) {
                        *g += x;
                    }
                    for &i in &s.inputs[view] {
                        let row = &mut grad.w1[i as usize * HIDDEN..(i as usize + 1) * HIDDEN];
                        for (g, x) in row.iter_mut().zip(&da) {
                            *g += x;
                        }
                    }
                }
            }
            adam.step(&mut net, &grad, step);
        }
        let e = errors(&back, Some(&net), k, target)[3];
        if !options.quiet {
            let searched = errors(&back, Some(&net), k, |s| s.searched)[3];
            let results = errors(&back, Some(&net), k, |s| s.result)[3];
            eprintln!(
                "epoch {epoch}: held-back squared error against the labels {e:.6} (the searches \
                 {searched:.6}, the results {results:.6})"
            );
        }
        if e < best.0 {
            best = (e, net.clone(), epoch);
        }
    }
    let (_, net, epoch) = best;
    let searched = |s: &Sample| s.searched;
    let result = |s: &Sample| s.result;
    let (before, after) = (
        errors(&back, None, k, searched),
        errors(&back, Some(&net), k, searched),
    );
    let search_result_error = back
        .iter()
        .map(|s| (s.result as f64 - s.searched as f64).powi(2))
        .sum::<f64>()
        / back.len().max(1) as f64;
    let network = net.quantised(String::new(), Vec::new());
    let quantisation_error = positions
        .iter()
        .filter(|l| held(l))
        .map(|l| (float_output(&net, &l.pos) - network.evaluate(&l.pos) as f64).abs())
        .fold(0.0, f64::max);
    Ok(NetTraining {
        network,
        scale: k,
        positions: (fit.len(), back.len()),
        epoch,
        label_error: std::array::from_fn(|i| (before[i], after[i])),
        result_error: (
            errors(&back, None, k, result)[3],
            errors(&back, Some(&net), k, result)[3],
            search_result_error,
        ),
        quantisation_error,
    })
    .map(|mut t| {
        // The check positions: the start and the first held-back positions, with the float
        // network's output, which the quantised network must reproduce.
        let mut checks = vec![START_FEN.to_string()];
        checks.extend(
            positions
                .iter()
                .filter(|l| held(l))
                .take(7)
                .map(|l| l.pos.to_string()),
        );
        t.network.checks = checks
            .into_iter()
            .map(|fen| {
                let pos: Position = fen.parse().expect("a FEN of ours");
                (fen, float_output(&net, &pos) as f32)
            })
            .collect();
        t
    })
}

/// The float network's correction of `pos`, in evaluation units from the side to move's view.
fn float_output(net: &FloatNet, pos: &Position) -> f64 {
    let l = Labelled {
        pos: pos.clone(),
        score: 0,
        result: 0.5,
        game: 0,
    };
    let mut acc = [[0.0; HIDDEN]; 2];
    net.forward(&sample(&l, 1.0, 0.0, false), &mut acc) as f64 * OUTPUT_SCALE as f64
}

/// Adam's moments for every weight of a [`FloatNet`], in its order.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    fn step(&mut self, net: &mut FloatNet, grad: &FloatNet, step: f32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        self.t += 1;
        let (c1, c2) = (1.0 - b1.powi(self.t), 1.0 - b2.powi(self.t));
        let weights = net
            .w1
            .iter_mut()
            .chain(net.b1.iter_mut())
            .chain(net.w2.iter_mut())
            .chain(std::iter::once(&mut net.b2));
        let grads = grad
            .w1
            .iter()
            .chain(&grad.b1)
            .chain(&grad.w2)
            .chain(std::iter::once(&grad.b2));
        let (inputs_end, outputs_end) = (INPUTS * HIDDEN + HIDDEN, INPUTS * HIDDEN + 3 * HIDDEN);
        for (j, ((w, &g), (m, v))) in weights
            .zip(grads)
            .zip(self.m.iter_mut().zip(self.v.iter_mut()))
            .enumerate()
        {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w -= step * (*m / c1) / ((*v / c2).sqrt() + eps) + step * DECAY * *w;
            if j < inputs_end {
                *w = w.clamp(-MAX_INPUT_WEIGHT, MAX_INPUT_WEIGHT);
            } else if j < outputs_end {
                *w = w.clamp(-MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT);
            }
        }
    }
}
