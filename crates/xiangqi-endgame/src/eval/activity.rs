//! Activity terms of the evaluation ([`crate::eval::EvalKind::Activity`]): what piece-square
//! tables cannot see because it depends on where the other pieces stand. Mobility of the
//! chariots, horses and cannons; the attack on the enemy palace (linear and squared, so that
//! attackers working together count for more); cannons facing the enemy king with nothing or
//! two pieces between (a screen away from check); pieces left hanging or attacked by a lesser
//! piece; connected pawns across the river; and the move itself (tempo).
//!
//! One scan of the board per side finds every square each side attacks and its least valuable
//! attacker; the terms are counts, red minus black, weighted per phase by
//! [`ActivityWeights`] (in sixteenths), which `xiangqi-endgame train --activity` fits to deeper
//! searches ([`crate::learn::train_activity`]). The built-in weights are `data/activity.txt`.

use crate::board::piece::{Color, Kind, Piece};
use crate::board::square::Square;
use crate::rules::position::Position;
use batch::InputError;
use std::sync::OnceLock;

/// How many activity terms there are.
pub const ACTIVITY_TERMS: usize = 12;
/// Their names in the weights file, in order.
pub const ACTIVITY_TERM_NAMES: [&str; ACTIVITY_TERMS] = [
    "chariot-mobility",
    "horse-mobility",
    "cannon-mobility",
    "palace-attacks",
    "palace-attacks-squared",
    "hollow-cannon",
    "screened-cannon",
    "hanging-to-move",
    "hanging-waiting",
    "attacked-by-lesser",
    "connected-pawns",
    "tempo",
];
/// The weights' unit: a weight of 16 adds one evaluation unit per count.
pub const WEIGHT_UNIT: i32 = 16;

/// The activity terms of a position, red minus black (see the module header).
pub type ActivityTerms = [i32; ACTIVITY_TERMS];

/// Weights of the activity terms, `[term][phase]` (opening, endgame), in sixteenths of an
/// evaluation unit.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ActivityWeights(pub [[i32; 2]; ACTIVITY_TERMS]);

impl ActivityWeights {
    /// Reads `NAME: OPENING ENDGAME` lines (blank lines and `#` comments skipped), every term
    /// exactly once.
    ///
    /// ```
    /// use xiangqi_endgame::activity::{ActivityWeights, ACTIVITY_TERM_NAMES};
    /// let text: String = ACTIVITY_TERM_NAMES.iter().map(|n| format!("{n}: 3 -4\n")).collect();
    /// let w: ActivityWeights = text.parse().unwrap();
    /// assert_eq!(w.0[0], [3, -4]);
    /// assert_eq!(w.to_text().parse::<ActivityWeights>().unwrap(), w);
    /// assert!("tempo: 1\n".parse::<ActivityWeights>().is_err());
    /// ```
    pub fn parse(text: &str) -> Result<ActivityWeights, InputError> {
        let mut w = ActivityWeights::default();
        let mut seen = [false; ACTIVITY_TERMS];
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |m: String| InputError::at(i + 1, m);
            let (name, values) = line
                .split_once(':')
                .ok_or_else(|| err(format!("expected `NAME: OPENING ENDGAME`, found `{line}`")))?;
            let t = batch::key_index(&ACTIVITY_TERM_NAMES, name.trim(), "term").map_err(err)?;
            if seen[t] {
                return Err(err(format!("`{}` given twice", name.trim())));
            }
            let v = batch::whole_numbers(values).map_err(err)?;
            let [opening, endgame] = v[..] else {
                return Err(err(format!(
                    "{} values, expected 2 (opening and endgame)",
                    v.len()
                )));
            };
            w.0[t] = [opening, endgame];
            seen[t] = true;
        }
        if let Some(t) = seen.iter().position(|&s| !s) {
            return Err(InputError::at(
                0,
                format!("no weights for `{}`", ACTIVITY_TERM_NAMES[t]),
            ));
        }
        Ok(w)
    }

    /// The weights as `NAME: OPENING ENDGAME` lines.
    pub fn to_text(&self) -> String {
        ACTIVITY_TERM_NAMES
            .iter()
            .zip(&self.0)
            .map(|(n, [o, e])| format!("{n}: {o} {e}\n"))
            .collect()
    }

    /// The terms' contribution with every attacking piece on the board and with none, in
    /// sixteenths of an evaluation unit ([`WEIGHT_UNIT`]); the evaluation blends the two by
    /// the phase.
    #[inline]
    pub fn phase_sums(&self, terms: &ActivityTerms) -> [i32; 2] {
        let (mut opening, mut endgame) = (0, 0);
        for (t, [o, e]) in terms.iter().zip(&self.0) {
            opening += t * o;
            endgame += t * e;
        }
        [opening, endgame]
    }
}

