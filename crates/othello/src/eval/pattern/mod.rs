//! A pattern evaluation learned from data (the Logistello / Edax design): the value of a
//! position, in hundredths of a disc for the side to move, is a sum of weights looked up by
//! the contents of fixed groups of squares (edges with their X-squares, 3x3 and 2x5 corners,
//! the inner lines and the diagonals), plus mobility terms and a bias, with one set of weights
//! per game stage (four empties wide). Every pattern is read in all eight board symmetries
//! with one shared table, so the evaluation is symmetric by construction.
//!
//! The weights are trained by [`crate::learn::train`] from games the project generates itself and
//! ship as `data/patterns.bin`, embedded in the binary and decoded on first use.

use crate::rules::bitboard::{legal_moves, symmetric_boards};
use crate::rules::position::Line;
use crate::rules::position::Position;
use std::cell::{Cell, RefCell};

pub mod game;
mod incremental;
use incremental::{readings, Indices, Readings};
use std::sync::OnceLock;

/// The base squares of each pattern family, as (file, rank) from a1 = (0, 0).
const FAMILIES: [&[(u8, u8)]; 11] = [
    // The edge with both X-squares.
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (6, 0),
        (7, 0),
        (1, 1),
        (6, 1),
    ],
    // The 3x3 corner.
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (0, 2),
        (1, 2),
        (2, 2),
    ],
    // The 2x5 corner.
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
    ],
    // The second, third and fourth lines.
    &[
        (0, 1),
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
        (5, 1),
        (6, 1),
        (7, 1),
    ],
    &[
        (0, 2),
        (1, 2),
        (2, 2),
        (3, 2),
        (4, 2),
        (5, 2),
        (6, 2),
        (7, 2),
    ],
    &[
        (0, 3),
        (1, 3),
        (2, 3),
        (3, 3),
        (4, 3),
        (5, 3),
        (6, 3),
        (7, 3),
    ],
    // The diagonals of 8, 7, 6, 5 and 4 squares.
    &[
        (0, 0),
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 5),
        (6, 6),
        (7, 7),
    ],
    &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)],
    &[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)],
    &[(3, 0), (4, 1), (5, 2), (6, 3), (7, 4)],
    &[(4, 0), (5, 1), (6, 2), (7, 3)],
];

/// Names of the families, for reports.
pub const FAMILY_NAMES: [&str; 11] = [
    "edge+2X",
    "corner3x3",
    "corner2x5",
    "line2",
    "line3",
    "line4",
    "diag8",
    "diag7",
    "diag6",
    "diag5",
    "diag4",
];

/// Mobility (legal moves) is counted up to this many.
const MOBILITY_CAP: usize = 31;

/// Game stages: empties 0..=3 are stage 0, 4..=7 stage 1, ..., 60 stage 15.
pub const STAGES: usize = 16;

/// Empties per stage.
pub const STAGE_WIDTH: u32 = 4;

/// The stage of a position with `empties` empty squares.
#[inline]
pub fn stage(empties: u32) -> usize {
    (empties / STAGE_WIDTH) as usize
}

/// One reading of a pattern: its squares in reading order and where its table starts.
#[derive(Debug, Clone)]
struct Instance {
    squares: Vec<u8>,
    offset: u32,
    /// The symmetry `k` of [`symmetry`] it is read through.
    symmetry: usize,
}

/// The layout of the features: every instance of every family, and the extra terms.
#[derive(Debug, Clone)]
pub struct Layout {
    instances: Vec<Instance>,
    /// Where each family's table starts, and one past the last table.
    family_offsets: Vec<u32>,
    mobility_me: u32,
    mobility_opp: u32,
    bias: u32,
    /// Weights per stage.
    pub size: usize,
}

/// The eight symmetries of the board on (file, rank).
fn symmetry(k: usize, (f, r): (u8, u8)) -> (u8, u8) {
    let (f, r) = if k & 1 == 1 { (7 - f, r) } else { (f, r) };
    let (f, r) = if k & 2 == 2 { (f, 7 - r) } else { (f, r) };
    if k & 4 == 4 {
        (r, f)
    } else {
        (f, r)
    }
}

