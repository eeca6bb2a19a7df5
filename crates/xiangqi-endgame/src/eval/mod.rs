//! The course's evaluation (spec §7.1): for each side, the sum over its pieces of the piece value
//! and the position-table value; the score is red minus black. The engine's experiments add
//! endgame terms to it ([`endgame_eval`]), with weights set by hand (`tapered`) or learned from
//! the project's own games (`learned`, [`crate::learn::train`]).
//!
//! Position tables are laid out `[file][rank from the owner's back rank]`: a red piece on row r,
//! column c reads `table[c][9 - r]`, a black piece `table[c][r]`. The `threats` variant adds the
//! framework's "next-move values" (行棋可能性): for every enemy piece a side could capture with
//! a legal move right now, the value listed for the victim's kind (king 9999, i.e. giving check;
//! chariot 500; horse and cannon 100; pawn −20; advisor and elephant 0, as the framework's map
//! has no entry for them).

pub mod activity;
pub mod nnue;
pub mod see;

use crate::board::piece::{Color, Kind};
use crate::board::square::Square;
use crate::rules::movegen::pseudo_legal;
use crate::rules::position::Position;
pub use crate::values::tables::{next_move_value, piece_value, position_value};

/// Which evaluation to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum EvalKind {
    /// Piece values plus position tables (the recommended default).
    #[default]
    Course,
    /// Piece values only.
    Material,
    /// `course` plus the next-move values of the captures each side has available.
    Threats,
    /// `course` plus endgame knowledge (the engine's own play): horses gain and cannons lose
    /// value as the attacking pieces come off, and pawns across the river gain; each missing
    /// advisor or elephant costs in proportion to the enemy's attackers; and a side that has
    /// nothing left to mate with cannot win, so its lead counts for little.
    Tapered,
    /// The same terms with weights learned from the project's own games
    /// ([`crate::learn::train`], `data/endgame-weights.txt`).
    Learned,
    /// `course` plus piece-square tables by phase, learned from deeper searches of positions
    /// of the project's own games ([`crate::values::piece_square`], `data/piece-square.txt`), and the
    /// mating-material rule of `tapered`: the engine's own (`uci`, `match`).
    PieceSquare,
    /// `piece-square` plus the activity terms ([`crate::eval::activity`]: mobility, the attack on
    /// the palace, facing cannons, hanging pieces, connected pawns, tempo) with weights fitted
    /// to deeper searches (`data/activity.txt`).
    Activity,
    /// `piece-square` corrected by a small network learned from the engine's own games
    /// ([`crate::eval::nnue`], `data/net.bin`, made by `train-net`), updated move by move in the
    /// search.
    Net,
}

/// The evaluation from red's point of view (red minus black).
///
/// ```
/// use xiangqi_endgame::{eval::{evaluate, EvalKind}, Position};
/// let p: Position = "9/4a4/1N1k1a3/5P3/9/9/9/9/9/4K4 w".parse().unwrap();
/// assert_eq!(evaluate(&p, EvalKind::Course), 431);
/// assert_eq!(evaluate(&p, EvalKind::Material), 370);
/// ```
pub fn evaluate(pos: &Position, kind: EvalKind) -> i32 {
    match kind {
        EvalKind::Course => return pos.material(),
        EvalKind::Tapered => return endgame_eval(pos, &TAPERED_WEIGHTS),
        EvalKind::Learned => return endgame_eval(pos, learned_weights()),
        EvalKind::PieceSquare => return piece_square_eval(pos),
        EvalKind::Activity => return activity_eval(pos, crate::eval::activity::learned_activity()),
        EvalKind::Net => return net_eval(pos, crate::eval::nnue::built_in().evaluate(pos)),
        _ => {}
    }
    let mut score = 0;
    for i in 0..90u8 {
        let sq = Square(i);
        if let Some(p) = pos.at(sq) {
            let mut v = piece_value(p.kind);
            if kind != EvalKind::Material {
                v += position_value(p.color, p.kind, sq);
            }
            score += if p.color == Color::Red { v } else { -v };
        }
    }
    if kind == EvalKind::Threats {
        score += threats(pos, Color::Red) - threats(pos, Color::Black);
    }
    score
}

/// Sum of next-move values of the enemy pieces `color` attacks (pseudo-legal captures).
fn threats(pos: &Position, color: Color) -> i32 {
    let mut p = pos.clone();
    p.set_side(color);
    let mut moves = Vec::with_capacity(64);
    pseudo_legal(&p, &mut moves);
    moves
        .iter()
        .filter_map(|m| p.at(m.to))
        .map(|victim| next_move_value(victim.kind))
        .sum()
}

