//! A transposition table: a fixed-size hash table of search results keyed by position hash,
//! and [`Transpositions`], what a [`Searcher`](crate::Searcher) asks of any such table.

use crate::game::{mate_in, Score, WIN_BOUND};
use std::mem::MaybeUninit;

/// What a stored score means relative to the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least the score (the node failed high).
    Lower,
    /// The true value is at most the score (the node failed low).
    Upper,
}

impl Bound {
    /// What a fail-soft `score` searched within `(alpha, beta)` says of the true value.
    ///
    /// ```
    /// use search_core::Bound;
    /// assert_eq!(Bound::of(5, 0, 5), Bound::Lower);
    /// assert_eq!(Bound::of(3, 0, 5), Bound::Exact);
    /// assert_eq!(Bound::of(0, 0, 5), Bound::Upper);
    /// ```
    pub fn of(score: Score, alpha: Score, beta: Score) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored search result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TtEntry<M> {
    /// Full position hash.
    pub key: u64,
    /// Best move found, if any.
    pub mv: Option<M>,
    /// Score, relative to the node (see [`TranspositionTable::probe`]).
    pub score: Score,
    /// Remaining depth the score was searched to.
    pub depth: i16,
    /// What the score means.
    pub bound: Bound,
}

impl<M> TtEntry<M> {
    /// The entry as a probe `ply` plies below the root returns it: a decided score counted
    /// from the root again.
    #[inline]
    pub(crate) fn root_relative(mut self, ply: u32) -> Self {
        self.score = mate_in(self.score, ply);
        self
    }
}

/// What a [`Searcher`](crate::Searcher) asks of its transposition table:
/// [`TranspositionTable`], owned by one searcher, or
/// [`SharedTable`](crate::SharedTable), whose handles let the threads of one search share it.
/// Scores are stored relative to the node and probed relative to the root `ply` plies above.
pub trait Transpositions<M> {
    /// The entry for `key`, a decided score converted back to be relative to the root when
    /// the node is `ply` plies deep.
    fn probe(&self, key: u64, ply: u32) -> Option<TtEntry<M>>;
    /// Starts loading the slot of `key` into the cache (a hint only).
    fn prefetch(&self, key: u64);
    /// Stores a result for the node `key` found `ply` plies below the root.
    fn store(&mut self, key: u64, depth: i16, ply: u32, score: Score, bound: Bound, mv: Option<M>);
    /// Starts a new search: older entries become preferred victims for replacement.
    fn new_search(&mut self);
    /// Empties the table.
    fn clear(&mut self);
}

impl<M: Copy> Transpositions<M> for TranspositionTable<M> {
    #[inline]
    fn probe(&self, key: u64, ply: u32) -> Option<TtEntry<M>> {
        TranspositionTable::probe(self, key, ply)
    }
    #[inline]
    fn prefetch(&self, key: u64) {
        TranspositionTable::prefetch(self, key)
    }
    #[inline]
    fn store(&mut self, key: u64, depth: i16, ply: u32, score: Score, bound: Bound, mv: Option<M>) {
        TranspositionTable::store(self, key, depth, ply, score, bound, mv)
    }
    fn new_search(&mut self) {
        TranspositionTable::new_search(self)
    }
    fn clear(&mut self) {
        TranspositionTable::clear(self)
    }
}

/// A bounded, depth-preferred transposition table.
///
/// ```
/// use search_core::{Bound, TranspositionTable};
/// let mut tt: TranspositionTable<u8> = TranspositionTable::with_entries(1024);
/// tt.store(42, 3, 0, 17, Bound::Exact, Some(5));
/// let e = tt.probe(42, 0).unwrap();
/// assert_eq!((e.score, e.depth, e.mv), (17, 3, Some(5)));
/// assert!(tt.probe(43, 0).is_none());
/// ```
///
/// Each slot keeps the full 64-bit key (so false hits need a real 64-bit collision), the
/// searched depth, the score with its bound type (exact, lower or upper), and the best move.
/// Replacement is depth-preferred: a slot is overwritten by a result of at least the same depth,
/// by the same position, or by anything when the slot dates from an earlier search (generation).
/// With [`TranspositionTable::set_two_way`], a position may sit in either of two neighbouring
/// slots and every result is kept: the first slot holds the deepest result of the search, the
/// second the newest of the others. The deep results stay while the recent shallow ones still
/// find room, which pays in long searches that store far more positions than the table holds.
/// Decided scores are stored relative to the node, not the root, so they stay correct when
/// the same position is met at another ply. Slots go in pairs aligned to 32 bytes: with a move
/// of at most two bytes a slot packs into 16 bytes (depth in a byte; the bound, a move flag and
/// the generation in another), so a pair never straddles two cache lines and one miss brings
/// both.
pub struct TranspositionTable<M: Copy> {
    buckets: Vec<Bucket<M>>,
    /// Slot count minus one (the slot count is a power of two, twice the bucket count).
    mask: usize,
    generation: u8,
    /// 1 when a position may sit in either slot of an aligned pair, 0 for one slot.
    pair: usize,
}

/// One slot as stored: a [`TtEntry`] packed into 16 bytes when the move takes at most two.
#[derive(Clone, Copy)]
struct Slot<M: Copy> {
    key: u64,
    score: Score,
    /// The remaining depth, clamped to `i8`: a depth above 127 is stored as 127, a shallower
    /// claim, so never wrongly trusted (the searcher stores depths of 1 and more only).
    depth: i8,
    /// 0 for an empty slot; else the bound (1 exact, 2 lower, 3 upper) in the low two bits,
    /// [`HAS_MOVE`] when `mv` holds a move, and the search generation, modulo 32, above them.
    meta: u8,
    /// The best move, written exactly when `meta` has [`HAS_MOVE`] (a flag bit instead of an
    /// `Option`, whose tag would not fit the 16 bytes for a two-byte move).
    mv: MaybeUninit<M>,
}

/// The bit of [`Slot::meta`] saying the slot holds a move.
pub(crate) const HAS_MOVE: u8 = 4;

impl<M: Copy> Slot<M> {
    const EMPTY: Slot<M> = Slot {
        key: 0,
        score: 0,
        depth: 0,
        meta: 0,
        mv: MaybeUninit::uninit(),
    };

