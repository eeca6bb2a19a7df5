//! One slice of a batch split over several machines or cluster array tasks: `--shard I/N`.
//! Every shard of a run sees the same ordered list of work, so each can tell its own slice
//! without talking to the others, and the slices never overlap.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Slice `I` of `N` (`I` from 1 on the command line), parsed from and shown as `I/N`.
///
/// ```
/// use batch::Shard;
/// let s: Shard = "2/3".parse().unwrap();
/// assert_eq!((s.number(), s.count()), (2, 3));
/// assert_eq!(s.to_string(), "2/3");
/// assert_eq!(s.range(10), 3..6); // the middle third of 10 items
/// assert!("4/3".parse::<Shard>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    /// 0-based.
    index: usize,
    count: usize,
}

impl Shard {
    /// The whole batch: slice 1 of 1.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Slice `number` (from 1) of `count`.
    pub fn new(number: usize, count: usize) -> Result<Shard, String> {
        if count == 0 || number == 0 || number > count {
            return Err(format!("shard {number}/{count}: I must be 1 to N"));
        }
        Ok(Shard {
            index: number - 1,
            count,
        })
    }

    /// The slice's number, from 1.
    pub fn number(self) -> usize {
        self.index + 1
    }

    /// How many slices there are.
    pub fn count(self) -> usize {
        self.count
    }

    /// Whether this is the whole batch (1/1).
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// This slice of `total` items taken in order as consecutive runs: the runs' lengths differ
    /// by one at most, and the `count` runs cover `0..total` exactly.
    ///
    /// ```
    /// use batch::Shard;
    /// let runs: Vec<_> = (1..=3).map(|i| Shard::new(i, 3).unwrap().range(7)).collect();
    /// assert_eq!(runs, [0..2, 2..4, 4..7]);
    /// ```
    pub fn range(self, total: usize) -> Range<usize> {
        let at = |k: usize| (total as u128 * k as u128 / self.count as u128) as usize;
        at(self.index)..at(self.index + 1)
    }

    /// Whether item `k` is this slice's when items are dealt round-robin (item `k` to slice
    /// `k mod N`): for work whose cost varies along the list.
    ///
    /// ```
    /// use batch::Shard;
    /// let s = Shard::new(2, 3).unwrap();
    /// assert_eq!((0..7).filter(|&k| s.takes(k)).collect::<Vec<_>>(), [1, 4]);
    /// ```
    pub fn takes(self, k: usize) -> bool {
        k % self.count == self.index
    }
}

/// The slices a merge is given, checked as they come and at the end: each slice once, then
/// every one of the N. The caller checks first that the slices are of one run.
///
/// ```
/// use batch::{Shard, ShardCover};
/// use std::path::Path;
/// let mut cover = ShardCover::default();
/// cover.add("1/3".parse().unwrap(), Path::new("p1")).unwrap();
/// assert_eq!(cover.add("1/3".parse().unwrap(), Path::new("q1")).unwrap_err(),
///     "p1 and q1 are both shard 1/3");
/// cover.add("3/3".parse().unwrap(), Path::new("p3")).unwrap();
/// assert_eq!(cover.check_complete("parts", "class").unwrap_err(),
///     "shard 2/3 missing: the parts given (2 of 3, like p1) do not cover the class");
/// ```
#[derive(Debug, Default)]
pub struct ShardCover<'a> {
    /// The number of slices, and the first path given.
    first: Option<(usize, &'a std::path::Path)>,
    given: std::collections::BTreeMap<usize, &'a std::path::Path>,
}

impl<'a> ShardCover<'a> {
    /// Adds slice `shard`, read from `path`; a slice given twice is an error naming both paths.
    pub fn add(&mut self, shard: Shard, path: &'a std::path::Path) -> Result<(), String> {
        if let Some(other) = self.given.insert(shard.number(), path) {
            return Err(format!(
                "{} and {} are both shard {shard}",
                other.display(),
                path.display()
            ));
        }
        self.first.get_or_insert((shard.count(), path));
        Ok(())
    }

    /// An error naming the missing slices unless all N were given: `what` names the paths
    /// (`parts`, `folders`), `whole` what they split (`class`, `schedule`).
    pub fn check_complete(&self, what: &str, whole: &str) -> Result<(), String> {
        let Some((count, first)) = self.first else {
            return Err(format!("no {what} given"));
        };
        let missing: Vec<String> = (1..=count)
            .filter(|n| !self.given.contains_key(n))
            .map(|n| format!("{n}/{count}"))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(format!(
            "shard {} missing: the {what} given ({} of {count}, like {}) do not cover the {whole}",
            missing.join(", "),
            self.given.len(),
            first.display()
        ))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.number(), self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| format!("shard `{text}`: expected I/N, like 2/8"))?;
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("shard `{text}`: `{t}` is not a number"))
        };
        Shard::new(number(i)?, number(n)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_runs_of_every_split_cover_the_items_once(total in 0usize..500, count in 1usize..40) {
            let mut next = 0;
            for number in 1..=count {
                let r = Shard::new(number, count).unwrap().range(total);
                prop_assert_eq!(r.start, next);
                prop_assert!(r.len() <= total / count + 1);
                next = r.end;
            }
            prop_assert_eq!(next, total);
        }

        #[test]
        fn shards_round_trip_through_text(number in 1usize..100, extra in 0usize..100) {
            let s = Shard::new(number, number + extra).unwrap();
            prop_assert_eq!(s.to_string().parse::<Shard>(), Ok(s));
        }
    }

    #[test]
    fn bad_shards_are_refused_with_a_reason() {
        for (text, why) in [
            ("3", "expected I/N"),
            ("0/3", "1 to N"),
            ("4/3", "1 to N"),
            ("1/0", "1 to N"),
            ("a/3", "`a` is not a number"),
            ("-1/3", "`-1` is not a number"),
        ] {
            let e = text.parse::<Shard>().unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
