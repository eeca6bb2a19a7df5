//! Legal move generation under the standard rules (spec §6.1).
//!
//! Pseudo-legal moves per piece (horse legs and elephant eyes blocking, palace and river limits,
//! cannon screens, pawns sideways only across the river), then a legality filter: a move is
//! legal when afterwards the mover's king is not attacked, the flying-general rule included.
//! The filter looks at the board *as if* the move had been made (an overlay of two squares), so
//! generation needs no mutation and no copy; and it looks only where a move can matter: out of
//! check, only moves of the king, of a piece on one of its lines whose removal lets an enemy
//! chariot, king or cannon through, off a horse's leg next to it with an enemy horse behind,
//! or setting down a screen for an enemy cannon facing it can expose it (`exposure_masks`), so
//! most moves need no test at all. A side with no legal move has lost.

use crate::board::piece::{Color, Kind, Piece};
use crate::board::square::{Move, Square};
use crate::rules::position::Position;

const ORTHO: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
/// Horse jumps as (row, col) deltas.
pub(crate) const HORSE: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Whether `sq` is inside `color`'s palace (columns 3..5, rows 7..9 for red, 0..2 for black).
#[inline]
pub fn in_palace(color: Color, sq: Square) -> bool {
    let (r, c) = (sq.row(), sq.col());
    (3..=5).contains(&c)
        && match color {
            Color::Red => r >= 7,
            Color::Black => r <= 2,
        }
}

pub use crate::board::square::own_side;

/// The row step of `color`'s pawns going forward.
#[inline]
pub fn forward(color: Color) -> i32 {
    match color {
        Color::Red => -1,
        Color::Black => 1,
    }
}

/// The board seen through a move that has not been made: `from` empty, `to` holding `piece`.
#[derive(Clone, Copy)]
struct View<'a> {
    board: &'a [Option<Piece>; 90],
    from: usize,
    to: usize,
    piece: Option<Piece>,
}

impl View<'_> {
    #[inline]
    fn at(&self, sq: Square) -> Option<Piece> {
        let i = sq.index();
        if i == self.to {
            self.piece
        } else if i == self.from {
            None
        } else {
            self.board[i]
        }
    }
}

/// Whether `target` (a king) would be attacked by `by` in the view.
#[inline]
fn attacked(v: &View, target: Square, by: Color) -> bool {
    attacked_by::<true>(v, target, by)
}

/// Whether a piece of `by` could capture on `target` in the view. With `KING_TARGET` the target
/// is a king: the other king attacks it along a clear file (the flying general), and advisors
/// and elephants, which never reach a king, are not looked at; without it, the king, the
/// advisors and the elephants attack the squares they move to.
fn attacked_by<const KING_TARGET: bool>(v: &View, target: Square, by: Color) -> bool {
    let (tr, tc) = (target.row() as i32, target.col() as i32);
    if !KING_TARGET {
        let piece_at = |dr: i32, dc: i32, kind: Kind| {
            Square::at(tr + dr, tc + dc).is_some_and(|s| v.at(s) == Some(Piece::new(by, kind)))
        };
        if in_palace(by, target)
            && (ORTHO.iter().any(|&(dr, dc)| piece_at(dr, dc, Kind::King))
                || DIAG.iter().any(|&(dr, dc)| piece_at(dr, dc, Kind::Advisor)))
        {
            return true;
        }
        if own_side(by, target)
            && DIAG.iter().any(|&(dr, dc)| {
                piece_at(2 * dr, 2 * dc, Kind::Elephant)
                    && v.at(Square::new((tr + dr) as usize, (tc + dc) as usize))
                        .is_none()
            })
        {
            return true;
        }
    }
    // Chariots, cannons and (for a king target) the facing king along the four lines.
    for (dr, dc) in ORTHO {
        let (mut r, mut c) = (tr + dr, tc + dc);
        let mut screens = 0;
        while (0..10).contains(&r) && (0..9).contains(&c) {
            if let Some(p) = v.at(Square::new(r as usize, c as usize)) {
                if screens == 0 {
                    if p.color == by
                        && (p.kind == Kind::Chariot
                            || KING_TARGET && p.kind == Kind::King && dc == 0)
                    {
                        return true;
                    }
                    screens = 1;
                } else {
                    if p.color == by && p.kind == Kind::Cannon {
                        return true;
                    }
                    break;
                }
            }
            r += dr;
            c += dc;
        }
    }
    // Horses: a horse at target - jump attacks unless its leg is blocked.
    for (dr, dc) in HORSE {
        if let Some(h) = Square::at(tr - dr, tc - dc) {
            if v.at(h) == Some(Piece::new(by, Kind::Horse)) {
                let leg = if dr.abs() == 2 {
                    (dr / 2, 0)
                } else {
                    (0, dc / 2)
                };
                let leg = Square::new(
                    (h.row() as i32 + leg.0) as usize,
                    (h.col() as i32 + leg.1) as usize,
                );
                if v.at(leg).is_none() {
                    return true;
                }
            }
        }
    }
    // Pawns: from behind (their forward step) or, once across the river, from the side.
    let pawn = Some(Piece::new(by, Kind::Pawn));
    if let Some(s) = Square::at(tr - forward(by), tc) {
        if v.at(s) == pawn {
            return true;
        }
    }
    for dc in [-1, 1] {
        if let Some(s) = Square::at(tr, tc + dc) {
            if v.at(s) == pawn && !own_side(by, s) {
                return true;
            }
        }
    }
    false
}

