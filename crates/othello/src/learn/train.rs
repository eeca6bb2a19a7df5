//! Where the pattern weights come from: games the project plays itself, labelled by its own
//! exact solver, and a least-squares fit per stage.

use crate::eval::pattern::game::PatternGame;
use crate::eval::pattern::{layout, stage, Evaluator, Weights, STAGES, STAGE_WIDTH};
use crate::rules::position::{Move, Position};
use crate::search::deciders::{decide, Decider, HeuristicKind, MoveOrder};
use crate::search::endgame::{solve, table_megabytes};
use rand::{Rng, SeedableRng};
use search_core::SmallRng;

/// A position with its label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// Discs of the side to move.
    pub me: u64,
    /// Discs of the other side.
    pub opp: u64,
    /// Final disc difference for the side to move (see the module header).
    pub score: i8,
    /// The game it comes from (every tenth game is held back).
    pub game: u32,
}

impl Sample {
    /// Empty squares.
    pub fn empties(&self) -> u32 {
        (!(self.me | self.opp)).count_ones()
    }

    /// Whether the sample belongs to the held-back games.
    pub fn held_back(&self) -> bool {
        self.game.is_multiple_of(10)
    }
}

/// How the games are made.
#[derive(Debug, Clone, Copy)]
pub struct Generate {
    /// Games to play.
    pub games: u32,
    /// Seed of every random choice.
    pub seed: u64,
    /// Positions with at most this many empties are solved exactly.
    pub solve_empties: u32,
    /// Worker threads (the samples do not depend on it).
    pub threads: usize,
    /// With [`Player::Search`], the share of the search's own value in the label of a
    /// position not yet solved (0 to 1; 0: the game's exact value alone). A search value
    /// carries less noise than the game's outcome, which stacks every later move's error.
    pub search_label: f64,
}

/// Who plays the games after the random opening.
#[derive(Debug, Clone, Copy)]
pub enum Player<'w> {
    /// Depth-2 alpha-beta on the improved evaluation, one random move in ten.
    Improved,
    /// Depth-3 alpha-beta on these weights, no random move.
    Weights(&'w Evaluator),
    /// The NBoard engine's midgame search (principal-variation search with its table and
    /// Multi-ProbCut, fastest-first order) to `depth` plies on these weights, and from the
    /// solved positions on the exact solver's best move: stronger play, so that an early
    /// position's label (the game's first exact value) carries less of the players' errors.
    Search {
        /// The evaluation searched.
        weights: &'w Evaluator,
        /// Plies of the midgame search.
        depth: u32,
    },
}

/// What a thread keeps from game to game: the exact solver's searcher and the midgame
/// search's table.
pub struct Workspace<'w> {
    pub(crate) endgame: crate::search::endgame::EndgameSearcher,
    pub(crate) midgame: search_core::Searcher<PatternGame<'w>>,
}

impl Workspace<'_> {
    /// A workspace for solving from `solve_empties` empties.
    pub fn new(solve_empties: u32) -> Self {
        let mut midgame = search_core::Searcher::new(16);
        midgame.options = crate::search::engine::engine_options(Some(
            crate::search::engine::DEFAULT_PROBCUT_CONFIDENCE,
        ));
        Workspace {
            endgame: crate::search::endgame::searcher(table_megabytes(solve_empties)),
            midgame,
        }
    }
}

/// The generator of game `index` under `seed`.
fn game_rng(seed: u64, index: u32) -> SmallRng {
    SmallRng::seed_from_u64(search_core::hash::mix64(
        seed ^ (u64::from(index) << 32 | 0x5eed),
    ))
}

