//! Moves and games as players write them: ICCS coordinates (`h2e2`), WXF (`C2.5`), Chinese
//! notation (`炮二平五`) over the description the last two share, and PGN game records in any of
//! them, in UTF-8, GBK/GB18030 or Big5.

pub mod chinese;
pub mod collection;
pub mod descriptive;
pub mod iccs;
pub mod pgn;
pub mod wxf;
