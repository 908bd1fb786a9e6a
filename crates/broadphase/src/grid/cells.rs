//! The grid's cell store: every occupied cell and the objects filed in it,
//! each membership carrying inline what the passes over the cells read, so
//! that they read memory in sequence instead of looking objects up by id.
//!
//! Layout (structure of arrays, one buffer per kind of data):
//! - **Members.** One record per membership (an object filed in a cell):
//!   the object's id, its fat box (or its tight box, from which the fat box
//!   follows, while the store is fresh from a bulk build: [`Cells::tight`]),
//!   and per axis how far its range of cells extends below and above this
//!   cell (`key − lo` and `hi − key`, each below 64 since a filed object
//!   covers at most `MAX_CELLS_PER_OBJECT` cells).
//!   The offsets give the object's whole range from any of its cells: the
//!   owning-cell rule of the pair passes (the cell of the lowest corner of
//!   the two ranges' intersection is the one where, along every axis, one of
//!   the two is at its lowest cell) and the ray walk's first-visit rule need
//!   no look-up by id.
//! - **Cells.** Each cell owns a run `start .. start + cap` of the member
//!   buffer, of which the first `len` are used. A cell that fills up moves
//!   its run to the end of the buffer with twice the capacity (the old run is
//!   garbage until the next compaction), so a membership costs O(1)
//!   amortised and the members of a cell stay contiguous.
//! - **Index.** A key finds its cell through a dense array over a box of
//!   keys (`code = Σ (kᵢ − loᵢ) · strideᵢ`, one load, no hashing) when the
//!   occupied cells fill a good part of their bounding box, and through a
//!   hash map for the cells outside that box (or all of them in a sparse
//!   world). The dense box is chosen whenever the store is built in bulk or
//!   compacted; cells created outside it go to the map, and when the map
//!   outgrows a limit the store is compacted, which re-chooses the box.
//!
//! Bulk build ([`Cells::rebuild`]): one pass counts the memberships per cell
//! (in the dense array itself when the box is dense enough, else through the
//! hash map), a prefix sum gives each cell its run, and a second pass writes
//! every membership in place (a counting sort). Objects are visited by
//! increasing id, so each cell lists its members by increasing id and the
//! result depends only on the input. Cells come in key order (dense) or in
//! order of first appearance (sparse).
//!
//! Compaction: when empty cells are the majority (more than `COMPACT_MIN`),
//! when garbage runs take more than half the buffer, or when the hash part
//! of the index passes its limit, the cells are rewritten in place order
//! into a spare buffer (each run trimmed to its length rounded up to a power
//! of two), and the index is rebuilt. Each costs time linear in the store,
//! paid for by the changes since the previous one.

use core::ops::Range;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};

use nalgebra::Point;
use shape::{BoundingBox, Real};

use super::{Filing, IN_CELLS, Key, for_each_cell};
use crate::hash::BuildCellHasher;

/// The index of no cell.
const NO_CELL: u32 = u32::MAX;

/// The capacity of a cell created one membership at a time.
const FIRST_CAP: u32 = 4;

/// A box of keys is indexed densely when it has at most this many times as
/// many cells as the store holds, plus [`DENSE_SLACK`].
const DENSE_FACTOR: u128 = 4;
const DENSE_SLACK: u128 = 4096;

/// Empty cells are kept until there are more than this many and they are
/// the majority (the grid's module notes, "Empty cells"); also the least
/// hash-map part of the index that triggers a compaction.
pub(super) const COMPACT_MIN: usize = 64;

/// One object filed in one cell (module notes).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Member<T: Real, const D: usize> {
    /// The object.
    pub(crate) id: u32,
    /// Per axis, `key − lo` of the object's range (`< 64`).
    below: [u8; D],
    /// Per axis, `hi − key` of the object's range (`< 64`).
    above: [u8; D],
    /// The object's fat box, or its tight box while the store is fresh
    /// from a bulk build ([`Cells::tight`]).
    pub(crate) bx: BoundingBox<T, D>,
}