impl Layout {
    fn new() -> Layout {
        let mut instances: Vec<Instance> = Vec::new();
        let mut family_offsets = Vec::new();
        let mut offset = 0u32;
        for family in FAMILIES {
            family_offsets.push(offset);
            let mut seen: Vec<Vec<u8>> = Vec::new();
            for k in 0..8 {
                let squares: Vec<u8> = family
                    .iter()
                    .map(|&fr| {
                        let (f, r) = symmetry(k, fr);
                        r * 8 + f
                    })
                    .collect();
                // A symmetry that maps the pattern onto itself square by square reads it
                // twice in the same order: keep one.
                if !seen.contains(&squares) {
                    seen.push(squares.clone());
                    instances.push(Instance {
                        squares,
                        offset,
                        symmetry: k,
                    });
                }
            }
            offset += 3u32.pow(family.len() as u32);
        }
        family_offsets.push(offset);
        let mobility_me = offset;
        let mobility_opp = mobility_me + MOBILITY_CAP as u32 + 1;
        let bias = mobility_opp + MOBILITY_CAP as u32 + 1;
        Layout {
            instances,
            family_offsets,
            mobility_me,
            mobility_opp,
            bias,
            size: bias as usize + 1,
        }
    }

    /// Features active in a position: one per pattern instance, two mobility terms, the bias.
    pub fn features_per_position(&self) -> usize {
        self.instances.len() + 3
    }

    /// Writes the indices of the active features of `(me, opp)` into `out` (cleared first),
    /// each an index into one stage's weights.
    pub fn features(&self, me: u64, opp: u64, out: &mut Vec<u32>) {
        out.clear();
        for inst in &self.instances {
            out.push(inst.offset + pattern_index(&inst.squares, me, opp));
        }
        let mob_me = (legal_moves(me, opp).count_ones() as usize).min(MOBILITY_CAP);
        let mob_opp = (legal_moves(opp, me).count_ones() as usize).min(MOBILITY_CAP);
        out.push(self.mobility_me + mob_me as u32);
        out.push(self.mobility_opp + mob_opp as u32);
        out.push(self.bias);
    }

    /// How `family` folds when read only through the symmetries `reads`: each of its other
    /// readings must cover the same squares as exactly one of those, the same way for all;
    /// the answer says where digit i of a kept reading sits in its partner. `None` when the
    /// family is read in full (nothing to fold).
    fn folding(&self, family: usize, reads: &[usize]) -> Option<Vec<usize>> {
        let instances: Vec<&Instance> = self
            .instances
            .iter()
            .filter(|i| i.offset == self.family_offsets[family])
            .collect();
        if reads.len() == instances.len() {
            return None;
        }
        let sorted = |i: &Instance| {
            let mut v = i.squares.clone();
            v.sort_unstable();
            v
        };
        assert_eq!(2 * reads.len(), instances.len(), "family {family}: pairs");
        let mut map = None;
        let mut partnered = Vec::new();
        for kept in instances.iter().filter(|i| reads.contains(&i.symmetry)) {
            let partners: Vec<&&Instance> = instances
                .iter()
                .filter(|o| o.symmetry != kept.symmetry && sorted(o) == sorted(kept))
                .collect();
            let [partner] = partners[..] else {
                panic!(
                    "family {family}: reading {} has no single partner",
                    kept.symmetry
                );
            };
            assert!(
                !reads.contains(&partner.symmetry),
                "family {family}: both read"
            );
            assert!(
                !partnered.contains(&partner.symmetry),
                "family {family}: shared"
            );
            partnered.push(partner.symmetry);
            let this: Vec<usize> = kept
                .squares
                .iter()
                .map(|sq| partner.squares.iter().position(|t| t == sq).unwrap())
                .collect();
            assert!(
                map.as_ref().is_none_or(|m| *m == this),
                "family {family}: pairs differ"
            );
            map = Some(this);
        }
        map
    }

    /// The family a feature index belongs to (`None` for the mobility and bias terms).
    pub fn family_of(&self, feature: u32) -> Option<usize> {
        (0..FAMILIES.len())
            .find(|&f| self.family_offsets[f] <= feature && feature < self.family_offsets[f + 1])
    }
}

/// The base-3 number read off `squares` (first square least significant): 0 empty, 1 the side
/// to move's disc, 2 the other side's.
#[inline]
fn pattern_index(squares: &[u8], me: u64, opp: u64) -> u32 {
    squares.iter().rev().fold(0, |acc, &sq| {
        acc * 3 + (me >> sq & 1) as u32 + 2 * (opp >> sq & 1) as u32
    })
}