/// Plays game `index` and labels its positions (those where the side to move has a move).
pub fn play_game<'w>(
    index: u32,
    opts: &Generate,
    player: Player<'w>,
    workspace: &mut Workspace<'w>,
) -> Vec<Sample> {
    let mut rng = game_rng(opts.seed, index);
    let random_plies = rng.random_range(8..=20);
    let mut p = Position::default();
    // Positions not yet solved, with the search's value (discs) when the label mixes it in.
    let mut early: Vec<(Position, Option<i32>)> = Vec::new();
    let mut out = Vec::new();
    let mut solved_from: Option<(Position, i32)> = None;
    let mut ply = 0;
    let mut moves = Vec::new();
    while !p.game_over() {
        let mut solved_best = None;
        let has_moves = p.moves() != 0;
        if has_moves && p.empties() <= opts.solve_empties {
            let solution = solve(&p, &mut workspace.endgame);
            let score = solution.score;
            solved_best = solution.best;
            out.push(sample(&p, score, index));
            solved_from.get_or_insert((p, score));
        }
        moves.clear();
        p.push_moves(&mut moves);
        // The search's move and value where the player searches or the label needs it.
        let searched = match player {
            Player::Search { weights, depth }
                if has_moves
                    && solved_best.is_none()
                    && (ply >= random_plies || opts.search_label > 0.0) =>
            {
                search(&p, weights, depth, &mut workspace.midgame)
            }
            _ => None,
        };
        if has_moves && p.empties() > opts.solve_empties {
            let discs = searched
                .filter(|_| opts.search_label > 0.0)
                .map(|(_, score)| (score as f64 / 100.0).round() as i32);
            early.push((p, discs));
        }
        let mv = if moves == [Move::Pass] {
            Move::Pass
        } else if ply < random_plies {
            moves[rng.random_range(0..moves.len())]
        } else {
            match player {
                Player::Improved if rng.random_bool(0.1) => moves[rng.random_range(0..moves.len())],
                Player::Improved => decide(
                    &p,
                    Decider::AlphaBeta(2),
                    HeuristicKind::Improved,
                    MoveOrder::Mobility,
                    &mut rng,
                ),
                Player::Weights(weights) => {
                    let mut game = PatternGame::new(p, weights);
                    search_core::alphabeta(&mut game, 3)
                        .best
                        .unwrap_or(moves[0])
                }
                Player::Search { .. } => solved_best
                    .or(searched.map(|(mv, _)| mv))
                    .unwrap_or(moves[0]),
            }
        };
        p = p.play(mv);
        ply += 1;
    }
    // The early positions get the first exact value (or the final score if the game ended
    // before any position was solved), from their own side, mixed with their search's value.
    let (anchor, value) = solved_from.unwrap_or((p, p.final_score()));
    for (q, searched) in early {
        let exact = if q.side == anchor.side { value } else { -value };
        let v = searched.map_or(exact, |s| {
            let mixed =
                opts.search_label * f64::from(s) + (1.0 - opts.search_label) * f64::from(exact);
            (mixed.round() as i32).clamp(-64, 64)
        });
        out.push(sample(&q, v, index));
    }
    out
}

/// The midgame search's move at `p` on `weights`, `depth` plies deep, and its value
/// (hundredths of a disc for the side to move).
pub(crate) fn search<'w>(
    p: &Position,
    weights: &'w Evaluator,
    depth: u32,
    searcher: &mut search_core::Searcher<PatternGame<'w>>,
) -> Option<(Move, i32)> {
    let mut game = PatternGame::new(*p, weights).fastest_first();
    let opts = search_core::IterativeOptions {
        max_depth: depth,
        kind: search_core::IterationKind::AlphaBeta,
        ..Default::default()
    };
    let r = search_core::iterative_deepening(&mut game, searcher, &opts, |_| {});
    r.best.map(|mv| (mv, r.score))
}

pub(crate) fn sample(p: &Position, score: i32, game: u32) -> Sample {
    Sample {
        me: p.me,
        opp: p.opp,
        score: score as i8,
        game,
    }
}

/// Plays `opts.games` games on `opts.threads` threads; `progress` is called after each game.
/// The samples come in game order, whatever the thread count.
pub fn generate(opts: &Generate, player: Player, progress: &(dyn Fn() + Sync)) -> Vec<Sample> {
    let per_game = batch::parallel_map(
        opts.games as usize,
        opts.threads,
        || Workspace::new(opts.solve_empties),
        |workspace, i| {
            let samples = play_game(i as u32, opts, player, workspace);
            progress();
            samples
        },
    );
    per_game.into_iter().flatten().collect()
}

/// Samples in a compact binary form (21 bytes each), to fit again without replaying.
pub fn samples_to_bytes(samples: &[Sample]) -> Vec<u8> {
    let mut out = Vec::with_capacity(samples.len() * 21);
    for s in samples {
        out.extend_from_slice(&s.me.to_le_bytes());
        out.extend_from_slice(&s.opp.to_le_bytes());
        out.push(s.score as u8);
        out.extend_from_slice(&s.game.to_le_bytes());
    }
    out
}

