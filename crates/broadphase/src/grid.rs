//! A sparse uniform grid over unbounded space, in 2D or 3D, with a
//! persistent set of candidate pairs.
//!
//! Each object is filed by a *fat box* (its bounding box enlarged by a margin)
//! in every cell the fat box covers; two objects can only overlap if they
//! share a cell, so only pairs within a cell are tested. The grid keeps the
//! set of pairs whose fat boxes overlap from frame to frame and answers
//! [`Grid::candidate_pairs`] by filtering it with the tight boxes.
//!
//! Design:
//! - **Cell keys.** Cell `i` along an axis covers `[i·s, (i+1)·s)`;
//!   `i = floor(x / s)`, computed in floating point and saturated to `±2⁶²`
//!   before conversion, so huge, negative or infinite-after-scaling
//!   coordinates never overflow or panic (far-off objects share the outermost
//!   cells: still correct, only slower). Cells live in a hash map keyed by the
//!   integer coordinates, so space is unbounded and only occupied cells cost
//!   memory.
//! - **Fat boxes** (Box2D v3's enlarged AABBs, Catto 2024). An object's fat box
//!   is its box grown by the margin `m` on every side (clamped to the finite
//!   numbers; rounding is monotonic, so it always contains the box). `update`
//!   with a box still inside the fat box stores the box and does nothing
//!   else; otherwise the fat box is rebuilt around the new box, the object is
//!   re-filed (only the cells left and entered are touched) and put in the
//!   *move buffer*. Insertions and removals go in the move buffer too.
//! - **The pair set.** A sorted list of every pair `(a < b)` whose fat boxes
//!   overlap. `candidate_pairs` brings it up to date, then keeps the pairs
//!   whose tight boxes overlap, in order: since a fat box contains its box,
//!   every overlapping pair is in the set, so the answer is exactly the
//!   overlapping pairs, sorted, whatever the margin.
//!   1. Few moved (at most one object in `INCREMENTAL_FRACTION` = 8): drop
//!      every pair of a moved object, find each moved object's fat pairs by looking
//!      in its cells (a pair of two moved objects from the smaller id only),
//!      sort them (few) and merge them into the kept pairs.
//!   2. Otherwise: the full cell pass below rebuilds the set.
//! - **The margin.** [`Grid::new`] uses [`DEFAULT_MARGIN_FRACTION`] of the cell
//!   size (a tenth); [`Grid::with_margin`] takes any finite `m ≥ 0` (`0` files
//!   tight boxes: every change of a box is a move). Why a tenth: the cell size
//!   is about twice a typical object, so a tenth of a cell is a fifth of an
//!   object: it absorbs the per-frame motion of most game objects (a few
//!   percent of their size), while a fat box grows by 40 % of a typical side,
//!   which adds candidate pairs to filter (about 1.5–2× the overlapping ones
//!   in the benchmark scenes) and memberships. Objects moving farther than
//!   the margin every frame gain nothing and pay the filter (the
//!   `broad_update_uniform_far_f32` benchmark measures that worst case).
//! - **Large objects.** An object whose fat box covers more than
//!   [`MAX_CELLS_PER_OBJECT`] cells is kept in an *oversize list* instead. It
//!   pairs with the other oversize objects by box, and with filed objects
//!   through the cells of its range when the range has fewer cells than the
//!   grid (the owning-cell rule below keeps each pair once), else by a scan of
//!   every object: memory stays proportional to the object count.
//! - **Each pair once (full cell pass).** A pair that shares several cells is
//!   reported only from the cell holding the lowest corner of the
//!   intersection of the two fat boxes, a point that lies in both boxes and
//!   hence in a cell both occupy. Its cell is `max(lowest cell of a, lowest
//!   cell of b)` per axis (the floor is monotonic), so the test is integer
//!   comparisons. No set of seen pairs is needed; the result is
//!   radix-sorted, so the order is deterministic. With the `rayon` feature,
//!   chunks of cells are scanned in parallel and the tight filter runs over
//!   chunks of pairs in parallel; both concatenate in order, and the pass's
//!   result is sorted, so the output is identical to the serial one.
//! - **Bulk build.** [`Grid::from_boxes`] files every membership as one
//!   64-bit number (the cell's offset in the box of occupied cells, then the
//!   id), radix-sorts them, and makes each run one cell: one hash insert per
//!   cell instead of one per membership, and cells laid out in space order.
//! - **Empty cells** are kept (an object that leaves a cell often comes back
//!   next frame: no hash-map churn) until they are more than
//!   `COMPACT_MIN` = 64 and the majority, when the cells are compacted and the index rebuilt.
//! - **Memory layout.** Cells live in one dense array (a hash map only maps a
//!   key to its index), each holding up to four ids inline before spilling to
//!   the heap; boxes, fat boxes and lowest cells live in dense arrays by id.
//!   Every buffer of `candidate_pairs` is kept, so a warm serial frame
//!   allocates nothing.
//!
//! Boxes are closed: touching boxes overlap.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

use nalgebra::Point;
use num_traits::Float;
use shape::{BoundingBox, Real};

use crate::GridError;
use crate::hash::BuildCellHasher;

mod ray;
mod rings;

pub use ray::WalkStats;

/// Whether `x` is a valid query limit (`max_toi`, `max_distance`): a number
/// `≥ 0`, `+∞` allowed; `false` for NaN.
#[inline]
pub(crate) fn is_limit<T: Real>(x: T) -> bool {
    matches!(
        x.partial_cmp(&T::zero()),
        Some(core::cmp::Ordering::Greater | core::cmp::Ordering::Equal)
    )
}

/// Objects covering more cells than this go to the oversize list.
pub const MAX_CELLS_PER_OBJECT: u128 = 64;

/// The fat pair set is brought up to date from the move buffer while at most
/// one object in this many moved, and rebuilt by the full cell pass otherwise
/// (module notes, "Move buffer").
const INCREMENTAL_FRACTION: usize = 8;

/// Empty cells are kept until there are more than this many and they are
/// the majority (module notes, "Empty cells").
const COMPACT_MIN: usize = 64;

/// `validate` compares the fat pair set with brute force up to this many
/// objects.
const BRUTE_VALIDATE_LIMIT: usize = 512;

/// Below this many cells (or pairs), the `rayon` build runs serially.
#[cfg(feature = "rayon")]
const PARALLEL_MIN: usize = 4096;

/// Cell coordinates are saturated to `±2⁶²`.
const COORD_LIMIT: i64 = 1 << 62;

type Key<const D: usize> = [i64; D];

/// Where an object is filed: its cell range, or its slot in the oversize list.
#[derive(Debug, Clone, Copy)]
struct Filing<const D: usize> {
    lo: Key<D>,
    hi: Key<D>,
    oversize_slot: Option<usize>,
}

/// The ids in one cell: up to four inline, more on the heap.
#[derive(Debug, Clone, Default)]
struct Ids {
    len: u32,
    inline: [u32; 4],
    spill: Vec<u32>,
}

