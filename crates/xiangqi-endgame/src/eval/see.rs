//! Static exchange evaluation: what a capture wins or loses in material once both sides have
//! taken back on its square as long as it pays, each time with their least valuable piece.
//! The engine orders captures by it (losing ones after the quiet moves) and its quiescence
//! search skips the captures it calls losing. Pins and checks are ignored, as usual: it is a
//! fast guess, not a search.

use crate::board::piece::{Color, Kind, Piece};
use crate::board::square::{Move, Square};
use crate::rules::movegen::{forward, in_palace, own_side, HORSE};
use crate::rules::position::Position;

/// Material values of the exchange, in hundredths of a pawn: the usual proportions of
/// xiangqi engines (advisors and elephants twice a pawn, horses four, cannons four and a half,
/// chariots ten), not the course's values, which rate a defender below a pawn.
#[inline]
pub fn exchange_value(kind: Kind) -> i32 {
    match kind {
        Kind::Pawn => 100,
        Kind::Advisor | Kind::Elephant => 200,
        Kind::Horse => 400,
        Kind::Cannon => 450,
        Kind::Chariot => 1000,
        Kind::King => 20_000,
    }
}

/// The material the side to move gains by `mv` (a capture or not) and the best sequence of
/// recaptures on its square: positive wins, negative loses.
///
/// ```
/// use xiangqi_endgame::{see::static_exchange, Move, Position};
/// // The chariot takes a pawn the elephant defends: it wins a pawn and loses a chariot.
/// let p: Position = "4k4/9/4b4/9/2p6/9/9/9/9/2RK5 w".parse().unwrap();
/// assert_eq!(static_exchange(&p, "c0c5".parse::<Move>().unwrap()), 100 - 1000);
/// // An undefended pawn is a pawn.
/// let p: Position = "4k4/9/9/9/p8/9/9/9/9/R2K5 w".parse().unwrap();
/// assert_eq!(static_exchange(&p, "a0a5".parse::<Move>().unwrap()), 100);
/// ```
pub fn static_exchange(pos: &Position, mv: Move) -> i32 {
    let mut board = *pos.board();
    let Some(mover) = board[mv.from.index()] else {
        return 0;
    };
    let target = mv.to;
    // gains[d]: the material of the side making capture d, if the exchange stopped after it.
    let mut gains = [0i32; 34];
    gains[0] = board[target.index()].map_or(0, |p| exchange_value(p.kind));
    board[mv.from.index()] = None;
    board[target.index()] = Some(mover);
    let mut on_target = mover.kind;
    let mut side = mover.color.opposite();
    let mut d = 0;
    while let Some(from) = least_valuable_attacker(&board, target, side) {
        let attacker = board[from.index()].expect("an attacker stands on its square");
        if attacker.kind == Kind::King {
            // A king may only take a piece nothing defends.
            let mut after = board;
            after[from.index()] = None;
            after[target.index()] = Some(attacker);
            if least_valuable_attacker(&after, target, side.opposite()).is_some() {
                break;
            }
        }
        d += 1;
        gains[d] = exchange_value(on_target) - gains[d - 1];
        board[from.index()] = None;
        board[target.index()] = Some(attacker);
        on_target = attacker.kind;
        side = side.opposite();
    }
    // Each side may decline to take back: fold the sequence from its end.
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}

/// Whether `mv` loses material by its static exchange, the cheap tests first: a capture of a
/// piece worth at least the capturer's, or onto a square no enemy piece attacks, never does
/// (the exchange is worth at least the victim less the capturer), so most captures need no
/// exchange worked out.
///
/// ```
/// use xiangqi_endgame::{see::loses_material, Move, Position};
/// let p: Position = "4k4/9/4b4/9/2p6/9/9/9/9/2RK5 w".parse().unwrap();
/// assert!(loses_material(&p, "c0c5".parse::<Move>().unwrap()));
/// ```
pub fn loses_material(pos: &Position, mv: Move) -> bool {
    material_lost(pos, mv) > 0
}

/// How much material `mv` loses by its static exchange (0 when it loses none), with the cheap
/// tests of [`loses_material`] first.
///
/// ```
/// use xiangqi_endgame::{see::material_lost, Move, Position};
/// let p: Position = "4k4/9/4b4/9/2p6/9/9/9/9/2RK5 w".parse().unwrap();
/// assert_eq!(material_lost(&p, "c0c5".parse::<Move>().unwrap()), 1000 - 100);
/// ```
pub fn material_lost(pos: &Position, mv: Move) -> i32 {
    let value = |sq: Square| pos.at(sq).map_or(0, |p| exchange_value(p.kind));
    if value(mv.to) < value(mv.from) && crate::rules::movegen::lands_attacked(pos, mv) {
        (-static_exchange(pos, mv)).max(0)
    } else {
        0
    }
}