/// Reads [`samples_to_bytes`]' form.
pub fn samples_from_bytes(bytes: &[u8]) -> Result<Vec<Sample>, String> {
    if !bytes.len().is_multiple_of(21) {
        return Err(format!(
            "{} bytes is not a whole number of 21-byte samples",
            bytes.len()
        ));
    }
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    bytes
        .chunks_exact(21)
        .enumerate()
        .map(|(i, c)| {
            let s = Sample {
                me: word(&c[0..8]),
                opp: word(&c[8..16]),
                score: c[16] as i8,
                game: u32::from_le_bytes(c[17..21].try_into().expect("4 bytes")),
            };
            if s.me & s.opp != 0 || !(-64..=64).contains(&s.score) {
                return Err(format!("sample {} is not a position with a score", i + 1));
            }
            Ok(s)
        })
        .collect()
}

/// How the weights are fitted.
#[derive(Debug, Clone, Copy)]
pub struct Fit {
    /// Conjugate-gradient iterations per stage.
    pub iterations: u32,
    /// Ridge penalty on the squared weights: keeps rarely seen configurations near zero.
    pub ridge: f64,
}

impl Default for Fit {
    fn default() -> Fit {
        Fit {
            iterations: 60,
            ridge: 2.0,
        }
    }
}

/// Ridge least squares for 0/1 features: the weights `w` minimising `|A w − y|² + λ|w|²`,
/// where row `i` of `A` has ones at `rows[i·per .. (i+1)·per]`, by conjugate gradients on the
/// normal equations (CGLS: one pass over the rows for `A p`, one for `Aᵀ r`, per iteration).
fn least_squares(rows: &[u32], per: usize, y: &[f32], size: usize, opts: &Fit) -> Vec<f64> {
    let lambda = opts.ridge;
    let mul = |v: &[f64], out: &mut Vec<f64>| {
        out.clear();
        out.extend(
            rows.chunks_exact(per)
                .map(|r| r.iter().map(|&f| v[f as usize]).sum::<f64>()),
        );
    };
    let mul_t = |r: &[f64], w: &[f64], out: &mut [f64]| {
        for (o, wi) in out.iter_mut().zip(w) {
            *o = -lambda * wi;
        }
        for (row, &ri) in rows.chunks_exact(per).zip(r) {
            for &f in row {
                out[f as usize] += ri;
            }
        }
    };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let mut w = vec![0f64; size];
    let mut r: Vec<f64> = y.iter().map(|&v| f64::from(v)).collect();
    let mut s = vec![0f64; size];
    mul_t(&r, &w, &mut s);
    let mut p = s.clone();
    let mut gamma = dot(&s, &s);
    let mut q = Vec::with_capacity(y.len());
    for _ in 0..opts.iterations {
        if gamma <= 1e-12 {
            break;
        }
        mul(&p, &mut q);
        let delta = dot(&q, &q) + lambda * dot(&p, &p);
        let alpha = gamma / delta;
        for (wi, pi) in w.iter_mut().zip(&p) {
            *wi += alpha * pi;
        }
        for (ri, qi) in r.iter_mut().zip(&q) {
            *ri -= alpha * qi;
        }
        mul_t(&r, &w, &mut s);
        let next = dot(&s, &s);
        let beta = next / gamma;
        gamma = next;
        for (pi, si) in p.iter_mut().zip(&s) {
            *pi = si + beta * *pi;
        }
    }
    w
}

/// The fit's error on one stage.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct StageError {
    /// Empties of the stage: `first..=last`.
    pub empties: (u32, u32),
    /// Training positions (window included) and held-back positions.
    pub train: usize,
    /// Held-back positions of the stage.
    pub held_back: usize,
    /// Root mean square error on the held-back positions, in discs.
    pub rmse: f64,
    /// Mean absolute error on the held-back positions, in discs.
    pub mae: f64,
    /// Root mean square of the held-back labels: the error of always answering 0.
    pub rms_label: f64,
}

/// Fits the weights of every stage; `progress` is called after each stage.
///
/// - **Games**: a random opening of 8..=20 plies, then alpha-beta play: in the first round at
///   depth 2 on the improved evaluation with one random move in ten, in later rounds at depth
///   3 on the previous round's weights with no random move (so the labels follow sensible play).
///   Each game draws from its own seeded generator, so the set is the same for any thread
///   count.
/// - **Labels**: from [`Generate::solve_empties`] empties on, every position is solved exactly;
///   the earlier positions of the game get the exact value of the first solved one, that is
///   the game's result under perfect play from there (seen from their side to move).
/// - **Fit**: for each stage, ridge least squares (conjugate gradients) over the positions of
///   that stage and two empties either side; the ridge keeps rare configurations near zero and
///   unseen ones at zero. Every tenth game is held back to measure the error.
pub fn fit(
    samples: &[Sample],
    opts: &Fit,
    progress: &(dyn Fn() + Sync),
) -> (Weights, Vec<StageError>) {
    fit_from(samples, opts, None, progress)
}

