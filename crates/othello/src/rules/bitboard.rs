//! Move generation on 64-bit boards: bit i is square i (a1 = 0, b1 = 1, …, h8 = 63).
//!
//! Legal moves come from parallel-prefix flood fills along the four lines (both senses at once,
//! opponent discs on the a/h files masked out so runs cannot wrap); the flips of one move from
//! precomputed rays and one bit scan per direction. No loops over squares, no allocation.

/// Every square except the a and h files: opponent discs there cannot be flanked sideways, so
/// masking them out stops horizontal and diagonal runs from wrapping to the next rank.
const INNER_FILES: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The four corners a1, h1, a8, h8.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The number of moves in `moves`, corners counted twice: how much play a side has, the key of
/// fastest-first ordering (fewest replies left to the opponent first).
///
/// ```
/// use othello::bitboard::weighted_mobility;
/// assert_eq!(weighted_mobility(0b11), 3); // a1 (a corner, twice) and b1
/// assert_eq!(weighted_mobility(0b110), 2); // b1 and c1
/// ```
#[inline]
pub fn weighted_mobility(moves: u64) -> u32 {
    moves.count_ones() + (moves & CORNERS).count_ones()
}

/// A square's rank for the engine's cheap order near the horizon (a1..h8, lower first): corners,
/// then the edges' A- and B-squares, the centre, the rest of the inner ring, and the C- and
/// X-squares next to the corners last.
#[rustfmt::skip]
pub const SQUARE_RANK: [u8; 64] = [
    0, 5, 1, 2, 2, 1, 5, 0,
    5, 6, 4, 4, 4, 4, 6, 5,
    1, 4, 3, 3, 3, 3, 4, 1,
    2, 4, 3, 3, 3, 3, 4, 2,
    2, 4, 3, 3, 3, 3, 4, 2,
    1, 4, 3, 3, 3, 3, 4, 1,
    5, 6, 4, 4, 4, 4, 6, 5,
    0, 5, 1, 2, 2, 1, 5, 0,
];

/// Every square except the a file (the h file).
pub(crate) const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
pub(crate) const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The squares next to some square of `b` (in any of the eight directions); squares of `b`
/// count only where they are next to another square of `b`.
///
/// ```
/// use othello::bitboard::adjacent;
/// assert_eq!(adjacent(1).count_ones(), 3); // a1: b1, a2, b2
/// assert_eq!(adjacent(1 << 27).count_ones(), 8); // d4
/// ```
#[inline]
pub const fn adjacent(b: u64) -> u64 {
    ((b << 1) & NOT_A)
        | ((b >> 1) & NOT_H)
        | (b << 8)
        | (b >> 8)
        | ((b << 9) & NOT_A)
        | ((b << 7) & NOT_H)
        | ((b >> 7) & NOT_A)
        | ((b >> 9) & NOT_H)
}

/// Moves along one line direction (`shift` 1, 7, 8 or 9) in both senses: runs of `opp` discs
/// that start next to a `me` disc, grown by parallel prefix (1, then 2, then 2 more squares)
/// instead of six single steps, then one step further onto the landing squares.
#[inline(always)]
fn moves_along(me: u64, opp: u64, shift: u32) -> u64 {
    let mut up = opp & (me << shift);
    let mut down = opp & (me >> shift);
    up |= opp & (up << shift);
    down |= opp & (down >> shift);
    let pairs_up = opp & (opp << shift);
    let pairs_down = opp & (opp >> shift);
    up |= pairs_up & (up << (2 * shift));
    down |= pairs_down & (down >> (2 * shift));
    up |= pairs_up & (up << (2 * shift));
    down |= pairs_down & (down >> (2 * shift));
    (up << shift) | (down >> shift)
}

/// The `k`-th square (from 0, in increasing order) of the non-empty set `bits`: how a move is
/// drawn at random from a move set.
///
/// ```
/// use othello::bitboard::nth_square;
/// let set = (1u64 << 4) | (1 << 5) | (1 << 7);
/// assert_eq!([nth_square(set, 0), nth_square(set, 1), nth_square(set, 2)], [4, 5, 7]);
/// ```
#[inline]
pub fn nth_square(mut bits: u64, k: u32) -> u8 {
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits.trailing_zeros() as u8
}

/// Squares where `me` may play against `opp`.
///
/// ```
/// use othello::bitboard::legal_moves;
/// // The start: black (d5, e4) to move against white (d4, e5): d3, c4, f5, e6.
/// let black = (1u64 << 35) | (1 << 28);
/// let white = (1u64 << 27) | (1 << 36);
/// assert_eq!(legal_moves(black, white).count_ones(), 4);
/// ```
#[inline]
#[allow(unsafe_code)]
pub fn legal_moves(me: u64, opp: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: this branch is compiled only when AVX2 is enabled for the whole build.
        unsafe { legal_moves_avx2(me, opp) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        legal_moves_scalar(me, opp)
    }
}

