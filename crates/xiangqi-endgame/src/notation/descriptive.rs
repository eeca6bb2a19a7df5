//! What Chinese notation and WXF have in common: a move named by the piece, which of that kind
//! it is (its file, or its place in a column of them: front, middle, rear, or counted from the
//! front), the direction (advance, retreat, traverse) and a number (the file it goes to, or how
//! many ranks it moves). Files are counted from each player's own right, 1 to 9. [`describe`]
//! gives a move's description, with the tandem form where a file would be ambiguous (never for
//! advisors and elephants, whose direction tells two on one file apart);
//! [`resolve`] finds the one legal move a description names.

use crate::board::piece::{Color, Kind};
use crate::board::square::{Move, Square};
use crate::rules::movegen::legal_moves;
use crate::rules::position::Position;

/// Which piece of its kind moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The piece on this file (1..9, from the mover's right).
    File(u8),
    /// The `n`-th (from 1) of `of` pieces of the kind standing on one file, counted from the
    /// mover's front; `file` names the file where pawns stand in tandem on more than one.
    Tandem {
        /// Place from the front, 1-based.
        n: u8,
        /// How many stand on the file.
        of: u8,
        /// The file, when needed to tell two such columns apart (pawns only).
        file: Option<u8>,
    },
}

/// Where the piece goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Forward (進).
    Advance,
    /// Backward (退).
    Retreat,
    /// Sideways along the rank (平).
    Traverse,
}

/// A move as Chinese notation and WXF describe it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptive {
    /// The piece's kind.
    pub kind: Kind,
    /// Which one.
    pub which: Which,
    /// The direction.
    pub action: Action,
    /// The file it goes to (traverses, and advisors, elephants and horses), else the ranks
    /// moved.
    pub number: u8,
}

/// `col`'s file number for `color` (1..9 from that player's right).
pub fn file_of(color: Color, col: usize) -> u8 {
    match color {
        Color::Red => 9 - col as u8,
        Color::Black => col as u8 + 1,
    }
}

/// Whether pieces of `kind` move diagonally (their advance or retreat names a file).
fn diagonal(kind: Kind) -> bool {
    matches!(kind, Kind::Advisor | Kind::Elephant | Kind::Horse)
}

/// `color`'s pieces of `kind` on column `col`, front first (red's front is the top).
fn column(pos: &Position, color: Color, kind: Kind, col: usize) -> Vec<Square> {
    let mut squares: Vec<Square> = (0..10)
        .map(|row| Square::new(row, col))
        .filter(|&s| {
            pos.at(s)
                .is_some_and(|p| p.color == color && p.kind == kind)
        })
        .collect();
    if color == Color::Black {
        squares.reverse();
    }
    squares
}

/// The action and number of a move from `from` to `to` by a piece of `kind` of `color`.
fn motion(color: Color, kind: Kind, from: Square, to: Square) -> (Action, u8) {
    let forward = match color {
        Color::Red => to.row() < from.row(),
        Color::Black => to.row() > from.row(),
    };
    if from.row() == to.row() {
        (Action::Traverse, file_of(color, to.col()))
    } else {
        let action = if forward {
            Action::Advance
        } else {
            Action::Retreat
        };
        let number = if diagonal(kind) {
            file_of(color, to.col())
        } else {
            from.row().abs_diff(to.row()) as u8
        };
        (action, number)
    }
}

/// The description of `mv` in `pos` (whose side moves it); `None` when no piece of the side
/// to move stands on its origin.
pub fn describe(pos: &Position, mv: Move) -> Option<Descriptive> {
    let piece = pos.at(mv.from).filter(|p| p.color == pos.side())?;
    let (color, kind) = (piece.color, piece.kind);
    let (action, number) = motion(color, kind, mv.from, mv.to);
    let here = column(pos, color, kind, mv.from.col());
    // Advisors and elephants keep their file even two on one: the front one can only
    // retreat and the rear one only advance, so the direction tells them apart.
    let which = if here.len() < 2 || matches!(kind, Kind::King | Kind::Advisor | Kind::Elephant) {
        Which::File(file_of(color, mv.from.col()))
    } else {
        let n = here.iter().position(|&s| s == mv.from).unwrap_or(0) as u8 + 1;
        // Pawns may stand in tandem on two files: then the file is named as well.
        let tandem_files = (0..9)
            .filter(|&c| column(pos, color, kind, c).len() >= 2)
            .count();
        let file = (kind == Kind::Pawn && tandem_files > 1).then(|| file_of(color, mv.from.col()));
        Which::Tandem {
            n,
            of: here.len() as u8,
            file,
        }
    };
    Some(Descriptive {
        kind,
        which,
        action,
        number,
    })
}