/// The game phase's weight of each attacking piece (chariot 4, horse and cannon 2): 32 with
/// every one on the board, 0 when none is left.
pub const PHASE_FULL: i32 = 32;
/// A lead held by a side without mating material counts this fraction (1/16).
const NO_MATING_MATERIAL_SHIFT: u32 = 4;

/// The endgame terms' weights, in the course evaluation's units: what each piece is worth
/// beyond its course value, what horses gain, cannons lose and crossed pawns gain as the
/// attacking pieces come off (at the bare endgame; scaled by how far the phase has gone), a
/// flat bonus per crossed pawn, and what each missing advisor and elephant costs per unit of
/// enemy attack (a chariot counts two; a horse, a cannon or a crossed pawn one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndgameWeights(pub [i32; ENDGAME_TERMS]);

/// How many weights [`EndgameWeights`] has.
pub const ENDGAME_TERMS: usize = 12;

/// The names of the weights, in order (the weights file's keys).
pub const ENDGAME_TERM_NAMES: [&str; ENDGAME_TERMS] = [
    "chariot",
    "horse",
    "cannon",
    "pawn",
    "advisor",
    "elephant",
    "horse_endgame_gain",
    "cannon_endgame_loss",
    "crossed_pawn_endgame_gain",
    "crossed_pawn",
    "advisor_shield",
    "elephant_shield",
];

/// [`EvalKind::Tapered`]'s weights, set by hand.
pub const TAPERED_WEIGHTS: EndgameWeights = EndgameWeights([0, 0, 0, 0, 0, 0, 30, 30, 30, 0, 8, 6]);

impl EndgameWeights {
    /// Reads `name value` lines (blank lines and `#` comments skipped), every name of
    /// [`ENDGAME_TERM_NAMES`] exactly once.
    ///
    /// ```
    /// use xiangqi_endgame::eval::{EndgameWeights, ENDGAME_TERM_NAMES};
    /// let text: String = ENDGAME_TERM_NAMES.iter().map(|n| format!("{n} 5\n")).collect();
    /// assert_eq!(text.parse::<EndgameWeights>().unwrap().0, [5; 12]);
    /// assert!("chariot 1\n".parse::<EndgameWeights>().is_err());
    /// ```
    pub fn parse(text: &str) -> Result<EndgameWeights, batch::InputError> {
        let mut values = [None; ENDGAME_TERMS];
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |m: String| batch::InputError::at(i + 1, m);
            let mut words = line.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(err(format!("expected `name value`, found `{line}`")));
            };
            let k = batch::key_index(&ENDGAME_TERM_NAMES, name, "weight").map_err(err)?;
            let v: i32 = value
                .parse()
                .map_err(|_| err(format!("`{value}` is not a whole number")))?;
            if values[k].replace(v).is_some() {
                return Err(err(format!("`{name}` given twice")));
            }
        }
        let mut out = [0; ENDGAME_TERMS];
        for (k, v) in values.iter().enumerate() {
            out[k] = v.ok_or_else(|| {
                batch::InputError::at(0, format!("missing `{}`", ENDGAME_TERM_NAMES[k]))
            })?;
        }
        Ok(EndgameWeights(out))
    }

    /// The weights as `name value` lines, as [`EndgameWeights::parse`] reads them.
    pub fn to_text(&self) -> String {
        ENDGAME_TERM_NAMES
            .iter()
            .zip(self.0)
            .map(|(n, v)| format!("{n} {v}\n"))
            .collect()
    }
}

impl std::str::FromStr for EndgameWeights {
    type Err = batch::InputError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        EndgameWeights::parse(text)
    }
}

/// [`EvalKind::Learned`]'s weights: `data/endgame-weights.txt`, made by `xiangqi-endgame train`
/// from the project's own games (its first lines say how) and built into the program.
pub fn learned_weights() -> &'static EndgameWeights {
    static WEIGHTS: std::sync::OnceLock<EndgameWeights> = std::sync::OnceLock::new();
    WEIGHTS.get_or_init(|| {
        include_str!("../../data/endgame-weights.txt")
            .parse()
            .expect("the built-in weights file is checked by the tests")
    })
}

/// The endgame terms of one position, before their weights: per weight, red's count minus
/// black's (the phase-scaled ones as fractions of the bare endgame), and the two sides' mating
/// material. The trainer reads positions through it; [`endgame_eval`] computes the same sum in
/// whole numbers (a test keeps the two in step).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EndgameTerms {
    /// Per weight, what it is multiplied by (red minus black).
    pub features: [f64; ENDGAME_TERMS],
    /// Whether red, black has the material to mate at all.
    pub can_mate: [bool; 2],
}