impl std::str::FromStr for ActivityWeights {
    type Err = InputError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ActivityWeights::parse(text)
    }
}

/// The built-in weights: `data/activity.txt`, made by `xiangqi-endgame train --activity` (its
/// first lines say from what).
pub fn learned_activity() -> &'static ActivityWeights {
    static W: OnceLock<ActivityWeights> = OnceLock::new();
    W.get_or_init(|| {
        include_str!("../../data/activity.txt")
            .parse()
            .expect("the built-in activity weights are checked by the tests")
    })
}

/// Up to `N` squares, for the precomputed geometry.
#[derive(Clone, Copy)]
struct Squares<const N: usize> {
    len: u8,
    sq: [u8; N],
}

impl<const N: usize> Default for Squares<N> {
    fn default() -> Self {
        Squares { len: 0, sq: [0; N] }
    }
}

impl<const N: usize> Squares<N> {
    fn push(&mut self, s: Square) {
        self.sq[self.len as usize] = s.0;
        self.len += 1;
    }
    #[inline]
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.sq[..self.len as usize].iter().map(|&s| s as usize)
    }
}

/// Where each piece reaches from each square on an empty board: rays for chariots and
/// cannons, jumps with their blocking square (a horse's leg, an elephant's eye), steps.
struct Geometry {
    rays: [[Squares<9>; 4]; 90],
    /// (target, leg) pairs.
    horse: [Squares<16>; 90],
    /// Per colour: pawn steps, king steps, advisor steps, elephant (target, eye) pairs.
    pawn: [[Squares<3>; 90]; 2],
    king: [[Squares<4>; 90]; 2],
    advisor: [[Squares<4>; 90]; 2],
    elephant: [[Squares<8>; 90]; 2],
    /// Per colour: the squares of its palace.
    palace: [u128; 2],
}

fn geometry() -> &'static Geometry {
    use crate::rules::movegen::{forward, in_palace, own_side, HORSE};
    static G: OnceLock<Box<Geometry>> = OnceLock::new();
    G.get_or_init(|| {
        let mut g = Box::new(Geometry {
            rays: [[Squares::default(); 4]; 90],
            horse: [Squares::default(); 90],
            pawn: [[Squares::default(); 90]; 2],
            king: [[Squares::default(); 90]; 2],
            advisor: [[Squares::default(); 90]; 2],
            elephant: [[Squares::default(); 90]; 2],
            palace: [0; 2],
        });
        const ORTHO: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
        for i in 0..90u8 {
            let s = Square(i);
            let at = |dr: i32, dc: i32| s.offset(dr, dc);
            for (d, &(dr, dc)) in ORTHO.iter().enumerate() {
                let mut k = 1;
                while let Some(t) = at(k * dr, k * dc) {
                    g.rays[i as usize][d].push(t);
                    k += 1;
                }
            }
            for (dr, dc) in HORSE {
                if let Some(t) = at(dr, dc) {
                    let leg = if dr.abs() == 2 {
                        at(dr / 2, 0)
                    } else {
                        at(0, dc / 2)
                    };
                    g.horse[i as usize].push(t);
                    g.horse[i as usize].push(leg.expect("a leg lies between"));
                }
            }
            for color in [Color::Red, Color::Black] {
                let c = color as usize;
                if in_palace(color, s) {
                    g.palace[c] |= 1u128 << i;
                }
                if let Some(t) = at(forward(color), 0) {
                    g.pawn[c][i as usize].push(t);
                }
                if !own_side(color, s) {
                    for dc in [-1, 1] {
                        if let Some(t) = at(0, dc) {
                            g.pawn[c][i as usize].push(t);
                        }
                    }
                }
                for (dr, dc) in ORTHO {
                    if let Some(t) = at(dr, dc).filter(|&t| in_palace(color, t)) {
                        g.king[c][i as usize].push(t);
                    }
                }
                for (dr, dc) in DIAG {
                    if let Some(t) = at(dr, dc).filter(|&t| in_palace(color, t)) {
                        g.advisor[c][i as usize].push(t);
                    }
                    if let Some(t) = at(2 * dr, 2 * dc).filter(|&t| own_side(color, t)) {
                        g.elephant[c][i as usize].push(t);
                        g.elephant[c][i as usize].push(at(dr, dc).expect("the eye lies between"));
                    }
                }
            }
        }
        g
    })
}