impl<T: Real, const D: usize> Member<T, D> {
    /// The membership of an object with range `lo..=hi` in cell `key` (inside
    /// the range, which has fewer than 256 cells along every axis).
    #[inline]
    pub(super) fn new(
        id: u32,
        key: &Key<D>,
        lo: &Key<D>,
        hi: &Key<D>,
        bx: BoundingBox<T, D>,
    ) -> Self {
        Self {
            id,
            below: core::array::from_fn(|i| (key[i] - lo[i]) as u8),
            above: core::array::from_fn(|i| (hi[i] - key[i]) as u8),
            bx,
        }
    }

    fn placeholder() -> Self {
        Self {
            id: 0,
            below: [0; D],
            above: [0; D],
            bx: BoundingBox::new(Point::origin(), Point::origin()),
        }
    }

    /// Bit `i` set when this cell is the lowest of the object's range along
    /// axis `i`.
    #[inline]
    pub(crate) fn firsts(&self) -> u32 {
        let mut m = 0;
        for i in 0..D {
            m |= u32::from(self.below[i] == 0) << i;
        }
        m
    }

    /// How many cells the object's range extends below and above this cell
    /// along axis `i`.
    #[inline]
    pub(crate) fn extent_from(&self, i: usize) -> (u8, u8) {
        (self.below[i], self.above[i])
    }

    /// Whether this cell owns the pair of this record's object and `other`'s
    /// (the grid's module notes, "Each pair once"): along every axis, one of
    /// the two is at the lowest cell of its range.
    #[inline]
    pub(crate) fn owns_with(&self, other: &Self) -> bool {
        (0..D).all(|i| self.below[i] == 0 || other.below[i] == 0)
    }

    /// The lowest cell of the object's range, seen from cell `key`.
    #[inline]
    pub(crate) fn lo(&self, key: &Key<D>) -> Key<D> {
        core::array::from_fn(|i| key[i] - i64::from(self.below[i]))
    }

    /// The highest cell of the object's range, seen from cell `key`.
    #[inline]
    pub(crate) fn hi(&self, key: &Key<D>) -> Key<D> {
        core::array::from_fn(|i| key[i] + i64::from(self.above[i]))
    }
}

/// `(1 << D) − 1`: every axis.
#[inline]
pub(crate) const fn all_axes<const D: usize>() -> u32 {
    (1 << D) - 1
}

/// One occupied (or emptied, kept) cell.
#[derive(Debug, Clone)]
pub(crate) struct CellData<const D: usize> {
    pub(crate) key: Key<D>,
    /// Its run of the member buffer: `start .. start + cap`, the first `len`
    /// used.
    start: usize,
    pub(crate) len: u32,
    cap: u32,
}

/// Key → cell: a dense array over a box of keys, a hash map outside it.
#[derive(Debug, Clone)]
struct CellIndex<const D: usize> {
    /// The dense box's lowest key.
    lo: Key<D>,
    /// Its width along each axis (all zero: no dense part).
    width: [u64; D],
    stride: [u64; D],
    /// Cell number by code, [`NO_CELL`] for none.
    dense: Vec<u32>,
    sparse: HashMap<Key<D>, u32, BuildCellHasher>,
}

impl<const D: usize> Default for CellIndex<D> {
    fn default() -> Self {
        Self {
            lo: [0; D],
            width: [0; D],
            stride: [0; D],
            dense: Vec::new(),
            sparse: HashMap::default(),
        }
    }
}

impl<const D: usize> CellIndex<D> {
    /// The dense code of `k`, if it lies in the dense box. The differences
    /// are taken with wrapping: keys lie within `±2⁶²`, so a key below the
    /// box wraps to a number above any width.
    #[inline]
    fn code(&self, k: &Key<D>) -> Option<usize> {
        let mut code = 0u64;
        for (i, &x) in k.iter().enumerate() {
            let d = x.wrapping_sub(self.lo[i]) as u64;
            if d >= self.width[i] {
                return None;
            }
            code += d * self.stride[i];
        }
        Some(code as usize)
    }

    #[inline]
    fn get(&self, k: &Key<D>) -> Option<u32> {
        match self.code(k) {
            Some(c) => Some(self.dense[c]).filter(|&at| at != NO_CELL),
            None => self.sparse.get(k).copied(),
        }
    }

    #[inline]
    fn insert(&mut self, k: Key<D>, at: u32) {
        match self.code(&k) {
            Some(c) => self.dense[c] = at,
            None => {
                self.sparse.insert(k, at);
            }
        }
    }