/// [`fit`] as a change to `prior`'s weights when given: each stage fits what the prior's value
/// misses (the label minus the prior's value), so the ridge pulls toward the prior instead of
/// toward zero, and configurations the samples see rarely keep the prior's values. With
/// `None` it is [`fit`].
pub fn fit_from(
    samples: &[Sample],
    opts: &Fit,
    prior: Option<&Weights>,
    progress: &(dyn Fn() + Sync),
) -> (Weights, Vec<StageError>) {
    let l = layout();
    let mut weights = Weights::zero();
    let mut report = Vec::new();
    let mut features = Vec::new();
    for s in 0..STAGES {
        let first = s as u32 * STAGE_WIDTH;
        let last = first + STAGE_WIDTH - 1;
        let in_window = |e: u32| e + 2 >= first && e <= last + 2;
        // Feature indices of the training positions, flat, and their labels.
        let per = l.features_per_position();
        // The prior's weights of this stage, in discs (zero without a prior).
        let base: Vec<f64> = match prior {
            Some(p) => p.stage(s).iter().map(|&v| f64::from(v) / 100.0).collect(),
            None => vec![0.0; l.size],
        };
        let mut flat: Vec<u32> = Vec::new();
        let mut labels: Vec<f32> = Vec::new();
        for x in samples
            .iter()
            .filter(|x| !x.held_back() && in_window(x.empties()))
        {
            l.features(x.me, x.opp, &mut features);
            flat.extend_from_slice(&features);
            // Without a prior the label is the score itself (the sum over zeros is skipped).
            let prior_value: f64 = match prior {
                Some(_) => features.iter().map(|&f| base[f as usize]).sum(),
                None => 0.0,
            };
            labels.push((f64::from(x.score) - prior_value) as f32);
        }
        let change = least_squares(&flat, per, &labels, l.size, opts);
        let block = &mut weights.values[s * l.size..(s + 1) * l.size];
        for ((q, &dw), &b) in block.iter_mut().zip(&change).zip(&base) {
            *q = ((b + dw) * 100.0).round().clamp(
                -f64::from(crate::eval::pattern::WEIGHT_LIMIT),
                f64::from(crate::eval::pattern::WEIGHT_LIMIT),
            ) as i16;
        }
        report.push(stage_error(&weights, samples, s, labels.len()));
        progress();
    }
    (weights, report)
}

/// The error of `weights` on the held-back positions of stage `s` of `samples` (as shipped:
/// quantised), with `train` training positions reported beside it.
fn stage_error(weights: &Weights, samples: &[Sample], s: usize, train: usize) -> StageError {
    let first = s as u32 * STAGE_WIDTH;
    let (mut se, mut ae, mut sl, mut n) = (0f64, 0f64, 0f64, 0usize);
    for x in samples
        .iter()
        .filter(|x| x.held_back() && stage(x.empties()) == s)
    {
        let pred = weights.evaluate_discs(x.me, x.opp) as f64 / 100.0;
        let e = pred - f64::from(x.score);
        se += e * e;
        ae += e.abs();
        sl += f64::from(x.score).powi(2);
        n += 1;
    }
    let root = |v: f64| if n == 0 { 0.0 } else { (v / n as f64).sqrt() };
    StageError {
        empties: (first, first + STAGE_WIDTH - 1),
        train,
        held_back: n,
        rmse: root(se),
        mae: if n == 0 { 0.0 } else { ae / n as f64 },
        rms_label: root(sl),
    }
}

