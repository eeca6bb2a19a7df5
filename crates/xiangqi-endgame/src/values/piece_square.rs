//! Learned piece-square tables by game phase ([`crate::eval::EvalKind::PieceSquare`]): for each
//! kind of piece and each square, what the piece is worth there beyond the course evaluation,
//! once with every attacking piece on the board (`opening`) and once with none (`endgame`),
//! blended by the phase. The tables are left-right symmetric, so each holds 10 ranks (from
//! the owner's back rank) by 5 files (a to e; f to i mirror d to a). [`crate::Position`] keeps
//! both sums up to date as moves are made, so the evaluation costs a blend and no scan.
//!
//! The built-in tables (`data/piece-square.txt`) are fitted by `xiangqi-endgame train --tables`
//! ([`crate::learn::train_tables::fit_tables`]) to deeper searches of positions from the project's own games.

use crate::board::piece::{Color, Kind, Piece};
use crate::board::square::Square;
use batch::InputError;

/// Ranks and (mirrored) files of one table.
pub const RANKS: usize = 10;
/// Files a to e: the other four mirror them.
pub const FILES: usize = 5;
/// Squares of one table.
pub const CELLS: usize = RANKS * FILES;
/// The two phases: every attacking piece on the board, none.
pub const PHASES: [&str; 2] = ["opening", "endgame"];

/// The kinds' names in the tables file, in [`Kind`] order.
pub const KIND_NAMES: [&str; 7] = [
    "king", "advisor", "elephant", "horse", "chariot", "cannon", "pawn",
];

/// The cell of a `color` piece on `sq`: rank from its owner's back rank, times [`FILES`], plus
/// the file folded onto a..e.
///
/// ```
/// use xiangqi_endgame::{piece_square::cell, Color, Square};
/// // Red's e0 (row 9, column 4) and black's e9 (row 0) are the same cell; a and i mirror.
/// assert_eq!(cell(Color::Red, Square::new(9, 4)), 4);
/// assert_eq!(cell(Color::Black, Square::new(0, 4)), 4);
/// assert_eq!(cell(Color::Red, Square::new(6, 0)), cell(Color::Red, Square::new(6, 8)));
/// ```
#[inline]
pub fn cell(color: Color, sq: Square) -> usize {
    let rank = match color {
        Color::Red => 9 - sq.row(),
        Color::Black => sq.row(),
    };
    rank * FILES + sq.col().min(8 - sq.col())
}

/// The two tables of every kind: `values[kind][phase][cell]`, in the course evaluation's units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceSquareTables {
    /// Per kind ([`Kind`] order), per phase ([`PHASES`]), per [`cell`].
    pub values: [[[i32; CELLS]; 2]; 7],
}

impl Default for PieceSquareTables {
    fn default() -> Self {
        PieceSquareTables {
            values: [[[0; CELLS]; 2]; 7],
        }
    }
}

impl PieceSquareTables {
    /// Reads `KIND PHASE RANK: V V V V V` lines (blank lines and `#` comments skipped): the
    /// five values of files a to e on that rank (0 = the owner's back rank), every kind, phase
    /// and rank exactly once.
    ///
    /// ```
    /// use xiangqi_endgame::piece_square::{PieceSquareTables, KIND_NAMES, PHASES};
    /// let mut text = String::new();
    /// for kind in KIND_NAMES {
    ///     for phase in PHASES {
    ///         for rank in 0..10 {
    ///             text.push_str(&format!("{kind} {phase} {rank}: 1 2 3 4 5\n"));
    ///         }
    ///     }
    /// }
    /// let t: PieceSquareTables = text.parse().unwrap();
    /// assert_eq!(t.values[3][1][4], 5);
    /// assert_eq!(t.to_text().parse::<PieceSquareTables>().unwrap(), t);
    /// assert!("horse opening 0: 1 2 3\n".parse::<PieceSquareTables>().is_err());
    /// ```
    pub fn parse(text: &str) -> Result<PieceSquareTables, InputError> {
        let mut tables = PieceSquareTables::default();
        let mut seen = [[[false; RANKS]; 2]; 7];
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |m: String| InputError::at(i + 1, m);
            let (head, values) = line.split_once(':').ok_or_else(|| {
                err(format!(
                    "expected `KIND PHASE RANK: five values`, found `{line}`"
                ))
            })?;
            let head: Vec<&str> = head.split_whitespace().collect();
            let [kind, phase, rank] = head[..] else {
                return Err(err(format!("expected `KIND PHASE RANK:`, found `{line}`")));
            };
            let k = batch::key_index(&KIND_NAMES, kind, "kind").map_err(err)?;
            let p = PHASES
                .iter()
                .position(|&n| n == phase)
                .ok_or_else(|| err(format!("unknown phase `{phase}` (opening or endgame)")))?;
            let r: usize = rank
                .parse()
                .ok()
                .filter(|&r| r < RANKS)
                .ok_or_else(|| err(format!("`{rank}` is not a rank from 0 to 9")))?;
            let v = batch::whole_numbers(values).map_err(err)?;
            if v.len() != FILES {
                return Err(err(format!(
                    "{} values, expected {FILES} (files a to e)",
                    v.len()
                )));
            }
            if std::mem::replace(&mut seen[k][p][r], true) {
                return Err(err(format!("`{kind} {phase} {rank}` given twice")));
            }
            tables.values[k][p][r * FILES..(r + 1) * FILES].copy_from_slice(&v);
        }
        for (k, kind) in seen.iter().enumerate() {
            for (p, phase) in kind.iter().enumerate() {
                if let Some(r) = phase.iter().position(|&s| !s) {
                    return Err(InputError::at(
                        0,
                        format!("missing `{} {} {r}`", KIND_NAMES[k], PHASES[p]),
                    ));
                }
            }
        }
        Ok(tables)
    }

    /// The tables as [`PieceSquareTables::parse`] reads them.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (k, kind) in KIND_NAMES.iter().enumerate() {
            for (p, phase) in PHASES.iter().enumerate() {
                for r in 0..RANKS {
                    let row = &self.values[k][p][r * FILES..(r + 1) * FILES];
                    let row: Vec<String> = row.iter().map(|v| format!("{v:4}")).collect();
                    out.push_str(&format!("{kind} {phase} {r}: {}\n", row.join(" ")));
                }
            }
        }
        out
    }
}

