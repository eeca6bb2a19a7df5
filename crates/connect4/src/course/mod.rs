//! The course's own interfaces and tools: the C ABI (`getPoint`, `clearPoint`), its text
//! protocols, its match tool, class tournaments, move-time reports, and the batch job.

pub mod compete;
pub mod ffi;
pub mod move_times;
pub mod protocol;
pub mod run;
pub mod tournament;