    /// Drops every entry and sets the dense box to `lo..=hi` (`None`: no
    /// dense part), its entries all [`NO_CELL`].
    fn reset(&mut self, dense_box: Option<(Key<D>, Key<D>)>) {
        self.sparse.clear();
        self.dense.clear();
        match dense_box {
            Some((lo, hi)) => {
                self.lo = lo;
                let mut cells = 1u64;
                for i in 0..D {
                    self.width[i] = (hi[i] - lo[i] + 1) as u64;
                    self.stride[i] = cells;
                    cells *= self.width[i];
                }
                self.dense.resize(cells as usize, NO_CELL);
            }
            None => {
                self.width = [0; D];
                self.stride = [0; D];
            }
        }
    }
}

/// Whether a box of keys is worth indexing densely for `cells` cells.
fn dense_box<const D: usize>(lo: &Key<D>, hi: &Key<D>, cells: usize) -> bool {
    if (0..D).any(|i| lo[i] > hi[i]) {
        return false;
    }
    let mut n: u128 = 1;
    for i in 0..D {
        n = n.saturating_mul((i128::from(hi[i]) - i128::from(lo[i]) + 1) as u128);
    }
    n <= DENSE_FACTOR * cells as u128 + DENSE_SLACK
}

/// The cell store (module notes).
#[derive(Debug)]
pub(crate) struct Cells<T: Real, const D: usize> {
    pub(crate) cells: Vec<CellData<D>>,
    members: Vec<Member<T, D>>,
    index: CellIndex<D>,
    /// Member slots outside every cell's run.
    garbage: usize,
    /// Cells holding no member.
    pub(crate) empty: usize,
    /// Set by a bulk build when every object's fat box was its box grown by
    /// the margin: the records carry the tight boxes (the grid's one-shot
    /// pass reads them). The first change turns them into fat boxes
    /// ([`Cells::settle`]).
    pub(crate) tight: bool,
    /// Compact when the hash part of the index holds more cells than this.
    sparse_limit: usize,
    /// Set by a dense bulk build: there are no cell records yet; the dense
    /// array holds, by code, the *end* of each cell's run (its start is the
    /// previous code's end), the members being in code order. The first
    /// change makes the records ([`Cells::settle`]).
    pub(crate) csr: bool,
    /// The number of non-empty cells of a `csr` store.
    csr_cells: usize,
    /// A box of keys holding every non-empty cell (`lo > hi`: none). Grows as
    /// cells are filled, tightened to the exact bounds by every full pass
    /// (hence atomics: passes take `&self`).
    occupied_lo: [AtomicI64; D],
    occupied_hi: [AtomicI64; D],
    /// Scratch: a cell number per membership (sparse bulk builds), and the
    /// other member buffer of a compaction.
    scratch: Vec<u32>,
    spare: Vec<Member<T, D>>,
}

impl<T: Real, const D: usize> Clone for Cells<T, D> {
    fn clone(&self) -> Self {
        Self {
            cells: self.cells.clone(),
            members: self.members.clone(),
            index: self.index.clone(),
            garbage: self.garbage,
            empty: self.empty,
            tight: self.tight,
            sparse_limit: self.sparse_limit,
            csr: self.csr,
            csr_cells: self.csr_cells,
            occupied_lo: core::array::from_fn(|i| {
                AtomicI64::new(self.occupied_lo[i].load(Ordering::Relaxed))
            }),
            occupied_hi: core::array::from_fn(|i| {
                AtomicI64::new(self.occupied_hi[i].load(Ordering::Relaxed))
            }),
            scratch: Vec::new(),
            spare: Vec::new(),
        }
    }
}

impl<T: Real, const D: usize> Default for Cells<T, D> {
    fn default() -> Self {
        Self {
            cells: Vec::new(),
            members: Vec::new(),
            index: CellIndex::default(),
            garbage: 0,
            empty: 0,
            tight: false,
            sparse_limit: COMPACT_MIN,
            csr: false,
            csr_cells: 0,
            occupied_lo: core::array::from_fn(|_| AtomicI64::new(i64::MAX)),
            occupied_hi: core::array::from_fn(|_| AtomicI64::new(i64::MIN)),
            scratch: Vec::new(),
            spare: Vec::new(),
        }
    }
}

