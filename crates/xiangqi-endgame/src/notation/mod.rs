//! Moves and games as players write them: ICCS coordinates, WXF, Chinese notation, and PGN
//! game records.
