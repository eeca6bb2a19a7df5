//! One agent, a start and a goal: depth-first, depth-limited and iterative deepening, breadth-
//! first, uniform-cost, A*, IDA*, beam search, branch and bound, and whole distance fields.
//! Each is generic over closures for the successors, the goal and the heuristic.

pub mod astar;
pub mod beam;
pub mod bfs;
pub mod branch_bound;
pub mod dfs;
pub mod distances;
pub mod dls;
pub mod idastar;
pub mod iddfs;
pub mod ucs;