    /// A result packed: `generation` as [`stored_generation`] keeps it.
    #[inline]
    fn new(key: u64, score: Score, depth: i8, bound: Bound, mv: Option<M>, generation: u8) -> Self {
        Slot {
            key,
            score,
            depth,
            meta: meta_byte(bound, mv.is_some(), generation),
            mv: mv.map_or(MaybeUninit::uninit(), MaybeUninit::new),
        }
    }

    #[inline]
    fn view(&self) -> SlotView {
        SlotView {
            empty: self.is_empty(),
            key: self.key,
            depth: self.depth,
            generation: self.generation(),
        }
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.meta == 0
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.meta >> 3
    }

    #[inline]
    #[allow(unsafe_code)]
    fn mv(&self) -> Option<M> {
        // SAFETY: `HAS_MOVE` is set only by `store`, together with writing `mv`.
        (self.meta & HAS_MOVE != 0).then(|| unsafe { self.mv.assume_init() })
    }

    #[inline]
    fn entry(&self) -> Option<TtEntry<M>> {
        let bound = bound_of_meta(self.meta)?;
        Some(TtEntry {
            key: self.key,
            mv: self.mv(),
            score: self.score,
            depth: self.depth as i16,
            bound,
        })
    }
}

/// Two slots on one aligned half cache line: the pair of a two-way table.
#[derive(Clone, Copy)]
#[repr(align(32))]
struct Bucket<M: Copy>([Slot<M>; 2]);

/// The generation as a slot keeps it (five bits).
#[inline]
pub(crate) fn stored_generation(generation: u8) -> u8 {
    generation & 31
}

impl<M: Copy> TranspositionTable<M> {
    /// A table with at least `entries` slots (rounded up to a power of two, at least two).
    ///
    /// # Panics
    /// When the memory cannot be had; [`TranspositionTable::try_with_entries`] says so instead.
    pub fn with_entries(entries: usize) -> Self {
        Self::try_with_entries(entries).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table with at least `entries` slots (rounded up to a power of two, at least two), or a
    /// message when that much memory cannot be allocated.
    ///
    /// ```
    /// use search_core::TranspositionTable;
    /// assert!(TranspositionTable::<u8>::try_with_entries(1 << 10).is_ok());
    /// assert!(TranspositionTable::<u8>::try_with_entries(usize::MAX).is_err());
    /// ```
    pub fn try_with_entries(entries: usize) -> Result<Self, String> {
        let (buckets, n) = bucket_array(entries, Self::SLOT_BYTES, || Bucket([Slot::EMPTY; 2]))?;
        Ok(TranspositionTable {
            buckets,
            mask: n - 1,
            generation: 0,
            pair: 0,
        })
    }

    /// A table using about `mb` mebibytes.
    ///
    /// # Panics
    /// When the memory cannot be had; [`TranspositionTable::try_with_megabytes`] says so instead.
    pub fn with_megabytes(mb: usize) -> Self {
        Self::try_with_megabytes(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table using about `mb` mebibytes, or a message when that much memory cannot be
    /// allocated.
    ///
    /// ```
    /// use search_core::TranspositionTable;
    /// assert!(TranspositionTable::<u8>::try_with_megabytes(1).is_ok());
    /// let err = TranspositionTable::<u8>::try_with_megabytes(usize::MAX).err().unwrap();
    /// assert!(err.starts_with("cannot allocate"), "{err}");
    /// ```
    pub fn try_with_megabytes(mb: usize) -> Result<Self, String> {
        let n = slots_in_megabytes(mb, Self::SLOT_BYTES)
            .ok_or_else(|| format!("cannot allocate a transposition table of {mb} MiB"))?;
        Self::try_with_entries(n)
            .map_err(|_| format!("cannot allocate a transposition table of {mb} MiB"))
    }

    /// Makes this table a copy of `other` (entries and generation), reusing its memory when
    /// both have the same number of slots: so parallel searchers can start from what one of
    /// them has learnt.
    ///
    /// ```
    /// use search_core::{Bound, TranspositionTable};
    /// let mut a: TranspositionTable<u8> = TranspositionTable::with_entries(64);
    /// a.store(7, 2, 0, 5, Bound::Lower, Some(1));
    /// let mut b = TranspositionTable::with_entries(64);
    /// b.copy_from(&a);
    /// assert_eq!(b.probe(7, 0).unwrap().score, 5);
    /// ```
    pub fn copy_from(&mut self, other: &Self) {
        if self.buckets.len() == other.buckets.len() {
            self.buckets.copy_from_slice(&other.buckets);
        } else {
            self.buckets = other.buckets.clone();
        }
        self.mask = other.mask;
        self.generation = other.generation;
        self.pair = other.pair;
    }

    /// Two-way buckets (`true`) or one slot per position, depth-preferred (`false`, the
    /// default); see the module's header. Entries already stored stay where they are and may
    /// be missed by probes after a change, so set this before searching.
    ///
    /// ```
    /// use search_core::{Bound, TranspositionTable};
    /// let mut tt: TranspositionTable<u8> = TranspositionTable::with_entries(2);
    /// tt.set_two_way(true);
    /// // Three positions share the one pair: the deep one stays, the shallow ones take turns.
    /// tt.store(2, 9, 0, 1, Bound::Exact, None);
    /// tt.store(4, 1, 0, 2, Bound::Exact, None);
    /// tt.store(6, 1, 0, 3, Bound::Exact, None);
    /// assert_eq!(tt.probe(2, 0).unwrap().score, 1);
    /// assert!(tt.probe(4, 0).is_none());
    /// assert_eq!(tt.probe(6, 0).unwrap().score, 3);
    /// ```
    pub fn set_two_way(&mut self, on: bool) {
        self.pair = usize::from(on);
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.mask + 1
    }

    /// The current search generation (counted modulo 256; slots keep it modulo 32).
    ///
    /// ```
    /// use search_core::TranspositionTable;
    /// let mut tt: TranspositionTable<u8> = TranspositionTable::with_entries(64);
    /// let g = tt.generation();
    /// tt.new_search();
    /// assert_eq!(tt.generation(), g.wrapping_add(1));
    /// ```
    pub fn generation(&self) -> u8 {
        self.generation
    }

    /// Starts a new search: older entries become preferred victims for replacement.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.buckets
            .iter_mut()
            .for_each(|b| *b = Bucket([Slot::EMPTY; 2]));
    }

    /// The entry for `key`, with a decided score converted back to be relative to the root
    /// when the node is `ply` plies deep.
    #[inline]
    pub fn probe(&self, key: u64, ply: u32) -> Option<TtEntry<M>> {
        let index = key as usize & self.mask;
        let bucket = &self.buckets[index >> 1].0;
        let slots = if self.pair == 1 {
            &bucket[..]
        } else {
            std::slice::from_ref(&bucket[index & 1])
        };
        let mut found = slots.iter().filter(|s| s.key == key);
        found.find_map(|s| s.entry()).map(|e| e.root_relative(ply))
    }

    /// Starts loading the slot of `key` into the cache for a probe soon after: a hint that
    /// never faults and changes nothing the program can see.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.buckets[(key as usize & self.mask) >> 1]);
    }

    /// Stores a result for the node `key` found `ply` plies below the root.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        depth: i16,
        ply: u32,
        score: Score,
        bound: Bound,
        mv: Option<M>,
    ) {
        let index = key as usize & self.mask;
        let generation = stored_generation(self.generation);
        let depth = depth.clamp(i8::MIN as i16, i8::MAX as i16) as i8;
        let bucket = &mut self.buckets[index >> 1].0;
        let place = placement(
            index,
            self.pair == 1,
            key,
            depth,
            generation,
            [bucket[0].view(), bucket[1].view()],
        );
        if place.demote_first {
            bucket[1] = bucket[0];
        }
        if place.replace {
            let slot = &mut bucket[place.slot];
            // Keep the old best move when the new result has none for the same position.
            let mv = match mv {
                None if !slot.is_empty() && slot.key == key => slot.mv(),
                _ => mv,
            };
            *slot = Slot::new(
                key,
                to_node_relative(score, ply),
                depth,
                bound,
                mv,
                generation,
            );
        }
    }

