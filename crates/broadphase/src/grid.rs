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
//!   cells: still correct, only slower). Space is unbounded and only occupied
//!   cells cost memory.
//! - **The cell store** (`grid/cells.rs`). Each membership (an object in a
//!   cell) is one record holding the object's id, its fat box (below) and
//!   the offsets of its range of cells from this cell; a cell's records are
//!   contiguous in one buffer, and a key finds its cell through a dense
//!   array over the box of occupied cells (a hash map outside it, or in a
//!   sparse world). So the passes over the cells read memory in sequence and
//!   look nothing up by id.
//! - **Fat boxes** (Box2D v3's enlarged AABBs, Catto 2024). An object's fat box
//!   is its box grown by the margin `m` on every side (clamped to the finite
//!   numbers; rounding is monotonic, so it always contains the box). `update`
//!   with a box still inside the fat box stores the box and does nothing
//!   else; otherwise the object is *re-filed*: its fat box is rebuilt around
//!   the new box, its records are rewritten (only the cells left and entered
//!   are created or emptied) and it goes into the *move buffer*. Insertions
//!   and removals go in the move buffer too.
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
//! - **Built lazily, rebuilt in bulk.** The cell store is built on first use
//!   (a grid filled by [`Grid::from_boxes`] or by insertions before any query
//!   pays one bulk build, a counting sort of the memberships into cells, not
//!   one filing per membership). When more than one object in
//!   `INCREMENTAL_FRACTION` has been re-filed, inserted or removed since the
//!   last `candidate_pairs` (say every object left its fat box), the store is
//!   set aside (its buffers kept for reuse): the remaining moves of the frame
//!   only store their boxes and fat boxes, and the next query
//!   rebuilds the store in bulk, which costs less than filing every moved
//!   object one cell at a time. After such a frame the store is set aside at
//!   the first re-filing (objects that all moved far are likely to again);
//!   a frame that turns out quiet only costs one bulk build, and the frame
//!   after it is incremental again.
//! - **The one-shot pass.** When every object's fat box is its box grown by
//!   the margin (no object moved inside its fat box since it was filed: the
//!   usual case after `from_boxes`, or after a frame where everything moved
//!   far), a bulk build writes the *tight* boxes in the records instead of
//!   the fat ones (the fat box is the tight one grown by the margin, so
//!   nothing is lost). While nothing changes, `candidate_pairs` then finds
//!   the pairs whose tight boxes overlap straight from the cells, sorts them
//!   and answers; the fat pair set, useful only if the next frames move
//!   little, is left to the first pass after a change, and the first change
//!   turns the records' boxes into fat boxes (one pass over the records). A
//!   one-shot build and query thus pays neither for the fat pairs nor for
//!   filtering them by id.
//! - **The margin.** [`Grid::new`] uses [`DEFAULT_MARGIN_FRACTION`] of the cell
//!   size (a tenth); [`Grid::with_margin`] takes any finite `m ≥ 0` (`0` files
//!   tight boxes: every change of a box is a move). Why a tenth: the cell size
//!   is about twice a typical object, so a tenth of a cell is a fifth of an
//!   object: it absorbs the per-frame motion of most game objects (a few
//!   percent of their size), while a fat box grows by 40 % of a typical side,
//!   which adds candidate pairs to filter (about 1.5–2× the overlapping ones
//!   in the benchmark scenes) and memberships. Objects moving farther than
//!   the margin every frame gain nothing and pay the re-filing (the
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
//!   cell of b)` per axis (the floor is monotonic): along every axis, one of
//!   the two is at its lowest cell there, which the records' offsets say
//!   (a bit test). No set of seen pairs is needed; the result is
//!   radix-sorted, so the order is deterministic. With the `rayon` feature,
//!   chunks of cells are scanned in parallel and the tight filter runs over
//!   chunks of pairs in parallel; both concatenate in order, and the pass's
//!   result is sorted, so the output is identical to the serial one.
//! - **Empty cells** are kept (an object that leaves a cell often comes back
//!   next frame: no index churn) until they are more than
//!   `COMPACT_MIN` = 64 and the majority, when the store is compacted.
//! - **Memory.** Tight boxes, fat boxes and cell ranges (the lowest cell
//!   and the extents) live in dense arrays by id; the store in its buffers.
//!   Every buffer of `candidate_pairs` is kept, so a warm serial frame
//!   allocates nothing.
//!
//! Boxes are closed: touching boxes overlap.

use std::sync::{Mutex, OnceLock};

use nalgebra::Point;
use num_traits::Float;
use shape::{BoundingBox, Real};

use crate::GridError;

mod cells;
mod ray;
mod rings;

use cells::{Cells, Member, all_axes};
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
/// (module notes, "The pair set"); past as many re-filings between two
/// queries the cell store is set aside and rebuilt in bulk.
const INCREMENTAL_FRACTION: usize = 8;

/// The store is never set aside for fewer re-filings than this.
const STALE_MIN: usize = 32;

/// `validate` compares the fat pair set with brute force up to this many
/// objects.
const BRUTE_VALIDATE_LIMIT: usize = 512;

/// Below this many cells (or pairs), the `rayon` passes run serially.
#[cfg(feature = "rayon")]
const PARALLEL_MIN: usize = 4096;

/// Cell coordinates are saturated to `±2⁶²`.
const COORD_LIMIT: i64 = 1 << 62;

type Key<const D: usize> = [i64; D];

/// Where an object is filed: the lowest cell of its range, the range's
/// extent along each axis (`hi − lo`, below 64 for an object in cells), and
/// whether it is in cells, in the oversize list (at that slot) or a free id.
#[derive(Debug, Clone, Copy)]
struct Filing<const D: usize> {
    lo: Key<D>,
    extent: [u8; D],
    slot: u32,
}

/// [`Filing::slot`] of a free id.
const FREE: u32 = u32::MAX;
/// [`Filing::slot`] of an object filed in cells.
const IN_CELLS: u32 = u32::MAX - 1;

impl<const D: usize> Filing<D> {
    const FREE_ID: Self = Self {
        lo: [0; D],
        extent: [0; D],
        slot: FREE,
    };

    /// The filing of a range `lo..=hi` in cells (fewer than 256 cells along
    /// every axis).
    #[inline]
    fn in_cells(lo: Key<D>, hi: &Key<D>) -> Self {
        Self {
            lo,
            extent: core::array::from_fn(|i| (hi[i] - lo[i]) as u8),
            slot: IN_CELLS,
        }
    }

