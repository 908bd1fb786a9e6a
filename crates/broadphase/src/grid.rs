//! A sparse uniform grid over unbounded space, in 2D or 3D.
//!
//! Each object's bounding box is stored in every cell it covers; two objects can
//! only overlap if they share a cell, so only pairs within a cell are tested.
//!
//! Design:
//! - **Cell keys.** Cell `i` along an axis covers `[i·s, (i+1)·s)`;
//!   `i = floor(x / s)`, computed in floating point and saturated to `±2⁶²` before
//!   conversion, so huge, negative or infinite-after-scaling coordinates never
//!   overflow or panic (far-off objects share the outermost cells: still correct,
//!   only slower). Cells live in a hash map keyed by the integer coordinates, so
//!   space is unbounded and only occupied cells cost memory.
//! - **Large objects.** An object covering more than [`MAX_CELLS_PER_OBJECT`]
//!   cells is kept in an *oversize list* instead, and tested by box against every
//!   object: memory stays proportional to the object count, and time to
//!   `oversize × objects`, which is small when few objects are huge (a level, a
//!   trigger zone).
//! - **Incremental updates.** An object that moves within the same cells costs
//!   one box copy; one that changes cells touches only the cells it left and
//!   entered.
//! - **Each pair once.** A pair that shares several cells is reported only from
//!   the cell holding the lowest corner of the intersection of the two boxes, a
//!   point that lies in both boxes and hence in a cell both occupy. No set of
//!   seen pairs is needed. The result is sorted, so the order is deterministic.
//!
//! Boxes are closed: touching boxes overlap.

use std::collections::HashMap;

use nalgebra::Point;
use num_traits::Float;
use shape::{BoundingBox, Real};

use crate::GridError;
use crate::hash::BuildCellHasher;

/// Objects covering more cells than this go to the oversize list.
pub const MAX_CELLS_PER_OBJECT: u128 = 64;

/// Cell coordinates are saturated to `±2⁶²`.
const COORD_LIMIT: i64 = 1 << 62;

type Key<const D: usize> = [i64; D];

#[derive(Debug, Clone, Copy)]
struct Entry<T: Real, const D: usize> {
    bounds: BoundingBox<T, D>,
    lo: Key<D>,
    hi: Key<D>,
    /// Index in `oversize` when the object is oversize.
    oversize_slot: Option<usize>,
}

/// Counts describing the grid's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GridStats {
    /// Objects stored.
    pub objects: usize,
    /// Occupied cells.
    pub cells: usize,
    /// Objects in the oversize list.
    pub oversize: usize,
    /// The most objects in one cell.
    pub max_per_cell: usize,
    /// Cell memberships (sum over objects of the cells they cover).
    pub memberships: usize,
}

/// A sparse uniform grid of bounding boxes keyed by caller-chosen `u32` ids.
///
/// ```
/// use nalgebra::Point2;
/// use broadphase::Grid;
/// use shape::BoundingBox2;
///
/// let b = |x0: f64, y0: f64, x1: f64, y1: f64| BoundingBox2::new(Point2::new(x0, y0), Point2::new(x1, y1));
/// let mut grid = Grid::new(1.0).unwrap();
/// grid.insert(0, b(0.0, 0.0, 1.0, 1.0)).unwrap();
/// grid.insert(1, b(1.0, 0.5, 2.0, 1.5)).unwrap(); // touches 0
/// grid.insert(2, b(5.0, 5.0, 6.0, 6.0)).unwrap();
/// let mut pairs = Vec::new();
/// grid.candidate_pairs(&mut pairs);
/// assert_eq!(pairs, vec![(0, 1)]);
/// grid.update(2, b(1.5, 1.0, 2.5, 2.0)).unwrap();
/// grid.candidate_pairs(&mut pairs);
/// assert_eq!(pairs, vec![(0, 1), (1, 2)]);
/// grid.validate().unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct Grid<T: Real, const D: usize> {
    cell_size: T,
    inv_cell_size: T,
    cells: HashMap<Key<D>, Vec<u32>, BuildCellHasher>,
    entries: Vec<Option<Entry<T, D>>>,
    oversize: Vec<u32>,
    len: usize,
}