/// The error per stage of `weights` on the held-back positions of `samples` (the training
/// positions each stage's fit would use counted beside it): how weights compare on the same
/// held-back games.
pub fn stage_errors(weights: &Weights, samples: &[Sample]) -> Vec<StageError> {
    (0..STAGES)
        .map(|s| {
            let first = s as u32 * STAGE_WIDTH;
            let last = first + STAGE_WIDTH - 1;
            let train = samples
                .iter()
                .filter(|x| !x.held_back() && x.empties() + 2 >= first && x.empties() <= last + 2)
                .count();
            stage_error(weights, samples, s, train)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Generate {
        Generate {
            games: 6,
            seed: 7,
            solve_empties: 10,
            threads: 2,
            search_label: 0.0,
        }
    }

    #[test]
    fn games_are_the_same_for_any_thread_count() {
        let two = generate(&small(), Player::Improved, &|| {});
        let one = generate(
            &Generate {
                threads: 1,
                ..small()
            },
            Player::Improved,
            &|| {},
        );
        assert_eq!(one, two);
        assert!(two.len() > 6 * 40, "{} samples", two.len());
    }

    #[test]
    fn late_labels_are_exact_and_early_ones_follow_the_game() {
        let samples = generate(&small(), Player::Improved, &|| {});
        let mut searcher = crate::search::endgame::searcher(4);
        for x in samples.iter().filter(|x| x.empties() <= 10).step_by(7) {
            let p = Position {
                me: x.me,
                opp: x.opp,
                side: crate::rules::position::Color::Black,
            };
            assert_eq!(solve(&p, &mut searcher).score, i32::from(x.score));
        }
        // Within a game, early labels are all ± the same value.
        for g in 0..6 {
            let early: Vec<i8> = samples
                .iter()
                .filter(|x| x.game == g && x.empties() > 10)
                .map(|x| x.score.abs())
                .collect();
            assert!(
                early.windows(2).all(|w| w[0] == w[1]),
                "game {g}: {early:?}"
            );
        }
    }

    #[test]
    fn search_labels_are_the_searchs_values_in_the_share_asked() {
        let weights = crate::eval::pattern::evaluator();
        let player = Player::Search { weights, depth: 2 };
        // One game: its searches, replayed in order on a fresh workspace, meet the same table.
        let opts = |search_label| Generate {
            games: 1,
            search_label,
            ..small()
        };
        let outcome = generate(&opts(0.0), player, &|| {});
        let searched = generate(&opts(1.0), player, &|| {});
        let halves = generate(&opts(0.5), player, &|| {});
        // The same games: the labels alone change, and only before the solve.
        assert_eq!(outcome.len(), searched.len());
        let mut workspace = Workspace::new(10);
        let mut differ = 0;
        for ((o, s), h) in outcome.iter().zip(&searched).zip(&halves) {
            assert_eq!((o.me, o.opp), (s.me, s.opp));
            if o.empties() <= 10 {
                assert_eq!((o.score, h.score), (s.score, s.score));
                continue;
            }
            let p = Position {
                me: o.me,
                opp: o.opp,
                side: crate::rules::position::Color::Black,
            };
            let (_, value) = search(&p, weights, 2, &mut workspace.midgame).unwrap();
            let discs = (f64::from(value) / 100.0).round();
            assert_eq!(f64::from(s.score), discs.clamp(-64.0, 64.0));
            let half = (0.5 * discs + 0.5 * f64::from(o.score)).round();
            assert_eq!(f64::from(h.score), half.clamp(-64.0, 64.0));
            differ += usize::from(o.score != s.score);
        }
        assert!(differ > 10, "{differ} labels changed");
    }

    #[test]
    fn samples_round_trip_through_bytes() {
        let samples = generate(
            &Generate {
                games: 2,
                ..small()
            },
            Player::Improved,
            &|| {},
        );
        let bytes = samples_to_bytes(&samples);
        assert_eq!(samples_from_bytes(&bytes).unwrap(), samples);
        assert!(samples_from_bytes(&bytes[1..]).is_err());
    }

    /// The samples of 60 small games played by the improved evaluation.
    fn sixty_games() -> Vec<Sample> {
        generate(
            &Generate {
                games: 60,
                ..small()
            },
            Player::Improved,
            &|| {},
        )
    }

    #[test]
    fn the_fit_learns_the_labels_better_than_zero() {
        let samples = sixty_games();
        let (_, report) = fit(&samples, &Fit::default(), &|| {});
        // Near the end, where labels are exact, the fit must beat answering 0.
        let late = &report[1..3];
        for r in late {
            assert!(r.held_back > 0);
            assert!(r.rmse < r.rms_label, "{r:?}");
        }
    }

    #[test]
    fn a_refined_fit_starts_from_its_prior() {
        let samples = sixty_games();
        let (plain, plain_report) = fit(&samples, &Fit::default(), &|| {});
        // From zero weights it is the plain fit; with no samples it keeps the prior.
        let (from_zero, _) = fit_from(&samples, &Fit::default(), Some(&Weights::zero()), &|| {});
        assert_eq!(from_zero, plain);
        let (kept, _) = fit_from(&[], &Fit::default(), Some(&plain), &|| {});
        assert_eq!(kept, plain);
        // On the samples it was fitted on, a refinement of the fit does not lose accuracy.
        let (again, report) = fit_from(&samples, &Fit::default(), Some(&plain), &|| {});
        assert_ne!(again, plain);
        for (r, p) in report[1..3].iter().zip(&plain_report[1..3]) {
            assert!(r.rmse <= p.rmse * 1.05, "{r:?} against {p:?}");
        }
    }
}
