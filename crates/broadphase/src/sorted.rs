//! Parallel writes into a slice at strictly increasing indices.
//!
//! A frame's moves usually list the objects in handle order. Then the moves
//! cut into two halves touch two disjoint parts of an array indexed by
//! object (every index of the first half is below the second half's first
//! index), so each half can own its part: [`for_each_sorted`] splits both
//! the moves and the array that way, recursively, and runs the halves with
//! `rayon::join`, with no allocation and no `unsafe`.

use core::ops::Range;

/// Below this many moves a piece runs serially.
const PIECE: usize = 2048;

/// Calls `f(k, &mut items[index(k) - base], &mut per_move[k - range.start])`
/// for every `k` of `range`, on all cores. `index` must strictly increase
/// with `k` (checked by the caller with [`strictly_increasing`]); an index
/// outside `items` is skipped, and so are the moves past `per_move`'s end.
pub(crate) fn for_each_sorted<X: Send, Y: Send>(
    (items, base): (&mut [X], usize),
    (range, per_move): (Range<usize>, &mut [Y]),
    index: &(impl Fn(usize) -> usize + Sync),
    f: &(impl Fn(usize, &mut X, &mut Y) + Sync),
) {
    debug_assert!(per_move.len() >= range.len());
    let range = range.start..range.start + range.len().min(per_move.len());
    if range.len() <= PIECE {
        for (k, y) in range.zip(per_move) {
            if let Some(x) = index(k).checked_sub(base).and_then(|i| items.get_mut(i)) {
                f(k, x, y);
            }
        }
        return;
    }
    let mid = range.start + range.len() / 2;
    // Every index before `mid` is below `index(mid)`; every one from `mid`
    // on is at least that.
    let split = index(mid).saturating_sub(base).min(items.len());
    let (left, right) = items.split_at_mut(split);
    let (left_moves, right_moves) = per_move.split_at_mut(mid - range.start);
    rayon::join(
        || for_each_sorted((left, base), (range.start..mid, left_moves), index, f),
        || {
            for_each_sorted(
                (right, base + split),
                (mid..range.end, right_moves),
                index,
                f,
            );
        },
    );
}

/// Whether `index(k)` strictly increases over `0..n`.
pub(crate) fn strictly_increasing(n: usize, index: impl Fn(usize) -> usize) -> bool {
    (1..n).all(|k| index(k - 1) < index(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every listed index is written exactly once with its own move's
    /// value, whatever the gaps, and nothing else is touched.
    #[test]
    fn writes_each_listed_index_once() {
        let mut rng = 0x2545_F491_u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for n in [0usize, 1, 7, 2048, 2049, 10_000] {
            let mut ids = Vec::with_capacity(n);
            let mut id = 0usize;
            for _ in 0..n {
                id += 1 + (next() % 4) as usize;
                ids.push(id);
            }
            assert!(strictly_increasing(n, |k| ids[k]));
            let len = id + 3;
            let mut items = vec![0usize; len];
            let mut seen = vec![false; n];
            for_each_sorted(
                (&mut items, 0),
                (0..n, &mut seen),
                &|k| ids[k],
                &|k, x, s| {
                    *x += k + 1;
                    *s = true;
                },
            );
            assert!(seen.iter().all(|&s| s), "n = {n}");
            for (i, &x) in items.iter().enumerate() {
                let expected = ids.binary_search(&i).map_or(0, |k| k + 1);
                assert_eq!(x, expected, "n = {n}, index {i}");
            }
        }
        assert!(!strictly_increasing(3, |k| [1, 1, 2][k]));
        assert!(!strictly_increasing(2, |k| [2, 1][k]));
    }
}