/// The feature layout, built once.
pub fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(Layout::new)
}

/// Trained weights: for each stage, one i16 per feature, in hundredths of a disc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights {
    /// `STAGES` blocks of [`Layout::size`] weights.
    pub values: Vec<i16>,
}

/// Why a weights file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pattern weights: {}", self.0)
    }
}

impl std::error::Error for WeightsError {}

/// The first bytes of a weights file.
const MAGIC: &[u8; 8] = b"OTHPAT1\n";

impl Weights {
    /// All zero.
    pub fn zero() -> Weights {
        Weights {
            values: vec![0; STAGES * layout().size],
        }
    }

    /// The weights of one stage.
    pub fn stage(&self, s: usize) -> &[i16] {
        let n = layout().size;
        &self.values[s * n..(s + 1) * n]
    }

    /// The compact file form: a header, then runs of zeros and values as variable-length
    /// integers (most table entries are configurations the games never reached).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        put_varint(&mut out, STAGES as u64);
        put_varint(&mut out, layout().size as u64);
        let mut zeros = 0u64;
        for &v in &self.values {
            if v == 0 {
                zeros += 1;
                continue;
            }
            put_varint(&mut out, zeros);
            put_varint(&mut out, zigzag(v));
            zeros = 0;
        }
        put_varint(&mut out, zeros);
        out
    }

    /// Reads the form [`Weights::to_bytes`] writes, checking it fits this layout.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let err = |m: &str| WeightsError(m.to_string());
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or_else(|| err("not an othello pattern weights file"))?;
        let mut pos = 0;
        let stages = get_varint(rest, &mut pos).ok_or_else(|| err("truncated header"))?;
        let size = get_varint(rest, &mut pos).ok_or_else(|| err("truncated header"))?;
        if stages != STAGES as u64 || size != layout().size as u64 {
            return Err(WeightsError(format!(
                "made for {stages} stages of {size} weights, this program has {STAGES} of {}",
                layout().size
            )));
        }
        let total = STAGES * layout().size;
        let mut values = Vec::with_capacity(total);
        loop {
            let zeros = get_varint(rest, &mut pos).ok_or_else(|| err("truncated"))?;
            if zeros as usize > total - values.len() {
                return Err(err("more weights than the layout has"));
            }
            values.resize(values.len() + zeros as usize, 0);
            if values.len() == total {
                break;
            }
            let v = get_varint(rest, &mut pos).ok_or_else(|| err("truncated"))?;
            let v = i16::try_from(unzigzag(v))
                .ok()
                .filter(|v| v.abs() <= WEIGHT_LIMIT)
                .ok_or_else(|| err("a weight out of range"))?;
            values.push(v);
            if values.len() == total {
                // A file always ends with a (possibly empty) run of zeros.
                get_varint(rest, &mut pos).ok_or_else(|| err("truncated"))?;
                break;
            }
        }
        if pos != rest.len() {
            return Err(err("bytes after the last weight"));
        }
        Ok(Weights { values })
    }

    /// The value of `(me, opp)` in hundredths of a disc for `me` (the side to move), every
    /// reading looked up (84); [`Evaluator`] gives the same value with 46.
    #[inline]
    pub fn evaluate_discs(&self, me: u64, opp: u64) -> i32 {
        sum_readings(&self.values, &ALL_READS, me, opp)
    }

    /// [`Weights::evaluate_discs`] the slow obvious way, square by square along the listed
    /// pattern readings: the reference the fast version is tested against.
    pub fn evaluate_by_squares(&self, me: u64, opp: u64) -> i32 {
        let w = self.stage(stage((!(me | opp)).count_ones()));
        let mut features = Vec::new();
        layout().features(me, opp, &mut features);
        features.iter().map(|&f| i32::from(w[f as usize])).sum()
    }
}

/// The largest weight magnitude a weights file may hold (163.83 discs, far beyond any real
/// weight): so that two weights always add up inside an `i16` in an [`Evaluator`].
pub const WEIGHT_LIMIT: i16 = i16::MAX / 2;

/// The symmetries `k` (of [`symmetry`]) each family is read through in the weights file: all
/// eight, except the long diagonal, which the transposition maps onto itself square by square.
const ALL_READS: [&[usize]; 11] = [
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 1, 2, 3],
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 1, 2, 3, 4, 5, 6, 7],
];