impl<T: Real, const D: usize> Cells<T, D> {
    /// The members of a cell.
    #[inline]
    pub(crate) fn members(&self, c: &CellData<D>) -> &[Member<T, D>] {
        &self.members[c.start..c.start + c.len as usize]
    }

    /// The members of cell `k`, or `None` if it holds none.
    #[inline]
    pub(crate) fn get(&self, k: &Key<D>) -> Option<&[Member<T, D>]> {
        let ms = if self.csr {
            let c = self.index.code(k)?;
            let ends = &self.index.dense;
            let start = if c == 0 { 0 } else { ends[c - 1] as usize };
            &self.members[start..ends[c] as usize]
        } else {
            let at = self.index.get(k)?;
            self.members(&self.cells[at as usize])
        };
        (!ms.is_empty()).then_some(ms)
    }

    /// The number of cells kept (the occupied ones and the emptied ones not
    /// yet compacted away): what a walk compares its steps with.
    #[inline]
    pub(crate) fn count(&self) -> usize {
        if self.csr {
            self.csr_cells
        } else {
            self.cells.len()
        }
    }

    /// The number of non-empty cells.
    #[inline]
    pub(crate) fn occupied_count(&self) -> usize {
        if self.csr {
            self.csr_cells
        } else {
            self.cells.len() - self.empty
        }
    }

    /// The number of slots [`each_in`](Self::each_in) ranges over (codes of
    /// a `csr` store, cell records otherwise).
    #[inline]
    pub(crate) fn slots(&self) -> usize {
        if self.csr {
            self.index.dense.len()
        } else {
            self.cells.len()
        }
    }

    /// Calls `f` with the key and members of every non-empty cell among the
    /// slots `range`.
    #[inline]
    pub(crate) fn each_in(&self, range: Range<usize>, mut f: impl FnMut(&Key<D>, &[Member<T, D>])) {
        if self.csr {
            let ix = &self.index;
            let ends = &ix.dense;
            let mut key: Key<D> = core::array::from_fn(|i| {
                ix.lo[i] + ((range.start as u64 / ix.stride[i]) % ix.width[i]) as i64
            });
            let mut start = if range.start == 0 {
                0
            } else {
                ends[range.start - 1] as usize
            };
            for &end in &ends[range] {
                let end = end as usize;
                if end > start {
                    f(&key, &self.members[start..end]);
                }
                start = end;
                next_key(&mut key, &ix.lo, &ix.width);
            }
        } else {
            for c in &self.cells[range] {
                if c.len > 0 {
                    f(&c.key, self.members(c));
                }
            }
        }
    }

    /// Calls `f` with the members of every cell holding two members or more
    /// among the slots `range` (what a pair pass needs of
    /// [`each_in`](Self::each_in)).
    #[inline]
    pub(crate) fn each_run_in(&self, range: Range<usize>, mut f: impl FnMut(&[Member<T, D>])) {
        if self.csr {
            let ends = &self.index.dense;
            let mut start = if range.start == 0 {
                0
            } else {
                ends[range.start - 1] as usize
            };
            for &end in &ends[range] {
                let end = end as usize;
                if end > start + 1 {
                    f(&self.members[start..end]);
                }
                start = end;
            }
        } else {
            for c in &self.cells[range] {
                if c.len > 1 {
                    f(self.members(c));
                }
            }
        }
    }

    /// Calls `f` with the key and members of every non-empty cell.
    #[inline]
    pub(crate) fn each(&self, f: impl FnMut(&Key<D>, &[Member<T, D>])) {
        self.each_in(0..self.slots(), f);
    }

    /// The box of keys holding every non-empty cell, or `None` when there is
    /// none (possibly larger than the exact bounds; see the field).
    #[inline]
    pub(crate) fn occupied(&self) -> Option<(Key<D>, Key<D>)> {
        if self.occupied_count() == 0 {
            return None;
        }
        let lo: Key<D> = core::array::from_fn(|i| self.occupied_lo[i].load(Ordering::Relaxed));
        let hi: Key<D> = core::array::from_fn(|i| self.occupied_hi[i].load(Ordering::Relaxed));
        (0..D).all(|i| lo[i] <= hi[i]).then_some((lo, hi))
    }