/// Whether the side to move's king is attacked (in check) now.
pub fn in_check(pos: &Position) -> bool {
    let side = pos.side();
    match pos.king(side) {
        Some(k) => attacked(
            &View {
                board: pos.board(),
                from: 90,
                to: 90,
                piece: None,
            },
            k,
            side.opposite(),
        ),
        None => false,
    }
}

/// Whether `mv` (pseudo-legal for the side to move) keeps the mover's king safe.
#[inline]
pub fn is_legal(pos: &Position, mv: Move) -> bool {
    let piece = pos.at(mv.from);
    let side = pos.side();
    let view = View {
        board: pos.board(),
        from: mv.from.index(),
        to: mv.to.index(),
        piece,
    };
    let king = if piece.is_some_and(|p| p.kind == Kind::King) {
        Some(mv.to)
    } else {
        pos.king(side)
    };
    match king {
        Some(k) => !attacked(&view, k, side.opposite()),
        None => true,
    }
}

/// Whether, after `mv` (a move of the side to move), the piece it moved could be taken on its
/// new square: some enemy piece attacks that square with the board as the move leaves it. With
/// the values of the pieces, the cheap half of a static exchange: a capture by a piece worth
/// more than its victim onto a defended square usually loses material.
///
/// ```
/// use xiangqi_endgame::{movegen, Move, Position};
/// // The chariot takes a pawn that the black elephant defends...
/// let p: Position = "4k4/9/4b4/9/2p6/9/9/9/9/2RK5 w".parse().unwrap();
/// assert!(movegen::lands_attacked(&p, "c0c5".parse::<Move>().unwrap()));
/// // ...or one that nothing defends.
/// let p: Position = "4k4/9/9/9/p8/9/9/9/9/R2K5 w".parse().unwrap();
/// assert!(!movegen::lands_attacked(&p, "a0a5".parse::<Move>().unwrap()));
/// ```
pub fn lands_attacked(pos: &Position, mv: Move) -> bool {
    let view = View {
        board: pos.board(),
        from: mv.from.index(),
        to: mv.to.index(),
        piece: pos.at(mv.from),
    };
    attacked_by::<false>(&view, mv.to, pos.side().opposite())
}

/// Appends the pseudo-legal moves (standard piece rules, king safety not checked) of the side
/// to move.
pub fn pseudo_legal(pos: &Position, out: &mut Vec<Move>) {
    side_moves::<false>(pos, out);
}

/// Appends the pseudo-legal moves of every piece of the side to move, in board order (with
/// `CAPTURES`, only the captures).
fn side_moves<const CAPTURES: bool>(pos: &Position, out: &mut Vec<Move>) {
    let side = pos.side();
    for i in 0..90u8 {
        let from = Square(i);
        match pos.at(from) {
            Some(p) if p.color == side => piece_moves::<CAPTURES>(pos, from, p, out),
            _ => {}
        }
    }
}

/// Appends the legal moves of the side to move.
///
/// ```
/// use xiangqi_endgame::{movegen, Position, START_FEN};
/// let p: Position = START_FEN.parse().unwrap();
/// let mut moves = Vec::new();
/// movegen::legal_moves(&p, &mut moves);
/// assert_eq!(moves.len(), 44);
/// ```
pub fn legal_moves(pos: &Position, out: &mut Vec<Move>) {
    let start = out.len();
    pseudo_legal(pos, out);
    retain_legal(pos, out, start);
}

/// Appends the legal captures of the side to move (for quiescence searches).
///
/// ```
/// use xiangqi_endgame::{movegen, Position, START_FEN};
/// let p: Position = START_FEN.parse().unwrap();
/// let mut moves = Vec::new();
/// movegen::legal_captures(&p, &mut moves);
/// assert_eq!(moves.len(), 2); // the cannons take the horses
/// ```
pub fn legal_captures(pos: &Position, out: &mut Vec<Move>) {
    let start = out.len();
    side_moves::<true>(pos, out);
    retain_legal(pos, out, start);
}

