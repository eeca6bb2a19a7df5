//! A transposition table that the threads of one search share without locks. A slot is two
//! 64-bit words, read and written with relaxed atomics: the data (score, depth, bound,
//! generation, move) and the key XORed with it (Hyatt and Mann's lockless hashing), so that a
//! slot torn by two threads writing at once reads as a miss, never as another position's entry.
//! Its replacement is [`TranspositionTable`](crate::TranspositionTable)'s, slot for slot.

use crate::game::Score;
use crate::tables::tt::{
    bound_of_meta, bucket_array, meta_byte, placement, prefetch, slots_in_megabytes,
    stored_generation, to_node_relative, SlotView, HAS_MOVE,
};
use crate::tables::tt::{Bound, Transpositions, TtEntry};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// A move that packs into 16 bits, as a [`SharedTable`] slot keeps it.
///
/// ```
/// use search_core::PackedMove;
/// assert_eq!(u8::unpack(200u8.pack()), 200);
/// ```
pub trait PackedMove: Copy {
    /// The move as 16 bits.
    fn pack(self) -> u16;
    /// The move [`pack`](PackedMove::pack) made these bits of.
    fn unpack(bits: u16) -> Self;
}

impl PackedMove for u8 {
    fn pack(self) -> u16 {
        self as u16
    }
    fn unpack(bits: u16) -> Self {
        bits as u8
    }
}

impl PackedMove for u16 {
    fn pack(self) -> u16 {
        self
    }
    fn unpack(bits: u16) -> Self {
        bits
    }
}

/// One handle on a transposition table shared by threads: [`share`](SharedTable::share) makes
/// another handle on the same slots (one per thread's [`Searcher`](crate::Searcher)), and what
/// any of them stores, all of them find. Each handle keeps its own generation, so handles that
/// start each search together ([`Transpositions::new_search`]) age entries together.
///
/// ```
/// use search_core::{Bound, SharedTable, Transpositions};
/// let mut a: SharedTable<u8> = SharedTable::with_entries(1024);
/// let b = a.share();
/// a.store(42, 3, 0, 17, Bound::Exact, Some(5));
/// let e = b.probe(42, 0).unwrap();
/// assert_eq!((e.score, e.depth, e.mv), (17, 3, Some(5)));
/// let seen = std::thread::spawn(move || b.probe(42, 0).map(|e| e.score)).join().unwrap();
/// assert_eq!(seen, Some(17));
/// ```
pub struct SharedTable<M> {
    buckets: Arc<Vec<Bucket>>,
    /// Slot count minus one (a power of two, twice the bucket count).
    mask: usize,
    generation: u8,
    /// 1 when a position may sit in either slot of an aligned pair, 0 for one slot.
    pair: usize,
    moves: std::marker::PhantomData<fn() -> M>,
}

/// Two slots (key XOR data, data) on one aligned half cache line.
#[repr(align(32))]
struct Bucket([AtomicU64; 4]);

/// A slot as read: its key and data word.
#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    data: u64,
}

impl Slot {
    /// The meta byte, as in the owned table (`tt::meta_byte`).
    #[inline]
    fn meta(self) -> u8 {
        (self.data >> 40) as u8
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.meta() == 0
    }
    #[inline]
    fn depth(self) -> i8 {
        (self.data >> 32) as u8 as i8
    }
    #[inline]
    fn view(self) -> SlotView {
        SlotView {
            empty: self.is_empty(),
            key: self.key,
            depth: self.depth(),
            generation: self.meta() >> 3,
        }
    }
    #[inline]
    fn mv<M: PackedMove>(self) -> Option<M> {
        (self.meta() & HAS_MOVE != 0).then(|| M::unpack((self.data >> 48) as u16))
    }
    #[inline]
    fn pack<M: PackedMove>(
        key: u64,
        score: Score,
        depth: i8,
        bound: Bound,
        mv: Option<M>,
        generation: u8,
    ) -> Slot {
        let meta = meta_byte(bound, mv.is_some(), generation) as u64;
        let data = score as u32 as u64
            | (depth as u8 as u64) << 32
            | meta << 40
            | (mv.map_or(0, M::pack) as u64) << 48;
        Slot { key, data }
    }
    #[inline]
    fn entry<M: PackedMove>(self) -> Option<TtEntry<M>> {
        let bound = bound_of_meta(self.meta())?;
        Some(TtEntry {
            key: self.key,
            mv: self.mv(),
            score: self.data as u32 as i32,
            depth: self.depth() as i16,
            bound,
        })
    }
}

impl Bucket {
    #[inline]
    fn read(&self, i: usize) -> Slot {
        let check = self.0[2 * i].load(Relaxed);
        let data = self.0[2 * i + 1].load(Relaxed);
        Slot {
            key: check ^ data,
            data,
        }
    }
    #[inline]
    fn write(&self, i: usize, slot: Slot) {
        self.0[2 * i + 1].store(slot.data, Relaxed);
        self.0[2 * i].store(slot.key ^ slot.data, Relaxed);
    }
    fn empty() -> Bucket {
        Bucket([0, 0, 0, 0].map(AtomicU64::new))
    }
}