/// The symmetries `k` (of [`symmetry`]) each family is read through once its readings that
/// cover the same squares are folded into one: a line forwards and backwards, a 3x3 corner
/// and its transpose, a diagonal and its reflection share their squares. The 2x5 corner has
/// no such partner. A test checks these lists against the layout.
const FOLDED_READS: [&[usize]; 11] = [
    &[0, 2, 4, 6],
    &[0, 1, 2, 3],
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 2, 4, 6],
    &[0, 2, 4, 6],
    &[0, 2, 4, 6],
    &[0, 1],
    &[0, 1, 2, 3],
    &[0, 1, 2, 3],
    &[0, 1, 2, 3],
    &[0, 1, 2, 3],
];

/// [`Weights`] made quicker to evaluate, with the same values to the unit: most families
/// cover the same squares in two of their eight readings, so their two weights are added
/// into one table entry once, here, and read once per position: 46 table look-ups instead of
/// 84.
#[derive(Debug, Clone)]
pub struct Evaluator {
    /// `STAGES` blocks of [`Layout::size`] weights, the folded families' entries summed.
    values: Vec<i16>,
}

impl Evaluator {
    /// Folds `weights`. The values are those of [`Weights::evaluate_discs`] whenever every
    /// weight lies within [`WEIGHT_LIMIT`], as in every file [`Weights::from_bytes`] accepts
    /// (beyond it the sums saturate).
    ///
    /// ```
    /// use othello::pattern::{weights, Evaluator};
    /// use othello::Position;
    /// let p = Position::default();
    /// let fast = Evaluator::new(weights());
    /// assert_eq!(fast.evaluate_discs(p.me, p.opp), weights().evaluate_discs(p.me, p.opp));
    /// ```
    pub fn new(weights: &Weights) -> Evaluator {
        let l = layout();
        let mut values = weights.values.clone();
        for (family, reads) in FOLDED_READS.iter().enumerate() {
            let Some(digit_map) = l.folding(family, reads) else {
                continue;
            };
            // partner[x]: the partner reading's index when the kept one reads `x` (digit i of
            // `x` moves to place digit_map[i]), counted up like an odometer.
            let size = 3usize.pow(digit_map.len() as u32);
            let step: Vec<usize> = digit_map.iter().map(|&p| 3usize.pow(p as u32)).collect();
            let mut partner = Vec::with_capacity(size);
            let (mut digits, mut y) = (vec![0u8; digit_map.len()], 0usize);
            for _ in 0..size {
                partner.push(y);
                for (d, &st) in digits.iter_mut().zip(&step) {
                    if *d < 2 {
                        *d += 1;
                        y += st;
                        break;
                    }
                    *d = 0;
                    y -= 2 * st;
                }
            }
            for stage in 0..STAGES {
                let base = stage * l.size + l.family_offsets[family] as usize;
                let unfolded = &weights.values[base..base + size];
                for (folded, (&w, &y)) in values[base..base + size]
                    .iter_mut()
                    .zip(unfolded.iter().zip(&partner))
                {
                    *folded = w.saturating_add(unfolded[y]);
                }
            }
        }
        Evaluator { values }
    }

    /// The value of `(me, opp)` in hundredths of a disc for `me`, as
    /// [`Weights::evaluate_discs`] gives it.
    #[inline]
    pub fn evaluate_discs(&self, me: u64, opp: u64) -> i32 {
        sum_readings(&self.values, &FOLDED_READS, me, opp)
    }
}