    /// Its slot in the oversize list, if it is there.
    #[inline]
    fn oversize_slot(&self) -> Option<usize> {
        (self.slot < IN_CELLS).then_some(self.slot as usize)
    }

    /// The highest cell of the range of an object in cells.
    #[inline]
    fn hi(&self) -> Key<D> {
        core::array::from_fn(|i| self.lo[i] + i64::from(self.extent[i]))
    }
}

/// One cell's objects as a pass reads them: id, box (tight or fat), and the
/// axes along which the cell is the lowest of the object's range.
type Local<T, const D: usize> = (u32, BoundingBox<T, D>, u32);

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
    /// The move buffer: ids whose pairs must be recomputed, each once.
    moved: Vec<u32>,
    /// By id: whether the id is in `moved`.
    flag: Vec<bool>,
    /// The whole set must be rebuilt by the full cell pass.
    rebuild: bool,
    /// Re-filings, insertions and removals since the last query.
    refiled: usize,
    /// Whether the frame before the last query was a mass move (more
    /// re-filings than the threshold): then the next re-filing sets the
    /// store aside at once, expecting another.
    mass: bool,
    /// Scratch of the cell pass: one cell's objects.
    local: Vec<Local<T, D>>,
    /// Pairs packed in 64-bit keys, the radix sort's other buffer and its
    /// digit counters.
    keys: Vec<u64>,
    scratch: Vec<u64>,
    counts: Vec<u32>,
}