/// How far the game has gone towards the bare endgame, in 32nds ([`PHASE_FULL`]): 0 with
/// every attacking piece on the board, 32 with none (a chariot counts 4, a horse or a cannon 2).
///
/// ```
/// use xiangqi_endgame::{eval::endgame_phase, Position, START_FEN};
/// assert_eq!(endgame_phase(&START_FEN.parse::<Position>().unwrap()), 0);
/// assert_eq!(endgame_phase(&"3k5/9/9/9/9/9/9/9/4R4/4K4 w".parse::<Position>().unwrap()), 28);
/// ```
pub fn endgame_phase(pos: &Position) -> i32 {
    let phase = [Color::Red, Color::Black]
        .iter()
        .map(|&c| {
            (4 * pos.count_of(c, Kind::Chariot)
                + 2 * pos.count_of(c, Kind::Horse)
                + 2 * pos.count_of(c, Kind::Cannon)) as i32
        })
        .sum::<i32>()
        .min(PHASE_FULL);
    PHASE_FULL - phase
}

/// `color`'s attack on the enemy king: chariots count two, horses, cannons and crossed pawns one.
fn attack_units(pos: &Position, color: Color) -> i32 {
    (2 * pos.count_of(color, Kind::Chariot)
        + pos.count_of(color, Kind::Horse)
        + pos.count_of(color, Kind::Cannon)
        + pos.crossed_pawns(color)) as i32
}

/// Whether `color` has the material to mate at all: a chariot, horse or pawn, or a cannon with
/// another piece beside the king (a lone cannon has no screen against a bare king).
pub fn can_mate(pos: &Position, color: Color) -> bool {
    let n = |k| pos.count_of(color, k);
    n(Kind::Chariot) + n(Kind::Horse) + n(Kind::Pawn) > 0
        || n(Kind::Cannon) > 0 && n(Kind::Cannon) + n(Kind::Advisor) + n(Kind::Elephant) >= 2
}

const KINDS_BY_WEIGHT: [Kind; 6] = [
    Kind::Chariot,
    Kind::Horse,
    Kind::Cannon,
    Kind::Pawn,
    Kind::Advisor,
    Kind::Elephant,
];

/// One side's endgame terms (before weights) and its defence's: per weight.
fn side_terms(pos: &Position, color: Color, eg: i32) -> [f64; ENDGAME_TERMS] {
    let n = |k| pos.count_of(color, k) as f64;
    let crossed = pos.crossed_pawns(color) as f64;
    let late = eg as f64 / PHASE_FULL as f64;
    let attack = attack_units(pos, color.opposite()) as f64;
    let mut t = [0.0; ENDGAME_TERMS];
    for (slot, &k) in t.iter_mut().zip(&KINDS_BY_WEIGHT) {
        *slot = n(k);
    }
    t[6] = n(Kind::Horse) * late;
    t[7] = -n(Kind::Cannon) * late;
    t[8] = crossed * late;
    t[9] = crossed;
    t[10] = -(2.0 - n(Kind::Advisor)).max(0.0) * attack;
    t[11] = -(2.0 - n(Kind::Elephant)).max(0.0) * attack;
    t
}

/// The endgame terms of `pos` ([`EndgameTerms`]).
pub fn endgame_terms(pos: &Position) -> EndgameTerms {
    let eg = endgame_phase(pos);
    let red = side_terms(pos, Color::Red, eg);
    let black = side_terms(pos, Color::Black, eg);
    let mut features = [0.0; ENDGAME_TERMS];
    for k in 0..ENDGAME_TERMS {
        features[k] = red[k] - black[k];
    }
    EndgameTerms {
        features,
        can_mate: mating_material(pos),
    }
}

/// Whether red and black have the material to mate at all ([`can_mate`]).
#[inline]
pub fn mating_material(pos: &Position) -> [bool; 2] {
    [can_mate(pos, Color::Red), can_mate(pos, Color::Black)]
}

/// Whether the side ahead (red when `red_ahead`, black when `black_ahead`) lacks the material
/// to mate.
#[inline]
fn leader_cannot_mate(red_ahead: bool, black_ahead: bool, can_mate: [bool; 2]) -> bool {
    red_ahead && !can_mate[0] || black_ahead && !can_mate[1]
}