/// The value of `(me, opp)` in hundredths of a disc for `me` under `values` (`STAGES` blocks
/// of weights), each family read through the symmetries `reads` lists.
///
/// Each family is read off the eight transformed boards in its base orientation: a line is a
/// byte of the board (after a multiply that gathers a diagonal into one byte), and a
/// binary-to-ternary table turns each side's bits into the pattern's number.
#[inline(always)]
fn sum_readings(values: &[i16], reads: &[&[usize]; 11], me: u64, opp: u64) -> i32 {
    let empties = (!(me | opp)).count_ones();
    let l = layout();
    let w = stage_weights(values, empties);
    let o = &l.family_offsets;
    // Board k holds at square s what square `symmetry(k, s)` of the position holds.
    let (mine, theirs) = (symmetric_boards(me), symmetric_boards(opp));
    let mut sum = 0i32;
    let mut family = |f: usize, read: fn(u64) -> u64| {
        for &k in reads[f] {
            let t = &TERNARY;
            let idx =
                o[f] + t[read(mine[k]) as usize] as u32 + 2 * t[read(theirs[k]) as usize] as u32;
            sum += w[idx as usize] as i32;
        }
    };
    family(0, edge_2x);
    family(1, corner_3x3);
    family(2, corner_2x5);
    family(3, |b| b >> 8 & 0xff);
    family(4, |b| b >> 16 & 0xff);
    family(5, |b| b >> 24 & 0xff);
    family(6, |b| diagonal(b, 0));
    family(7, |b| diagonal(b, 1));
    family(8, |b| diagonal(b, 2));
    family(9, |b| diagonal(b, 3));
    family(10, |b| diagonal(b, 4));
    sum + mobility_and_bias(w, legal_moves(me, opp), legal_moves(opp, me))
}

/// The weights of the stage of a position with `empties` empty squares in `values`
/// (`STAGES` blocks of [`Layout::size`] weights).
#[inline(always)]
fn stage_weights(values: &[i16], empties: u32) -> &[i16] {
    let size = layout().size;
    &values[stage(empties) * size..][..size]
}

/// The terms beside the patterns under one stage's weights `w`: each side's mobility (its
/// legal squares `my_moves` and `their_moves`) and the bias.
#[inline(always)]
fn mobility_and_bias(w: &[i16], my_moves: u64, their_moves: u64) -> i32 {
    let l = layout();
    let mob_me = (my_moves.count_ones() as usize).min(MOBILITY_CAP);
    let mob_opp = (their_moves.count_ones() as usize).min(MOBILITY_CAP);
    i32::from(w[l.mobility_me as usize + mob_me])
        + i32::from(w[l.mobility_opp as usize + mob_opp])
        + i32::from(w[l.bias as usize])
}

/// `TERNARY[b]`: the bits of `b` read as base-3 digits (bit i worth 3^i), for up to 10 bits.
static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let (mut v, mut pow, mut i) = (0u16, 1u16, 0);
        while i < 10 {
            if b >> i & 1 == 1 {
                v += pow;
            }
            pow *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The first rank and the X-squares b2, g2, in the edge family's reading order.
#[inline]
fn edge_2x(b: u64) -> u64 {
    (b & 0xff) | (b >> 9 & 1) << 8 | (b >> 14 & 1) << 9
}

/// a1 b1 c1, a2 b2 c2, a3 b3 c3.
#[inline]
fn corner_3x3(b: u64) -> u64 {
    (b & 7) | (b >> 8 & 7) << 3 | (b >> 16 & 7) << 6
}

/// a1..e1, a2..e2.
#[inline]
fn corner_2x5(b: u64) -> u64 {
    (b & 31) | (b >> 8 & 31) << 5
}

/// The diagonal starting on the first rank `shift` files right of a1, gathered into the low
/// bits in reading order (a multiply by 0x0101.. adds all ranks into the top byte, where the
/// diagonal's squares sit on distinct files).
#[inline]
fn diagonal(b: u64, shift: u32) -> u64 {
    const MAIN: u64 = 0x8040_2010_0804_0201;
    let mask = (MAIN << shift) & !(0x0101_0101_0101_0101u64.wrapping_mul((1 << shift) - 1));
    ((b & mask).wrapping_mul(0x0101_0101_0101_0101) >> 56) >> shift
}

fn zigzag(v: i16) -> u64 {
    let v = v as i64;
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(u: u64) -> i64 {
    (u >> 1) as i64 ^ -((u & 1) as i64)
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*pos)?;
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// The weights in use ([`use_weights`]'s, or the checked-in `data/patterns.bin`), decoded on
/// first use.
pub fn weights() -> &'static Weights {
    WEIGHTS.get_or_init(|| {
        Weights::from_bytes(include_bytes!("../../../data/patterns.bin"))
            .expect("the embedded weights match the layout (checked by a test)")
    })
}

/// The weights in use: the embedded ones unless [`use_weights`] chose others first.
static WEIGHTS: OnceLock<Weights> = OnceLock::new();

/// Makes `w` the weights of [`weights`] and [`evaluator`] for the rest of the process (a user's
/// own `othello train` output, for `othello nboard --weights`); an error once the weights in
/// use have been read.
pub fn use_weights(w: Weights) -> Result<(), WeightsError> {
    WEIGHTS
        .set(w)
        .map_err(|_| WeightsError("the evaluation's weights are already in use".into()))
}

/// The weights in use folded for evaluation ([`Evaluator`]), built on first use.
pub fn evaluator() -> &'static Evaluator {
    static EVALUATOR: OnceLock<Evaluator> = OnceLock::new();
    EVALUATOR.get_or_init(|| Evaluator::new(weights()))
}