/// [`legal_moves`] with the four line directions in the four lanes of one 256-bit vector:
/// the same parallel-prefix fills as [`legal_moves_scalar`], done once instead of four times.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn legal_moves_avx2(me: u64, opp: u64) -> u64 {
    use std::arch::x86_64::*;
    // Lanes: shifts 1, 8, 7, 9; all but the vertical one mask the a and h files.
    let shift = _mm256_set_epi64x(9, 7, 8, 1);
    let shift2 = _mm256_add_epi64(shift, shift);
    let me_v = _mm256_set1_epi64x(me as i64);
    let masks = _mm256_set_epi64x(
        INNER_FILES as i64,
        INNER_FILES as i64,
        -1,
        INNER_FILES as i64,
    );
    let opp_v = _mm256_and_si256(_mm256_set1_epi64x(opp as i64), masks);
    let mut up = _mm256_and_si256(opp_v, _mm256_sllv_epi64(me_v, shift));
    let mut down = _mm256_and_si256(opp_v, _mm256_srlv_epi64(me_v, shift));
    up = _mm256_or_si256(up, _mm256_and_si256(opp_v, _mm256_sllv_epi64(up, shift)));
    down = _mm256_or_si256(
        down,
        _mm256_and_si256(opp_v, _mm256_srlv_epi64(down, shift)),
    );
    let pairs_up = _mm256_and_si256(opp_v, _mm256_sllv_epi64(opp_v, shift));
    let pairs_down = _mm256_and_si256(opp_v, _mm256_srlv_epi64(opp_v, shift));
    for _ in 0..2 {
        up = _mm256_or_si256(
            up,
            _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, shift2)),
        );
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, shift2)),
        );
    }
    let all = _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift));
    let half = _mm_or_si128(
        _mm256_castsi256_si128(all),
        _mm256_extracti128_si256::<1>(all),
    );
    let pair = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
    _mm_cvtsi128_si64(pair) as u64 & !(me | opp)
}

/// [`legal_moves`] one direction at a time (no vector unit needed); public for the tests.
///
/// ```
/// use othello::bitboard::{legal_moves, legal_moves_scalar};
/// let (black, white) = ((1u64 << 35) | (1 << 28), (1u64 << 27) | (1 << 36));
/// assert_eq!(legal_moves_scalar(black, white), legal_moves(black, white));
/// ```
#[inline]
pub fn legal_moves_scalar(me: u64, opp: u64) -> u64 {
    let sideways = opp & INNER_FILES;
    let moves = moves_along(me, sideways, 1)
        | moves_along(me, opp, 8)
        | moves_along(me, sideways, 7)
        | moves_along(me, sideways, 9);
    moves & !(me | opp)
}

/// The squares beyond each square in each direction (the square itself excluded): rays toward
/// higher bit numbers first (E, N, NE, NW), then toward lower ones (W, S, SW, SE).
const fn ray_table() -> [[u64; 64]; 8] {
    let steps: [(i32, i32); 8] = [
        (0, 1),
        (1, 0),
        (1, 1),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, -1),
        (-1, 1),
    ];
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut r, mut c) = ((sq / 8) as i32 + steps[d].0, (sq % 8) as i32 + steps[d].1);
            let mut m = 0u64;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                m |= 1 << (r * 8 + c);
                r += steps[d].0;
                c += steps[d].1;
            }
            t[d][sq] = m;
            sq += 1;
        }
        d += 1;
    }
    t
}
static RAYS: [[u64; 64]; 8] = ray_table();

/// The rays of [`RAYS`] regrouped per square, four directions in a 32-byte row (toward higher
/// squares in `[sq][0]`, toward lower ones in `[sq][1]`), so that the vector [`flips`] loads a
/// square's four rays at once.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[repr(C, align(32))]
struct RaysBySquare([[[u64; 4]; 2]; 64]);

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
static RAYS_BY_SQUARE: RaysBySquare = {
    let t = ray_table();
    let mut out = [[[0u64; 4]; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            out[sq][d / 4][d % 4] = t[d][sq];
            d += 1;
        }
        sq += 1;
    }
    RaysBySquare(out)
};

