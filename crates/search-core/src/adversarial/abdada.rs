//! Parallel search by deferring busy moves (Kerrigan's simplified ABDADA): every thread
//! searches the whole tree from the root with its own [`Searcher`], all of them sharing one
//! transposition table ([`SharedTable`](crate::SharedTable)). Deep enough, a thread marks the
//! position after each move it starts searching in a small [`BusyTable`]; a move other than a
//! node's first whose position another thread is searching right now is put off to the end of
//! the node, by which time its value is usually in the shared table. The threads thus spread
//! over different subtrees without any split points, and none waits for another.

use crate::adversarial::negamax::Searcher;
use crate::adversarial::parallel::ParallelRoot;
use crate::game::{Game, Score};
use crate::tables::busy::BusyTable;
use crate::tables::tt::Transpositions;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// Searches the root to `depth` plies within `(alpha, beta)` on one thread per searcher, each
/// on its own copy of the root in `games`, deferring busy moves at nodes with at least
/// `defer_depth` plies left (see the module's header). The searchers should share their table
/// (handles of one [`SharedTable`](crate::SharedTable)): without it the threads only repeat one
/// another's work. The first thread to finish gives the answer and stops the others; add up
/// the searchers' `stats` for the work done. With one searcher this is its plain search.
///
/// # Panics
/// When `games` and `searchers` differ in length or are empty.
///
/// ```
/// use search_core::{alphabeta, shared_search_root, Game, Score, Searcher, SharedTable, INF};
/// #[derive(Clone)]
/// struct Nim(u32);
/// impl Game for Nim {
///     type Move = u8;
///     fn generate_moves(&self, m: &mut Vec<u8>) { m.extend((1..=3).filter(|&k| k as u32 <= self.0)); }
///     fn play(&mut self, k: u8) { self.0 -= k as u32; }
///     fn undo(&mut self, k: u8) { self.0 += k as u32; }
///     fn evaluate(&self) -> Score { self.0 as Score % 4 }
///     fn hash(&self) -> u64 { (self.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) }
/// }
/// let table = SharedTable::with_megabytes(1);
/// let mut searchers: Vec<_> = (0..2).map(|_| Searcher::with_table(table.share())).collect();
/// let mut games = vec![Nim(14), Nim(14)];
/// let r = shared_search_root(&mut games, &mut searchers, 6, -INF, INF, 2);
/// assert_eq!(r.score, alphabeta(&mut Nim(14), 6).score);
/// assert_eq!(r.best, Some(2)); // leave 12, a multiple of 4
/// ```
pub fn shared_search_root<G, T>(
    games: &mut [G],
    searchers: &mut [Searcher<G, T>],
    depth: u32,
    alpha: Score,
    beta: Score,
    defer_depth: u32,
) -> ParallelRoot<G::Move>
where
    G: Game + Send,
    G::Move: Send,
    T: Transpositions<G::Move> + Send,
{
    assert!(
        !games.is_empty() && games.len() == searchers.len(),
        "one game per searcher"
    );
    if searchers.len() == 1 {
        let s = &mut searchers[0];
        let score = s.search_root(&mut games[0], depth, alpha, beta);
        return ParallelRoot {
            score,
            best: s.best_move(),
            aborted: s.aborted(),
        };
    }
    let busy = Arc::new(BusyTable::new());
    let done = Arc::new(AtomicBool::new(false));
    let answer = Mutex::new(None);
    std::thread::scope(|scope| {
        for (game, searcher) in games.iter_mut().zip(searchers.iter_mut()) {
            let (busy, done, answer) = (busy.clone(), done.clone(), &answer);
            scope.spawn(move || {
                searcher.defer_busy = Some((busy, defer_depth as i32));
                searcher.budget.team_done = Some(done.clone());
                let score = searcher.search_root(game, depth, alpha, beta);
                searcher.defer_busy = None;
                searcher.budget.team_done = None;
                let mut answer = answer.lock().expect("no thread panics holding it");
                if answer.is_none() && !searcher.aborted() {
                    *answer = Some((score, searcher.best_move()));
                    done.store(true, Relaxed);
                }
            });
        }
    });
    match answer.into_inner().expect("no thread panicked") {
        Some((score, best)) => ParallelRoot {
            score,
            best,
            aborted: false,
        },
        None => ParallelRoot {
            score: 0,
            best: None,
            aborted: true,
        },
    }
}
