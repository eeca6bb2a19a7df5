//! The course's evaluation (spec §7.1): for each side, the sum over its pieces of the piece value
//! and the position-table value; the score is red minus black.
//!
//! Position tables are laid out `[file][rank from the owner's back rank]`: a red piece on row r,
//! column c reads `table[c][9 - r]`, a black piece `table[c][r]`. The `threats` variant adds the
//! framework's "next-move values" (行棋可能性): for every enemy piece a side could capture with
//! a legal move right now, the value listed for the victim's kind (king 9999, i.e. giving check;
//! chariot 500; horse and cannon 100; pawn −20; advisor and elephant 0, as the framework's map
//! has no entry for them).

use crate::movegen::pseudo_legal;
use crate::piece::{Color, Kind};
use crate::position::Position;
use crate::square::Square;
use crate::tables::*;

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
}

/// Framework piece values.
pub fn piece_value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 10_000,
        Kind::Advisor => 10,
        Kind::Elephant => 30,
        Kind::Horse => 300,
        Kind::Chariot => 500,
        Kind::Cannon => 300,
        Kind::Pawn => 90,
    }
}

/// Framework next-move values (0 for advisor and elephant).
pub fn next_move_value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 9999,
        Kind::Horse => 100,
        Kind::Chariot => 500,
        Kind::Cannon => 100,
        Kind::Pawn => -20,
        Kind::Advisor | Kind::Elephant => 0,
    }
}

fn table(kind: Kind) -> &'static [[i32; 10]; 9] {
    match kind {
        Kind::King => &KING_TABLE,
        Kind::Advisor => &ADVISOR_TABLE,
        Kind::Elephant => &ELEPHANT_TABLE,
        Kind::Horse => &HORSE_TABLE,
        Kind::Chariot => &CHARIOT_TABLE,
        Kind::Cannon => &CANNON_TABLE,
        Kind::Pawn => &PAWN_TABLE,
    }
}

/// The position-table value of a `color` `kind` on `sq`.
///
/// ```
/// use xiangqi_endgame::{eval::position_value, Color, Kind, Square};
/// // The red king's home square e0 (row 9, column 4) is worth 5; black's e9 (row 0) too.
/// assert_eq!(position_value(Color::Red, Kind::King, Square::new(9, 4)), 5);
/// assert_eq!(position_value(Color::Black, Kind::King, Square::new(0, 4)), 5);
/// ```
#[inline]
pub fn position_value(color: Color, kind: Kind, sq: Square) -> i32 {
    let rank = match color {
        Color::Red => 9 - sq.row(),
        Color::Black => sq.row(),
    };
    table(kind)[sq.col()][rank]
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
        EvalKind::Tapered => return tapered(pos),
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
const PHASE_FULL: i32 = 32;
/// What a horse gains, a cannon loses and a pawn across the river gains in a bare endgame
/// (scaled by how far the phase has gone): with few pieces left a cannon lacks screens while a
/// horse has room, and a crossed pawn is a real attacker.
const HORSE_ENDGAME_GAIN: i32 = 30;
const CANNON_ENDGAME_LOSS: i32 = 30;
const CROSSED_PAWN_ENDGAME_GAIN: i32 = 30;
/// What each missing advisor / elephant costs per unit of enemy attack (a chariot counts two,
/// a horse, cannon or crossed pawn one).
const ADVISOR_SHIELD: i32 = 8;
const ELEPHANT_SHIELD: i32 = 6;
/// A lead held by a side without mating material counts this fraction (1/16).
const NO_MATING_MATERIAL_SHIFT: u32 = 4;

/// `color`'s attack on the enemy king: chariots count two, horses, cannons and crossed pawns one.
fn attack_units(pos: &Position, color: Color) -> i32 {
    (2 * pos.count_of(color, Kind::Chariot)
        + pos.count_of(color, Kind::Horse)
        + pos.count_of(color, Kind::Cannon)
        + pos.crossed_pawns(color)) as i32
}

/// Whether `color` has the material to mate at all: a chariot, horse or pawn, or a cannon with
/// another piece beside the king (a lone cannon has no screen against a bare king).
fn can_mate(pos: &Position, color: Color) -> bool {
    let n = |k| pos.count_of(color, k);
    n(Kind::Chariot) + n(Kind::Horse) + n(Kind::Pawn) > 0
        || n(Kind::Cannon) > 0 && n(Kind::Cannon) + n(Kind::Advisor) + n(Kind::Elephant) >= 2
}

/// [`EvalKind::Tapered`]: the course evaluation plus the endgame terms, from red's side. All
/// its inputs are kept by [`Position`] as moves are made, so it costs a few additions.
///
/// ```
/// use xiangqi_endgame::{eval::{evaluate, EvalKind}, Position, START_FEN};
/// // The start is symmetric.
/// let p: Position = START_FEN.parse().unwrap();
/// assert_eq!(evaluate(&p, EvalKind::Tapered), 0);
/// // A cannon and a king cannot mate a bare king: red's lead counts a sixteenth.
/// let p: Position = "4k4/9/9/9/9/9/9/9/4C4/4K4 w".parse().unwrap();
/// assert_eq!(evaluate(&p, EvalKind::Tapered), evaluate(&p, EvalKind::Course) / 16);
/// ```
fn tapered(pos: &Position) -> i32 {
    let phase = [Color::Red, Color::Black]
        .iter()
        .map(|&c| {
            (4 * pos.count_of(c, Kind::Chariot)
                + 2 * pos.count_of(c, Kind::Horse)
                + 2 * pos.count_of(c, Kind::Cannon)) as i32
        })
        .sum::<i32>()
        .min(PHASE_FULL);
    let endgame = PHASE_FULL - phase;
    let side_terms = |color: Color| {
        let n = |k| pos.count_of(color, k) as i32;
        let late = HORSE_ENDGAME_GAIN * n(Kind::Horse) - CANNON_ENDGAME_LOSS * n(Kind::Cannon)
            + CROSSED_PAWN_ENDGAME_GAIN * pos.crossed_pawns(color) as i32;
        let missing = ADVISOR_SHIELD * (2 - n(Kind::Advisor)).max(0)
            + ELEPHANT_SHIELD * (2 - n(Kind::Elephant)).max(0);
        late * endgame / PHASE_FULL - missing * attack_units(pos, color.opposite())
    };
    let score = pos.material() + side_terms(Color::Red) - side_terms(Color::Black);
    let leader = if score > 0 { Color::Red } else { Color::Black };
    if score != 0 && !can_mate(pos, leader) {
        score / (1 << NO_MATING_MATERIAL_SHIFT)
    } else {
        score
    }
}