    /// Sets the occupied box (to the exact bounds a full pass found).
    pub(crate) fn tighten_occupied(&self, lo: &Key<D>, hi: &Key<D>) {
        for i in 0..D {
            self.occupied_lo[i].store(lo[i], Ordering::Relaxed);
            self.occupied_hi[i].store(hi[i], Ordering::Relaxed);
        }
    }

    fn grow_occupied(&mut self, k: &Key<D>) {
        for (i, &x) in k.iter().enumerate() {
            let lo = self.occupied_lo[i].get_mut();
            *lo = (*lo).min(x);
            let hi = self.occupied_hi[i].get_mut();
            *hi = (*hi).max(x);
        }
    }

    /// Files `m` in cell `k` (creating the cell if needed).
    pub(crate) fn enter(&mut self, k: Key<D>, m: Member<T, D>) {
        debug_assert!(!self.tight && !self.csr);
        let (at, created) = match self.index.get(&k) {
            Some(at) => (at as usize, false),
            None => {
                let at = self.cells.len();
                self.cells.push(CellData {
                    key: k,
                    start: self.members.len(),
                    len: 0,
                    cap: FIRST_CAP,
                });
                self.members.resize(
                    self.members.len() + FIRST_CAP as usize,
                    Member::placeholder(),
                );
                self.index.insert(k, at as u32);
                (at, true)
            }
        };
        if self.cells[at].len == self.cells[at].cap {
            self.relocate(at);
        }
        let cell = &mut self.cells[at];
        self.members[cell.start + cell.len as usize] = m;
        cell.len += 1;
        if cell.len == 1 {
            if !created {
                self.empty -= 1;
            }
            self.grow_occupied(&k);
        }
        if self.garbage > COMPACT_MIN && 2 * self.garbage > self.members.len()
            || self.index.sparse.len() > self.sparse_limit
        {
            self.compact();
        }
    }

    /// Moves cell `at`'s run to the end of the buffer with twice the room.
    fn relocate(&mut self, at: usize) {
        let cell = &self.cells[at];
        let (start, len, cap) = (cell.start, cell.len as usize, cell.cap);
        let new_start = self.members.len();
        let new_cap = cap.saturating_mul(2).max(FIRST_CAP);
        self.members.extend_from_within(start..start + len);
        self.members
            .resize(new_start + new_cap as usize, Member::placeholder());
        self.garbage += cap as usize;
        let cell = &mut self.cells[at];
        cell.start = new_start;
        cell.cap = new_cap;
    }

    /// Takes object `id` out of cell `k`.
    pub(crate) fn leave(&mut self, k: &Key<D>, id: u32) {
        debug_assert!(!self.tight && !self.csr);
        let Some(at) = self.index.get(k) else {
            return;
        };
        let cell = &mut self.cells[at as usize];
        let run = &mut self.members[cell.start..cell.start + cell.len as usize];
        let Some(pos) = run.iter().position(|m| m.id == id) else {
            return;
        };
        let last = run.len() - 1;
        run.swap(pos, last);
        cell.len -= 1;
        if cell.len == 0 {
            // The empty cell is kept (objects tend to come back: no index
            // churn) until empty cells are the majority.
            self.empty += 1;
            if self.empty == self.cells.len() {
                self.tighten_occupied(&[i64::MAX; D], &[i64::MIN; D]);
            }
            if self.empty > COMPACT_MIN && 2 * self.empty > self.cells.len() {
                self.compact();
            }
        }
    }

    /// Replaces the membership of `m.id` in cell `k` by `m` (the object was
    /// re-filed with a range that still holds `k`).
    pub(crate) fn rewrite(&mut self, k: &Key<D>, m: Member<T, D>) {
        debug_assert!(!self.tight && !self.csr);
        if let Some(at) = self.index.get(k) {
            let cell = &self.cells[at as usize];
            let run = &mut self.members[cell.start..cell.start + cell.len as usize];
            if let Some(slot) = run.iter_mut().find(|x| x.id == m.id) {
                *slot = m;
                return;
            }
        }
        self.enter(*k, m);
    }