/// The learned evaluation of `p`, in hundredths of a disc for the side to move; a finished
/// game is worth its exact final score.
///
/// ```
/// use othello::{pattern::evaluate, Position};
/// let v = evaluate(&Position::default());
/// assert!(v.abs() < 400, "the start is about even: {v}");
/// ```
pub fn evaluate(p: &Position) -> i32 {
    if p.moves() == 0 && legal_moves(p.opp, p.me) == 0 {
        return 100 * p.final_score();
    }
    evaluator().evaluate_discs(p.me, p.opp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_has_its_symmetric_readings() {
        let l = layout();
        // Every family is read in 8 orders, except the long diagonal, which the transposition
        // maps onto itself square by square (4 distinct readings).
        let mut counts = vec![0; FAMILIES.len()];
        for inst in &l.instances {
            counts[l.family_of(inst.offset).unwrap()] += 1;
        }
        assert_eq!(counts, [8, 8, 8, 8, 8, 8, 4, 8, 8, 8, 8]);
        let listed: Vec<usize> = ALL_READS.iter().map(|r| r.len()).collect();
        assert_eq!(listed, counts);
        assert_eq!(l.features_per_position(), l.instances.len() + 3);
    }

    /// Fast and slow evaluations agree on random weights, on the positions of random games.
    #[test]
    fn fast_evaluation_equals_square_by_square() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut w = Weights::zero();
        for v in w.values.iter_mut() {
            *v = (next() % 2001) as i16 - 1000;
        }
        let folded = Evaluator::new(&w);
        let shipped = evaluator();
        for _ in 0..300 {
            let mut p = Position::default();
            while !p.game_over() {
                let value = w.evaluate_discs(p.me, p.opp);
                assert_eq!(value, w.evaluate_by_squares(p.me, p.opp), "{p}");
                assert_eq!(value, folded.evaluate_discs(p.me, p.opp), "{p}");
                assert_eq!(
                    shipped.evaluate_discs(p.me, p.opp),
                    weights().evaluate_discs(p.me, p.opp),
                    "{p}"
                );
                let m = p.moves();
                p = if m == 0 {
                    p.play(crate::rules::position::Move::Pass)
                } else {
                    let k = (next() % u64::from(m.count_ones())) as u32;
                    p.play(crate::rules::position::Move::Square(
                        crate::rules::bitboard::nth_square(m, k),
                    ))
                };
            }
        }
    }

    #[test]
    fn folding_reads_46_patterns_each_once() {
        let l = layout();
        assert_eq!(FOLDED_READS.iter().map(|r| r.len()).sum::<usize>(), 46);
        for (family, reads) in FOLDED_READS.iter().enumerate() {
            // Panics unless every reading left out has exactly one kept partner.
            let folds = l.folding(family, reads).is_some();
            assert_eq!(folds, family != 2, "family {family}");
        }
    }

    #[test]
    fn weights_round_trip_through_bytes() {
        let mut w = Weights::zero();
        let n = w.values.len();
        for (i, v) in w.values.iter_mut().enumerate() {
            if i % 97 == 3 || i == n - 1 {
                *v = (i % 2000) as i16 - 1000;
            }
        }
        w.values[0] = -WEIGHT_LIMIT;
        let back = Weights::from_bytes(&w.to_bytes()).unwrap();
        assert_eq!(back, w);
        assert_eq!(
            Weights::from_bytes(&Weights::zero().to_bytes()).unwrap(),
            Weights::zero()
        );
    }

    #[test]
    fn damaged_weight_files_are_refused() {
        let bytes = Weights::zero().to_bytes();
        assert!(Weights::from_bytes(b"hello").is_err());
        assert!(Weights::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Weights::from_bytes(&longer).is_err());
    }
}