/// Whether the legal move `mv` fits `d` in `pos`.
fn fits(pos: &Position, mv: Move, d: &Descriptive) -> bool {
    let Some(piece) = pos.at(mv.from) else {
        return false;
    };
    if piece.kind != d.kind || piece.color != pos.side() {
        return false;
    }
    let color = piece.color;
    if motion(color, d.kind, mv.from, mv.to) != (d.action, d.number) {
        return false;
    }
    match d.which {
        Which::File(f) => file_of(color, mv.from.col()) == f,
        Which::Tandem { n, of, file } => {
            if file.is_some_and(|f| file_of(color, mv.from.col()) != f) {
                return false;
            }
            let here = column(pos, color, d.kind, mv.from.col());
            if here.len() < 2 {
                return false;
            }
            // `of` 2 means front/rear: rear is the last, whatever the count.
            let place = here
                .iter()
                .position(|&s| s == mv.from)
                .unwrap_or(usize::MAX)
                + 1;
            match (n, of) {
                (1, _) => place == 1,
                (2, 2) => place == here.len(),
                (2, 3) if here.len() == 3 => place == 2,
                (3, 3) => place == here.len(),
                (n, _) => place == n as usize,
            }
        }
    }
}

/// The legal move `d` names in `pos`, or why there is none (no such move, or more than one).
pub fn resolve(pos: &Position, d: &Descriptive) -> Result<Move, String> {
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    let mut found = moves.into_iter().filter(|m| fits(pos, *m, d));
    match (found.next(), found.next()) {
        (Some(m), None) => Ok(m),
        (None, _) => Err("no legal move fits it".into()),
        (Some(_), Some(_)) => Err("more than one legal move fits it".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tandem(n: u8, of: u8, file: Option<u8>) -> Which {
        Which::Tandem { n, of, file }
    }

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn every_legal_move_of_random_games_is_described_and_resolved_back() {
        use rand::{Rng, SeedableRng};
        for seed in 0..40u64 {
            let mut rng = search_core::SmallRng::seed_from_u64(seed);
            let mut p = pos(crate::rules::fen::START_FEN);
            for _ in 0..120 {
                let mut moves = Vec::new();
                legal_moves(&p, &mut moves);
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let d = describe(&p, m).unwrap();
                    assert_eq!(resolve(&p, &d), Ok(m), "{p} {m} {d:?}");
                }
                p.make(moves[rng.random_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn files_count_from_each_players_right() {
        let p = pos(crate::rules::fen::START_FEN);
        // Red's h2e2 is 炮二平五.
        let d = describe(&p, "h2e2".parse().unwrap()).unwrap();
        assert_eq!(
            (d.kind, d.which, d.action, d.number),
            (Kind::Cannon, Which::File(2), Action::Traverse, 5)
        );
        let mut p = p;
        p.make("h2e2".parse().unwrap());
        // Black's h9g7 is 馬８進７.
        let d = describe(&p, "h9g7".parse().unwrap()).unwrap();
        assert_eq!(
            (d.kind, d.which, d.action, d.number),
            (Kind::Horse, Which::File(8), Action::Advance, 7)
        );
    }

    #[test]
    fn tandem_pieces_are_named_by_their_place() {
        // Two red chariots on file e (red's 5), the front one on e5.
        let p = pos("3k5/9/9/9/4R4/9/9/4R4/9/5K3 w");
        let d = describe(&p, "e5d5".parse().unwrap()).unwrap();
        assert_eq!(d.which, tandem(1, 2, None));
        let d = describe(&p, "e2e1".parse().unwrap()).unwrap();
        assert_eq!(d.which, tandem(2, 2, None));
        // Black's front is the bottom: two black horses on file e, the front one on e3.
        let p = pos("3k5/9/9/9/4n4/9/4n4/9/9/5K3 b");
        let d = describe(&p, "e3c2".parse().unwrap()).unwrap();
        assert_eq!(d.which, tandem(1, 2, None));
        // Three red pawns on a file, and pawns in tandem on two files.
        let p = pos("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w");
        let d = describe(&p, "e5d5".parse().unwrap()).unwrap();
        assert_eq!(d.which, tandem(3, 3, None));
        let p = pos("3k5/9/2P1P4/2P1P4/9/9/9/9/9/5K3 w");
        let d = describe(&p, "c7c8".parse().unwrap()).unwrap();
        assert_eq!(d.which, tandem(1, 2, Some(7)));
        assert_eq!(resolve(&p, &d), Ok("c7c8".parse().unwrap()));
    }

    #[test]
    fn a_description_that_fits_no_move_or_two_is_refused() {
        let p = pos(crate::rules::fen::START_FEN);
        let d = Descriptive {
            kind: Kind::Chariot,
            which: Which::File(1),
            action: Action::Advance,
            number: 5,
        };
        assert!(resolve(&p, &d).is_err());
        // File 5 holds both red chariots: the file alone is ambiguous.
        let p = pos("3k5/9/9/9/4R4/9/9/4R4/9/5K3 w");
        let d = Descriptive {
            kind: Kind::Chariot,
            which: Which::File(5),
            action: Action::Traverse,
            number: 6,
        };
        assert_eq!(
            resolve(&p, &d),
            Err("more than one legal move fits it".into())
        );
    }
}