    /// Makes the store ready for changes (once after a bulk build): the
    /// cell records of a `csr` store, and records carrying fat boxes instead
    /// of tight ones (`fat` grows a box by the margin), in place.
    pub(crate) fn settle(&mut self, fat: impl Fn(&BoundingBox<T, D>) -> BoundingBox<T, D>) {
        if self.tight {
            for m in &mut self.members {
                m.bx = fat(&m.bx);
            }
            self.tight = false;
        }
        if self.csr {
            self.csr = false;
            let ix = &mut self.index;
            let (lo, width) = (ix.lo, ix.width);
            let mut key = lo;
            let mut start = 0u32;
            self.cells.clear();
            self.cells.reserve_exact(self.csr_cells);
            for slot in &mut ix.dense {
                let end = *slot;
                if end == start {
                    *slot = NO_CELL;
                } else {
                    *slot = self.cells.len() as u32;
                    self.cells.push(CellData {
                        key,
                        start: start as usize,
                        len: end - start,
                        cap: end - start,
                    });
                    start = end;
                }
                next_key(&mut key, &lo, &width);
            }
        }
    }

    /// Drops the empty cells and the garbage, trims every run, and rebuilds
    /// the index (choosing its dense box anew). Linear in the store.
    fn compact(&mut self) {
        let mut spare = core::mem::take(&mut self.spare);
        spare.clear();
        self.cells.retain(|c| c.len > 0);
        let (mut lo, mut hi) = ([i64::MAX; D], [i64::MIN; D]);
        for c in &mut self.cells {
            let start = spare.len();
            let len = c.len as usize;
            let cap = c.len.next_power_of_two().max(FIRST_CAP);
            spare.extend_from_slice(&self.members[c.start..c.start + len]);
            spare.resize(start + cap as usize, Member::placeholder());
            c.start = start;
            c.cap = cap;
            for i in 0..D {
                lo[i] = lo[i].min(c.key[i]);
                hi[i] = hi[i].max(c.key[i]);
            }
        }
        self.spare = core::mem::replace(&mut self.members, spare);
        self.garbage = 0;
        self.empty = 0;
        self.reindex(&lo, &hi);
    }

    /// Rebuilds the index of every cell, densely over `lo..=hi` (the cells'
    /// bounds) when that box is small enough.
    fn reindex(&mut self, lo: &Key<D>, hi: &Key<D>) {
        let dense = dense_box(lo, hi, self.cells.len());
        self.index.reset(dense.then_some((*lo, *hi)));
        for (at, c) in self.cells.iter().enumerate() {
            self.index.insert(c.key, at as u32);
        }
        self.sparse_limit = (2 * self.index.sparse.len()).max(COMPACT_MIN);
    }