impl<T: Real, const D: usize> Default for PairState<T, D> {
    fn default() -> Self {
        Self {
            fat: Vec::new(),
            spare: Vec::new(),
            moved: Vec::new(),
            flag: Vec::new(),
            rebuild: false,
            refiled: 0,
            mass: false,
            local: Vec::new(),
            keys: Vec::new(),
            scratch: Vec::new(),
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
    /// By id: the tight box, the fat box (the tight box it had when last
    /// filed, grown by the margin), where it is filed.
    boxes: Vec<BoundingBox<T, D>>,
    fat: Vec<BoundingBox<T, D>>,
    filings: Vec<Filing<D>>,
    oversize: Vec<u32>,
    len: usize,
    /// Filled by [`Grid::from_boxes`] and unchanged since: every fat box is
    /// its box grown by the margin.
    bulk: bool,
    /// The cell store, built on first use and set aside after a mass move
    /// (module notes, "Built lazily, rebuilt in bulk").
    store: OnceLock<Cells<T, D>>,
    /// The buffers of a store set aside, for the next build.
    spare: Mutex<Option<Cells<T, D>>>,
    /// The fat pair set, the move buffer and the buffers of
    /// `candidate_pairs`, kept between calls so that a frame allocates nothing
    /// once warm (a lock because `candidate_pairs` takes `&self`).
    pairs: Mutex<PairState<T, D>>,
}

impl<T: Real, const D: usize> Clone for Grid<T, D> {
    fn clone(&self) -> Self {
        let store = OnceLock::new();
        if let Some(c) = self.store.get() {
            let _ = store.set(c.clone());
        }
        Self {
            cell_size: self.cell_size,
            inv_cell_size: self.inv_cell_size,
            margin: self.margin,
            default_margin: self.default_margin,
            boxes: self.boxes.clone(),
            fat: self.fat.clone(),
            filings: self.filings.clone(),
            oversize: self.oversize.clone(),
            len: self.len,
            bulk: self.bulk,
            store,
            spare: Mutex::new(None),
            // The copy rebuilds its pair set on its first query.
            pairs: Mutex::new(PairState {
                rebuild: true,
                ..PairState::default()
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

/// Whether `outer` contains `inner` (closed boxes).
#[inline]
fn holds<T: Real, const D: usize>(outer: &BoundingBox<T, D>, inner: &BoundingBox<T, D>) -> bool {
    (0..D).all(|k| outer.min[k] <= inner.min[k] && inner.max[k] <= outer.max[k])
}

/// `b` enlarged by `margin` on every side, clamped to the finite numbers
/// (see [`Grid::fatten`]).
#[inline]
fn fatten<T: Real, const D: usize>(b: &BoundingBox<T, D>, margin: T) -> BoundingBox<T, D> {
    let max = <T as Float>::max_value();
    let mut f = *b;
    for i in 0..D {
        let lo = b.min[i] - margin;
        let hi = b.max[i] + margin;
        f.min[i] = if lo < -max { -max } else { lo };
        f.max[i] = if hi > max { max } else { hi };
    }
    f
}

/// The bits a pair key gives the larger id: enough for every id below
/// `ids` (at least one).
#[inline]
fn id_bits(ids: usize) -> u32 {
    (usize::BITS - ids.saturating_sub(1).leading_zeros()).max(1)
}

/// The pair `(a, b)` as one number, `(min << shift) | max`: keys sort as
/// the pairs do.
#[inline]
fn pack(a: u32, b: u32, shift: u32) -> u64 {
    let (a, b) = if a < b { (a, b) } else { (b, a) };
    (u64::from(a) << shift) | u64::from(b)
}

#[inline]
fn unpack(k: u64, shift: u32) -> (u32, u32) {
    ((k >> shift) as u32, (k & ((1u64 << shift) - 1)) as u32)
}

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
            boxes: Vec::new(),
            fat: Vec::new(),
            filings: Vec::new(),
            oversize: Vec::new(),
            len: 0,
            bulk: false,
            store: OnceLock::new(),
            spare: Mutex::new(None),
            pairs: Mutex::new(PairState::default()),
        })
    }

    /// How far a fat box extends beyond its tight box on every side.
    #[must_use]
    pub fn margin(&self) -> T {
        self.margin
    }

    /// A grid with cells of side `cell_size` (and the margin of
    /// [`Grid::new`]) holding `boxes`, built in bulk: the boxes are stored by
    /// id and the cells are built at the first query, by a counting sort of
    /// every membership into its cell (module notes, "Built lazily, rebuilt
    /// in bulk"); the first [`candidate_pairs`](Self::candidate_pairs) then
    /// finds the overlapping pairs straight from the cells ("The one-shot
    /// pass"). The result is the grid that inserting the boxes one by one
    /// gives.
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

    /// Fills an empty grid with `items` (see [`Grid::from_boxes`]): the
    /// arrays by id only; the cell store is built at the first query.
    fn bulk_insert(
        &mut self,
        items: impl IntoIterator<Item = (u32, BoundingBox<T, D>)>,
    ) -> Result<(), GridError> {
        debug_assert!(self.is_empty());
        self.set_aside();
        let items = items.into_iter();
        let (hint, _) = items.size_hint();
        self.reserve_ids(hint);
        for (id, bounds) in items {
            if !bounds.is_valid() {
                return Err(GridError::InvalidBounds { id });
            }
            if self.filing(id).is_some() {
                return Err(GridError::DuplicateId { id });
            }
            self.make_room(id, &bounds);
            self.file(id, bounds);
            self.boxes[id as usize] = bounds;
            self.len += 1;
        }
        let n = self.filings.len();
        let st = self.pair_state();
        st.flag.resize(n.max(st.flag.len()), false);
        st.clear_moved();
        st.rebuild = true;
        self.bulk = true;
        Ok(())
    }

    /// Reserves room in the arrays by id for `n` more ids.
    fn reserve_ids(&mut self, n: usize) {
        self.filings.reserve(n);
        self.boxes.reserve(n);
        self.fat.reserve(n);
    }

    /// Grows the arrays by id to hold `id` (filling with `bounds`).
    #[inline]
    fn make_room(&mut self, id: u32, bounds: &BoundingBox<T, D>) {
        let i = id as usize;
        if i >= self.filings.len() {
            self.filings.resize(i + 1, Filing::FREE_ID);
            self.boxes.resize(i + 1, *bounds);
            self.fat.resize(i + 1, *bounds);
        }
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
        fresh.bulk_insert(items)?;
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

    /// A box holding every stored box, or `None` for an empty grid: the
    /// occupied cells' key range grown by one cell on every side, joined with
    /// the oversize objects' boxes. Possibly much larger than the exact
    /// bounds (the occupied range is tightened only by full passes); a bound
    /// for walks that would otherwise be unbounded (a shape cast with an
    /// infinite `max_toi`).
    pub(crate) fn occupied_bounds(&self) -> Option<BoundingBox<T, D>> {
        if self.len == 0 {
            return None;
        }
        let s = self.cell_size;
        let coord = |k: i64| <T as num_traits::NumCast>::from(k).unwrap_or_else(T::zero) * s;
        let mut out: Option<BoundingBox<T, D>> = self.cells().occupied().map(|(lo, hi)| {
            BoundingBox::new(
                Point::from(core::array::from_fn(|i| coord(lo[i]) - s)),
                Point::from(core::array::from_fn(|i| coord(hi[i]) + s + s)),
            )
        });
        for &o in &self.oversize {
            let b = self.boxes[o as usize];
            out = Some(match out {
                Some(u) => BoundingBox::new(u.min.inf(&b.min), u.max.sup(&b.max)),
                None => b,
            });
        }
        out
    }

    /// Every object and its box, by increasing id.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &BoundingBox<T, D>)> + '_ {
        self.filings
            .iter()
            .zip(&self.boxes)
            .enumerate()
            .filter_map(|(i, (f, b))| (f.slot != FREE).then_some((i as u32, b)))
    }

    #[inline]
    fn filing(&self, id: u32) -> Option<&Filing<D>> {
        self.filings.get(id as usize).filter(|f| f.slot != FREE)
    }

    /// The range of cells of a live object, `(lo, hi)`.
    #[inline]
    fn range(&self, id: u32, f: &Filing<D>) -> (Key<D>, Key<D>) {
        if f.slot == IN_CELLS {
            (f.lo, f.hi())
        } else {
            (f.lo, self.key(&self.fat[id as usize].max))
        }
    }

    /// The cell store, built if it is not there (module notes, "Built
    /// lazily, rebuilt in bulk").
    #[inline]
    fn cells(&self) -> &Cells<T, D> {
        self.store.get_or_init(|| self.build_cells())
    }

    /// A store built in bulk from the arrays by id, in the buffers of the
    /// last store set aside. When every object's fat box is its box grown
    /// by the margin (nothing moved inside its fat box since it was filed),
    /// the records carry the tight boxes (`Cells::tight`: "The one-shot
    /// pass"), else the fat boxes.
    #[cold]
    fn build_cells(&self) -> Cells<T, D> {
        let mut cells = self
            .spare
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .unwrap_or_default();
        let tight = self.bulk
            || self
                .filings
                .iter()
                .zip(self.boxes.iter().zip(&self.fat))
                .all(|(f, (b, fat))| f.slot != IN_CELLS || *fat == self.fatten(b));
        let source = if tight { &self.boxes } else { &self.fat };
        cells.rebuild(&self.filings, source, tight);
        cells
    }

    /// Sets the store aside (keeping its buffers) and marks the pair set for
    /// a rebuild.
    fn set_aside(&mut self) {
        if let Some(c) = self.store.take() {
            *self.spare.get_mut().unwrap_or_else(|e| e.into_inner()) = Some(c);
        }
        let st = self.pair_state();
        st.clear_moved();
        st.rebuild = true;
    }

    /// Records that `id` was re-filed, inserted or removed: the move buffer,
    /// and the store set aside past the mass-move threshold, or at once when
    /// the last frame was a mass move (module notes, "Built lazily, rebuilt
    /// in bulk").
    #[inline]
    fn moved(&mut self, id: u32) {
        let limit = self.mass_limit();
        let st = self.pair_state();
        st.mark(id);
        st.refiled += 1;
        if (st.refiled > limit || st.mass) && self.store.get().is_some() {
            self.set_aside();
        }
    }

    /// The number of re-filings between two queries past which the store is
    /// set aside.
    #[inline]
    fn mass_limit(&self) -> usize {
        (self.len / INCREMENTAL_FRACTION).max(STALE_MIN)
    }

    /// Before any change of an object: a store fresh from a bulk build is
    /// made ready for changes (`Cells::settle`).
    #[inline]
    fn touch(&mut self) {
        self.bulk = false;
        let margin = self.margin;
        if let Some(c) = self.store.get_mut() {
            if c.tight || c.csr {
                c.settle(|b| fatten(b, margin));
            }
        }
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
            // |c| < 2⁶²: the truncation fits; step down for negative
            // non-integers. `t` converts back exactly (below 2^mantissa it
            // is a small integer, above it `c` was an integer).
            let t = num_traits::ToPrimitive::to_i64(&c).unwrap_or(0);
            let back: T = num_traits::NumCast::from(t).unwrap_or(c);
            if back > c { t - 1 } else { t }
        }
    }

    #[inline]
    fn key(&self, p: &Point<T, D>) -> Key<D> {
        core::array::from_fn(|i| self.coord(p[i]))
    }

    /// The number of cells in the box of keys `lo..=hi` (`lo ≤ hi`), saturated
    /// at `u64::MAX` (keys lie within `±2⁶²`, so each width fits).
    #[inline]
    fn span(lo: &Key<D>, hi: &Key<D>) -> u128 {
        let mut n = 1u64;
        for i in 0..D {
            n = n.saturating_mul(hi[i].wrapping_sub(lo[i]) as u64 + 1);
        }
        u128::from(n)
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
        self.touch();
        self.make_room(id, &bounds);
        self.len += 1;
        self.moved(id);
        self.file(id, bounds);
        self.boxes[id as usize] = bounds;
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
        fatten(b, self.margin)
    }

    /// The fat box of a record of `cells` (which carries the tight box while
    /// the store is fresh from a bulk build, the fat box otherwise).
    #[inline]
    pub(crate) fn record_fat(&self, cells: &Cells<T, D>, m: &Member<T, D>) -> BoundingBox<T, D> {
        if cells.tight {
            self.fatten(&m.bx)
        } else {
            m.bx
        }
    }

    /// Files `id` with box `bounds`: the fat box, the cell range, and the
    /// cells of the store if it is built (or the oversize list). The store
    /// carries fat boxes (callers `touch` first).
    fn file(&mut self, id: u32, bounds: BoundingBox<T, D>) {
        let i = id as usize;
        let fat = self.fatten(&bounds);
        let (lo, hi) = (self.key(&fat.min), self.key(&fat.max));
        self.filings[i] = if Self::span(&lo, &hi) > MAX_CELLS_PER_OBJECT {
            self.oversize.push(id);
            Filing {
                lo,
                extent: [0; D],
                slot: (self.oversize.len() - 1) as u32,
            }
        } else {
            if let Some(cells) = self.store.get_mut() {
                for_each_cell(&lo, &hi, |k| {
                    cells.enter(k, Member::new(id, &k, &lo, &hi, fat));
                });
            }
            Filing::in_cells(lo, &hi)
        };
        self.fat[i] = fat;
    }

    /// Takes `id` out of its cells (if the store is built) or the oversize
    /// list.
    fn unfile(&mut self, id: u32, filing: &Filing<D>) {
        if let Some(slot) = filing.oversize_slot() {
            self.oversize.swap_remove(slot);
            if let Some(&moved) = self.oversize.get(slot) {
                if let Some(f) = self.filings.get_mut(moved as usize) {
                    f.slot = slot as u32;
                }
            }
        } else if let Some(cells) = self.store.get_mut() {
            for_each_cell(&filing.lo, &filing.hi(), |k| cells.leave(&k, id));
        }
    }

    /// Moves object `id` to a new bounding box. Inside its fat box this is a
    /// box copy; otherwise the object is re-filed with the new box (module
    /// notes, "Fat boxes"), and goes into the move buffer (while the cell
    /// store is set aside after a mass move, re-filing costs a few box
    /// copies; "Built lazily, rebuilt in bulk").
    ///
    /// # Errors
    /// [`GridError::InvalidBounds`], [`GridError::UnknownId`]; the grid is
    /// unchanged on error.
    pub fn update(&mut self, id: u32, bounds: BoundingBox<T, D>) -> Result<(), GridError> {
        if !bounds.is_valid() {
            return Err(GridError::InvalidBounds { id });
        }
        if self.filing(id).is_none() {
            return Err(GridError::UnknownId { id });
        }
        self.touch();
        self.move_to(id, bounds);
        Ok(())
    }

    /// Moves many objects: as [`update`](Self::update) for each `(id, box)`
    /// in order (an id listed twice ends with its last box), but all or
    /// nothing, and with the per-call work (the store's settling) done once.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use broadphase::{Grid, GridError};
    /// use shape::BoundingBox2;
    ///
    /// let b = |x0: f32, y0: f32| BoundingBox2::new(Point2::new(x0, y0), Point2::new(x0 + 1.0, y0 + 1.0));
    /// let mut grid = Grid::from_boxes(1.0, [(0, b(0.0, 0.0)), (1, b(5.0, 0.0))]).unwrap();
    /// grid.update_many(&[(0, b(0.5, 0.0)), (1, b(1.2, 0.5))]).unwrap();
    /// let mut pairs = Vec::new();
    /// grid.candidate_pairs(&mut pairs);
    /// assert_eq!(pairs, vec![(0, 1)]);
    /// // An unknown id anywhere: nothing moves.
    /// assert_eq!(grid.update_many(&[(0, b(9.0, 9.0)), (7, b(0.0, 0.0))]), Err(GridError::UnknownId { id: 7 }));
    /// assert_eq!(grid.bounds(0), Some(&b(0.5, 0.0)));
    /// ```
    ///
    /// # Errors
    /// The first pair's error in order ([`GridError::InvalidBounds`],
    /// [`GridError::UnknownId`]); the grid is unchanged on error.
    pub fn update_many(&mut self, moves: &[(u32, BoundingBox<T, D>)]) -> Result<(), GridError> {
        for &(id, bounds) in moves {
            if !bounds.is_valid() {
                return Err(GridError::InvalidBounds { id });
            }
            if self.filing(id).is_none() {
                return Err(GridError::UnknownId { id });
            }
        }
        self.move_all(moves.iter().copied());
        Ok(())
    }

    /// [`update_many`](Self::update_many) for moves already checked (valid
    /// boxes of live ids: the World's set_poses checks its handles and
    /// boxes first); a pair that is not is skipped.
    pub(crate) fn move_all(&mut self, moves: impl IntoIterator<Item = (u32, BoundingBox<T, D>)>) {
        let mut moves = moves.into_iter().peekable();
        if moves.peek().is_none() {
            return;
        }
        self.touch();
        for (id, bounds) in moves {
            if bounds.is_valid() {
                self.move_to(id, bounds);
            }
        }
    }

    /// [`move_all`](Self::move_all) on all cores, for `n` checked moves
    /// whose ids strictly increase (`id(k)`, `bounds(k)`; a move without a
    /// box is skipped): the boxes are written and tested against their fat
    /// boxes in parallel (each id is written once, by the piece that owns
    /// it); the few objects that left their fat boxes are then re-filed one
    /// by one in order, as `move_all` would (re-filing reads and writes only
    /// the object's own box, fat box and filing, and the shared store and
    /// lists in that same order). `left` is a scratch buffer.
    #[cfg(feature = "rayon")]
    pub(crate) fn move_sorted(
        &mut self,
        n: usize,
        id: &(impl Fn(usize) -> u32 + Sync),
        bounds: &(impl Fn(usize) -> Option<BoundingBox<T, D>> + Sync),
        left: &mut Vec<bool>,
    ) {
        if n == 0 {
            return;
        }
        self.touch();
        left.clear();
        left.resize(n, false);
        let (fat, filings) = (&self.fat, &self.filings);
        crate::sorted::for_each_sorted(
            (&mut self.boxes, 0),
            (0..n, left),
            &|k| id(k) as usize,
            &|k, b, l| {
                let i = id(k) as usize;
                if let Some(new) =
                    bounds(k).filter(|_| filings.get(i).is_some_and(|f| f.slot != FREE))
                {
                    *b = new;
                    *l = !fat.get(i).is_some_and(|f| holds(f, &new));
                }
            },
        );
        for (k, _) in left.iter().enumerate().filter(|(_, l)| **l) {
            let i = id(k);
            if let (Some(old), Some(new)) = (self.filing(i).copied(), bounds(k)) {
                self.refile(i, old, new);
            }
        }
    }

    /// The body of [`update`](Self::update) after its checks and the
    /// store's settling: the box copy, and the re-filing when the box left
    /// its fat box. Nothing for an id that is not live.
    #[inline]
    fn move_to(&mut self, id: u32, bounds: BoundingBox<T, D>) {
        let Some(old) = self.filing(id).copied() else {
            return;
        };
        let i = id as usize;
        self.boxes[i] = bounds;
        if holds(&self.fat[i], &bounds) {
            // Still inside its fat box: nothing else changes.
            return;
        }
        self.refile(id, old, bounds);
    }

    /// Re-files object `id` (filed as `old`) with its new box `bounds`,
    /// which left its fat box.
    #[inline(never)]
    fn refile(&mut self, id: u32, old: Filing<D>, bounds: BoundingBox<T, D>) {
        let i = id as usize;
        self.moved(id);
        let fat = self.fatten(&bounds);
        let (lo, hi) = (self.key(&fat.min), self.key(&fat.max));
        let in_cells = Self::span(&lo, &hi) <= MAX_CELLS_PER_OBJECT;
        match self.store.get_mut() {
            Some(cells) if old.slot == IN_CELLS && in_cells => {
                // Leave the cells of the old range that are not in the new
                // one; rewrite the records of the cells kept; enter the new.
                let (olo, ohi) = (old.lo, old.hi());
                for_each_cell(&olo, &ohi, |k| {
                    if !contains(&lo, &hi, &k) {
                        cells.leave(&k, id);
                    }
                });
                for_each_cell(&lo, &hi, |k| {
                    let m = Member::new(id, &k, &lo, &hi, fat);
                    if contains(&olo, &ohi, &k) {
                        cells.rewrite(&k, m);
                    } else {
                        cells.enter(k, m);
                    }
                });
                self.filings[i] = Filing::in_cells(lo, &hi);
                self.fat[i] = fat;
            }
            _ => {
                self.unfile(id, &old);
                self.file(id, bounds);
            }
        }
    }

    /// Removes object `id` and returns its box.
    ///
    /// # Errors
    /// [`GridError::UnknownId`]; the grid is unchanged on error.
    pub fn remove(&mut self, id: u32) -> Result<BoundingBox<T, D>, GridError> {
        let Some(old) = self.filing(id).copied() else {
            return Err(GridError::UnknownId { id });
        };
        let i = id as usize;
        self.touch();
        self.unfile(id, &old);
        self.filings[i] = Filing::FREE_ID;
        self.len -= 1;
        self.moved(id);
        Ok(self.boxes[i])
    }

    /// Every pair of objects whose boxes overlap (touching counts), each once as
    /// `(smaller id, larger id)`, sorted. `out` is cleared first; reusing it
    /// across frames avoids allocation.
    ///
    /// The persistent set of fat-box pairs is brought up to date first: from
    /// the moved objects alone when few moved, by a pass over every cell
    /// otherwise; the answer is that set filtered by the tight boxes. Right
    /// after a bulk build (module notes, "The one-shot pass") the pass finds
    /// the tight pairs directly.
    pub fn candidate_pairs(&self, out: &mut Vec<(u32, u32)>) {
        out.clear();
        let cells = self.cells();
        let mut guard = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
        let st = &mut *guard;
        let shift = id_bits(self.filings.len());
        st.mass = st.refiled > self.mass_limit();
        st.refiled = 0;
        if st.rebuild || st.moved.len() > self.len / INCREMENTAL_FRACTION {
            if cells.tight {
                // The records carry the tight boxes: answer from them; the
                // fat set waits for the first pass after a change.
                self.full_pass(cells, st, true, shift);
                out.extend(st.keys.iter().map(|&k| unpack(k, shift)));
                st.clear_moved();
                st.rebuild = true;
                return;
            }
            self.full_pass(cells, st, false, shift);
            st.fat.clear();
            st.fat.extend(st.keys.iter().map(|&k| unpack(k, shift)));
        } else if !st.moved.is_empty() {
            self.incremental_pass(cells, st, shift);
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

    /// Every pair over every cell and the oversize list into `st.keys`,
    /// packed and sorted: the pairs whose tight boxes overlap (`tight`, when
    /// the records carry the tight boxes) or whose fat boxes do. The fat
    /// pass tightens the occupied box (the tight one comes right after a
    /// bulk build, which set it exactly).
    fn full_pass(&self, cells: &Cells<T, D>, st: &mut PairState<T, D>, tight: bool, shift: u32) {
        let PairState {
            local,
            keys,
            scratch,
            counts,
            ..
        } = st;
        keys.clear();
        // About one pair per object in a game scene: grow once at most.
        keys.reserve(self.len);
        let (lo, hi) = self.cell_pairs(cells, tight, shift, keys, local);
        for &o in &self.oversize {
            // Two oversize objects: report from the smaller id only.
            let skip =
                |b: u32| b < o && self.filing(b).is_some_and(|f| f.oversize_slot().is_some());
            self.oversize_pairs(cells, o, skip, tight, &mut |a, b| {
                keys.push(pack(a, b, shift));
            });
        }
        radix_sort(keys, scratch, counts);
        if !tight {
            cells.tighten_occupied(&lo, &hi);
        }
    }

    /// Every fat pair, sorted (for `validate`).
    fn fat_pairs_reference(&self, cells: &Cells<T, D>) -> Vec<(u32, u32)> {
        let mut st = PairState::default();
        let shift = id_bits(self.filings.len());
        self.full_pass(cells, &mut st, false, shift);
        st.keys.iter().map(|&k| unpack(k, shift)).collect()
    }

    /// Calls `out` with the pairs of oversize object `o` with every object
    /// `b` but `o` and those `skip(b)` refuses, each once, whose fat boxes
    /// overlap (tight boxes if `tight`): the other oversize objects by box;
    /// the filed ones through the cells of `o`'s range when it has no more
    /// cells than the grid (reported from the owning cell, as in the cell
    /// pass), else by a scan of every object.
    fn oversize_pairs(
        &self,
        cells: &Cells<T, D>,
        o: u32,
        skip: impl Fn(u32) -> bool,
        tight: bool,
        out: &mut impl FnMut(u32, u32),
    ) {
        let Some(fo) = self.filing(o).copied() else {
            return;
        };
        let (olo, ohi) = self.range(o, &fo);
        let by_id = |b: u32| {
            if tight {
                &self.boxes[b as usize]
            } else {
                &self.fat[b as usize]
            }
        };
        let big = *by_id(o);
        for &b in &self.oversize {
            if b != o && !skip(b) && big.intersects(by_id(b)) {
                out(o, b);
            }
        }
        let all = all_axes::<D>();
        if Self::span(&olo, &ohi) <= cells.count() as u128 {
            for_each_cell(&olo, &ohi, |k| {
                let Some(ms) = cells.get(&k) else {
                    return;
                };
                let firsts = firsts_of(&k, &olo);
                for m in ms {
                    if !skip(m.id) && firsts | m.firsts() == all {
                        let b = if tight {
                            m.bx
                        } else {
                            self.record_fat(cells, m)
                        };
                        if big.intersects(&b) {
                            out(o, m.id);
                        }
                    }
                }
            });
        } else {
            for (b, f) in self.filings.iter().enumerate() {
                let b = b as u32;
                if f.slot == IN_CELLS && !skip(b) && big.intersects(by_id(b)) {
                    out(o, b);
                }
            }
        }
    }

    /// Pushes the pairs found in the cells (each once, by the owning cell)
    /// to `keys`; returns the bounds of the occupied cells.
    #[cfg(not(feature = "rayon"))]
    fn cell_pairs(
        &self,
        cells: &Cells<T, D>,
        tight: bool,
        shift: u32,
        keys: &mut Vec<u64>,
        local: &mut Vec<Local<T, D>>,
    ) -> (Key<D>, Key<D>) {
        self.cells_pairs_serial(cells, 0..cells.slots(), tight, shift, keys, local)
    }

    /// Pushes the pairs found in the cells (each once, by the owning cell)
    /// to `keys`, chunks of cells in parallel; returns the bounds of the
    /// occupied cells. The order differs from the serial pass, but the set
    /// is the same and is sorted afterwards.
    #[cfg(feature = "rayon")]
    fn cell_pairs(
        &self,
        cells: &Cells<T, D>,
        tight: bool,
        shift: u32,
        keys: &mut Vec<u64>,
        local: &mut Vec<Local<T, D>>,
    ) -> (Key<D>, Key<D>) {
        use rayon::prelude::*;
        let slots = cells.slots();
        if slots < PARALLEL_MIN {
            return self.cells_pairs_serial(cells, 0..slots, tight, shift, keys, local);
        }
        let chunk = slots.div_ceil(4 * rayon::current_num_threads());
        /// One chunk's pairs and the bounds of its cells.
        type Part<const D: usize> = (Vec<u64>, Key<D>, Key<D>);
        let parts: Vec<Part<D>> = (0..slots.div_ceil(chunk))
            .into_par_iter()
            .map(|p| {
                let mut v = Vec::new();
                let part = p * chunk..((p + 1) * chunk).min(slots);
                let (lo, hi) =
                    self.cells_pairs_serial(cells, part, tight, shift, &mut v, &mut Vec::new());
                (v, lo, hi)
            })
            .collect();
        let (mut lo, mut hi) = ([i64::MAX; D], [i64::MIN; D]);
        keys.reserve(parts.iter().map(|p| p.0.len()).sum());
        for (v, l, h) in parts {
            keys.extend_from_slice(&v);
            for i in 0..D {
                lo[i] = lo[i].min(l[i]);
                hi[i] = hi[i].max(h[i]);
            }
        }
        (lo, hi)
    }

    /// The cell pass over the slots `part` of `cells`: pushes each pair it
    /// owns to `keys`; returns the bounds of the non-empty cells' keys.
    fn cells_pairs_serial(
        &self,
        cells: &Cells<T, D>,
        part: core::ops::Range<usize>,
        tight: bool,
        shift: u32,
        keys: &mut Vec<u64>,
        local: &mut Vec<Local<T, D>>,
    ) -> (Key<D>, Key<D>) {
        let all = all_axes::<D>();
        let (mut lo, mut hi) = ([i64::MAX; D], [i64::MIN; D]);
        if tight {
            // The records carry the tight boxes: read them as they lie. (The
            // store was just built in bulk, so the occupied box is exact.)
            cells.each_run_in(part, |ms| {
                for (x, a) in ms.iter().enumerate() {
                    for b in &ms[x + 1..] {
                        if a.bx.intersects(&b.bx) && a.owns_with(b) {
                            keys.push(pack(a.id, b.id, shift));
                        }
                    }
                }
            });
            return (lo, hi);
        }
        cells.each_in(part, |key, ms| {
            for i in 0..D {
                lo[i] = lo[i].min(key[i]);
                hi[i] = hi[i].max(key[i]);
            }
            if ms.len() < 2 {
                return;
            }
            local.clear();
            local.extend(
                ms.iter()
                    .map(|m| (m.id, self.record_fat(cells, m), m.firsts())),
            );
            for (x, (i, a, fa)) in local.iter().enumerate() {
                for (j, b, fb) in &local[x + 1..] {
                    if a.intersects(b) && fa | fb == all {
                        keys.push(pack(*i, *j, shift));
                    }
                }
            }
        });
        (lo, hi)
    }

    /// Brings the fat pair set up to date from the move buffer alone: drops
    /// every pair of a moved object, finds the moved objects' fat pairs now
    /// (a pair of two moved objects from the smaller id only), and merges the
    /// two sorted lists.
    fn incremental_pass(&self, cells: &Cells<T, D>, st: &mut PairState<T, D>, shift: u32) {
        let PairState {
            fat,
            spare,
            moved,
            flag,
            keys,
            scratch,
            counts,
            ..
        } = st;
        keys.clear();
        for &a in moved.iter() {
            self.fat_pairs_of(cells, a, flag, &mut |x, y| keys.push(pack(x, y, shift)));
        }
        radix_sort(keys, scratch, counts);
        spare.clear();
        spare.reserve(fat.len() + keys.len());
        let mut new = keys.iter().map(|&k| unpack(k, shift)).peekable();
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

    /// Calls `out` with the fat pairs of object `a` (if it is still stored),
    /// each once, leaving out those with a moved object of smaller id.
    fn fat_pairs_of(
        &self,
        cells: &Cells<T, D>,
        a: u32,
        flag: &[bool],
        out: &mut impl FnMut(u32, u32),
    ) {
        let Some(fa) = self.filing(a).copied() else {
            return;
        };
        let boxa = &self.fat[a as usize];
        let skip = |b: u32| b == a || (b < a && flag.get(b as usize).copied().unwrap_or(false));
        if fa.slot != IN_CELLS {
            self.oversize_pairs(cells, a, skip, false, out);
            return;
        }
        let all = all_axes::<D>();
        for_each_cell(&fa.lo, &fa.hi(), |k| {
            let Some(ms) = cells.get(&k) else {
                return;
            };
            let firsts = firsts_of(&k, &fa.lo);
            for m in ms {
                if !skip(m.id)
                    && firsts | m.firsts() == all
                    && boxa.intersects(&self.record_fat(cells, m))
                {
                    out(a, m.id);
                }
            }
        });
        for &o in &self.oversize {
            if !skip(o) && boxa.intersects(&self.fat[o as usize]) {
                out(a, o);
            }
        }
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
        let cells = self.cells();
        let (lo, hi) = (self.key(&region.min), self.key(&region.max));
        if Self::span(&lo, &hi) > (cells.count() as u128).max(MAX_CELLS_PER_OBJECT) {
            // A region wider than the occupied space: scan the objects.
            out.extend(
                self.iter()
                    .filter(|(_, b)| b.intersects(region))
                    .map(|(id, _)| id),
            );
            return;
        }
        for_each_cell(&lo, &hi, |k| {
            if let Some(ms) = cells.get(&k) {
                out.extend(
                    ms.iter()
                        .map(|m| m.id)
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
        let cells = self.cells();
        let mut max_per_cell = 0;
        cells.each(|_, ms| max_per_cell = max_per_cell.max(ms.len()));
        GridStats {
            objects: self.len,
            cells: cells.occupied_count(),
            oversize: self.oversize.len(),
            max_per_cell,
            memberships: cells.memberships(),
        }
    }

    /// Checks the grid's invariants: every fat box contains its tight box,
    /// every object is in exactly the cells its fat box covers (or in the
    /// oversize list, and in no cell) with records giving its range and its
    /// fat box (its tight box while the store is fresh from a bulk build),
    /// the cell store is consistent (index, runs, counts of empty cells and
    /// garbage, the occupied box), and the persistent fat pair set is
    /// correct for every object that has not moved since the last
    /// [`candidate_pairs`](Self::candidate_pairs). Builds the cell store if
    /// it was set aside.
    ///
    /// # Errors
    /// [`GridError::Invariant`] describing the first violation found.
    pub fn validate(&self) -> Result<(), GridError> {
        let fail = |msg: String| Err(GridError::Invariant(msg));
        let cells = self.cells();
        cells.validate().map_err(GridError::Invariant)?;
        let mut live = 0;
        let mut expected_memberships: u128 = 0;
        for (id, f) in self.filings.iter().enumerate() {
            if f.slot == FREE {
                continue;
            }
            let id = id as u32;
            live += 1;
            let i = id as usize;
            let (tight, b) = (&self.boxes[i], &self.fat[i]);
            if !holds(b, tight) {
                return fail(format!("object {id}: fat box does not contain its box"));
            }
            if cells.tight && f.slot == IN_CELLS && *b != self.fatten(tight) {
                return fail(format!(
                    "object {id}: records carry tight boxes but its fat box is not its box grown by the margin"
                ));
            }
            let (lo, hi) = (self.key(&b.min), self.key(&b.max));
            if (lo, hi) != self.range(id, f) || f.lo != lo {
                return fail(format!(
                    "object {id}: stored cell range differs from its box's"
                ));
            }
            let big = Self::span(&lo, &hi) > MAX_CELLS_PER_OBJECT;
            match f.oversize_slot() {
                Some(slot) if !big || self.oversize.get(slot) != Some(&id) => {
                    return fail(format!("object {id}: oversize slot {slot} is wrong"));
                }
                None if big => {
                    return fail(format!(
                        "object {id}: covers too many cells but is not oversize"
                    ));
                }
                None => {
                    let want = if cells.tight { tight } else { b };
                    let mut wrong = None;
                    for_each_cell(&lo, &hi, |k| {
                        let ms = cells.get(&k).unwrap_or(&[]);
                        let mine: Vec<&Member<T, D>> = ms.iter().filter(|m| m.id == id).collect();
                        let ok = mine.len() == 1
                            && mine[0].lo(&k) == lo
                            && mine[0].hi(&k) == hi
                            && mine[0].bx == *want;
                        if !ok && wrong.is_none() {
                            wrong = Some((k, mine.len()));
                        }
                    });
                    if let Some((k, n)) = wrong {
                        return fail(format!(
                            "object {id}: {n} records in cell {k:?}, or a wrong record"
                        ));
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
        let mut stray = None;
        cells.each(|k, ms| {
            for m in ms {
                let wrong = match self.filing(m.id) {
                    None => Some("removed"),
                    Some(f) if f.slot != IN_CELLS => Some("oversize"),
                    Some(f) if !contains(&f.lo, &f.hi(), k) => Some("not covering"),
                    Some(_) => None,
                };
                if let (Some(why), None) = (wrong, stray) {
                    stray = Some((*k, m.id, why));
                }
            }
            memberships += ms.len() as u128;
        });
        if let Some((k, id, why)) = stray {
            return fail(format!("cell {k:?} lists object {id} ({why})"));
        }
        if memberships != expected_memberships {
            return fail(format!(
                "{memberships} cell memberships, expected {expected_memberships}"
            ));
        }
        for (slot, &id) in self.oversize.iter().enumerate() {
            if self
                .filing(id)
                .is_none_or(|f| f.oversize_slot() != Some(slot))
            {
                return fail(format!(
                    "oversize list slot {slot} holds {id}, which does not point back"
                ));
            }
        }
        self.validate_pairs(cells)
    }

    /// Checks the pair state: the move buffer and its flags agree, and, unless
    /// a rebuild is pending, the fat pair set is sorted, holds each pair once
    /// as `(smaller, larger)`, and equals the set the full cell pass finds
    /// (and, for small grids, brute force over the fat boxes) on the pairs of
    /// objects that did not move.
    fn validate_pairs(&self, cells: &Cells<T, D>) -> Result<(), GridError> {
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
        let reference = self.fat_pairs_reference(cells);
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

/// The axes along which cell `k` is the lowest of a range starting at `lo`
/// (bit `i` set when `k[i] == lo[i]`).
#[inline]
fn firsts_of<const D: usize>(k: &Key<D>, lo: &Key<D>) -> u32 {
    let mut m = 0;
    for i in 0..D {
        if k[i] == lo[i] {
            m |= 1 << i;
        }
    }
    m
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

/// Below this many keys, [`radix_sort`] compares instead.
const RADIX_MIN: usize = 256;

/// The widest digit of [`radix_sort`] on few keys, in bits (wider digits,
/// up to 16 bits, when there are keys enough to pay for the counters).
const RADIX_DIGIT_MAX: u32 = 11;

/// Sorts `keys` by a least-significant-digit radix sort over the bits in
/// which they differ (the others do not change the order): as few passes
/// as cover them with digits of at most [`RADIX_DIGIT_MAX`] bits, or up to
/// 16 bits while the digit's counters number at most half the keys (pairs
/// of ids below 2²⁰ packed by [`pack`] take three or four passes, below
/// 2¹⁰ two). Linear time; each pass is stable, so the passes compose.
/// `scratch` (the other buffer, swapped with `keys` after each pass) and
/// `counts` are reused between calls.
fn radix_sort(keys: &mut Vec<u64>, scratch: &mut Vec<u64>, counts: &mut Vec<u32>) {
    let n = keys.len();
    if n < RADIX_MIN {
        keys.sort_unstable();
        return;
    }
    let (mut or, mut and) = (0u64, u64::MAX);
    for &k in keys.iter() {
        or |= k;
        and &= k;
    }
    let varying = or ^ and;
    if varying == 0 {
        return;
    }
    let low = varying.trailing_zeros();
    let bits = 64 - varying.leading_zeros() - low;
    // The fewest passes whose digits stay within the widest digit and whose
    // counters cost less than a pass over the keys.
    let mut passes = bits.div_ceil(RADIX_DIGIT_MAX);
    while passes > 1
        && bits.div_ceil(passes - 1) <= 16
        && 1usize << bits.div_ceil(passes - 1) <= n / 2
    {
        passes -= 1;
    }
    let digit = bits.div_ceil(passes);
    let mask = (1u64 << digit) - 1;
    scratch.clear();
    scratch.resize(n, 0);
    counts.clear();
    counts.resize(1 << digit, 0);
    for p in 0..passes {
        let shift = low + p * digit;
        counts.iter_mut().for_each(|c| *c = 0);
        for &k in keys.iter() {
            counts[((k >> shift) & mask) as usize] += 1;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            let here = *c;
            *c = sum;
            sum += here;
        }
        for &k in keys.iter() {
            let d = ((k >> shift) & mask) as usize;
            scratch[counts[d] as usize] = k;
            counts[d] += 1;
        }
        core::mem::swap(keys, scratch);
    }
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
        let (mut scratch, mut counts) = (Vec::new(), Vec::new());
        for n in [0usize, 1, 63, 255, 256, 1000, 8192, 70_000] {
            for max in [1u64, 10, 70_000, 1 << 31, u64::MAX] {
                for shift in [1u32, 17, 32] {
                    let mut v: Vec<u64> = (0..n)
                        .map(|_| {
                            let (a, b) = ((next() % max) as u32, (next() % max) as u32);
                            let b = if shift < 32 {
                                b & ((1 << shift) - 1)
                            } else {
                                b
                            };
                            (u64::from(a) << shift) | u64::from(b)
                        })
                        .collect();
                    let mut want = v.clone();
                    want.sort_unstable();
                    radix_sort(&mut v, &mut scratch, &mut counts);
                    assert_eq!(v, want, "n {n}, max {max}, shift {shift}");
                }
            }
            // Arbitrary 64-bit keys.
            let mut v: Vec<u64> = (0..n).map(|_| next()).collect();
            let mut want = v.clone();
            want.sort_unstable();
            radix_sort(&mut v, &mut scratch, &mut counts);
            assert_eq!(v, want, "n {n}, any keys");
        }
    }

    #[test]
    fn pack_orders_as_pairs() {
        for ids in [1usize, 2, 3, 1000, 1 << 20, 1 << 32] {
            let shift = id_bits(ids);
            let top = (ids - 1) as u32;
            let pairs = [(0, 1), (0, top), (1, 0), (top / 2, top), (top, top / 3)];
            for &(a, b) in &pairs {
                if a == b || a.max(b) > top {
                    continue;
                }
                let k = pack(a, b, shift);
                assert_eq!(unpack(k, shift), (a.min(b), a.max(b)));
            }
            let mut keyed: Vec<(u64, (u32, u32))> = pairs
                .iter()
                .filter(|(a, b)| a != b && a.max(b) <= &top)
                .map(|&(a, b)| (pack(a, b, shift), (a.min(b), a.max(b))))
                .collect();
            keyed.sort_unstable();
            assert!(keyed.windows(2).all(|w| w[0].1 <= w[1].1), "{ids}");
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