/// A score with the no-mating-material rule applied: a lead held by a side that cannot mate
/// counts a sixteenth.
#[inline]
pub fn scale_for_mating_material(score: i32, can_mate: [bool; 2]) -> i32 {
    if leader_cannot_mate(score > 0, score < 0, can_mate) {
        score / (1 << NO_MATING_MATERIAL_SHIFT)
    } else {
        score
    }
}

/// The factor the no-mating-material rule puts on an unrounded score (the trainers'): 1, or a
/// sixteenth when the side ahead cannot mate.
#[inline]
pub fn mating_material_factor(score: f64, can_mate: [bool; 2]) -> f64 {
    if leader_cannot_mate(score > 0.0, score < 0.0, can_mate) {
        1.0 / f64::from(1 << NO_MATING_MATERIAL_SHIFT)
    } else {
        1.0
    }
}

/// The course evaluation plus the endgame terms under `w`, from red's side. All its inputs are
/// kept by [`Position`] as moves are made, so it costs a few additions.
///
/// ```
/// use xiangqi_endgame::{eval::{evaluate, EvalKind}, Position, START_FEN};
/// // The start is symmetric.
/// let p: Position = START_FEN.parse().unwrap();
/// assert_eq!(evaluate(&p, EvalKind::Tapered), 0);
/// assert_eq!(evaluate(&p, EvalKind::Learned), 0);
/// // A cannon and a king cannot mate a bare king: red's lead counts a sixteenth.
/// let p: Position = "4k4/9/9/9/9/9/9/9/4C4/4K4 w".parse().unwrap();
/// assert_eq!(evaluate(&p, EvalKind::Tapered), evaluate(&p, EvalKind::Course) / 16);
/// ```
pub fn endgame_eval(pos: &Position, w: &EndgameWeights) -> i32 {
    let eg = endgame_phase(pos);
    let side = |color: Color| {
        let n = |k| pos.count_of(color, k) as i32;
        let w = &w.0;
        let crossed = pos.crossed_pawns(color) as i32;
        let values: i32 = KINDS_BY_WEIGHT.iter().zip(w).map(|(&k, &v)| v * n(k)).sum();
        let late = w[6] * n(Kind::Horse) - w[7] * n(Kind::Cannon) + w[8] * crossed;
        let missing =
            w[10] * (2 - n(Kind::Advisor)).max(0) + w[11] * (2 - n(Kind::Elephant)).max(0);
        values + w[9] * crossed + late * eg / PHASE_FULL
            - missing * attack_units(pos, color.opposite())
    };
    let score = pos.material() + side(Color::Red) - side(Color::Black);
    scale_for_mating_material(score, mating_material(pos))
}

/// The course evaluation plus the learned piece-square tables ([`crate::values::piece_square`]),
/// blended by [`endgame_phase`], with the mating-material rule of [`endgame_eval`]; from red's
/// side. The tables' sums are kept by [`Position`], so it costs a blend.
///
/// ```
/// use xiangqi_endgame::{eval::{evaluate, EvalKind}, Position, START_FEN};
/// let p: Position = START_FEN.parse().unwrap();
/// assert_eq!(evaluate(&p, EvalKind::PieceSquare), 0);
/// ```
pub fn piece_square_eval(pos: &Position) -> i32 {
    let eg = endgame_phase(pos);
    scale_for_mating_material(piece_square_raw(pos, eg), mating_material(pos))
}

/// The course evaluation plus the tables blended at phase `eg`, before the mating-material
/// rule.
#[inline]
pub fn piece_square_raw(pos: &Position, eg: i32) -> i32 {
    let [opening, endgame] = pos.piece_square();
    pos.material() + (opening * (PHASE_FULL - eg) + endgame * eg) / PHASE_FULL
}

/// [`piece_square_eval`] plus a network's `correction` (from the side to move's view, as
/// [`crate::eval::nnue::Network::output`] gives it), with the mating-material rule; from red's side.
///
/// ```
/// use xiangqi_endgame::eval::{evaluate, net_eval, EvalKind};
/// use xiangqi_endgame::Position;
/// let p: Position = "4k4/9/9/9/9/9/9/9/4C4/3K5 b".parse().unwrap();
/// assert_eq!(net_eval(&p, 0), evaluate(&p, EvalKind::PieceSquare));
/// ```
#[inline]
pub fn net_eval(pos: &Position, correction: i32) -> i32 {
    let correction = if pos.side() == Color::Red {
        correction
    } else {
        -correction
    };
    let score = piece_square_raw(pos, endgame_phase(pos)) + correction;
    scale_for_mating_material(score, mating_material(pos))
}