/// A 2D grid.
pub type Grid2<T> = Grid<T, 2>;
/// A 3D grid.
pub type Grid3<T> = Grid<T, 3>;

fn check_cell_size<T: Real>(cell_size: T) -> Result<(), GridError> {
    if !Float::is_finite(cell_size) {
        return Err(GridError::NonFiniteCellSize);
    }
    if cell_size <= T::zero() {
        return Err(GridError::NonPositiveCellSize {
            value: cell_size.as_f64(),
        });
    }
    // 1 / s must be finite too (a subnormal cell size would overflow it).
    if !Float::is_finite(T::one() / cell_size) {
        return Err(GridError::NonPositiveCellSize {
            value: cell_size.as_f64(),
        });
    }
    Ok(())
}

impl<T: Real, const D: usize> Grid<T, D> {
    /// An empty grid with cells of side `cell_size`.
    ///
    /// # Errors
    /// [`GridError::NonFiniteCellSize`] or [`GridError::NonPositiveCellSize`].
    pub fn new(cell_size: T) -> Result<Self, GridError> {
        check_cell_size(cell_size)?;
        Ok(Self {
            cell_size,
            inv_cell_size: T::one() / cell_size,
            cells: HashMap::default(),
            entries: Vec::new(),
            oversize: Vec::new(),
            len: 0,
        })
    }

