//! Move ordering's sort: a node's moves by keys computed once, largest first, stable, in place
//! and without allocation (an insertion sort, fast on the short, nearly sorted lists of moves).

/// Sorts `items` by descending `keys` (one key per item, permuted with them), stably: items
/// with equal keys keep their order.
///
/// ```
/// use search_core::sort_descending_by_keys;
/// let mut moves = ['a', 'b', 'c', 'd'];
/// let mut keys = [1, 5, 1, 9];
/// sort_descending_by_keys(&mut moves, &mut keys);
/// assert_eq!((moves, keys), (['d', 'b', 'a', 'c'], [9, 5, 1, 1]));
/// ```
pub fn sort_descending_by_keys<M, K: PartialOrd + Copy>(items: &mut [M], keys: &mut [K]) {
    debug_assert_eq!(items.len(), keys.len());
    for i in 1..items.len() {
        let k = keys[i];
        let mut j = i;
        while j > 0 && keys[j - 1] < k {
            j -= 1;
        }
        items[j..=i].rotate_right(1);
        keys[j..=i].rotate_right(1);
    }
}
