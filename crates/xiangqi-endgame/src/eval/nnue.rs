//! An efficiently updatable network (NNUE style) that corrects the piece-square evaluation
//! ([`crate::eval::EvalKind::Net`]) with what depends on where the other pieces stand.
//!
//! Inputs: one per piece kind, owner and square as each side sees the board (1,260 a side,
//! black's board turned over). [`HIDDEN`] neurons a side sum the weights of the pieces on the
//! board (the accumulator); a move changes two or three inputs, so the search updates it on
//! make and drops it on unmake ([`Accumulator::after_move`]). Both sides' neurons, clipped to
//! 0..1, the side to move's first, give the correction by one weighted sum, from the side to
//! move's view. Weights are 16-bit integers (1.0 is [`QA`] in the accumulator, [`QB`] at the
//! output), so the loops are integer adds the compiler vectorises. `train-net`
//! ([`crate::learn::train_net`]) learns it; the built-in one is `data/net.bin`.

use crate::board::piece::{Color, Piece};
use crate::board::square::{Move, Square};
use crate::rules::position::Position;
use batch::InputError;
use std::sync::OnceLock;

/// Inputs per side: owner (own, other) × kind × square.
pub const INPUTS: usize = 2 * 7 * 90;
/// Hidden neurons per side.
pub const HIDDEN: usize = 128;
/// The accumulator's fixed-point one.
pub const QA: i32 = 255;
/// The output weights' fixed-point one.
pub const QB: i32 = 128;
/// The float network's output unit in evaluation units.
pub const OUTPUT_SCALE: i32 = 200;
/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"XQNNUE1\n";

/// The input of `piece` on `sq` as seen by `side`.
///
/// ```
/// use xiangqi_endgame::nnue::input;
/// use xiangqi_endgame::{Color, Kind, Piece, Square};
/// // Red's king on e0 seen by red is black's king on e9 seen by black.
/// let red = input(Color::Red, Piece::new(Color::Red, Kind::King), Square::new(9, 4));
/// let black = input(Color::Black, Piece::new(Color::Black, Kind::King), Square::new(0, 4));
/// assert_eq!(red, black);
/// ```
#[inline]
pub fn input(side: Color, piece: Piece, sq: Square) -> usize {
    let sq = match side {
        Color::Red => sq.index(),
        Color::Black => (9 - sq.row()) * 9 + sq.col(),
    };
    let owner = (piece.color != side) as usize;
    (owner * 7 + piece.kind as usize) * 90 + sq
}

/// A quantised network: the accumulator's weights and biases, the output's.
#[derive(Debug, Clone, PartialEq)]
pub struct Network {
    /// `[input * HIDDEN + neuron]`, in 1/[`QA`].
    pub input_weights: Vec<i16>,
    /// In 1/[`QA`].
    pub hidden_bias: Vec<i16>,
    /// The side to move's neurons, then the other side's, in 1/[`QB`].
    pub output_weights: Vec<i16>,
    /// In 1/([`QA`]·[`QB`]).
    pub output_bias: i32,
    /// How the network was made (the command, the data, the errors).
    pub description: String,
    /// Positions (FEN) with the float network's output there, in evaluation units from the
    /// side to move's view: what the quantised network must reproduce.
    pub checks: Vec<(String, f32)>,
}

/// One side's hidden neurons before clipping, for both sides (`[Color as usize]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(align(64))]
pub struct Accumulator(pub [[i16; HIDDEN]; 2]);

impl Network {
    /// The accumulator of `pos`, summed from scratch.
    pub fn accumulate(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator([[0; HIDDEN]; 2]);
        for side in [Color::Red, Color::Black] {
            let a = &mut acc.0[side as usize];
            a.copy_from_slice(&self.hidden_bias);
            for (i, p) in pos.board().iter().enumerate() {
                if let Some(p) = *p {
                    add(a, self.row(input(side, p, Square(i as u8))));
                }
            }
        }
        acc
    }

    #[inline]
    fn row(&self, input: usize) -> &[i16; HIDDEN] {
        self.input_weights[input * HIDDEN..(input + 1) * HIDDEN]
            .try_into()
            .expect("a row of HIDDEN weights")
    }