    /// Rebuilds the store in bulk (module notes) from every object's filing
    /// and its box in `boxes` (by id; the tight boxes if `tight`, else the
    /// fat boxes); oversize objects and free ids are skipped.
    pub(super) fn rebuild(
        &mut self,
        filings: &[Filing<D>],
        boxes: &[BoundingBox<T, D>],
        tight: bool,
    ) {
        self.csr = false;
        self.csr_cells = 0;
        self.cells.clear();
        self.members.clear();
        self.scratch.clear();
        self.garbage = 0;
        self.empty = 0;
        self.tight = tight;
        let filed_in_cells = || {
            filings
                .iter()
                .zip(boxes)
                .enumerate()
                .filter(|(_, (f, _))| f.slot == IN_CELLS)
                .map(|(id, (f, b))| (id as u32, (f.lo, f.hi()), b))
        };
        // 1. The bounds of every range, and the number of memberships.
        let (mut lo, mut hi) = ([i64::MAX; D], [i64::MIN; D]);
        let mut memberships = 0usize;
        for (_, f, _) in filed_in_cells() {
            let mut span = 1usize;
            for i in 0..D {
                lo[i] = lo[i].min(f.0[i]);
                hi[i] = hi[i].max(f.1[i]);
                span *= (f.1[i] - f.0[i] + 1) as usize;
            }
            memberships += span;
        }
        if memberships == 0 {
            self.index.reset(None);
            self.sparse_limit = COMPACT_MIN;
            self.tighten_occupied(&[i64::MAX; D], &[i64::MIN; D]);
            return;
        }
        // Positions are counted in `u32` in the dense array.
        if memberships < NO_CELL as usize && dense_box(&lo, &hi, memberships) {
            // 2. Dense: count in the index array itself, then turn counts
            //    into cell numbers, cells in code order (axis 0 fastest).
            self.index.reset(Some((lo, hi)));
            let index = &mut self.index;
            let dense = &mut index.dense;
            dense.iter_mut().for_each(|c| *c = 0);
            for (_, f, _) in filed_in_cells() {
                let base = code_of(&f.0, &lo, &index.stride);
                for_each_row(&f.0, &f.1, base, &index.stride, |_, code, n| {
                    for c in &mut dense[code..code + n] {
                        *c += 1;
                    }
                });
            }
            // Counts to starting positions (an exclusive prefix sum).
            let mut total = 0u32;
            let mut occupied = 0usize;
            for slot in dense.iter_mut() {
                let n = *slot;
                *slot = total;
                total += n;
                occupied += usize::from(n > 0);
            }
            // 3. Every membership in place, by increasing id: each position
            //    counter ends at its cell's end, which is what a `csr`
            //    store keeps.
            self.members.resize(total as usize, Member::placeholder());
            for (id, f, b) in filed_in_cells() {
                let base = code_of(&f.0, &lo, &index.stride);
                for_each_row(&f.0, &f.1, base, &index.stride, |k, code, n| {
                    // The row's records differ only along axis 0.
                    let mut m = Member::new(id, &k, &f.0, &f.1, *b);
                    for (x, at) in index.dense[code..code + n].iter_mut().enumerate() {
                        m.below[0] = x as u8;
                        m.above[0] = (n - 1 - x) as u8;
                        self.members[*at as usize] = m;
                        *at += 1;
                    }
                });
            }
            self.csr = true;
            self.csr_cells = occupied;
            self.sparse_limit = COMPACT_MIN;
        } else {
            // 2. Sparse: cells numbered in order of first appearance through
            //    the hash map, each membership's cell noted.
            self.index.reset(None);
            for (_, f, _) in filed_in_cells() {
                for_each_cell(&f.0, &f.1, |k| {
                    let cells = &mut self.cells;
                    let at = *self.index.sparse.entry(k).or_insert_with(|| {
                        cells.push(CellData {
                            key: k,
                            start: 0,
                            len: 0,
                            cap: 0,
                        });
                        (cells.len() - 1) as u32
                    });
                    cells[at as usize].cap += 1;
                    self.scratch.push(at);
                });
            }
            let mut start = 0usize;
            for c in &mut self.cells {
                c.start = start;
                start += c.cap as usize;
            }
            // 3. Every membership in place, by increasing id.
            self.members.resize(start, Member::placeholder());
            let mut next = self.scratch.iter();
            for (id, f, b) in filed_in_cells() {
                for_each_cell(&f.0, &f.1, |k| {
                    let at = next.next().copied().unwrap_or(0) as usize;
                    let cell = &mut self.cells[at];
                    self.members[cell.start + cell.len as usize] =
                        Member::new(id, &k, &f.0, &f.1, *b);
                    cell.len += 1;
                });
            }
            self.sparse_limit = (2 * self.index.sparse.len()).max(COMPACT_MIN);
        }
        self.tighten_occupied(&lo, &hi);
    }

    /// The number of memberships.
    pub(crate) fn memberships(&self) -> usize {
        if self.csr {
            self.members.len()
        } else {
            self.cells.iter().map(|c| c.len as usize).sum()
        }
    }