/// The square of `by`'s least valuable piece that could capture on `target` in `board`
/// (standard piece rules, king safety not checked); `None` when none can.
pub fn least_valuable_attacker(
    board: &[Option<Piece>; 90],
    target: Square,
    by: Color,
) -> Option<Square> {
    let (tr, tc) = (target.row() as i32, target.col() as i32);
    let holds = |s: Square, kind: Kind| board[s.index()] == Some(Piece::new(by, kind));
    let empty = |r: i32, c: i32| board[Square::new(r as usize, c as usize).index()].is_none();
    // Pawns: from behind their forward step, or from the side once across the river.
    if let Some(s) = Square::at(tr - forward(by), tc).filter(|&s| holds(s, Kind::Pawn)) {
        return Some(s);
    }
    for dc in [-1, 1] {
        if let Some(s) = Square::at(tr, tc + dc) {
            if holds(s, Kind::Pawn) && !own_side(by, s) {
                return Some(s);
            }
        }
    }
    if in_palace(by, target) {
        for (dr, dc) in [(1, 1), (1, -1), (-1, -1), (-1, 1)] {
            if let Some(s) = Square::at(tr + dr, tc + dc).filter(|&s| holds(s, Kind::Advisor)) {
                return Some(s);
            }
        }
    }
    if own_side(by, target) {
        for (dr, dc) in [(1, 1), (1, -1), (-1, -1), (-1, 1)] {
            if let Some(s) = Square::at(tr + 2 * dr, tc + 2 * dc) {
                if holds(s, Kind::Elephant) && empty(tr + dr, tc + dc) {
                    return Some(s);
                }
            }
        }
    }
    for (dr, dc) in HORSE {
        if let Some(h) = Square::at(tr - dr, tc - dc) {
            let (lr, lc) = if dr.abs() == 2 {
                (dr / 2, 0)
            } else {
                (0, dc / 2)
            };
            if holds(h, Kind::Horse) && empty(h.row() as i32 + lr, h.col() as i32 + lc) {
                return Some(h);
            }
        }
    }
    // Along the four lines: the first piece met (a chariot) and the second (a cannon).
    let mut chariot = None;
    for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        let (mut r, mut c) = (tr + dr, tc + dc);
        let mut screened = false;
        while let Some(s) = Square::at(r, c) {
            if board[s.index()].is_some() {
                if screened {
                    if holds(s, Kind::Cannon) {
                        return Some(s);
                    }
                    break;
                }
                if holds(s, Kind::Chariot) {
                    chariot = chariot.or(Some(s));
                }
                screened = true;
            }
            r += dr;
            c += dc;
        }
    }
    if chariot.is_some() {
        return chariot;
    }
    if in_palace(by, target) {
        for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            if let Some(s) = Square::at(tr + dr, tc + dc).filter(|&s| holds(s, Kind::King)) {
                return Some(s);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::pseudo_legal;
    use crate::rules::testing::random_games;

    /// The exchange the slow obvious way: the side to move lists its pseudo-legal moves onto
    /// the square, makes one with its least valuable piece, and decides by recursion whether
    /// taking back pays. Where two pieces of that value could take (two chariots, say), which
    /// one goes first can matter (one may be the screen of an enemy cannon): the answer is the
    /// range of values over those choices.
    fn slow_exchange(pos: &mut Position, target: Square) -> (i32, i32) {
        let mut moves = Vec::new();
        pseudo_legal(pos, &mut moves);
        let victim = match pos.at(target) {
            Some(p) if p.color != pos.side() => exchange_value(p.kind),
            _ => return (0, 0),
        };
        moves.retain(|m| m.to == target);
        let value = |m: &Move| exchange_value(pos.at(m.from).unwrap().kind);
        let Some(least) = moves.iter().map(value).min() else {
            return (0, 0);
        };
        moves.retain(|m| value(m) == least);
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        for mv in moves {
            let king_takes = pos.at(mv.from).unwrap().kind == Kind::King;
            pos.make(mv);
            let mut replies = Vec::new();
            pseudo_legal(pos, &mut replies);
            let defended = replies.iter().any(|m| m.to == target);
            let (l, h) = if king_takes && defended {
                (0, 0)
            } else {
                let (rl, rh) = slow_exchange(pos, target);
                ((victim - rh).max(0), (victim - rl).max(0))
            };
            pos.unmake();
            (lo, hi) = (lo.min(l), hi.max(h));
        }
        (lo, hi)
    }

    #[test]
    fn the_exchange_is_the_slow_recursion_on_random_positions() {
        let (mut checked, mut ties) = (0, 0);
        random_games(7, 60, 120, |pos, _| {
            let mut moves = Vec::new();
            pseudo_legal(pos, &mut moves);
            for &mv in moves.iter().filter(|m| pos.at(m.to).is_some()) {
                let victim = exchange_value(pos.at(mv.to).unwrap().kind);
                let mut after = pos.clone();
                after.make(mv);
                let (lo, hi) = slow_exchange(&mut after, mv.to);
                let fast = static_exchange(pos, mv);
                assert!(
                    (victim - hi..=victim - lo).contains(&fast),
                    "{pos} {mv}: {fast} outside {}..={}",
                    victim - hi,
                    victim - lo
                );
                checked += 1;
                ties += usize::from(lo != hi);
            }
        });
        assert!(checked > 1000, "only {checked} captures checked");
        assert!(
            ties * 50 < checked,
            "{ties} of {checked} depend on the order"
        );
    }

    #[test]
    fn a_cannon_behind_a_screen_takes_back_and_turns_the_exchange() {
        // The red chariot takes the pawn on e5; the black chariot on e9 could take back, but
        // the red cannon on e0 (over its own pawn on e3) would then take the black chariot.
        let with_cannon: Position = "3kr4/9/9/9/R3p4/9/4P4/9/9/4CK3 w".parse().unwrap();
        let without: Position = "3kr4/9/9/9/R3p4/9/4P4/9/9/5K3 w".parse().unwrap();
        let mv: Move = "a5e5".parse().unwrap();
        assert_eq!(static_exchange(&with_cannon, mv), 100);
        assert_eq!(static_exchange(&without, mv), 100 - 1000);
        assert_eq!(static_exchange(&without, "a5a6".parse().unwrap()), 0);
    }
}