/// No attacker.
const NONE: u16 = u16::MAX;

/// The value by which attackers are ranked (the least valuable attacks first), and a piece's
/// weight when it hangs: chariot 5, horse and cannon 3, the rest 1.
#[inline]
fn rank_and_units(kind: Kind) -> (u16, i32) {
    match kind {
        Kind::King => (10_000, 0),
        Kind::Advisor => (10, 1),
        Kind::Elephant => (30, 1),
        Kind::Pawn => (90, 1),
        Kind::Horse => (300, 3),
        Kind::Cannon => (300, 3),
        Kind::Chariot => (500, 5),
    }
}

/// One side's scan: the least valuable attacker of every square, and the side's counts.
struct Scan {
    least: [u16; 90],
    mobility: [i32; 3],
    palace_attacks: i32,
    hollow: i32,
    screened: i32,
}

/// Scans the pieces of `color` (at `squares`) on `board`.
fn scan(
    board: &[Option<Piece>; 90],
    color: Color,
    squares: &[u8],
    enemy_king: Option<Square>,
) -> Scan {
    let g = geometry();
    let c = color as usize;
    let enemy_palace = g.palace[1 - c];
    let mut s = Scan {
        least: [NONE; 90],
        mobility: [0; 3],
        palace_attacks: 0,
        hollow: 0,
        screened: 0,
    };
    let attack = |least: &mut [u16; 90], palace: &mut i32, t: usize, rank: u16| {
        if rank < least[t] {
            least[t] = rank;
        }
        *palace += ((enemy_palace >> t) & 1) as i32;
    };
    let empty = |t: usize| board[t].is_none();
    let mine = |t: usize| board[t].is_some_and(|p| p.color == color);
    for &from in squares {
        let from = from as usize;
        let kind = board[from].expect("a piece of the list").kind;
        let rank = rank_and_units(kind).0;
        let (least, palace) = (&mut s.least, &mut s.palace_attacks);
        match kind {
            Kind::Chariot => {
                for ray in &g.rays[from] {
                    for t in ray.iter() {
                        attack(least, palace, t, rank);
                        if !empty(t) {
                            s.mobility[0] += !mine(t) as i32;
                            break;
                        }
                        s.mobility[0] += 1;
                    }
                }
            }
            Kind::Cannon => {
                for ray in &g.rays[from] {
                    let mut screened = false;
                    for t in ray.iter() {
                        if !screened {
                            if empty(t) {
                                s.mobility[2] += 1;
                            } else {
                                screened = true;
                            }
                        } else {
                            attack(least, palace, t, rank);
                            if !empty(t) {
                                s.mobility[2] += !mine(t) as i32;
                                break;
                            }
                        }
                    }
                }
                if let Some(k) = enemy_king {
                    match pieces_between(board, Square(from as u8), k) {
                        Some(0) => s.hollow += 1,
                        Some(2) => s.screened += 1,
                        _ => {}
                    }
                }
            }
            Kind::Horse => {
                let jumps = &g.horse[from];
                for j in 0..jumps.len as usize / 2 {
                    let (t, leg) = (jumps.sq[2 * j] as usize, jumps.sq[2 * j + 1] as usize);
                    if empty(leg) {
                        attack(least, palace, t, rank);
                        s.mobility[1] += !mine(t) as i32;
                    }
                }
            }
            Kind::Pawn => {
                for t in g.pawn[c][from].iter() {
                    attack(least, palace, t, rank);
                }
            }
            Kind::King | Kind::Advisor => {
                let steps = if kind == Kind::King {
                    &g.king[c][from]
                } else {
                    &g.advisor[c][from]
                };
                for t in steps.iter() {
                    least[t] = least[t].min(rank);
                }
            }
            Kind::Elephant => {
                let jumps = &g.elephant[c][from];
                for j in 0..jumps.len as usize / 2 {
                    let (t, eye) = (jumps.sq[2 * j] as usize, jumps.sq[2 * j + 1] as usize);
                    if empty(eye) {
                        least[t] = least[t].min(rank);
                    }
                }
            }
        }
    }
    s
}