impl Ids {
    #[inline]
    fn as_slice(&self) -> &[u32] {
        if self.len as usize <= self.inline.len() {
            &self.inline[..self.len as usize]
        } else {
            &self.spill
        }
    }

    #[inline]
    fn push(&mut self, id: u32) {
        let n = self.len as usize;
        if n < self.inline.len() {
            self.inline[n] = id;
        } else {
            if n == self.inline.len() {
                self.spill.clear();
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(id);
        }
        self.len += 1;
    }

    /// Removes `id` (order not kept); whether it was there.
    #[inline]
    fn remove(&mut self, id: u32) -> bool {
        let n = self.len as usize;
        if n <= self.inline.len() {
            let Some(pos) = self.inline[..n].iter().position(|&x| x == id) else {
                return false;
            };
            self.inline[pos] = self.inline[n - 1];
        } else {
            let Some(pos) = self.spill.iter().position(|&x| x == id) else {
                return false;
            };
            self.spill.swap_remove(pos);
            if self.spill.len() == self.inline.len() {
                self.inline.copy_from_slice(&self.spill);
            }
        }
        self.len -= 1;
        true
    }
}

#[derive(Debug, Clone)]
struct CellData<const D: usize> {
    key: Key<D>,
    ids: Ids,
}

/// The persistent pair state of [`Grid::candidate_pairs`]: the sorted set of
/// pairs whose *fat* boxes overlap, the move buffer (objects whose fat box
/// changed, or that were inserted or removed, since the set was last brought
/// up to date), and reusable buffers.
#[derive(Debug)]
struct PairState<T: Real, const D: usize> {
    /// Every pair `(a < b)` whose fat boxes overlap, sorted; up to date except
    /// for the pairs of objects in `moved` (or wholly stale when `rebuild`).
    fat: Vec<(u32, u32)>,
    /// The merge target of an incremental update (swapped with `fat`).
    spare: Vec<(u32, u32)>,
    /// The new fat pairs of the moved objects.
    fresh: Vec<(u32, u32)>,
    /// The move buffer: ids whose pairs must be recomputed, each once.
    moved: Vec<u32>,
    /// By id: whether the id is in `moved`.
    flag: Vec<bool>,
    /// The whole set must be rebuilt by the full cell pass.
    rebuild: bool,
    /// Scratch of the full cell pass: one cell's objects (id, fat box,
    /// lowest cell).
    local: Vec<(u32, BoundingBox<T, D>, Key<D>)>,
    /// The radix sort's keys and digit counters.
    keys: Vec<u64>,
    counts: Vec<usize>,
}

impl<T: Real, const D: usize> Default for PairState<T, D> {
    fn default() -> Self {
        Self {
            fat: Vec::new(),
            spare: Vec::new(),
            fresh: Vec::new(),
            moved: Vec::new(),
            flag: Vec::new(),
            rebuild: false,
            local: Vec::new(),
            keys: Vec::new(),
            counts: Vec::new(),
        }
    }
}

impl<T: Real, const D: usize> PairState<T, D> {
    /// Puts `id` in the move buffer (once).
    #[inline]
    fn mark(&mut self, id: u32) {
        let i = id as usize;
        if i >= self.flag.len() {
            self.flag.resize(i + 1, false);
        }
        if !self.rebuild && !self.flag[i] {
            self.flag[i] = true;
            self.moved.push(id);
        }
    }

    /// Empties the move buffer.
    fn clear_moved(&mut self) {
        for &id in &self.moved {
            self.flag[id as usize] = false;
        }
        self.moved.clear();
    }
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
/// Ids index dense arrays, so memory grows with the largest id: use small,
/// dense ids (the [`World`](crate::World) uses its slot indices).
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
#[derive(Debug)]
pub struct Grid<T: Real, const D: usize> {
    cell_size: T,
    inv_cell_size: T,
    /// How far a fat box extends beyond its tight box on every side.
    margin: T,
    /// Whether `margin` follows the cell size (set by [`Grid::new`]).
    default_margin: bool,
    /// Occupied cells, dense; `index` maps a key to its position.
    cells: Vec<CellData<D>>,
    index: HashMap<Key<D>, u32, BuildCellHasher>,
    /// By id: the tight box, the fat box it is filed by, where it is filed
    /// (`None` for a free id).
    boxes: Vec<BoundingBox<T, D>>,
    fat: Vec<BoundingBox<T, D>>,
    filings: Vec<Option<Filing<D>>>,
    oversize: Vec<u32>,
    len: usize,
    /// Cells in `cells` that hold no id (kept to avoid hash churn).
    empty_cells: usize,
    /// The fat pair set, the move buffer and the buffers of
    /// `candidate_pairs`, kept between calls so that a frame allocates nothing
    /// once warm (a lock because `candidate_pairs` takes `&self`).
    pairs: Mutex<PairState<T, D>>,
    /// A box of cell keys holding every occupied cell (`lo > hi` on every
    /// axis when there is none), which bounds the ray walk and the ring
    /// search. It grows as cells are created and is tightened to the exact
    /// bounds whenever [`candidate_pairs`](Self::candidate_pairs) passes over
    /// every cell (hence atomics: that takes `&self`); in between it may be
    /// larger than needed, never smaller.
    occupied_lo: [AtomicI64; D],
    occupied_hi: [AtomicI64; D],
}

impl<T: Real, const D: usize> Clone for Grid<T, D> {
    fn clone(&self) -> Self {
        Self {
            cell_size: self.cell_size,
            inv_cell_size: self.inv_cell_size,
            margin: self.margin,
            default_margin: self.default_margin,
            cells: self.cells.clone(),
            index: self.index.clone(),
            boxes: self.boxes.clone(),
            fat: self.fat.clone(),
            filings: self.filings.clone(),
            oversize: self.oversize.clone(),
            len: self.len,
            empty_cells: self.empty_cells,
            // The copy rebuilds its pair set on its first query.
            pairs: Mutex::new(PairState {
                rebuild: true,
                ..PairState::default()
            }),
            occupied_lo: core::array::from_fn(|i| {
                AtomicI64::new(self.occupied_lo[i].load(Ordering::Relaxed))
            }),
            occupied_hi: core::array::from_fn(|i| {
                AtomicI64::new(self.occupied_hi[i].load(Ordering::Relaxed))
            }),
        }
    }
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

fn check_margin<T: Real>(margin: T) -> Result<(), GridError> {
    // `is_limit` refuses NaN and negative numbers; finiteness refuses `+∞`.
    if !Float::is_finite(margin) || !is_limit(margin) {
        return Err(GridError::InvalidMargin {
            value: margin.as_f64(),
        });
    }
    Ok(())
}

/// The margin [`Grid::new`] gives: this fraction of the cell size (module
/// notes, "The margin").
pub const DEFAULT_MARGIN_FRACTION: f64 = 0.1;

impl<T: Real, const D: usize> Grid<T, D> {
    /// An empty grid with cells of side `cell_size` and fat boxes larger than
    /// the tight ones by [`DEFAULT_MARGIN_FRACTION`]` · cell_size` on every
    /// side.
    ///
    /// # Errors
    /// [`GridError::NonFiniteCellSize`] or [`GridError::NonPositiveCellSize`].
    pub fn new(cell_size: T) -> Result<Self, GridError> {
        check_cell_size(cell_size)?;
        let mut grid = Self::with_margin(cell_size, T::lit(DEFAULT_MARGIN_FRACTION) * cell_size)?;
        grid.default_margin = true;
        Ok(grid)
    }