/// The discs flipped when `me` plays on square `sq` (0 when the move is illegal).
///
/// Per direction: the first square along the ray that is not an opponent disc is found (the
/// lowest bit for rays toward higher squares, the highest for the others); when it holds one of
/// `me`'s discs, the ray's squares before it flip. With AVX2 (the default build targets
/// x86-64-v3) the four rays of each kind are handled in one 256-bit vector; otherwise eight
/// short independent scalar chains. Both are compared with a slow generator in the tests.
#[inline]
#[allow(unsafe_code)]
pub fn flips(me: u64, opp: u64, sq: u32) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: this branch is compiled only when AVX2 is enabled for the whole build, and
        // `sq` indexes the 64-entry table (checked by the slice index).
        unsafe { flips_avx2(me, opp, &RAYS_BY_SQUARE.0[sq as usize]) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_scalar(me, opp, sq)
    }
}

/// The four lines through each square (rank, file, a1-h8 diagonal, h1-a8 diagonal) and the
/// place of the square on each, counted from the line's lowest square: what
/// [`last_flip_count`] needs.
struct Lines {
    masks: [[u64; 4]; 64],
    places: [[u8; 4]; 64],
}

const fn line_table() -> Lines {
    let mut t = Lines {
        masks: [[0; 4]; 64],
        places: [[0; 4]; 64],
    };
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (rr, cc) = ((other / 8) as i32, (other % 8) as i32);
            let on = [rr == r, cc == c, rr - cc == r - c, rr + cc == r + c];
            let mut k = 0;
            while k < 4 {
                if on[k] {
                    t.masks[sq][k] |= 1 << other;
                    if other < sq {
                        t.places[sq][k] += 1;
                    }
                }
                k += 1;
            }
            other += 1;
        }
        sq += 1;
    }
    t
}
static LINES: Lines = line_table();

/// Discs flipped on one line of up to eight squares by a move at place `p`, where the bits of
/// `own` are the mover's discs and every other square of the line is the opponent's: the run
/// from `p` each way counts when it ends on an own disc. Squares past a shorter line's end
/// read as the opponent's, which changes nothing, as no own disc lies beyond them.
const fn line_flip_table() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut own = 0;
        while own < 256 {
            let mut n = 0;
            let mut k = p + 1;
            while k < 8 && own >> k & 1 == 0 {
                k += 1;
            }
            if k < 8 {
                n += k - p - 1;
            }
            let mut k = p as i32 - 1;
            while k >= 0 && own >> k & 1 == 0 {
                k -= 1;
            }
            if k >= 0 {
                n += p - k as usize - 1;
            }
            t[p][own] = n as u8;
            own += 1;
        }
        p += 1;
    }
    t
}
static LINE_FLIPS: [[u8; 256]; 8] = line_flip_table();

/// How many discs a move on `sq` flips when `sq` is the only empty square and `me` holds the
/// mover's discs (all the others are the opponent's): four table look-ups, one per line,
/// instead of computing the flips, which the last move of a solve needs only to count.
///
/// ```
/// use othello::bitboard::{flips, last_flip_count};
/// // a1 empty, b1..g1 the opponent's, h1 and the rest the mover's.
/// let me = !0x7f_u64;
/// assert_eq!(last_flip_count(me, 0), 6);
/// assert_eq!(last_flip_count(me, 0), flips(me, !me & !1, 0).count_ones());
/// ```
#[inline(always)]
pub fn last_flip_count(me: u64, sq: u32) -> u32 {
    let sq = sq as usize;
    let (masks, places) = (&LINES.masks[sq], &LINES.places[sq]);
    let mut n = 0;
    for k in 0..4 {
        // The masks hold at most eight squares, so both indices are in range; the masking
        // says so to the compiler, which then checks no bounds.
        let own = pext(me, masks[k]) as usize & 0xff;
        n += u32::from(LINE_FLIPS[places[k] as usize & 7][own]);
    }
    n
}

/// The bits of `x` under `mask`, packed into the low bits (BMI2's `pext`, or a loop without
/// it).
#[inline(always)]
fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: compiled only when BMI2 is enabled for the whole build.
        #[allow(unsafe_code)]
        unsafe {
            std::arch::x86_64::_pext_u64(x, mask)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut out, mut m, mut k) = (0, mask, 0);
        while m != 0 {
            let low = m & m.wrapping_neg();
            out |= u64::from(x & low != 0) << k;
            m ^= low;
            k += 1;
        }
        out
    }
}