/// How many pieces stand strictly between `a` and `b` when they share a file or a rank.
#[inline]
fn pieces_between(board: &[Option<Piece>; 90], a: Square, b: Square) -> Option<u32> {
    let (ar, ac, br, bc) = (
        a.row() as i32,
        a.col() as i32,
        b.row() as i32,
        b.col() as i32,
    );
    if ar != br && ac != bc {
        return None;
    }
    let (dr, dc) = ((br - ar).signum(), (bc - ac).signum());
    let (mut r, mut c, mut n) = (ar + dr, ac + dc, 0);
    while (r, c) != (br, bc) {
        n += board[(r * 9 + c) as usize].is_some() as u32;
        r += dr;
        c += dc;
    }
    Some(n)
}

/// The activity terms of `pos`, red minus black (see the module header).
///
/// ```
/// use xiangqi_endgame::{activity::{activity_terms, ACTIVITY_TERM_NAMES}, Position, START_FEN};
/// let p: Position = START_FEN.parse().unwrap();
/// let t = activity_terms(&p);
/// // The start is symmetric but for the move.
/// let tempo = ACTIVITY_TERM_NAMES.iter().position(|&n| n == "tempo").unwrap();
/// assert!(t.iter().enumerate().all(|(i, &v)| v == if i == tempo { 1 } else { 0 }));
/// // A red cannon facing the black king down an open file.
/// let p: Position = "4k4/9/9/9/9/9/9/9/4C4/3K5 b".parse().unwrap();
/// let t = activity_terms(&p);
/// assert_eq!(t[5], 1); // hollow-cannon
/// assert_eq!(t[2], 16); // the cannon's moves: 7 up the file, 8 along its rank, 1 down
/// ```
pub fn activity_terms(pos: &Position) -> ActivityTerms {
    let board = pos.board();
    let mut lists = [[0u8; 16]; 2];
    let mut lens = [0usize; 2];
    for (i, p) in board.iter().enumerate() {
        if let Some(p) = p {
            let c = p.color as usize;
            if lens[c] < 16 {
                lists[c][lens[c]] = i as u8;
                lens[c] += 1;
            }
        }
    }
    let scans = [Color::Red, Color::Black].map(|color| {
        let c = color as usize;
        scan(
            board,
            color,
            &lists[c][..lens[c]],
            pos.king(color.opposite()),
        )
    });
    let mut hanging = [0i32; 2];
    let mut lesser = [0i32; 2];
    let mut connected = [0i32; 2];
    for c in 0..2 {
        for &sq in &lists[c][..lens[c]] {
            let i = sq as usize;
            let kind = board[i].expect("a listed piece").kind;
            let (rank, units) = rank_and_units(kind);
            let enemy = scans[1 - c].least[i];
            if kind != Kind::King && enemy != NONE {
                if scans[c].least[i] == NONE {
                    hanging[c] += units;
                }
                if enemy < rank {
                    lesser[c] += units;
                }
            }
            if kind == Kind::Pawn
                && !crate::board::square::own_side(
                    if c == 0 { Color::Red } else { Color::Black },
                    Square(sq),
                )
            {
                let right = Square(sq).offset(0, 1);
                if right.is_some_and(|r| board[r.index()] == board[i]) {
                    connected[c] += 1;
                }
            }
        }
    }
    let (red, black) = (&scans[0], &scans[1]);
    let to_move = pos.side() as usize;
    let sign = |c: usize| if c == 0 { 1 } else { -1 };
    [
        red.mobility[0] - black.mobility[0],
        red.mobility[1] - black.mobility[1],
        red.mobility[2] - black.mobility[2],
        red.palace_attacks - black.palace_attacks,
        red.palace_attacks * red.palace_attacks - black.palace_attacks * black.palace_attacks,
        red.hollow - black.hollow,
        red.screened - black.screened,
        // Hanging pieces count against their owner.
        -sign(to_move) * hanging[to_move],
        -sign(1 - to_move) * hanging[1 - to_move],
        -(lesser[0] - lesser[1]),
        connected[0] - connected[1],
        sign(to_move),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::pseudo_legal;

    /// Mobility the slow, obvious way: the pseudo-legal moves of each kind, red minus black.
    fn mobility_by_move_lists(pos: &Position) -> [i32; 3] {
        let mut out = [0; 3];
        let mut moves = Vec::new();
        for color in [Color::Red, Color::Black] {
            let mut p = pos.clone();
            p.set_side(color);
            moves.clear();
            pseudo_legal(&p, &mut moves);
            let sign = if color == Color::Red { 1 } else { -1 };
            for m in &moves {
                let slot = match p.at(m.from).unwrap().kind {
                    Kind::Chariot => 0,
                    Kind::Horse => 1,
                    Kind::Cannon => 2,
                    _ => continue,
                };
                out[slot] += sign;
            }
        }
        out
    }

    #[test]
    fn mobility_counts_the_pseudo_legal_moves_along_random_games() {
        crate::rules::testing::random_games(8, 40, 150, |pos, _| {
            let t = activity_terms(pos);
            assert_eq!([t[0], t[1], t[2]], mobility_by_move_lists(pos), "{pos}");
        });
    }

    #[test]
    fn hanging_and_threatened_pieces_are_seen() {
        // Black to move; the red horse on d3 is attacked by the black pawn on d4 (across the
        // river) and defended by nothing; the black chariot on a9 is attacked by nothing.
        let p: Position = "r2k5/9/9/9/9/3p5/3N5/9/9/4K4 b".parse().unwrap();
        let t = activity_terms(&p);
        // hanging-waiting: red's horse (3 units) against red; hanging-to-move: none of black's.
        assert_eq!(t[8], -3);
        assert_eq!(t[7], 0);
        // attacked-by-lesser: the horse, by a pawn; the horse's jumps towards the pawn are
        // blocked by the pawn itself; black to move.
        assert_eq!(t[9], -3);
        assert_eq!(t[11], -1);
    }

    #[test]
    fn the_built_in_weights_read_and_round_trip() {
        let w = learned_activity();
        assert_eq!(w.to_text().parse::<ActivityWeights>().unwrap(), *w);
    }

    #[test]
    fn bad_weight_lines_are_named() {
        let e = "tempo: 1 x\n".parse::<ActivityWeights>().unwrap_err();
        assert_eq!(e.to_string(), "1: `x` is not a whole number");
        let e = "\nspeed: 1 2\n".parse::<ActivityWeights>().unwrap_err();
        assert_eq!(e.to_string(), "2: unknown term `speed`");
        let e = "tempo: 1 2\ntempo: 1 2\n"
            .parse::<ActivityWeights>()
            .unwrap_err();
        assert_eq!(e.to_string(), "2: `tempo` given twice");
        let e = "tempo: 1 2\n".parse::<ActivityWeights>().unwrap_err();
        assert!(
            e.to_string().contains("no weights for `chariot-mobility`"),
            "{e}"
        );
    }
}