    /// An empty grid with cells of side `cell_size` that files each object by
    /// its box enlarged by `margin` on every side (module notes): a larger
    /// margin lets objects move farther before they are re-filed, at the cost
    /// of more candidate pairs to filter. `margin = 0` files tight boxes.
    ///
    /// ```
    /// use broadphase::{Grid2, GridError};
    ///
    /// let grid = Grid2::<f32>::with_margin(2.0, 0.25).unwrap();
    /// assert_eq!(grid.margin(), 0.25);
    /// assert!(matches!(Grid2::<f32>::with_margin(2.0, -1.0), Err(GridError::InvalidMargin { .. })));
    /// ```
    ///
    /// # Errors
    /// [`GridError::NonFiniteCellSize`] or [`GridError::NonPositiveCellSize`]
    /// for a bad cell size; [`GridError::InvalidMargin`] for a margin that is
    /// NaN, infinite or negative.
    pub fn with_margin(cell_size: T, margin: T) -> Result<Self, GridError> {
        check_cell_size(cell_size)?;
        check_margin(margin)?;
        Ok(Self {
            cell_size,
            inv_cell_size: T::one() / cell_size,
            margin,
            default_margin: false,
            cells: Vec::new(),
            index: HashMap::default(),
            boxes: Vec::new(),
            fat: Vec::new(),
            filings: Vec::new(),
            oversize: Vec::new(),
            len: 0,
            empty_cells: 0,
            pairs: Mutex::new(PairState::default()),
            occupied_lo: core::array::from_fn(|_| AtomicI64::new(i64::MAX)),
            occupied_hi: core::array::from_fn(|_| AtomicI64::new(i64::MIN)),
        })
    }

    /// How far a fat box extends beyond its tight box on every side.
    #[must_use]
    pub fn margin(&self) -> T {
        self.margin
    }

    /// A grid with cells of side `cell_size` (and the margin of
    /// [`Grid::new`]) holding `boxes`, built in bulk: every cell membership
    /// becomes one number `(cell code, id)`, the numbers are radix-sorted,
    /// and each run of one cell becomes that cell, so a cell costs one hash
    /// insert instead of one per membership (module notes, "Bulk build").
    /// The result is the grid that inserting the boxes one by one gives.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use broadphase::Grid;
    /// use shape::BoundingBox2;
    ///
    /// let b = |x0: f32, y0: f32, x1: f32, y1: f32| BoundingBox2::new(Point2::new(x0, y0), Point2::new(x1, y1));
    /// let grid = Grid::from_boxes(1.0, [(0, b(0.0, 0.0, 1.0, 1.0)), (1, b(1.0, 0.5, 2.0, 1.5))]).unwrap();
    /// let mut pairs = Vec::new();
    /// grid.candidate_pairs(&mut pairs);
    /// assert_eq!(pairs, vec![(0, 1)]);
    /// grid.validate().unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`Grid::new`] for the cell size; [`GridError::InvalidBounds`] or
    /// [`GridError::DuplicateId`] as [`Grid::insert`] would give for the
    /// first bad item.
    pub fn from_boxes(
        cell_size: T,
        boxes: impl IntoIterator<Item = (u32, BoundingBox<T, D>)>,
    ) -> Result<Self, GridError> {
        let mut grid = Self::new(cell_size)?;
        grid.bulk_insert(boxes)?;
        Ok(grid)
    }

