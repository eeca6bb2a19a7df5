//! The numeric type of path costs.
//!
//! Any integer type works; the trait only asks for what the searches use: a zero, addition
//! and a total order. Floating-point costs are deliberately not supported (no total order).

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{Add, Sub};

/// A path cost: zero, addition and a total order.
pub trait Cost: Copy + Ord + Add<Output = Self> + Sub<Output = Self> + Debug + Hash {
    /// The additive identity.
    const ZERO: Self;
    /// The largest value, used as "infinity" by IDA*.
    const MAX: Self;
    /// One unit, the cost of an edge in unit-cost searches.
    const ONE: Self;
}

macro_rules! impl_cost {
    ($($t:ty),*) => {$(
        impl Cost for $t {
            const ZERO: Self = 0;
            const MAX: Self = <$t>::MAX;
            const ONE: Self = 1;
        }
    )*};
}
impl_cost!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, u128, i128);
