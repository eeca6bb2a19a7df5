//! The tables searches remember positions in: the transposition table (owned, or shared by
//! threads), the exact solver's compact bound table, and the fast hashing they key by.

pub mod bound_table;
pub mod busy;
pub mod hash;
pub mod shared_tt;
pub mod tt;