    /// Fills an empty grid with `items` (see [`Grid::from_boxes`]).
    fn bulk_insert(
        &mut self,
        items: impl IntoIterator<Item = (u32, BoundingBox<T, D>)>,
    ) -> Result<(), GridError> {
        debug_assert!(self.is_empty() && self.cells.is_empty());
        // 1. Boxes, fat boxes and cell ranges; oversize objects are filed at
        //    once. `lo`, `hi`: the bounds of every range filed in cells.
        let (mut lo, mut hi) = ([i64::MAX; D], [i64::MIN; D]);
        let mut memberships = 0usize;
        for (id, bounds) in items {
            if !bounds.is_valid() {
                return Err(GridError::InvalidBounds { id });
            }
            if self.filing(id).is_some() {
                return Err(GridError::DuplicateId { id });
            }
            let i = id as usize;
            if i >= self.filings.len() {
                self.filings.resize(i + 1, None);
                self.boxes.resize(i + 1, bounds);
                self.fat.resize(i + 1, bounds);
            }
            let fat = self.fatten(&bounds);
            let (flo, fhi) = (self.key(&fat.min), self.key(&fat.max));
            let span = Self::span(&flo, &fhi);
            let oversize_slot = if span > MAX_CELLS_PER_OBJECT {
                self.oversize.push(id);
                Some(self.oversize.len() - 1)
            } else {
                memberships += span as usize;
                for k in 0..D {
                    lo[k] = lo[k].min(flo[k]);
                    hi[k] = hi[k].max(fhi[k]);
                }
                None
            };
            self.filings[i] = Some(Filing {
                lo: flo,
                hi: fhi,
                oversize_slot,
            });
            self.boxes[i] = bounds;
            self.fat[i] = fat;
            self.len += 1;
        }
        let st = self.pairs.get_mut().unwrap_or_else(|e| e.into_inner());
        st.flag.resize(self.filings.len().max(st.flag.len()), false);
        st.rebuild = true;
        if memberships == 0 {
            return Ok(());
        }
        // 2. A cell's code: its offset in the box `lo..=hi`, axis 0 fastest.
        //    When the box has more than 2³² cells the codes do not fit beside
        //    the ids: file one by one instead.
        let mut strides = [0u64; D];
        let mut cells_in_box: u128 = 1;
        for k in 0..D {
            strides[k] = cells_in_box as u64;
            cells_in_box *= (i128::from(hi[k]) - i128::from(lo[k]) + 1) as u128;
            if cells_in_box > 1 << 32 {
                for id in 0..self.filings.len() as u32 {
                    if let Some(f) = self.filing(id).copied() {
                        if f.oversize_slot.is_none() {
                            for_each_cell(&f.lo, &f.hi, |c| self.enter_cell(c, id));
                        }
                    }
                }
                return Ok(());
            }
        }
        // 3. One number per membership, radix-sorted: the runs are the cells,
        //    in code order, each listing its ids in increasing order.
        let mut codes: Vec<u64> = Vec::with_capacity(2 * memberships);
        for (id, f) in self.filings.iter().enumerate() {
            let Some(f) = f.filter(|f| f.oversize_slot.is_none()) else {
                continue;
            };
            let id = id as u64;
            for_each_cell(&f.lo, &f.hi, |c| {
                let code = (0..D).fold(0u64, |sum, k| sum + (c[k] - lo[k]) as u64 * strides[k]);
                codes.push((code << 32) | id);
            });
        }
        if memberships < 1 << 13 {
            // Below this, clearing the 2¹⁶ counters costs more than comparing.
            codes.sort_unstable();
        } else {
            radix_sort_u64(&mut codes, memberships, &mut Vec::new());
        }
        // 4. The cells.
        let cells = 1 + codes
            .windows(2)
            .filter(|w| w[0] >> 32 != w[1] >> 32)
            .count();
        self.cells.reserve(cells);
        self.index.reserve(cells);
        let mut start = 0;
        while start < codes.len() {
            let code = codes[start] >> 32;
            let mut end = start + 1;
            while end < codes.len() && codes[end] >> 32 == code {
                end += 1;
            }
            let mut rest = code;
            let key: Key<D> = core::array::from_fn(|k| {
                let width = (hi[k] - lo[k] + 1) as u64;
                let c = lo[k] + (rest % width) as i64;
                rest /= width;
                c
            });
            let mut ids = Ids::default();
            for &c in &codes[start..end] {
                ids.push(c as u32);
            }
            self.index.insert(key, self.cells.len() as u32);
            self.cells.push(CellData { key, ids });
            start = end;
        }
        self.tighten_occupied(&lo, &hi);
        Ok(())
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

    /// Changes the cell size and re-files every object (a margin chosen by
    /// [`Grid::new`] follows the cell size; one given to
    /// [`Grid::with_margin`] is kept).
    ///
    /// # Errors
    /// As [`Grid::new`]; the grid is unchanged on error.
    pub fn set_cell_size(&mut self, cell_size: T) -> Result<(), GridError> {
        check_cell_size(cell_size)?;
        let items: Vec<(u32, BoundingBox<T, D>)> = self.iter().map(|(id, b)| (id, *b)).collect();
        let mut fresh = if self.default_margin {
            Self::new(cell_size)?
        } else {
            Self::with_margin(cell_size, self.margin)?
        };
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

    /// The box of an id the grid holds (one a walk handed out), without the
    /// check [`bounds`](Self::bounds) makes.
    #[inline]
    pub(crate) fn filed_box(&self, id: u32) -> &BoundingBox<T, D> {
        &self.boxes[id as usize]
    }

    /// The stored box of object `id`.
    #[must_use]
    pub fn bounds(&self, id: u32) -> Option<&BoundingBox<T, D>> {
        self.filing(id).map(|_| &self.boxes[id as usize])
    }

    /// The fat box object `id` is filed by: its box (as it was when last
    /// re-filed) enlarged by the margin; it contains [`bounds`](Self::bounds).
    #[must_use]
    pub fn fat_bounds(&self, id: u32) -> Option<&BoundingBox<T, D>> {
        self.filing(id).map(|_| &self.fat[id as usize])
    }

    /// Every object and its box, by increasing id.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &BoundingBox<T, D>)> + '_ {
        self.filings
            .iter()
            .zip(&self.boxes)
            .enumerate()
            .filter_map(|(i, (f, b))| f.map(|_| (i as u32, b)))
    }

    #[inline]
    fn filing(&self, id: u32) -> Option<&Filing<D>> {
        self.filings.get(id as usize).and_then(Option::as_ref)
    }

    /// The cell coordinate of `x`: `floor(x / s)`, saturated. The floor is done
    /// on integers after a truncating conversion (no libm call).
    #[inline]
    fn coord(&self, x: T) -> i64 {
        let c = x * self.inv_cell_size;
        let limit = T::lit(COORD_LIMIT as f64);
        if c >= limit {
            COORD_LIMIT
        } else if c <= -limit {
            -COORD_LIMIT
        } else {
            // |c| < 2⁶²: the truncation fits; step down for negative non-integers.
            let t = num_traits::ToPrimitive::to_i64(&c).unwrap_or(0);
            if T::lit(t as f64) > c { t - 1 } else { t }
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
        if self.filing(id).is_some() {
            return Err(GridError::DuplicateId { id });
        }
        let i = id as usize;
        if i >= self.filings.len() {
            self.filings.resize(i + 1, None);
            self.boxes.resize(i + 1, bounds);
            self.fat.resize(i + 1, bounds);
        }
        let fat = self.fatten(&bounds);
        let filing = self.file(id, &fat);
        self.filings[i] = Some(filing);
        self.boxes[i] = bounds;
        self.fat[i] = fat;
        self.len += 1;
        self.pair_state().mark(id);
        Ok(())
    }

    /// The pair state, through `&mut self` (no locking).
    #[inline]
    fn pair_state(&mut self) -> &mut PairState<T, D> {
        self.pairs.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    /// `b` enlarged by the margin on every side, clamped to the finite
    /// numbers. It contains `b`: the exact `min − margin` is `≤ min`, a
    /// float, so rounding it (monotonic) gives a number `≤ min`; likewise
    /// for `max + margin`.
    #[inline]
    fn fatten(&self, b: &BoundingBox<T, D>) -> BoundingBox<T, D> {
        let max = <T as Float>::max_value();
        let mut f = *b;
        for i in 0..D {
            f.min[i] = Float::max(b.min[i] - self.margin, -max);
            f.max[i] = Float::min(b.max[i] + self.margin, max);
        }
        f
    }

    /// Puts `id` into the cells (or the oversize list) for `bounds`.
    fn file(&mut self, id: u32, bounds: &BoundingBox<T, D>) -> Filing<D> {
        let (lo, hi) = (self.key(&bounds.min), self.key(&bounds.max));
        let oversize_slot = if Self::span(&lo, &hi) > MAX_CELLS_PER_OBJECT {
            self.oversize.push(id);
            Some(self.oversize.len() - 1)
        } else {
            for_each_cell(&lo, &hi, |k| self.enter_cell(k, id));
            None
        };
        Filing {
            lo,
            hi,
            oversize_slot,
        }
    }

    /// The ids in cell `k`, or `None` if it holds none.
    #[inline]
    pub(crate) fn cell_ids(&self, k: &Key<D>) -> Option<&[u32]> {
        let &at = self.index.get(k)?;
        let ids = self.cells[at as usize].ids.as_slice();
        (!ids.is_empty()).then_some(ids)
    }

    #[inline]
    fn enter_cell(&mut self, k: Key<D>, id: u32) {
        let cells = &mut self.cells;
        let mut created = false;
        let at = *self.index.entry(k).or_insert_with(|| {
            created = true;
            cells.push(CellData {
                key: k,
                ids: Ids::default(),
            });
            (cells.len() - 1) as u32
        });
        let ids = &mut self.cells[at as usize].ids;
        let was_empty = ids.len == 0;
        ids.push(id);
        if was_empty {
            if !created {
                self.empty_cells -= 1;
            }
            // A new cell, or a kept empty one, possibly outside the occupied
            // box (which a full pass tightens to the non-empty cells).
            for (i, &x) in k.iter().enumerate() {
                let lo = self.occupied_lo[i].get_mut();
                *lo = (*lo).min(x);
                let hi = self.occupied_hi[i].get_mut();
                *hi = (*hi).max(x);
            }
        }
    }

    /// The box of cell keys holding every occupied cell, or `None` when no
    /// cell is occupied (see the field's note: possibly larger than the
    /// occupied cells' exact bounds).
    #[inline]
    fn occupied(&self) -> Option<(Key<D>, Key<D>)> {
        if self.cells.len() == self.empty_cells {
            return None;
        }
        let lo: Key<D> = core::array::from_fn(|i| self.occupied_lo[i].load(Ordering::Relaxed));
        let hi: Key<D> = core::array::from_fn(|i| self.occupied_hi[i].load(Ordering::Relaxed));
        (0..D).all(|i| lo[i] <= hi[i]).then_some((lo, hi))
    }

    /// Sets the occupied box to exactly the occupied cells' bounds.
    fn tighten_occupied(&self, lo: &Key<D>, hi: &Key<D>) {
        for i in 0..D {
            self.occupied_lo[i].store(lo[i], Ordering::Relaxed);
            self.occupied_hi[i].store(hi[i], Ordering::Relaxed);
        }
    }

    fn leave_cell(&mut self, k: Key<D>, id: u32) {
        let Some(&at) = self.index.get(&k) else {
            return;
        };
        let cell = &mut self.cells[at as usize];
        if cell.ids.remove(id) && cell.ids.len == 0 {
            // The empty cell is kept (objects tend to come back: no hash
            // churn) until empty cells are the majority.
            self.empty_cells += 1;
            if self.empty_cells == self.cells.len() {
                self.tighten_occupied(&[i64::MAX; D], &[i64::MIN; D]);
            }
            if self.empty_cells > COMPACT_MIN && 2 * self.empty_cells > self.cells.len() {
                self.compact();
            }
        }
    }

    /// Drops the empty cells and rebuilds the index (which also clears the
    /// hash table of deleted entries). Linear in the cells; called when more
    /// than half are empty, so its cost is constant per emptied cell.
    fn compact(&mut self) {
        self.cells.retain(|c| c.ids.len > 0);
        self.index.clear();
        for (at, c) in self.cells.iter().enumerate() {
            self.index.insert(c.key, at as u32);
        }
        self.empty_cells = 0;
    }

    /// Takes `id` out of its cells (or the oversize list).
    fn unfile(&mut self, id: u32, filing: &Filing<D>) {
        if let Some(slot) = filing.oversize_slot {
            self.oversize.swap_remove(slot);
            if let Some(&moved) = self.oversize.get(slot) {
                if let Some(Some(f)) = self.filings.get_mut(moved as usize) {
                    f.oversize_slot = Some(slot);
                }
            }
        } else {
            for_each_cell(&filing.lo, &filing.hi, |k| self.leave_cell(k, id));
        }
    }

    /// Moves object `id` to a new bounding box. Inside its fat box this is a
    /// box copy; otherwise the fat box is rebuilt around the new box, the
    /// object goes into the move buffer, and only the cells it left and
    /// entered are touched.
    ///
    /// # Errors
    /// [`GridError::InvalidBounds`], [`GridError::UnknownId`]; the grid is
    /// unchanged on error.
    pub fn update(&mut self, id: u32, bounds: BoundingBox<T, D>) -> Result<(), GridError> {
        if !bounds.is_valid() {
            return Err(GridError::InvalidBounds { id });
        }
        let Some(old) = self.filing(id).copied() else {
            return Err(GridError::UnknownId { id });
        };
        let i = id as usize;
        self.boxes[i] = bounds;
        let fat = &self.fat[i];
        if (0..D).all(|k| fat.min[k] <= bounds.min[k] && bounds.max[k] <= fat.max[k]) {
            // Still inside its fat box: nothing else changes.
            return Ok(());
        }
        let fat = self.fatten(&bounds);
        self.fat[i] = fat;
        self.pair_state().mark(id);
        let (lo, hi) = (self.key(&fat.min), self.key(&fat.max));
        if lo == old.lo && hi == old.hi {
            return Ok(());
        }
        let now_oversize = Self::span(&lo, &hi) > MAX_CELLS_PER_OBJECT;
        let filing = if old.oversize_slot.is_none() && !now_oversize {
            // Leave the cells of the old range that are not in the new one, then
            // enter the new ones that were not in the old.
            for_each_cell(&old.lo, &old.hi, |k| {
                if !contains(&lo, &hi, &k) {
                    self.leave_cell(k, id);
                }
            });
            for_each_cell(&lo, &hi, |k| {
                if !contains(&old.lo, &old.hi, &k) {
                    self.enter_cell(k, id);
                }
            });
            Filing {
                lo,
                hi,
                oversize_slot: None,
            }
        } else {
            self.unfile(id, &old);
            self.file(id, &fat)
        };
        self.filings[i] = Some(filing);
        Ok(())
    }

    /// Removes object `id` and returns its box.
    ///
    /// # Errors
    /// [`GridError::UnknownId`]; the grid is unchanged on error.
    pub fn remove(&mut self, id: u32) -> Result<BoundingBox<T, D>, GridError> {
        let Some(old) = self.filing(id).copied() else {
            return Err(GridError::UnknownId { id });
        };
        self.unfile(id, &old);
        self.filings[id as usize] = None;
        self.len -= 1;
        self.pair_state().mark(id);
        Ok(self.boxes[id as usize])
    }

    /// Every pair of objects whose boxes overlap (touching counts), each once as
    /// `(smaller id, larger id)`, sorted. `out` is cleared first; reusing it
    /// across frames avoids allocation.
    ///
    /// The persistent set of fat-box pairs is brought up to date first: from
    /// the moved objects alone when few moved, by a pass over every cell
    /// otherwise; the answer is that set filtered by the tight boxes.
    pub fn candidate_pairs(&self, out: &mut Vec<(u32, u32)>) {
        out.clear();
        let mut guard = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
        let st = &mut *guard;
        if st.rebuild || st.moved.len() > self.len / INCREMENTAL_FRACTION {
            self.full_pass(st);
        } else if !st.moved.is_empty() {
            self.incremental_pass(st);
        }
        st.clear_moved();
        st.rebuild = false;
        self.filter_tight(&st.fat, out);
    }

    /// `out` gets the pairs of `fat` whose tight boxes overlap, in order.
    #[cfg(not(feature = "rayon"))]
    fn filter_tight(&self, fat: &[(u32, u32)], out: &mut Vec<(u32, u32)>) {
        let boxes = &self.boxes;
        out.extend(
            fat.iter()
                .copied()
                .filter(|&(a, b)| boxes[a as usize].intersects(&boxes[b as usize])),
        );
    }

    /// `out` gets the pairs of `fat` whose tight boxes overlap, in order
    /// (chunks filtered in parallel, concatenated in order).
    #[cfg(feature = "rayon")]
    fn filter_tight(&self, fat: &[(u32, u32)], out: &mut Vec<(u32, u32)>) {
        use rayon::prelude::*;
        let boxes = &self.boxes;
        let keep = |&&(a, b): &&(u32, u32)| boxes[a as usize].intersects(&boxes[b as usize]);
        if fat.len() < PARALLEL_MIN {
            out.extend(fat.iter().filter(keep).copied());
            return;
        }
        out.par_extend(fat.par_iter().filter(keep).copied());
    }

    /// Rebuilds the fat pair set by a pass over every cell (module notes,
    /// "Each pair once"), and tightens the occupied box.
    fn full_pass(&self, st: &mut PairState<T, D>) {
        let PairState {
            fat,
            local,
            keys,
            counts,
            ..
        } = st;
        let (lo, hi) = self.all_fat_pairs(fat, local, keys, counts);
        self.tighten_occupied(&lo, &hi);
    }

    /// Every fat pair, sorted, into `fat` (cleared first); returns the bounds
    /// of the occupied cells.
    fn all_fat_pairs(
        &self,
        fat: &mut Vec<(u32, u32)>,
        local: &mut Vec<(u32, BoundingBox<T, D>, Key<D>)>,
        keys: &mut Vec<u64>,
        counts: &mut Vec<usize>,
    ) -> (Key<D>, Key<D>) {
        fat.clear();
        let bounds = self.cell_pairs(fat, local);
        for &o in &self.oversize {
            // Two oversize objects: report from the smaller id only.
            let skip = |b: u32| b < o && self.filing(b).is_some_and(|f| f.oversize_slot.is_some());
            self.oversize_pairs(o, skip, fat);
        }
        radix_sort_pairs(fat, keys, counts);
        bounds
    }

    /// Pushes the fat pairs of oversize object `o` with every object `b`
    /// but `o` and those `skip(b)` refuses, each once: the other oversize
    /// objects by box; the filed ones through the cells of `o`'s range when
    /// it has no more cells than the grid (reported from the owning cell, as
    /// in the cell pass: `max(lo_o, lo_b)` lies in both ranges), else by a
    /// scan of every object.
    fn oversize_pairs(&self, o: u32, skip: impl Fn(u32) -> bool, out: &mut Vec<(u32, u32)>) {
        let Some(fo) = self.filing(o).copied() else {
            return;
        };
        let big = &self.fat[o as usize];
        let pair = |b: u32| if o < b { (o, b) } else { (b, o) };
        for &b in &self.oversize {
            if b != o && !skip(b) && big.intersects(&self.fat[b as usize]) {
                out.push(pair(b));
            }
        }
        if Self::span(&fo.lo, &fo.hi) <= self.cells.len() as u128 {
            for_each_cell(&fo.lo, &fo.hi, |k| {
                let Some(ids) = self.cell_ids(&k) else {
                    return;
                };
                for &b in ids {
                    if !skip(b)
                        && Self::owns(&k, &fo.lo, &self.low(b))
                        && big.intersects(&self.fat[b as usize])
                    {
                        out.push(pair(b));
                    }
                }
            });
        } else {
            for (b, (f, fb)) in self.filings.iter().zip(&self.fat).enumerate() {
                let b = b as u32;
                if f.is_some_and(|f| f.oversize_slot.is_none()) && !skip(b) && big.intersects(fb) {
                    out.push(pair(b));
                }
            }
        }
    }

    /// Pushes the fat pairs found in the cells (each once, by the owning
    /// cell) to `fat`; returns the bounds of the occupied cells.
    #[cfg(not(feature = "rayon"))]
    fn cell_pairs(
        &self,
        fat: &mut Vec<(u32, u32)>,
        local: &mut Vec<(u32, BoundingBox<T, D>, Key<D>)>,
    ) -> (Key<D>, Key<D>) {
        self.cells_pairs_serial(&self.cells, fat, local)
    }

    /// Pushes the fat pairs found in the cells (each once, by the owning
    /// cell) to `fat`, chunks of cells in parallel; returns the bounds of the
    /// occupied cells. The order differs from the serial pass, but the set
    /// is the same and is sorted afterwards.
    #[cfg(feature = "rayon")]
    fn cell_pairs(
        &self,
        fat: &mut Vec<(u32, u32)>,
        local: &mut Vec<(u32, BoundingBox<T, D>, Key<D>)>,
    ) -> (Key<D>, Key<D>) {
        use rayon::prelude::*;
        if self.cells.len() < PARALLEL_MIN {
            return self.cells_pairs_serial(&self.cells, fat, local);
        }
        let chunk = self.cells.len().div_ceil(4 * rayon::current_num_threads());
        /// One chunk's pairs and the bounds of its cells.
        type Part<const D: usize> = (Vec<(u32, u32)>, Key<D>, Key<D>);
        let parts: Vec<Part<D>> = self
            .cells
            .par_chunks(chunk)
            .map(|cells| {
                let mut v = Vec::new();
                let (lo, hi) = self.cells_pairs_serial(cells, &mut v, &mut Vec::new());
                (v, lo, hi)
            })
            .collect();
        let (mut lo, mut hi) = ([i64::MAX; D], [i64::MIN; D]);
        fat.reserve(parts.iter().map(|p| p.0.len()).sum());
        for (v, l, h) in parts {
            fat.extend_from_slice(&v);
            for i in 0..D {
                lo[i] = lo[i].min(l[i]);
                hi[i] = hi[i].max(h[i]);
            }
        }
        (lo, hi)
    }

    /// The cell pass over `cells`: pushes each fat pair it owns to `fat`;
    /// returns the bounds of the cells' keys.
    fn cells_pairs_serial(
        &self,
        cells: &[CellData<D>],
        fat: &mut Vec<(u32, u32)>,
        local: &mut Vec<(u32, BoundingBox<T, D>, Key<D>)>,
    ) -> (Key<D>, Key<D>) {
        // Each cell's objects are copied once into a small local buffer (box and
        // lowest cell), so the pair loop reads contiguous memory instead of
        // looking both objects up for every pair.
        let (mut lo, mut hi) = ([i64::MAX; D], [i64::MIN; D]);
        for cell in cells {
            let ids = cell.ids.as_slice();
            if ids.is_empty() {
                continue;
            }
            for i in 0..D {
                lo[i] = lo[i].min(cell.key[i]);
                hi[i] = hi[i].max(cell.key[i]);
            }
            if ids.len() < 2 {
                continue;
            }
            local.clear();
            local.extend(ids.iter().map(|&i| (i, self.fat[i as usize], self.low(i))));
            for (x, (i, a, la)) in local.iter().enumerate() {
                for (j, b, lb) in &local[x + 1..] {
                    if a.intersects(b) && Self::owns(&cell.key, la, lb) {
                        fat.push(if i < j { (*i, *j) } else { (*j, *i) });
                    }
                }
            }
        }
        (lo, hi)
    }

    /// Brings the fat pair set up to date from the move buffer alone: drops
    /// every pair of a moved object, finds the moved objects' fat pairs now
    /// (a pair of two moved objects from the smaller id only), and merges the
    /// two sorted lists.
    fn incremental_pass(&self, st: &mut PairState<T, D>) {
        let PairState {
            fat,
            spare,
            fresh,
            moved,
            flag,
            keys,
            counts,
            ..
        } = st;
        fresh.clear();
        for &a in moved.iter() {
            self.fat_pairs_of(a, flag, fresh);
        }
        radix_sort_pairs(fresh, keys, counts);
        spare.clear();
        spare.reserve(fat.len() + fresh.len());
        let mut new = fresh.iter().copied().peekable();
        for &p in fat.iter() {
            if flag[p.0 as usize] || flag[p.1 as usize] {
                continue;
            }
            while let Some(q) = new.next_if(|q| *q < p) {
                spare.push(q);
            }
            spare.push(p);
        }
        spare.extend(new);
        core::mem::swap(fat, spare);
    }

    /// Pushes to `out` the fat pairs of object `a` (if it is still stored),
    /// each once, leaving out those with a moved object of smaller id.
    fn fat_pairs_of(&self, a: u32, flag: &[bool], out: &mut Vec<(u32, u32)>) {
        let Some(fa) = self.filing(a).copied() else {
            return;
        };
        let boxa = &self.fat[a as usize];
        let skip = |b: u32| b == a || (b < a && flag.get(b as usize).copied().unwrap_or(false));
        let pair = |b: u32| if a < b { (a, b) } else { (b, a) };
        if fa.oversize_slot.is_some() {
            self.oversize_pairs(a, skip, out);
            return;
        }
        for_each_cell(&fa.lo, &fa.hi, |k| {
            let Some(&at) = self.index.get(&k) else {
                return;
            };
            for &b in self.cells[at as usize].ids.as_slice() {
                if !skip(b)
                    && Self::owns(&k, &fa.lo, &self.low(b))
                    && boxa.intersects(&self.fat[b as usize])
                {
                    out.push(pair(b));
                }
            }
        });
        for &o in &self.oversize {
            if !skip(o) && boxa.intersects(&self.fat[o as usize]) {
                out.push(pair(o));
            }
        }
    }

    /// The lowest cell of object `id` (it is filed, in cells).
    #[inline]
    fn low(&self, id: u32) -> Key<D> {
        self.filings[id as usize].map_or([0; D], |f| f.lo)
    }

    /// Whether `cell` is the one that reports a pair: the cell holding the
    /// lowest corner of the intersection of the two boxes, which is the
    /// per-axis maximum of their lowest cells.
    #[inline]
    fn owns(cell: &Key<D>, la: &Key<D>, lb: &Key<D>) -> bool {
        (0..D).all(|i| cell[i] == la[i].max(lb[i]))
    }

    /// Every object whose box overlaps `region` (touching counts), sorted by id.
    /// `out` is cleared first. A region may be unbounded (`min = −∞` or
    /// `max = +∞`: every stored box is finite, so it is clamped to `±MAX`); a
    /// region with a NaN coordinate, `min = +∞`, `max = −∞` or `min > max` on
    /// an axis holds nothing.
    pub fn query_region(&self, region: &BoundingBox<T, D>, out: &mut Vec<u32>) {
        out.clear();
        let max = <T as Float>::max_value();
        let mut clamped = *region;
        let region = &mut clamped;
        for i in 0..D {
            let (lo, hi) = (region.min[i], region.max[i]);
            if lo.is_nan() || hi.is_nan() || lo > max || hi < -max {
                return;
            }
            region.min[i] = Float::max(lo, -max);
            region.max[i] = Float::min(hi, max);
        }
        // An inverted axis: nothing.
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
            if let Some(&at) = self.index.get(&k) {
                out.extend(
                    self.cells[at as usize]
                        .ids
                        .as_slice()
                        .iter()
                        .copied()
                        .filter(|&id| self.boxes[id as usize].intersects(region)),
                );
            }
        });
        out.extend(
            self.oversize
                .iter()
                .copied()
                .filter(|&o| self.boxes[o as usize].intersects(region)),
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
            cells: self.cells.len() - self.empty_cells,
            oversize: self.oversize.len(),
            max_per_cell: self
                .cells
                .iter()
                .map(|c| c.ids.len as usize)
                .max()
                .unwrap_or(0),
            memberships: self.cells.iter().map(|c| c.ids.len as usize).sum(),
        }
    }

    /// Checks the grid's invariants: every fat box contains its tight box,
    /// every object is in exactly the cells its fat box covers (or in the
    /// oversize list, and in no cell), every cell is indexed under its key
    /// and lists only objects that cover it, the counts (of empty cells too)
    /// agree, and
    /// the persistent fat pair set is correct for every object that has not
    /// moved since the last [`candidate_pairs`](Self::candidate_pairs).
    ///
    /// # Errors
    /// [`GridError::Invariant`] describing the first violation found.
    pub fn validate(&self) -> Result<(), GridError> {
        let fail = |msg: String| Err(GridError::Invariant(msg));
        let mut live = 0;
        let mut expected_memberships: u128 = 0;
        for (id, f) in self
            .filings
            .iter()
            .enumerate()
            .filter_map(|(i, f)| f.map(|f| (i as u32, f)))
        {
            live += 1;
            let (tight, b) = (&self.boxes[id as usize], &self.fat[id as usize]);
            if !(0..D).all(|k| b.min[k] <= tight.min[k] && tight.max[k] <= b.max[k]) {
                return fail(format!("object {id}: fat box does not contain its box"));
            }
            let (lo, hi) = (self.key(&b.min), self.key(&b.max));
            if (lo, hi) != (f.lo, f.hi) {
                return fail(format!(
                    "object {id}: stored cell range differs from its box's"
                ));
            }
            let big = Self::span(&lo, &hi) > MAX_CELLS_PER_OBJECT;
            match f.oversize_slot {
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
                        let n = self.index.get(&k).map_or(0, |&at| {
                            self.cells[at as usize]
                                .ids
                                .as_slice()
                                .iter()
                                .filter(|&&x| x == id)
                                .count()
                        });
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
        if self.index.len() != self.cells.len() {
            return fail(format!(
                "{} cells but {} index entries",
                self.cells.len(),
                self.index.len()
            ));
        }
        let mut memberships: u128 = 0;
        let mut empty = 0;
        for (at, cell) in self.cells.iter().enumerate() {
            let k = &cell.key;
            if self.index.get(k) != Some(&(at as u32)) {
                return fail(format!("cell {k:?} is not indexed at its position {at}"));
            }
            let ids = cell.ids.as_slice();
            if ids.is_empty() {
                empty += 1;
                continue;
            }
            if self
                .occupied()
                .is_none_or(|(lo, hi)| !contains(&lo, &hi, k))
            {
                return fail(format!("cell {k:?} lies outside the occupied box"));
            }
            for &id in ids {
                match self.filing(id) {
                    None => return fail(format!("cell {k:?} lists removed object {id}")),
                    Some(f) if f.oversize_slot.is_some() => {
                        return fail(format!("cell {k:?} lists oversize object {id}"));
                    }
                    Some(f) if !contains(&f.lo, &f.hi, k) => {
                        return fail(format!(
                            "cell {k:?} lists object {id}, which does not cover it"
                        ));
                    }
                    Some(_) => {}
                }
            }
            memberships += ids.len() as u128;
        }
        if empty != self.empty_cells {
            return fail(format!(
                "{empty} empty cells, but {} counted",
                self.empty_cells
            ));
        }
        if memberships != expected_memberships {
            return fail(format!(
                "{memberships} cell memberships, expected {expected_memberships}"
            ));
        }
        for (slot, &id) in self.oversize.iter().enumerate() {
            if self
                .filing(id)
                .is_none_or(|f| f.oversize_slot != Some(slot))
            {
                return fail(format!(
                    "oversize list slot {slot} holds {id}, which does not point back"
                ));
            }
        }
        self.validate_pairs()
    }

    /// Checks the pair state: the move buffer and its flags agree, and, unless
    /// a rebuild is pending, the fat pair set is sorted, holds each pair once
    /// as `(smaller, larger)`, and equals the set the full cell pass finds
    /// (and, for small grids, brute force over the fat boxes) on the pairs of
    /// objects that did not move.
    fn validate_pairs(&self) -> Result<(), GridError> {
        let fail = |msg: String| Err(GridError::Invariant(msg));
        let st = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
        let flagged = st.flag.iter().filter(|&&f| f).count();
        if flagged != st.moved.len() || st.moved.iter().any(|&id| !st.flag[id as usize]) {
            return fail(format!(
                "{flagged} ids flagged as moved but {} in the move buffer",
                st.moved.len()
            ));
        }
        if st.flag.len() < self.filings.len() {
            return fail("the moved flags do not cover every id".to_string());
        }
        if st.rebuild {
            return Ok(());
        }
        if let Some(w) = st.fat.windows(2).find(|w| w[0] >= w[1]) {
            return fail(format!("fat pair set not strictly sorted at {w:?}"));
        }
        let still = |&&(a, b): &&(u32, u32)| !st.flag[a as usize] && !st.flag[b as usize];
        let kept: Vec<(u32, u32)> = st.fat.iter().filter(still).copied().collect();
        if let Some(p) = kept.iter().find(|p| p.0 >= p.1) {
            return fail(format!("fat pair {p:?} is not (smaller, larger)"));
        }
        let mut reference = Vec::new();
        self.all_fat_pairs(
            &mut reference,
            &mut Vec::new(),
            &mut Vec::new(),
            &mut Vec::new(),
        );
        if self.len <= BRUTE_VALIDATE_LIMIT {
            let live: Vec<u32> = self.iter().map(|(id, _)| id).collect();
            let mut brute = Vec::new();
            for (x, &a) in live.iter().enumerate() {
                for &b in &live[x + 1..] {
                    if self.fat[a as usize].intersects(&self.fat[b as usize]) {
                        brute.push((a, b));
                    }
                }
            }
            if brute != reference {
                return fail(format!(
                    "the cell pass finds {} fat pairs, brute force {}",
                    reference.len(),
                    brute.len()
                ));
            }
        }
        let want: Vec<(u32, u32)> = reference.iter().filter(still).copied().collect();
        if kept != want {
            let extra = kept.iter().find(|p| want.binary_search(p).is_err());
            let missing = want.iter().find(|p| kept.binary_search(p).is_err());
            return fail(format!(
                "fat pair set is stale: extra {extra:?}, missing {missing:?}"
            ));
        }
        Ok(())
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

/// Sorts pairs of ids by (first, second). Small inputs use the standard sort;
/// large ones [`radix_sort_u64`] on the packed key `first · 2³² + second`.
/// Linear time; `scratch` and `counts` are reused between calls.
fn radix_sort_pairs(pairs: &mut [(u32, u32)], scratch: &mut Vec<u64>, counts: &mut Vec<usize>) {
    let n = pairs.len();
    // Below this, clearing the 2¹⁶ counters costs more than comparing.
    if n < 1 << 13 {
        pairs.sort_unstable();
        return;
    }
    scratch.clear();
    scratch.extend(
        pairs
            .iter()
            .map(|&(a, b)| (u64::from(a) << 32) | u64::from(b)),
    );
    radix_sort_u64(scratch, n, counts);
    for (p, &k) in pairs.iter_mut().zip(scratch.iter()) {
        *p = ((k >> 32) as u32, k as u32);
    }
}

/// Sorts the first `n` numbers of `keys` by a least-significant-digit radix
/// sort, 16 bits a pass, skipping the passes whose digit is zero in every key
/// (their order is already that pass's order): ids below 2¹⁶ packed in pairs
/// need two passes. `keys` is used as the double buffer (it grows to `2n`);
/// the sorted numbers end in `keys[..n]`.
fn radix_sort_u64(keys: &mut Vec<u64>, n: usize, counts: &mut Vec<usize>) {
    keys.truncate(n);
    let used = keys.iter().fold(0u64, |m, &k| m | k);
    keys.resize(2 * n, 0);
    let (mut src, mut dst) = keys.split_at_mut(n);
    counts.resize(1 << 16, 0);
    let mut swapped = false;
    for shift in [0u32, 16, 32, 48] {
        if (used >> shift) & 0xffff == 0 {
            continue;
        }
        counts.iter_mut().for_each(|c| *c = 0);
        for &k in src.iter() {
            counts[((k >> shift) & 0xffff) as usize] += 1;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            let here = *c;
            *c = sum;
            sum += here;
        }
        for &k in src.iter() {
            let d = ((k >> shift) & 0xffff) as usize;
            dst[counts[d]] = k;
            counts[d] += 1;
        }
        core::mem::swap(&mut src, &mut dst);
        swapped = !swapped;
    }
    if swapped {
        // The result is in the second half.
        keys.copy_within(n..2 * n, 0);
    }
    keys.truncate(n);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_agrees_with_sort() {
        let mut x: u64 = 7;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [0usize, 1, 63, 64, 1000, 8192, 70_000] {
            for max in [10u64, 70_000, 1 << 31] {
                let mut v: Vec<(u32, u32)> = (0..n)
                    .map(|_| ((next() % max) as u32, (next() % max) as u32))
                    .collect();
                let mut want = v.clone();
                want.sort_unstable();
                radix_sort_pairs(&mut v, &mut Vec::new(), &mut Vec::new());
                assert_eq!(v, want, "n {n}, max {max}");
            }
        }
    }

    #[test]
    fn floor_by_truncation() {
        let g = Grid::<f64, 2>::new(0.5).unwrap();
        for (x, want) in [
            (0.0, 0),
            (0.49, 0),
            (0.5, 1),
            (-0.0, 0),
            (-0.01, -1),
            (-0.5, -1),
            (-0.51, -2),
            (1e300, COORD_LIMIT),
            (-1e300, -COORD_LIMIT),
        ] {
            assert_eq!(g.coord(x), want, "{x}");
        }
        let g = Grid::<f32, 2>::new(3.0).unwrap();
        assert_eq!(g.coord(-3.0), -1);
        assert_eq!(g.coord(-2.999), -1);
        assert_eq!(g.coord(5.999), 1);
    }
}