impl<M: PackedMove> SharedTable<M> {
    /// A table with at least `entries` slots (rounded up to a power of two, at least two).
    ///
    /// # Panics
    /// When the memory cannot be had; [`SharedTable::try_with_entries`] says so instead.
    pub fn with_entries(entries: usize) -> Self {
        Self::try_with_entries(entries).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table with at least `entries` slots, or a message when that much memory cannot be
    /// allocated.
    ///
    /// ```
    /// use search_core::SharedTable;
    /// assert!(SharedTable::<u8>::try_with_entries(usize::MAX).is_err());
    /// ```
    pub fn try_with_entries(entries: usize) -> Result<Self, String> {
        let (buckets, n) = bucket_array(entries, 16, Bucket::empty)?;
        Ok(SharedTable {
            buckets: Arc::new(buckets),
            mask: n - 1,
            generation: 0,
            pair: 0,
            moves: std::marker::PhantomData,
        })
    }

    /// A table using about `mb` mebibytes (16 bytes a slot).
    ///
    /// # Panics
    /// When the memory cannot be had; [`SharedTable::try_with_megabytes`] says so instead.
    pub fn with_megabytes(mb: usize) -> Self {
        Self::try_with_megabytes(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table using about `mb` mebibytes, or a message when that much memory cannot be had.
    ///
    /// ```
    /// use search_core::SharedTable;
    /// assert_eq!(SharedTable::<u8>::with_megabytes(1).capacity(), 1 << 16);
    /// ```
    pub fn try_with_megabytes(mb: usize) -> Result<Self, String> {
        let too_large = || format!("cannot allocate a transposition table of {mb} MiB");
        let n = slots_in_megabytes(mb, 16).ok_or_else(too_large)?;
        Self::try_with_entries(n).map_err(|_| too_large())
    }

    /// Another handle on the same slots, with this one's generation and bucket mode.
    pub fn share(&self) -> Self {
        SharedTable {
            buckets: Arc::clone(&self.buckets),
            mask: self.mask,
            generation: self.generation,
            pair: self.pair,
            moves: std::marker::PhantomData,
        }
    }

    /// Two-way buckets (`true`) or one slot per position (`false`, the default), as
    /// [`TranspositionTable::set_two_way`](crate::TranspositionTable::set_two_way): set it on
    /// every handle before searching.
    pub fn set_two_way(&mut self, on: bool) {
        self.pair = usize::from(on);
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.mask + 1
    }

    /// The entry for `key` (see [`Transpositions::probe`]).
    #[inline]
    pub fn probe(&self, key: u64, ply: u32) -> Option<TtEntry<M>> {
        let index = key as usize & self.mask;
        let bucket = &self.buckets[index >> 1];
        let (from, to) = if self.pair == 1 {
            (0, 2)
        } else {
            (index & 1, (index & 1) + 1)
        };
        let mut found = (from..to).map(|i| bucket.read(i)).filter(|s| s.key == key);
        found.find_map(|s| s.entry()).map(|e| e.root_relative(ply))
    }

    /// Stores a result (see [`Transpositions::store`]); through a shared reference, as every
    /// handle may.
    #[inline]
    pub fn store(&self, key: u64, depth: i16, ply: u32, score: Score, bound: Bound, mv: Option<M>) {
        let index = key as usize & self.mask;
        let generation = stored_generation(self.generation);
        let depth = depth.clamp(i8::MIN as i16, i8::MAX as i16) as i8;
        let bucket = &self.buckets[index >> 1];
        let slots = [bucket.read(0), bucket.read(1)];
        let place = placement(
            index,
            self.pair == 1,
            key,
            depth,
            generation,
            slots.map(Slot::view),
        );
        if place.demote_first {
            bucket.write(1, slots[0]);
        }
        if place.replace {
            let old = slots[place.slot];
            let mv = match mv {
                None if !old.is_empty() && old.key == key => old.mv(),
                _ => mv,
            };
            let slot = Slot::pack(
                key,
                to_node_relative(score, ply),
                depth,
                bound,
                mv,
                generation,
            );
            bucket.write(place.slot, slot);
        }
    }
}

impl<M: PackedMove> Transpositions<M> for SharedTable<M> {
    #[inline]
    fn probe(&self, key: u64, ply: u32) -> Option<TtEntry<M>> {
        SharedTable::probe(self, key, ply)
    }
    #[inline]
    fn prefetch(&self, key: u64) {
        prefetch(&self.buckets[(key as usize & self.mask) >> 1]);
    }
    #[inline]
    fn store(&mut self, key: u64, depth: i16, ply: u32, score: Score, bound: Bound, mv: Option<M>) {
        SharedTable::store(self, key, depth, ply, score, bound, mv)
    }
    fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }
    /// Empties the slots of every handle.
    fn clear(&mut self) {
        for b in self.buckets.iter() {
            for w in &b.0 {
                w.store(0, Relaxed);
            }
        }
    }
}
