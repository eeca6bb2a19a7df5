//! Proof-number search: proving a position won or lost (a mate, a forced win) by expanding the
//! most-proving node.

pub mod pns;