    /// A cell size suited to these boxes: twice the median of their largest
    /// sides (so a typical object covers one to four cells per axis), or `None`
    /// when there are no boxes with a positive finite size.
    pub fn suggest_cell_size<'a>(
        boxes: impl IntoIterator<Item = &'a BoundingBox<T, D>>,
    ) -> Option<T> {
        let mut sides: Vec<T> = boxes
            .into_iter()
            .map(|b| b.extents().amax())
            .filter(|s| Float::is_finite(*s) && *s > T::zero())
            .collect();
        if sides.is_empty() {
            return None;
        }
        let mid = sides.len() / 2;
        let (_, median, _) = sides.select_nth_unstable_by(mid, |a, b| {
            a.partial_cmp(b).unwrap_or(core::cmp::Ordering::Equal)
        });
        let s = *median * T::two();
        check_cell_size(s).ok().map(|()| s)
    }

    /// The side of a cell.
    #[must_use]
    pub fn cell_size(&self) -> T {
        self.cell_size
    }

    /// Changes the cell size and re-files every object.
    ///
    /// # Errors
    /// As [`Grid::new`]; the grid is unchanged on error.
    pub fn set_cell_size(&mut self, cell_size: T) -> Result<(), GridError> {
        check_cell_size(cell_size)?;
        let items: Vec<(u32, BoundingBox<T, D>)> = self.iter().map(|(id, b)| (id, *b)).collect();
        let mut fresh = Self::new(cell_size)?;
        for (id, b) in items {
            fresh.insert(id, b)?;
        }
        *self = fresh;
        Ok(())
    }

    /// The number of objects.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the grid holds no object.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The stored box of object `id`.
    #[must_use]
    pub fn bounds(&self, id: u32) -> Option<&BoundingBox<T, D>> {
        self.entry(id).map(|e| &e.bounds)
    }

    /// Every object and its box, by increasing id.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &BoundingBox<T, D>)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|e| (i as u32, &e.bounds)))
    }

    #[inline]
    fn entry(&self, id: u32) -> Option<&Entry<T, D>> {
        self.entries.get(id as usize).and_then(Option::as_ref)
    }

    /// The cell coordinate of `x`: `floor(x / s)`, saturated.
    #[inline]
    fn coord(&self, x: T) -> i64 {
        let c = Float::floor(x * self.inv_cell_size);
        let limit = T::lit(COORD_LIMIT as f64);
        if c >= limit {
            COORD_LIMIT
        } else if c <= -limit {
            -COORD_LIMIT
        } else {
            num_traits::ToPrimitive::to_i64(&c).unwrap_or(0)
        }
    }

    #[inline]
    fn key(&self, p: &Point<T, D>) -> Key<D> {
        core::array::from_fn(|i| self.coord(p[i]))
    }

    fn span(lo: &Key<D>, hi: &Key<D>) -> u128 {
        (0..D).fold(1u128, |n, i| {
            n.saturating_mul((i128::from(hi[i]) - i128::from(lo[i]) + 1) as u128)
        })
    }

    /// Inserts object `id` with its bounding box.
    ///
    /// # Errors
    /// [`GridError::InvalidBounds`] for a box with a non-finite coordinate or
    /// `min > max`; [`GridError::DuplicateId`] if `id` is already stored. The grid
    /// is unchanged on error.
    pub fn insert(&mut self, id: u32, bounds: BoundingBox<T, D>) -> Result<(), GridError> {
        if !bounds.is_valid() {
            return Err(GridError::InvalidBounds { id });
        }
        if self.entry(id).is_some() {
            return Err(GridError::DuplicateId { id });
        }
        let i = id as usize;
        if i >= self.entries.len() {
            self.entries.resize(i + 1, None);
        }
        let entry = self.file(id, bounds);
        self.entries[i] = Some(entry);
        self.len += 1;
        Ok(())
    }

    /// Puts `id` into the cells (or the oversize list) for `bounds`.
    fn file(&mut self, id: u32, bounds: BoundingBox<T, D>) -> Entry<T, D> {
        let (lo, hi) = (self.key(&bounds.min), self.key(&bounds.max));
        let oversize_slot = if Self::span(&lo, &hi) > MAX_CELLS_PER_OBJECT {
            self.oversize.push(id);
            Some(self.oversize.len() - 1)
        } else {
            for_each_cell(&lo, &hi, |k| self.cells.entry(k).or_default().push(id));
            None
        };
        Entry {
            bounds,
            lo,
            hi,
            oversize_slot,
        }
    }

    /// Takes `id` out of its cells (or the oversize list).
    fn unfile(&mut self, id: u32, entry: &Entry<T, D>) {
        if let Some(slot) = entry.oversize_slot {
            self.oversize.swap_remove(slot);
            if let Some(&moved) = self.oversize.get(slot) {
                if let Some(Some(e)) = self.entries.get_mut(moved as usize) {
                    e.oversize_slot = Some(slot);
                }
            }
        } else {
            for_each_cell(&entry.lo, &entry.hi, |k| self.leave_cell(k, id));
        }
    }

    fn leave_cell(&mut self, k: Key<D>, id: u32) {
        if let Some(list) = self.cells.get_mut(&k) {
            if let Some(pos) = list.iter().position(|&x| x == id) {
                list.swap_remove(pos);
            }
            if list.is_empty() {
                self.cells.remove(&k);
            }
        }
    }

    /// Moves object `id` to a new bounding box. Within the same cells this is a
    /// box copy; otherwise only the cells left and entered are touched.
    ///
    /// # Errors
    /// [`GridError::InvalidBounds`], [`GridError::UnknownId`]; the grid is
    /// unchanged on error.
    pub fn update(&mut self, id: u32, bounds: BoundingBox<T, D>) -> Result<(), GridError> {
        if !bounds.is_valid() {
            return Err(GridError::InvalidBounds { id });
        }
        let Some(old) = self.entry(id).copied() else {
            return Err(GridError::UnknownId { id });
        };
        let (lo, hi) = (self.key(&bounds.min), self.key(&bounds.max));
        if lo == old.lo && hi == old.hi {
            if let Some(Some(e)) = self.entries.get_mut(id as usize) {
                e.bounds = bounds;
            }
            return Ok(());
        }
        let now_oversize = Self::span(&lo, &hi) > MAX_CELLS_PER_OBJECT;
        let entry = if old.oversize_slot.is_none() && !now_oversize {
            // Leave the cells of the old range that are not in the new one, then
            // enter the new ones that were not in the old.
            for_each_cell(&old.lo, &old.hi, |k| {
                if !contains(&lo, &hi, &k) {
                    self.leave_cell(k, id);
                }
            });
            for_each_cell(&lo, &hi, |k| {
                if !contains(&old.lo, &old.hi, &k) {
                    self.cells.entry(k).or_default().push(id);
                }
            });
            Entry {
                bounds,
                lo,
                hi,
                oversize_slot: None,
            }
        } else {
            self.unfile(id, &old);
            self.file(id, bounds)
        };
        self.entries[id as usize] = Some(entry);
        Ok(())
    }

    /// Removes object `id` and returns its box.
    ///
    /// # Errors
    /// [`GridError::UnknownId`]; the grid is unchanged on error.
    pub fn remove(&mut self, id: u32) -> Result<BoundingBox<T, D>, GridError> {
        let Some(old) = self.entry(id).copied() else {
            return Err(GridError::UnknownId { id });
        };
        self.unfile(id, &old);
        self.entries[id as usize] = None;
        self.len -= 1;
        Ok(old.bounds)
    }

    /// Every pair of objects whose boxes overlap (touching counts), each once as
    /// `(smaller id, larger id)`, sorted. `out` is cleared first; reusing it
    /// across frames avoids allocation.
    pub fn candidate_pairs(&self, out: &mut Vec<(u32, u32)>) {
        out.clear();
        for (key, ids) in &self.cells {
            for (x, &i) in ids.iter().enumerate() {
                let Some(a) = self.entry(i) else { continue };
                for &j in &ids[x + 1..] {
                    let Some(b) = self.entry(j) else { continue };
                    if a.bounds.intersects(&b.bounds) && self.owner(&a.bounds, &b.bounds) == *key {
                        out.push(if i < j { (i, j) } else { (j, i) });
                    }
                }
            }
        }
        for &o in &self.oversize {
            let Some(big) = self.entry(o) else { continue };
            for (id, e) in self.entries.iter().enumerate() {
                let id = id as u32;
                let Some(e) = e else { continue };
                // Two oversize objects: report from the smaller id only.
                if id == o || (e.oversize_slot.is_some() && id < o) {
                    continue;
                }
                if big.bounds.intersects(&e.bounds) {
                    out.push(if o < id { (o, id) } else { (id, o) });
                }
            }
        }
        out.sort_unstable();
    }

    /// The cell that reports a pair: the one holding the lowest corner of the
    /// intersection of the two boxes.
    #[inline]
    fn owner(&self, a: &BoundingBox<T, D>, b: &BoundingBox<T, D>) -> Key<D> {
        core::array::from_fn(|i| self.coord(Float::max(a.min[i], b.min[i])))
    }

    /// Every object whose box overlaps `region` (touching counts), sorted by id.
    /// `out` is cleared first.
    pub fn query_region(&self, region: &BoundingBox<T, D>, out: &mut Vec<u32>) {
        out.clear();
        if !region.is_valid() {
            return;
        }
        let (lo, hi) = (self.key(&region.min), self.key(&region.max));
        if Self::span(&lo, &hi) > (self.cells.len() as u128).max(MAX_CELLS_PER_OBJECT) {
            // A region wider than the occupied space: scan the objects.
            out.extend(
                self.iter()
                    .filter(|(_, b)| b.intersects(region))
                    .map(|(id, _)| id),
            );
            return;
        }
        for_each_cell(&lo, &hi, |k| {
            if let Some(ids) = self.cells.get(&k) {
                for &id in ids {
                    if self.entry(id).is_some_and(|e| e.bounds.intersects(region)) {
                        out.push(id);
                    }
                }
            }
        });
        out.extend(
            self.oversize
                .iter()
                .copied()
                .filter(|&o| self.entry(o).is_some_and(|e| e.bounds.intersects(region))),
        );
        out.sort_unstable();
        out.dedup();
    }

    /// Every object whose box contains `p` (the boundary counts), sorted by id.
    pub fn query_point(&self, p: &Point<T, D>, out: &mut Vec<u32>) {
        self.query_region(&BoundingBox::new(*p, *p), out);
    }

    /// Counts describing the grid.
    #[must_use]
    pub fn stats(&self) -> GridStats {
        GridStats {
            objects: self.len,
            cells: self.cells.len(),
            oversize: self.oversize.len(),
            max_per_cell: self.cells.values().map(Vec::len).max().unwrap_or(0),
            memberships: self.cells.values().map(Vec::len).sum(),
        }
    }

    /// Checks the grid's invariants: every object is in exactly the cells its
    /// box covers (or in the oversize list, and in no cell), every cell is
    /// non-empty and lists only objects that cover it, and the counts agree.
    ///
    /// # Errors
    /// [`GridError::Invariant`] describing the first violation found.
    pub fn validate(&self) -> Result<(), GridError> {
        let fail = |msg: String| Err(GridError::Invariant(msg));
        let mut live = 0;
        let mut expected_memberships: u128 = 0;
        for (id, e) in self.iter_entries() {
            live += 1;
            let (lo, hi) = (self.key(&e.bounds.min), self.key(&e.bounds.max));
            if (lo, hi) != (e.lo, e.hi) {
                return fail(format!(
                    "object {id}: stored cell range differs from its box's"
                ));
            }
            let big = Self::span(&lo, &hi) > MAX_CELLS_PER_OBJECT;
            match e.oversize_slot {
                Some(slot) if !big || self.oversize.get(slot) != Some(&id) => {
                    return fail(format!("object {id}: oversize slot {slot} is wrong"));
                }
                None if big => {
                    return fail(format!(
                        "object {id}: covers too many cells but is not oversize"
                    ));
                }
                None => {
                    let mut missing = None;
                    for_each_cell(&lo, &hi, |k| {
                        let n = self
                            .cells
                            .get(&k)
                            .map_or(0, |l| l.iter().filter(|&&x| x == id).count());
                        if n != 1 && missing.is_none() {
                            missing = Some((k, n));
                        }
                    });
                    if let Some((k, n)) = missing {
                        return fail(format!("object {id}: listed {n} times in cell {k:?}"));
                    }
                    expected_memberships += Self::span(&lo, &hi);
                }
                Some(_) => {}
            }
        }
        if live != self.len {
            return fail(format!("{live} live objects but len is {}", self.len));
        }
        let mut memberships: u128 = 0;
        for (k, ids) in &self.cells {
            if ids.is_empty() {
                return fail(format!("cell {k:?} is empty but stored"));
            }
            for &id in ids {
                match self.entry(id) {
                    None => return fail(format!("cell {k:?} lists removed object {id}")),
                    Some(e) if e.oversize_slot.is_some() => {
                        return fail(format!("cell {k:?} lists oversize object {id}"));
                    }
                    Some(e) if !contains(&e.lo, &e.hi, k) => {
                        return fail(format!(
                            "cell {k:?} lists object {id}, which does not cover it"
                        ));
                    }
                    Some(_) => {}
                }
            }
            memberships += ids.len() as u128;
        }
        if memberships != expected_memberships {
            return fail(format!(
                "{memberships} cell memberships, expected {expected_memberships}"
            ));
        }
        for (slot, &id) in self.oversize.iter().enumerate() {
            if self.entry(id).is_none_or(|e| e.oversize_slot != Some(slot)) {
                return fail(format!(
                    "oversize list slot {slot} holds {id}, which does not point back"
                ));
            }
        }
        Ok(())
    }

    fn iter_entries(&self) -> impl Iterator<Item = (u32, &Entry<T, D>)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|e| (i as u32, e)))
    }
}

#[inline]
fn contains<const D: usize>(lo: &Key<D>, hi: &Key<D>, k: &Key<D>) -> bool {
    (0..D).all(|i| lo[i] <= k[i] && k[i] <= hi[i])
}

/// Calls `f` with every cell key in the box `[lo, hi]` (an odometer over the
/// axes). Callers guarantee the range is small (at most
/// `MAX_CELLS_PER_OBJECT` cells, or the region-query bound).
#[inline]
fn for_each_cell<const D: usize>(lo: &Key<D>, hi: &Key<D>, mut f: impl FnMut(Key<D>)) {
    let mut k = *lo;
    loop {
        f(k);
        let mut axis = 0;
        loop {
            if axis == D {
                return;
            }
            if k[axis] < hi[axis] {
                k[axis] += 1;
                break;
            }
            k[axis] = lo[axis];
            axis += 1;
        }
    }
}