    /// Bytes of table per slot.
    const SLOT_BYTES: usize = std::mem::size_of::<Bucket<M>>() / 2;
}

/// The meta byte of a slot, in both tables: the bound in the low two bits (0 for an empty slot),
/// [`HAS_MOVE`] when the slot holds a move, the generation modulo 32 above them.
#[inline]
pub(crate) fn meta_byte(bound: Bound, has_move: bool, generation: u8) -> u8 {
    let bound = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    bound | if has_move { HAS_MOVE } else { 0 } | generation << 3
}

/// The bound a meta byte holds (`None` for an empty slot).
#[inline]
pub(crate) fn bound_of_meta(meta: u8) -> Option<Bound> {
    match meta & 3 {
        0 => None,
        1 => Some(Bound::Exact),
        2 => Some(Bound::Lower),
        _ => Some(Bound::Upper),
    }
}

/// Slots of `slot_bytes` in `mb` MiB, rounded down to a power of two so that the memory stays
/// within the request (at least one); `None` when the size overflows.
pub(crate) fn slots_in_megabytes(mb: usize, slot_bytes: usize) -> Option<usize> {
    let entries = mb.checked_mul(1 << 20)? / slot_bytes;
    let n = if entries.is_power_of_two() {
        entries
    } else {
        entries.next_power_of_two() / 2
    };
    Some(n.max(1))
}

/// What the replacement rule looks at in a slot.
#[derive(Clone, Copy)]
pub(crate) struct SlotView {
    pub empty: bool,
    pub key: u64,
    pub depth: i8,
    pub generation: u8,
}

/// Where a new result goes in its pair of slots.
pub(crate) struct Placement {
    /// The slot of the pair (0 or 1) it goes to.
    pub slot: usize,
    /// Whether it replaces what that slot holds (else it is dropped).
    pub replace: bool,
    /// Whether the first slot's content moves to the second one first.
    pub demote_first: bool,
}

/// The replacement rule of both tables, for a result of `depth` for `key` (slot `index`) in
/// the search `generation`, the pair's slots as `slots` shows them. One slot per position:
/// depth-preferred, a result of the same position or of an older search always replaced. Two
/// ways: the first slot keeps the deepest result of this search, the second the newest of the
/// others; a deeper (or as deep) result takes the first slot and moves what it held down.
#[inline]
pub(crate) fn placement(
    index: usize,
    two_way: bool,
    key: u64,
    depth: i8,
    generation: u8,
    slots: [SlotView; 2],
) -> Placement {
    if !two_way {
        let slot = slots[index & 1];
        let replace =
            slot.empty || slot.key == key || depth >= slot.depth || slot.generation != generation;
        return Placement {
            slot: index & 1,
            replace,
            demote_first: false,
        };
    }
    let first = slots[0];
    if !first.empty && first.key == key {
        return Placement {
            slot: 0,
            replace: true,
            demote_first: false,
        };
    }
    let takes_first = first.empty || first.generation != generation || first.depth <= depth;
    Placement {
        slot: if takes_first { 0 } else { 1 },
        replace: true,
        demote_first: takes_first && !first.empty,
    }
}

#[inline]
pub(crate) fn to_node_relative(score: Score, ply: u32) -> Score {
    if score >= WIN_BOUND {
        score + ply as Score
    } else if score <= -WIN_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The buckets of a table of at least `entries` slots (a power of two, two slots a bucket,
/// each `slot_bytes` bytes in the message) made by `empty`, and the number of slots; a message
/// when that much memory cannot be had.
pub(crate) fn bucket_array<B>(
    entries: usize,
    slot_bytes: usize,
    empty: impl Fn() -> B,
) -> Result<(Vec<B>, usize), String> {
    let too_large = || {
        format!(
            "cannot allocate a transposition table of {entries} entries ({} MiB)",
            entries.saturating_mul(slot_bytes) >> 20
        )
    };
    let n = entries
        .max(2)
        .checked_next_power_of_two()
        .ok_or_else(too_large)?;
    let mut buckets = Vec::new();
    buckets.try_reserve_exact(n / 2).map_err(|_| too_large())?;
    advise_huge_pages(&mut buckets);
    buckets.extend((0..n / 2).map(|_| empty()));
    Ok((buckets, n))
}

/// Asks the kernel to back a large table with huge pages before it is first touched: probes
/// land at random addresses, and with 4 KiB pages nearly every one of them also misses the
/// TLB. Linux only (elsewhere, and when transparent huge pages are off, nothing happens);
/// the table works the same either way.
#[allow(unsafe_code)]
pub(crate) fn advise_huge_pages<T>(buffer: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = buffer.capacity() * std::mem::size_of::<T>();
        let start = buffer.as_mut_ptr() as usize;
        let first = start.next_multiple_of(HUGE);
        let end = (start + bytes) / HUGE * HUGE;
        if end > first {
            // SAFETY: [first, end) lies inside the vector's own allocation, which stays alive
            // for the call; MADV_HUGEPAGE only changes how the kernel backs the pages, never
            // their contents or validity, and a failure (returned, ignored) changes nothing.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buffer;
}

/// Asks the processor to start loading the cache lines of `item` (a table bucket about to be
/// probed), so that the miss overlaps with other work instead of stalling the probe. A hint
/// only: it never faults and changes nothing the program can see; a no-op off x86-64.
#[allow(unsafe_code)]
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let first = item as *const T as *const i8;
        let last = first.wrapping_add(std::mem::size_of::<T>().saturating_sub(1));
        // SAFETY: prefetch instructions never fault, whatever the address, and have no effect
        // on the program's state; both addresses lie within `item` anyway.
        unsafe {
            _mm_prefetch(first, _MM_HINT_T0);
            _mm_prefetch(last, _MM_HINT_T0);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