    /// Checks the store's own invariants: every cell indexed at its
    /// position, the runs inside the buffer and disjoint, the counts of empty
    /// cells and garbage, every non-empty cell inside the occupied box.
    pub(crate) fn validate(&self) -> Result<(), String> {
        if self.csr {
            let ends = &self.index.dense;
            if ends.windows(2).any(|w| w[0] > w[1])
                || ends.last().map_or(0, |&e| e as usize) != self.members.len()
            {
                return Err("the cell ends of a csr store are not a prefix sum".to_string());
            }
            if !self.cells.is_empty() || !self.index.sparse.is_empty() || self.garbage != 0 {
                return Err("a csr store holds cell records or garbage".to_string());
            }
            let (mut cells, mut outside) = (0, None);
            let occupied = self.occupied();
            self.each(|k, _| {
                cells += 1;
                if occupied.is_none_or(|(lo, hi)| (0..D).any(|i| k[i] < lo[i] || k[i] > hi[i])) {
                    outside = Some(*k);
                }
            });
            if let Some(k) = outside {
                return Err(format!("cell {k:?} lies outside the occupied box"));
            }
            if cells != self.csr_cells {
                return Err(format!("{cells} cells, {} counted", self.csr_cells));
            }
            return Ok(());
        }
        let mut runs: Vec<(usize, usize)> = Vec::with_capacity(self.cells.len());
        let mut empty = 0;
        let occupied = self.occupied();
        for (at, c) in self.cells.iter().enumerate() {
            if self.index.get(&c.key) != Some(at as u32) {
                return Err(format!(
                    "cell {:?} is not indexed at its position {at}",
                    c.key
                ));
            }
            if c.len > c.cap || c.start + c.cap as usize > self.members.len() {
                return Err(format!("cell {:?}: run out of bounds", c.key));
            }
            runs.push((c.start, c.start + c.cap as usize));
            if c.len == 0 {
                empty += 1;
            } else if occupied
                .is_none_or(|(lo, hi)| (0..D).any(|i| c.key[i] < lo[i] || c.key[i] > hi[i]))
            {
                return Err(format!("cell {:?} lies outside the occupied box", c.key));
            }
        }
        if empty != self.empty {
            return Err(format!("{empty} empty cells, but {} counted", self.empty));
        }
        runs.sort_unstable();
        if let Some(w) = runs.windows(2).find(|w| w[0].1 > w[1].0) {
            return Err(format!("member runs {:?} and {:?} overlap", w[0], w[1]));
        }
        let used: usize = runs.iter().map(|r| r.1 - r.0).sum();
        if used + self.garbage != self.members.len() {
            return Err(format!(
                "{used} member slots in runs and {} garbage, but {} in the buffer",
                self.garbage,
                self.members.len()
            ));
        }
        let indexed =
            self.index.sparse.len() + self.index.dense.iter().filter(|&&at| at != NO_CELL).count();
        if indexed != self.cells.len() {
            return Err(format!(
                "{indexed} index entries for {} cells",
                self.cells.len()
            ));
        }
        Ok(())
    }
}

/// The dense code of key `k` in a box starting at `lo` with `stride`.
#[inline]
fn code_of<const D: usize>(k: &Key<D>, lo: &Key<D>, stride: &[u64; D]) -> usize {
    (0..D).fold(0u64, |sum, i| sum + (k[i] - lo[i]) as u64 * stride[i]) as usize
}

/// Calls `f` with every row of `lo..=hi` along axis 0: its first key, that
/// key's dense code (`base` being `lo`'s) and its length (the row's codes
/// are consecutive).
#[inline]
fn for_each_row<const D: usize>(
    lo: &Key<D>,
    hi: &Key<D>,
    base: usize,
    stride: &[u64; D],
    mut f: impl FnMut(Key<D>, usize, usize),
) {
    let n = (hi[0] - lo[0] + 1) as usize;
    let mut k = *lo;
    let mut code = base;
    loop {
        f(k, code, n);
        let mut axis = 1;
        loop {
            if axis >= D {
                return;
            }
            if k[axis] < hi[axis] {
                k[axis] += 1;
                code += stride[axis] as usize;
                break;
            }
            code -= (k[axis] - lo[axis]) as usize * stride[axis] as usize;
            k[axis] = lo[axis];
            axis += 1;
        }
    }
}

/// The key of the next code after `key`'s in a dense box starting at `lo`
/// with `width` (axis 0 fastest; wraps to the first after the last).
#[inline]
fn next_key<const D: usize>(key: &mut Key<D>, lo: &Key<D>, width: &[u64; D]) {
    for (i, k) in key.iter_mut().enumerate() {
        if *k < lo[i] + (width[i] - 1) as i64 {
            *k += 1;
            return;
        }
        *k = lo[i];
    }
}