impl std::str::FromStr for PieceSquareTables {
    type Err = InputError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        PieceSquareTables::parse(text)
    }
}

/// The built-in tables, expanded for [`crate::Position`]'s running sums: per piece
/// ([`Piece::index`]) and square, the (opening, endgame) values with red's sign.
struct Expanded([[[i32; 2]; 90]; 14]);

fn expanded() -> &'static Expanded {
    static EXPANDED: std::sync::OnceLock<Box<Expanded>> = std::sync::OnceLock::new();
    EXPANDED.get_or_init(|| {
        let t = learned();
        let mut e = Box::new(Expanded([[[0; 2]; 90]; 14]));
        for color in [Color::Red, Color::Black] {
            let sign = if color == Color::Red { 1 } else { -1 };
            for (k, kind) in t.values.iter().enumerate() {
                let piece = Piece::new(color, Kind::ALL[k]);
                for i in 0..90u8 {
                    let c = cell(color, Square(i));
                    e.0[piece.index()][i as usize] = [sign * kind[0][c], sign * kind[1][c]];
                }
            }
        }
        e
    })
}

/// The built-in tables: `data/piece-square.txt`, made by `xiangqi-endgame train --tables` (its
/// first lines say from what).
pub fn learned() -> &'static PieceSquareTables {
    static TABLES: std::sync::OnceLock<PieceSquareTables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        include_str!("../../data/piece-square.txt")
            .parse()
            .expect("the built-in tables file is checked by the tests")
    })
}

/// What `p` on `sq` adds to the (opening, endgame) sums under the built-in tables, with red's
/// sign (positive for red).
#[inline]
pub fn worth(p: Piece, sq: Square) -> [i32; 2] {
    expanded().0[p.index()][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_tables_read_and_round_trip() {
        let t = learned();
        assert_eq!(&t.to_text().parse::<PieceSquareTables>().unwrap(), t);
    }

    #[test]
    fn bad_lines_are_named() {
        let e = "horse middle 0: 1 2 3 4 5\n"
            .parse::<PieceSquareTables>()
            .unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("unknown phase"), "{}", e.message);
        let e = "# tables\nhorse opening 10: 1 2 3 4 5\n"
            .parse::<PieceSquareTables>()
            .unwrap_err();
        assert_eq!(e.line, 2);
        let e = "".parse::<PieceSquareTables>().unwrap_err();
        assert!(
            e.message.contains("missing `king opening 0`"),
            "{}",
            e.message
        );
    }

    /// The sums from scratch: every piece on the board looked up.
    fn sums(pos: &crate::rules::position::Position) -> [i32; 2] {
        let mut total = [0; 2];
        for (i, p) in pos.board().iter().enumerate() {
            if let Some(p) = p {
                let [o, e] = worth(*p, Square(i as u8));
                total[0] += o;
                total[1] += e;
            }
        }
        total
    }

    #[test]
    fn the_running_sums_follow_moves_and_take_backs() {
        use rand::{Rng, SeedableRng};
        let mut rng = search_core::SmallRng::seed_from_u64(9);
        let mut legal = Vec::new();
        for _ in 0..20 {
            let mut pos: crate::rules::position::Position =
                crate::rules::fen::START_FEN.parse().unwrap();
            let mut seen = vec![pos.piece_square()];
            for _ in 0..120 {
                legal.clear();
                crate::rules::movegen::legal_moves(&pos, &mut legal);
                if legal.is_empty() {
                    break;
                }
                pos.make(legal[rng.random_range(0..legal.len())]);
                assert_eq!(pos.piece_square(), sums(&pos), "{pos}");
                seen.push(pos.piece_square());
            }
            while pos.ply() > 0 {
                seen.pop();
                pos.unmake();
                assert_eq!(Some(&pos.piece_square()), seen.last());
            }
            let fresh: crate::rules::position::Position = pos.to_string().parse().unwrap();
            assert_eq!(fresh.piece_square(), pos.piece_square());
        }
    }

    #[test]
    fn worth_is_mirrored_between_colours_and_files() {
        for k in Kind::ALL {
            for i in 0..90u8 {
                let sq = Square(i);
                let flipped = Square::new(9 - sq.row(), 8 - sq.col());
                let red = worth(Piece::new(Color::Red, k), sq);
                let black = worth(Piece::new(Color::Black, k), flipped);
                assert_eq!(red, [-black[0], -black[1]]);
                let mirrored = Square::new(sq.row(), 8 - sq.col());
                assert_eq!(red, worth(Piece::new(Color::Red, k), mirrored));
            }
        }
    }
}