/// Moves the captures of `moves` (moves of `pos`) to the front, keeping the order within
/// captures and within quiet moves (a stable partition, in place); returns how many there are.
///
/// ```
/// use xiangqi_endgame::{movegen, Position};
/// let p: Position = "3k5/9/9/9/p8/9/9/9/9/R3K4 w".parse().unwrap();
/// let mut moves = Vec::new();
/// movegen::legal_moves(&p, &mut moves);
/// let n = movegen::captures_first(&p, &mut moves);
/// assert_eq!(n, 1);
/// assert_eq!(moves[0].to_string(), "a0a5");
/// ```
pub fn captures_first(pos: &Position, moves: &mut [Move]) -> usize {
    let mut captures = 0;
    for i in 0..moves.len() {
        if pos.at(moves[i].to).is_some() {
            moves[captures..=i].rotate_right(1);
            captures += 1;
        }
    }
    captures
}

/// Number of legal moves.
pub fn count_legal(pos: &Position, buf: &mut Vec<Move>) -> usize {
    buf.clear();
    legal_moves(pos, buf);
    buf.len()
}

/// Keeps the legal moves of `out[start..]` (pseudo-legal moves of the side to move), in order.
fn retain_legal(pos: &Position, out: &mut Vec<Move>, start: usize) {
    let side = pos.side();
    let Some(king) = pos.king(side) else {
        return; // no king to expose: every move stands
    };
    let (from_mask, to_mask, checked) = exposure_masks(pos, king, side);
    let bit = |sq: Square| 1u128 << sq.index();
    let mut keep = start;
    for i in start..out.len() {
        let m = out[i];
        let risky = checked || from_mask & bit(m.from) != 0 || to_mask & bit(m.to) != 0;
        if !risky || is_legal(pos, m) {
            out[keep] = m;
            keep += 1;
        }
    }
    out.truncate(keep);
}

/// Where a move must start (`from` mask) or end (`to` mask) to possibly expose the king, out
/// of check. Along each line from the king, only the first three pieces matter: taking away the
/// first exposes the king if the second is an enemy chariot (or the other king, on the file)
/// or the third an enemy cannon; taking away the second, if the third is an enemy cannon. A
/// piece set down nearer to the king than the first piece makes a screen, which matters only if
/// that first piece is an enemy cannon. Horses attack over a leg diagonally next to the king,
/// so leaving a leg matters only with an enemy horse behind it; pawns' attacks do not depend on
/// other pieces. The king's own moves start on its square. The same scan tells
/// whether the king is in check now (the third value).
fn exposure_masks(pos: &Position, king: Square, side: Color) -> (u128, u128, bool) {
    let bit = |sq: Square| 1u128 << sq.index();
    let enemy = |p: Option<Piece>, kind: Kind| p == Some(Piece::new(side.opposite(), kind));
    let mut from = bit(king);
    let mut to = 0u128;
    let mut checked = false;
    for (dr, dc) in ORTHO {
        // The empty squares before the first piece, and the first three pieces of the line.
        let mut empty_run = 0u128;
        let mut pieces: [(Square, Option<Piece>); 3] = [(king, None); 3];
        let mut found = 0;
        let mut sq = king.offset(dr, dc);
        while let Some(t) = sq {
            match pos.at(t) {
                None if found == 0 => empty_run |= bit(t),
                None => {}
                Some(p) => {
                    pieces[found] = (t, Some(p));
                    found += 1;
                    if found == 3 {
                        break;
                    }
                }
            }
            sq = t.offset(dr, dc);
        }
        let [(s1, p1), (s2, p2), (_, p3)] = pieces;
        // Attacks now: a chariot (or, on the file, the other king) first, a cannon second.
        let slider = |p: Option<Piece>| enemy(p, Kind::Chariot) || dc == 0 && enemy(p, Kind::King);
        checked |= slider(p1) || enemy(p2, Kind::Cannon);
        // Taking the first piece away lets the second attack if it slides, or the third if it
        // is a cannon; taking the second away gives a third that is a cannon its one screen.
        if slider(p2) || enemy(p3, Kind::Cannon) {
            from |= bit(s1);
        }
        if enemy(p3, Kind::Cannon) {
            from |= bit(s2);
        }
        // A piece set down before an enemy cannon that is first is the cannon's screen.
        if enemy(p1, Kind::Cannon) {
            to |= empty_run;
        }
    }
    // A piece leaving a square diagonally next to the king unblocks the horses that would jump
    // over it: those two squares further on.
    for (dr, dc) in DIAG {
        let Some(leg) = king.offset(dr, dc) else {
            continue;
        };
        let horse_behind = [leg.offset(dr, 0), leg.offset(0, dc)]
            .into_iter()
            .flatten()
            .any(|h| enemy(pos.at(h), Kind::Horse));
        if horse_behind {
            from |= bit(leg);
        }
    }
    if !checked {
        checked = attacked_by_horse_or_pawn(pos, king, side.opposite());
    }
    (from, to, checked)
}