/// [`flips`] with four directions per 256-bit vector.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn flips_avx2(me: u64, opp: u64, rays: &[[u64; 4]; 2]) -> u64 {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let me_v = _mm256_set1_epi64x(me as i64);
    let opp_v = _mm256_set1_epi64x(opp as i64);
    // SAFETY: each row is 32 bytes inside the aligned table; unaligned loads are used anyway.
    let up = unsafe { _mm256_loadu_si256(rays[0].as_ptr() as *const __m256i) };
    let down = unsafe { _mm256_loadu_si256(rays[1].as_ptr() as *const __m256i) };
    // Toward higher squares: the lowest square of the ray that is not the opponent's.
    let x = _mm256_andnot_si256(opp_v, up);
    let first = _mm256_and_si256(x, _mm256_sub_epi64(zero, x));
    let missed = _mm256_cmpeq_epi64(_mm256_and_si256(first, me_v), zero);
    let before = _mm256_add_epi64(first, _mm256_set1_epi64x(-1));
    let up_flips = _mm256_andnot_si256(missed, _mm256_and_si256(before, up));
    // Toward lower squares: the highest such square; smearing it downwards marks it and every
    // square below, so the squares before it are the ray minus the smear.
    let x = _mm256_andnot_si256(opp_v, down);
    let mut smear = _mm256_or_si256(x, _mm256_srli_epi64::<1>(x));
    smear = _mm256_or_si256(smear, _mm256_srli_epi64::<2>(smear));
    smear = _mm256_or_si256(smear, _mm256_srli_epi64::<4>(smear));
    smear = _mm256_or_si256(smear, _mm256_srli_epi64::<8>(smear));
    smear = _mm256_or_si256(smear, _mm256_srli_epi64::<16>(smear));
    smear = _mm256_or_si256(smear, _mm256_srli_epi64::<32>(smear));
    let first = _mm256_andnot_si256(_mm256_srli_epi64::<1>(smear), smear);
    let missed = _mm256_cmpeq_epi64(_mm256_and_si256(first, me_v), zero);
    let down_flips = _mm256_andnot_si256(missed, _mm256_andnot_si256(smear, down));
    let all = _mm256_or_si256(up_flips, down_flips);
    let half = _mm_or_si128(
        _mm256_castsi256_si128(all),
        _mm256_extracti128_si256::<1>(all),
    );
    let pair = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
    _mm_cvtsi128_si64(pair) as u64
}

/// [`flips`] as eight scalar chains (no vector unit needed); public for the tests.
#[inline]
pub fn flips_scalar(me: u64, opp: u64, sq: u32) -> u64 {
    let sq = sq as usize;
    let mut all = 0;
    for rays in &RAYS[..4] {
        let ray = rays[sq];
        let x = ray & !opp;
        let first = x & x.wrapping_neg();
        let hit = ((first & me) != 0) as u64;
        all |= ray & first.wrapping_sub(1) & hit.wrapping_neg();
    }
    for rays in &RAYS[4..] {
        let ray = rays[sq];
        let x = (ray & !opp) | 1;
        let top = 63 - x.leading_zeros();
        let first = 1u64 << top;
        let hit = ((first & me & ray) != 0) as u64;
        all |= ray & !(u64::MAX >> x.leading_zeros()) & hit.wrapping_neg();
    }
    all
}

/// The board `b` in the eight symmetries of the square: board `k` is `b` reflected in the
/// a1-h8 diagonal if `k & 4`, then with its files mirrored if `k & 1` and its ranks if `k & 2`
/// (the identity, files, ranks, the half turn, then the same four after the diagonal), each
/// built from an earlier one by one operation. The pattern evaluation reads its families
/// through them in this order; `Position::canonical` picks the least.
///
/// ```
/// use othello::bitboard::symmetric_boards;
/// let a1 = 1u64;
/// assert_eq!(symmetric_boards(a1), [a1, 1 << 7, 1 << 56, 1 << 63, a1, 1 << 7, 1 << 56, 1 << 63]);
/// let b1 = 2u64; // b1 reflected in the diagonal is a2
/// assert_eq!(symmetric_boards(b1)[4], 1 << 8);
/// ```
#[inline]
pub fn symmetric_boards(b: u64) -> [u64; 8] {
    let t = transpose(b);
    let (f, tf) = (mirror_files(b), mirror_files(t));
    [
        b,
        f,
        b.swap_bytes(),
        f.swap_bytes(),
        t,
        tf,
        t.swap_bytes(),
        tf.swap_bytes(),
    ]
}

/// Reflection in the a1-h8 diagonal, by three delta swaps.
#[inline]
pub fn transpose(mut b: u64) -> u64 {
    let t = (b ^ (b >> 7)) & 0x00aa_00aa_00aa_00aa;
    b ^= t ^ (t << 7);
    let t = (b ^ (b >> 14)) & 0x0000_cccc_0000_cccc;
    b ^= t ^ (t << 14);
    let t = (b ^ (b >> 28)) & 0x0000_0000_f0f0_f0f0;
    b ^ t ^ (t << 28)
}

/// Files a..h become h..a (each rank's byte reversed).
#[inline]
pub fn mirror_files(mut b: u64) -> u64 {
    b = (b >> 1 & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    b = (b >> 2 & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    (b >> 4 & 0x0f0f_0f0f_0f0f_0f0f) | ((b & 0x0f0f_0f0f_0f0f_0f0f) << 4)
}