    /// The correction for `side` to move with accumulator `acc`, in evaluation units from the
    /// side to move's view.
    #[inline]
    pub fn output(&self, acc: &Accumulator, side: Color) -> i32 {
        let us = &acc.0[side as usize];
        let them = &acc.0[side.opposite() as usize];
        let (w_us, w_them) = self.output_weights.split_at(HIDDEN);
        let sum = dot(us, w_us) + dot(them, w_them) + self.output_bias;
        (sum as i64 * OUTPUT_SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The correction of `pos`, summed from scratch, from the side to move's view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.accumulate(pos), pos.side())
    }

    /// Reads a network file (see [`Network::to_bytes`]); an error names what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, InputError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err(InputError::at(
                0,
                "not a network file (no `XQNNUE1` header)",
            ));
        }
        let (inputs, hidden) = (r.u32()? as usize, r.u32()? as usize);
        if (inputs, hidden) != (INPUTS, HIDDEN) {
            return Err(InputError::at(
                0,
                format!("a network of {inputs} inputs and {hidden} neurons; this build reads {INPUTS} and {HIDDEN}"),
            ));
        }
        let input_weights = r.i16s(INPUTS * HIDDEN)?;
        let hidden_bias = r.i16s(HIDDEN)?;
        let output_weights = r.i16s(2 * HIDDEN)?;
        let output_bias = r.u32()? as i32;
        let len = r.u32()? as usize;
        let description = String::from_utf8(r.take(len)?.to_vec())
            .map_err(|_| InputError::at(0, "the description is not UTF-8"))?;
        let mut checks = Vec::new();
        for _ in 0..r.u32()? {
            let len = r.u32()? as usize;
            let fen = String::from_utf8(r.take(len)?.to_vec())
                .map_err(|_| InputError::at(0, "a check position is not UTF-8"))?;
            checks.push((fen, f32::from_bits(r.u32()?)));
        }
        if r.at != bytes.len() {
            return Err(InputError::at(
                0,
                format!("{} bytes after the network", bytes.len() - r.at),
            ));
        }
        Ok(Network {
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
            description,
            checks,
        })
    }

    /// The network file: [`MAGIC`], the sizes, the weights (little-endian), the description
    /// and the check positions.
    ///
    /// ```
    /// use xiangqi_endgame::nnue::{Network, HIDDEN, INPUTS};
    /// let net = Network {
    ///     input_weights: vec![1; INPUTS * HIDDEN],
    ///     hidden_bias: vec![2; HIDDEN],
    ///     output_weights: vec![-3; 2 * HIDDEN],
    ///     output_bias: 4,
    ///     description: "made by hand".into(),
    ///     checks: vec![("4k4/9/9/9/9/9/9/9/9/4K4 w".into(), 1.5)],
    /// };
    /// assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    /// assert!(Network::from_bytes(&net.to_bytes()[..100]).is_err());
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let u32s = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
        u32s(&mut out, INPUTS as u32);
        u32s(&mut out, HIDDEN as u32);
        for w in self
            .input_weights
            .iter()
            .chain(&self.hidden_bias)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        u32s(&mut out, self.output_bias as u32);
        u32s(&mut out, self.description.len() as u32);
        out.extend_from_slice(self.description.as_bytes());
        u32s(&mut out, self.checks.len() as u32);
        for (fen, v) in &self.checks {
            u32s(&mut out, fen.len() as u32);
            out.extend_from_slice(fen.as_bytes());
            u32s(&mut out, v.to_bits());
        }
        out
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], InputError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| {
            InputError::at(
                0,
                format!(
                    "the network file ends at byte {} of {}",
                    self.bytes.len(),
                    self.at.saturating_add(n)
                ),
            )
        })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, InputError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, InputError> {
        Ok(self
            .take(2 * n)?
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect())
    }
}

#[inline]
fn add(acc: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a = a.wrapping_add(w);
    }
}

#[inline]
fn sub(acc: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a = a.wrapping_sub(w);
    }
}

/// Σ clip(a, 0, QA) · w, the clipped neurons against their output weights.
#[inline]
fn dot(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| a.clamp(0, QA as i16) as i32 * w as i32)
        .sum()
}

impl Accumulator {
    /// The accumulator after `mv` in `pos` (before it is made): the moving piece leaves its
    /// square for the target, and a captured piece leaves the board.
    #[inline]
    pub fn after_move(&self, net: &Network, pos: &Position, mv: Move) -> Accumulator {
        let mut next = *self;
        let moving = pos.at(mv.from).expect("a piece on the move's square");
        let captured = pos.at(mv.to);
        for side in [Color::Red, Color::Black] {
            let a = &mut next.0[side as usize];
            sub(a, net.row(input(side, moving, mv.from)));
            add(a, net.row(input(side, moving, mv.to)));
            if let Some(c) = captured {
                sub(a, net.row(input(side, c, mv.to)));
            }
        }
        next
    }
}

/// The built-in network, `data/net.bin` (made by `xiangqi-endgame train-net`; its
/// description says how).
pub fn built_in() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| {
        Network::from_bytes(include_bytes!("../../data/net.bin"))
            .expect("the built-in network is checked by the tests")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{random_games, turned_over};

    #[test]
    fn the_updated_accumulator_equals_the_summed_one_along_random_games() {
        let net = built_in();
        let mut acc = None;
        random_games(3, 30, 150, |pos, mv| {
            // A new game starts from the summed accumulator.
            let current = match acc {
                Some(a) if pos.ply() > 0 => a,
                _ => net.accumulate(pos),
            };
            assert_eq!(current, net.accumulate(pos), "{pos}");
            acc = mv.map(|mv| current.after_move(net, pos, mv));
        });
    }

    #[test]
    fn the_built_in_network_reproduces_its_float_outputs() {
        let net = built_in();
        assert!(net.checks.len() >= 4);
        for (fen, expected) in &net.checks {
            let pos: Position = fen.parse().unwrap();
            let got = net.evaluate(&pos) as f32;
            // Rounding of the weights and of the result: `train-net` reports the largest
            // difference on its held-back positions (under 9 units for the built-in network).
            assert!(
                (got - expected).abs() <= 12.0,
                "{fen}: {got} against {expected}"
            );
        }
    }

    #[test]
    fn the_built_in_network_is_the_same_from_either_side_along_random_games() {
        // Colours swapped and the board turned over: the same position for the side to move.
        let net = built_in();
        random_games(4, 20, 100, |pos, _| {
            assert_eq!(net.evaluate(pos), net.evaluate(&turned_over(pos)), "{pos}");
        });
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = built_in().to_bytes();
        let e = Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(e.message.contains("ends at byte"), "{e}");
        let mut more = bytes.clone();
        more.push(0);
        assert!(Network::from_bytes(&more)
            .unwrap_err()
            .message
            .contains("1 bytes after"));
        assert!(Network::from_bytes(b"hello").is_err());
    }
}