/// Whether a horse or a pawn of `by` attacks `target` (the line attacks are found by the scan
/// of [`exposure_masks`]).
fn attacked_by_horse_or_pawn(pos: &Position, target: Square, by: Color) -> bool {
    let (tr, tc) = (target.row() as i32, target.col() as i32);
    for (dr, dc) in HORSE {
        if let Some(h) = Square::at(tr - dr, tc - dc) {
            if pos.at(h) == Some(Piece::new(by, Kind::Horse)) {
                let leg = if dr.abs() == 2 {
                    (h.row() as i32 + dr / 2, h.col() as i32)
                } else {
                    (h.row() as i32, h.col() as i32 + dc / 2)
                };
                if pos
                    .at(Square::new(leg.0 as usize, leg.1 as usize))
                    .is_none()
                {
                    return true;
                }
            }
        }
    }
    let pawn = Some(Piece::new(by, Kind::Pawn));
    if Square::at(tr - forward(by), tc).is_some_and(|s| pos.at(s) == pawn) {
        return true;
    }
    [-1, 1]
        .into_iter()
        .any(|dc| Square::at(tr, tc + dc).is_some_and(|s| pos.at(s) == pawn && !own_side(by, s)))
}

/// Pushes the move to `to` unless an own piece stands there (with `CAPTURES`, only onto an
/// enemy piece).
#[inline]
fn push_if<const CAPTURES: bool>(
    pos: &Position,
    side: Color,
    from: Square,
    to: Option<Square>,
    out: &mut Vec<Move>,
) {
    if let Some(to) = to {
        let ok = match pos.at(to) {
            None => !CAPTURES,
            Some(q) => q.color != side,
        };
        if ok {
            out.push(Move::new(from, to));
        }
    }
}

/// The pseudo-legal moves of the piece `p` on `from` (with `CAPTURES`, only its captures).
#[inline]
fn piece_moves<const CAPTURES: bool>(pos: &Position, from: Square, p: Piece, out: &mut Vec<Move>) {
    let side = p.color;
    match p.kind {
        Kind::King => {
            for (dr, dc) in ORTHO {
                let to = from.offset(dr, dc).filter(|&t| in_palace(side, t));
                push_if::<CAPTURES>(pos, side, from, to, out);
            }
        }
        Kind::Advisor => {
            for (dr, dc) in DIAG {
                let to = from.offset(dr, dc).filter(|&t| in_palace(side, t));
                push_if::<CAPTURES>(pos, side, from, to, out);
            }
        }
        Kind::Elephant => {
            for (dr, dc) in DIAG {
                if let (Some(eye), Some(to)) = (from.offset(dr, dc), from.offset(2 * dr, 2 * dc)) {
                    if pos.at(eye).is_none() && own_side(side, to) {
                        push_if::<CAPTURES>(pos, side, from, Some(to), out);
                    }
                }
            }
        }
        Kind::Horse => {
            for (dr, dc) in HORSE {
                let leg = if dr.abs() == 2 {
                    from.offset(dr / 2, 0)
                } else {
                    from.offset(0, dc / 2)
                };
                if let (Some(leg), Some(to)) = (leg, from.offset(dr, dc)) {
                    if pos.at(leg).is_none() {
                        push_if::<CAPTURES>(pos, side, from, Some(to), out);
                    }
                }
            }
        }
        Kind::Chariot | Kind::Cannon => {
            let cannon = p.kind == Kind::Cannon;
            for (dr, dc) in ORTHO {
                let mut to = from.offset(dr, dc);
                let mut screened = false;
                while let Some(t) = to {
                    match pos.at(t) {
                        None => {
                            if !screened && !CAPTURES {
                                out.push(Move::new(from, t));
                            }
                        }
                        Some(q) => {
                            if cannon && !screened {
                                screened = true;
                            } else {
                                if q.color != side {
                                    out.push(Move::new(from, t));
                                }
                                break;
                            }
                        }
                    }
                    to = t.offset(dr, dc);
                }
            }
        }
        Kind::Pawn => {
            push_if::<CAPTURES>(pos, side, from, from.offset(forward(side), 0), out);
            if !own_side(side, from) {
                push_if::<CAPTURES>(pos, side, from, from.offset(0, -1), out);
                push_if::<CAPTURES>(pos, side, from, from.offset(0, 1), out);
            }
        }
    }
}