/// [`piece_square_eval`] plus the activity terms ([`crate::eval::activity`]) under weights `w`,
/// blended by the same phase, with the mating-material rule; from red's side.
///
/// ```
/// use xiangqi_endgame::activity::{ActivityWeights, ACTIVITY_TERMS};
/// use xiangqi_endgame::eval::{activity_eval, evaluate, EvalKind};
/// use xiangqi_endgame::{Position, START_FEN};
/// let p: Position = "4k4/9/9/9/9/9/9/9/4C4/3K5 b".parse().unwrap();
/// // With no weights it is the piece-square evaluation.
/// let zero = ActivityWeights([[0, 0]; ACTIVITY_TERMS]);
/// assert_eq!(activity_eval(&p, &zero), evaluate(&p, EvalKind::PieceSquare));
/// ```
pub fn activity_eval(pos: &Position, w: &crate::eval::activity::ActivityWeights) -> i32 {
    let eg = endgame_phase(pos);
    let terms = crate::eval::activity::activity_terms(pos);
    let [opening, endgame] = w.phase_sums(&terms);
    let activity = (opening * (PHASE_FULL - eg) + endgame * eg)
        / (PHASE_FULL * crate::eval::activity::WEIGHT_UNIT);
    let score = piece_square_raw(pos, eg) + activity;
    scale_for_mating_material(score, mating_material(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{random_games, turned_over as mirrored};
    use rand::SeedableRng;

    #[test]
    fn the_built_in_learned_weights_load_within_their_bounds() {
        let w = learned_weights();
        assert!(w
            .0
            .iter()
            .all(|v| v.abs() <= crate::learn::train::MAX_WEIGHT));
        assert_eq!(w.to_text().parse::<EndgameWeights>().unwrap(), *w);
    }

    #[test]
    fn endgame_evaluations_are_the_same_from_either_side() {
        let mut rng = search_core::SmallRng::seed_from_u64(3);
        let mut seen = 0;
        while seen < 200 {
            let Some(pos) = crate::search::mates::random_endgame(&mut rng) else {
                continue;
            };
            let Ok(other) = std::panic::catch_unwind(|| mirrored(&pos)) else {
                continue;
            };
            for kind in [
                EvalKind::Course,
                EvalKind::Tapered,
                EvalKind::Learned,
                EvalKind::PieceSquare,
                EvalKind::Activity,
                EvalKind::Net,
            ] {
                assert_eq!(
                    evaluate(&pos, kind),
                    -evaluate(&other, kind),
                    "{pos} {kind:?}"
                );
            }
            seen += 1;
        }
    }

    #[test]
    fn activity_terms_are_the_same_from_either_side_along_random_games() {
        use crate::eval::activity::activity_terms;
        random_games(5, 40, 120, |pos, _| {
            let other = mirrored(pos);
            let (a, b) = (activity_terms(pos), activity_terms(&other));
            assert_eq!(a.map(|t| -t), b, "{pos}");
            assert_eq!(
                evaluate(pos, EvalKind::Activity),
                -evaluate(&other, EvalKind::Activity),
                "{pos}"
            );
        });
    }

    #[test]
    fn the_trainers_terms_give_the_evaluation() {
        let mut rng = search_core::SmallRng::seed_from_u64(4);
        for _ in 0..300 {
            let Some(pos) = crate::search::mates::random_endgame(&mut rng) else {
                continue;
            };
            let t = endgame_terms(&pos);
            for w in [&TAPERED_WEIGHTS, learned_weights()] {
                let raw = pos.material() as f64
                    + t.features
                        .iter()
                        .zip(w.0)
                        .map(|(f, w)| f * w as f64)
                        .sum::<f64>();
                let scaled = scale_for_mating_material(raw.round() as i32, t.can_mate);
                // Whole-number division rounds each side's phase-scaled part.
                assert!((scaled - endgame_eval(&pos, w)).abs() <= 2, "{pos}");
            }
        }
    }

    #[test]
    fn bad_weight_files_name_the_line() {
        let e = "chariot 1\nhorse x\n"
            .parse::<EndgameWeights>()
            .unwrap_err();
        assert_eq!(e.to_string(), "2: `x` is not a whole number");
        let e = "chariot 1\nchariot 2\n"
            .parse::<EndgameWeights>()
            .unwrap_err();
        assert_eq!(e.to_string(), "2: `chariot` given twice");
        let e = "cavalry 1\n".parse::<EndgameWeights>().unwrap_err();
        assert_eq!(e.to_string(), "1: unknown weight `cavalry`");
    }
}
