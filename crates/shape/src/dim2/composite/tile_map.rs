//! A tile map: a grid of solid tiles as one static shape.
//!
//! **Frame**: the map's bottom-left corner is the local origin; tile
//! `(col, row)`, row counted from the bottom, covers
//! `[col·w, (col+1)·w] × [row·h, (row+1)·h]` for a tile size `(w, h)`. Its
//! part id is `row · width + col`; the part is one shared
//! [`Aabb`](crate::Aabb) of half extents `(w/2, h/2)` placed at the tile's
//! centre `((col + ½)·w, (row + ½)·h)` (exact when `w`, `h` are
//! representable and the indices small: `col + ½` is exact, the product is
//! one rounding). Like its parts, the map stays axis-aligned: its
//! [`effective_pose`](crate::Shape::effective_pose) drops the pose's
//! rotation, and every query here ignores it, so the parts, the map's box
//! and its queries all describe the same set.
//!
//! **Admissible normals**: a tile's face is *exposed* when the neighbouring
//! tile across it is empty or outside the map; only exposed faces are on the
//! map's boundary. Going counter-clockwise (right, up, left, down), each run
//! of consecutive exposed faces is one arc, from the first face's normal to
//! the last's: a corner tile admits the cone of its corner, a tile in the
//! middle of a floor only "up". All four exposed (a lone tile) admits every
//! direction (`None`); none (an inner tile) admits nothing (an empty slice).
//! The 16 patterns are computed once per map.
//!
//! **Finding parts**: index arithmetic, no tree: the columns and rows under
//! a region (one more on each side against rounding), each tile's own box
//! tested.
//!
//! **Ray cast** (Amanatides and Woo's grid walk): the ray is clipped to the
//! map's box (grown by half a tile), and the cells it crosses are visited in
//! order of their entry times, each computed from the ray's origin and the
//! cell boundary's index (`(k·w − o)/d`, no accumulated error). At a corner
//! (the two next crossing times equal up to a relative `8 ε`) both side cells
//! are visited before the diagonal one, so a ray through a corner touches
//! the tiles there (closed sets). Each solid cell met is cast exactly by its
//! own part's ray cast; the walk stops once it is past the best hit, and the
//! first solid cell's 3 × 3 neighbourhood, and the start cell's, are cast
//! too, so that rounding in the choice of cells never changes the answer:
//! the least time over the tiles (ties to the lower id), as a loop over
//! every tile would find. A ray starting in a solid tile hits at time 0
//! (solid); a hollow cast from inside walks on to the last solid cell before
//! an empty one and reports where the ray leaves it.
//!
//! **Projection**: a point in a solid tile (closed) is inside; otherwise, or
//! hollow, the nearest point of the tiles (of the exposed faces, hollow
//! inside), searched in square rings about the point's cell, stopping when
//! the ring's distance exceeds the best found (projecting onto the map's box
//! first moves no point farther from any tile).
//!
//! Reference: J. Amanatides and A. Woo, "A fast voxel traversal algorithm
//! for ray tracing", Eurographics 1987.

use alloc::vec::Vec;
use core::ops::ControlFlow;

use nalgebra::{Isometry2, Point2, Translation2, Unit, UnitComplex, Vector2};
use num_traits::Float;

use super::{Composite, NormalArc, Part};
use crate::dim2::check_positive_vector;
use crate::single::within;
use crate::{
    Aabb, BoundingBox2, Convex, PointProjection, PointQuery, Ray, RayCast, RayHit, Real, Shape,
    ShapeError, ShapeRef,
};

/// The best hit so far and its tile.
type Best<T> = Option<(u32, RayHit<T>)>;

/// A grid of solid tiles (module notes for the frame and the conventions).
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use shape::prelude::*;
/// use shape::dim2::composite::Composite;
/// // Rows top to bottom, as in a text file.
/// let map = TileMap::from_rows(Vector2::new(1.0, 1.0), &[
///     [false, false, true],
///     [true, true, true],
/// ]).unwrap();
/// assert!(map.is_solid(0, 0) && !map.is_solid(0, 1) && map.is_solid(2, 1));
/// // The middle of the floor admits only "up".
/// let middle = map.part(1).unwrap();
/// assert!(middle.admits(&Vector2::new(0.0, 1.0)));
/// assert!(!middle.admits(&Vector2::new(1.0, 0.0)));
/// // A ray down onto the floor.
/// let ray = Ray::new(Point2::new(1.5, 5.0), Vector2::new(0.0, -1.0));
/// let (id, hit) = map.cast_ray_part(&Isometry2::identity(), &ray, 100.0, true).unwrap();
/// assert_eq!((id, hit.toi), (1, 4.0));
/// ```
#[derive(Debug, Clone)]
pub struct TileMap<T: Real> {
    tile_size: Vector2<T>,
    width: usize,
    height: usize,
    /// Tile ids, bottom row first (0 = empty).
    ids: Vec<u32>,
    /// Each tile's exposure mask (right 1, up 2, left 4, down 8).
    masks: Vec<u8>,
    tile: Aabb<T>,
    arcs: Vec<NormalArc<T>>,
    /// `None`: every direction; else a range of `arcs`.
    patterns: [Option<(u8, u8)>; 16],
    /// The solid tiles' columns and rows: `(min col, min row, max col, max row)`.
    extent: (usize, usize, usize, usize),
}

impl<T: Real> TileMap<T> {
    /// The map whose rows are given **top to bottom** (as a map reads in a
    /// text file), `true` for a solid tile (its id is 1).
    ///
    /// # Errors
    /// As [`TileMap::from_ids`]; [`ShapeError::RaggedRow`] names the first
    /// row (counted from the top) whose length differs from the first row's.
    pub fn from_rows(
        tile_size: Vector2<T>,
        rows: &[impl AsRef<[bool]>],
    ) -> Result<Self, ShapeError> {
        let width = rows.first().map_or(0, |r| r.as_ref().len());
        if width == 0 {
            return Err(ShapeError::EmptyMap);
        }
        let mut ids = Vec::with_capacity(width * rows.len());
        for (row, r) in rows.iter().enumerate() {
            let r = r.as_ref();
            if r.len() != width {
                return Err(ShapeError::RaggedRow {
                    row,
                    len: r.len(),
                    expected: width,
                });
            }
            ids.extend(r.iter().map(|&s| u32::from(s)));
        }
        Self::from_ids(tile_size, width, &ids)
    }

    /// The map of `width` columns whose tile ids are given row by row,
    /// **top row first**; id 0 is an empty tile, any other a solid one (the
    /// ids are kept: [`TileMap::tile_id`]).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`], [`ShapeError::NonPositiveSize`] or
    /// [`ShapeError::TooLarge`] for the tile size (fields `"tile_size.x"`,
    /// `"tile_size.y"`), [`ShapeError::EmptyMap`] for a width of zero or no
    /// ids, [`ShapeError::RaggedRow`] when the ids do not fill whole rows
    /// (naming the last, short row), [`ShapeError::TooLarge`] when the map
    /// is wider or taller than
    /// [`tolerance::max_size`](crate::tolerance::max_size), and
    /// [`ShapeError::NoParts`] for a map without a solid tile.
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use shape::prelude::*;
    /// let size = Vector2::new(16.0, 16.0);
    /// let map = TileMap::<f32>::from_ids(size, 2, &[0, 7, 3, 3]).unwrap();
    /// assert_eq!(map.tile_id(1, 1), Some(7)); // top right
    /// assert_eq!(TileMap::<f32>::from_ids(size, 2, &[0, 7, 3]).unwrap_err(),
    ///     ShapeError::RaggedRow { row: 1, len: 1, expected: 2 });
    /// assert_eq!(TileMap::<f32>::from_ids(size, 2, &[0, 0]).unwrap_err(), ShapeError::NoParts);
    /// ```
    pub fn from_ids(tile_size: Vector2<T>, width: usize, ids: &[u32]) -> Result<Self, ShapeError> {
        check_positive_vector(&tile_size, "tile_size.x", "tile_size.y")?;
        if width == 0 || ids.is_empty() {
            return Err(ShapeError::EmptyMap);
        }
        if ids.len() % width != 0 {
            return Err(ShapeError::RaggedRow {
                row: ids.len() / width,
                len: ids.len() % width,
                expected: width,
            });
        }
        let height = ids.len() / width;
        if u32::try_from(ids.len()).is_err() {
            return Err(ShapeError::TooLarge {
                field: "tile count",
                value: ids.len() as f64,
            });
        }
        let limit = crate::tolerance::max_size::<T>();
        let wide = T::lit(width as f64) * tile_size.x;
        if wide > limit || Float::is_nan(wide) {
            return Err(ShapeError::TooLarge {
                field: "map width (columns × tile_size.x)",
                value: width as f64 * tile_size.x.as_f64(),
            });
        }
        let tall = T::lit(height as f64) * tile_size.y;
        if tall > limit || Float::is_nan(tall) {
            return Err(ShapeError::TooLarge {
                field: "map height (rows × tile_size.y)",
                value: height as f64 * tile_size.y.as_f64(),
            });
        }
        // Bottom row first.
        let mut stored = Vec::with_capacity(ids.len());
        for row in (0..height).rev() {
            stored.extend_from_slice(&ids[row * width..(row + 1) * width]);
        }
        let tile = Aabb::from_half_extents(tile_size * T::half())?;
        let mut map = Self {
            tile_size,
            width,
            height,
            ids: stored,
            masks: Vec::new(),
            tile,
            arcs: Vec::new(),
            patterns: [None; 16],
            extent: (0, 0, 0, 0),
        };
        let mut extent: Option<(usize, usize, usize, usize)> = None;
        let mut masks = alloc::vec![0u8; ids.len()];
        for row in 0..height {
            for col in 0..width {
                if !map.is_solid(col, row) {
                    continue;
                }
                let open = |c: Option<usize>, r: Option<usize>| match (c, r) {
                    (Some(c), Some(r)) => !map.is_solid(c, r),
                    _ => true,
                };
                let mut m = 0u8;
                m |= u8::from(open(Some(col + 1), Some(row)));
                m |= u8::from(open(Some(col), Some(row + 1))) << 1;
                m |= u8::from(open(col.checked_sub(1), Some(row))) << 2;
                m |= u8::from(open(Some(col), row.checked_sub(1))) << 3;
                masks[row * width + col] = m;
                extent = Some(match extent {
                    None => (col, row, col, row),
                    Some((c0, r0, c1, r1)) => (c0.min(col), r0.min(row), c1.max(col), r1.max(row)),
                });
            }
        }
        map.extent = extent.ok_or(ShapeError::NoParts)?;
        map.masks = masks;
        map.compute_patterns();
        Ok(map)
    }

    /// The 16 exposure patterns' arcs (module notes).
    fn compute_patterns(&mut self) {
        let (o, i) = (T::zero(), T::one());
        let normals = [
            Vector2::new(i, o),
            Vector2::new(o, i),
            Vector2::new(-i, o),
            Vector2::new(o, -i),
        ]
        .map(Unit::new_unchecked);
        for mask in 0..16usize {
            if mask == 15 {
                self.patterns[mask] = None;
                continue;
            }
            let start = self.arcs.len();
            let exposed = |k: usize| mask & (1 << (k % 4)) != 0;
            for k in 0..4 {
                // A run starts at an exposed face after an unexposed one.
                if exposed(k) && !exposed(k + 3) {
                    let mut end = k;
                    while exposed(end + 1) {
                        end += 1;
                    }
                    self.arcs.push(NormalArc::new(normals[k], normals[end % 4]));
                }
            }
            self.patterns[mask] = Some((start as u8, (self.arcs.len() - start) as u8));
        }
    }

    /// The number of columns.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// The number of rows.
    #[must_use]
    pub fn height(&self) -> usize {
        self.height
    }

    /// The size of a tile.
    #[must_use]
    pub fn tile_size(&self) -> Vector2<T> {
        self.tile_size
    }

    /// The id of tile `(col, row)`, row counted from the **bottom**; `None`
    /// outside the map.
    #[must_use]
    pub fn tile_id(&self, col: usize, row: usize) -> Option<u32> {
        if col < self.width && row < self.height {
            self.ids.get(row * self.width + col).copied()
        } else {
            None
        }
    }

    /// Whether tile `(col, row)` (row counted from the **bottom**) is solid;
    /// `false` outside the map.
    #[must_use]
    pub fn is_solid(&self, col: usize, row: usize) -> bool {
        self.tile_id(col, row).is_some_and(|id| id != 0)
    }

    /// The pose of tile `(col, row)` in the map's frame: its centre.
    fn tile_pose(&self, col: usize, row: usize) -> Isometry2<T> {
        let x = T::lit(col as f64 + 0.5) * self.tile_size.x;
        let y = T::lit(row as f64 + 0.5) * self.tile_size.y;
        Isometry2::translation(x, y)
    }

    /// Whether signed cell `(c, r)` is a solid tile; its id.
    fn solid_id(&self, c: i64, r: i64) -> Option<u32> {
        let (c, r) = (usize::try_from(c).ok()?, usize::try_from(r).ok()?);
        self.is_solid(c, r).then(|| (r * self.width + c) as u32)
    }

    /// Only the translation (module notes).
    fn flat(pose: &Isometry2<T>) -> Isometry2<T> {
        Isometry2::from_parts(
            Translation2::from(pose.translation.vector),
            UnitComplex::identity(),
        )
    }

    /// The cell holding local coordinate `v` along an axis of size `s`
    /// (`floor(v / s)`, saturating; NaN gives 0).
    fn cell(v: T, s: T) -> i64 {
        // The floor by truncation (no libm call: without SSE4.1 the floor
        // is a function call): the conversion truncates towards zero and
        // saturates (NaN gives 0), a negative non-integer steps down once.
        // The same integer as `floor(c) as i64` for every `c`: beyond
        // `±2⁶³` both saturate, and below `2⁵³` in magnitude `t` converts
        // back exactly (above it `c` is an integer).
        let c = (v / s).as_f64();
        let t = c as i64;
        if (t as f64) > c {
            t.saturating_sub(1)
        } else {
            t
        }
    }

    /// The exact hit of tile `id` (solid) at map pose `flat`.
    fn cast_tile(
        &self,
        id: u32,
        flat: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>> {
        let (c, r) = (id as usize % self.width, id as usize / self.width);
        self.tile
            .cast_ray(&(flat * self.tile_pose(c, r)), ray, max_toi, solid)
    }

    /// The earliest hit of `ray` on the map placed at `pose` (rotation
    /// ignored), with the id of the tile hit (module notes).
    #[must_use]
    pub fn cast_ray_part(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<(u32, RayHit<T>)> {
        let flat = Self::flat(pose);
        let o = ray.origin - flat.translation.vector;
        let d = ray.dir;
        if !solid {
            let (oc, or) = (
                Self::cell(o.x, self.tile_size.x),
                Self::cell(o.y, self.tile_size.y),
            );
            if self.holds(&flat, &ray.origin, oc, or) {
                return self.leave(&flat, ray, &o, max_toi);
            }
        }
        let mut best: Option<(u32, RayHit<T>)> = None;
        let mut consider = |id: u32, best: &mut Option<(u32, RayHit<T>)>| {
            let limit = best.map_or(max_toi, |(_, h)| h.toi);
            if let Some(h) = self.cast_tile(id, &flat, ray, limit, solid) {
                let better = match best {
                    None => true,
                    Some((bid, b)) => h.toi < b.toi || (h.toi == b.toi && id < *bid),
                };
                if better {
                    *best = Some((id, h));
                }
            }
        };
        let block = |c: i64,
                     r: i64,
                     best: &mut Option<(u32, RayHit<T>)>,
                     f: &mut dyn FnMut(u32, &mut Best<T>)| {
            for dr in -1..=1 {
                for dc in -1..=1 {
                    if let Some(id) = self.solid_id(c.saturating_add(dc), r.saturating_add(dr)) {
                        f(id, best);
                    }
                }
            }
        };
        // A ray along a grid line (no motion across it, exactly on it)
        // touches the cells on both sides: the walk follows the upper (or
        // right) one; the other is cast too.
        let on_line = |i: usize| {
            let s = if i == 0 {
                self.tile_size.x
            } else {
                self.tile_size.y
            };
            d[i] == T::zero() && {
                let k = o[i] / s;
                Float::floor(k) == k && T::lit(k.as_f64()) * s == o[i]
            }
        };
        let twin = [on_line(0), on_line(1)];
        let mut first_block_done = false;
        let widen = T::one() + T::epsilon() * T::lit(16.0);
        self.walk(&o, &d, max_toi, |c, r, t_enter, start| {
            if best.is_some_and(|(_, h)| t_enter > h.toi * widen) {
                return ControlFlow::Break(());
            }
            if start {
                block(c, r, &mut best, &mut consider);
            }
            for (twin_c, twin_r) in [(twin[0], false), (false, twin[1])] {
                if twin_c || twin_r {
                    let (tc, tr) = (c - i64::from(twin_c), r - i64::from(twin_r));
                    if let Some(id) = self.solid_id(tc, tr) {
                        consider(id, &mut best);
                    }
                }
            }
            if let Some(id) = self.solid_id(c, r) {
                consider(id, &mut best);
                if !first_block_done {
                    first_block_done = true;
                    block(c, r, &mut best, &mut consider);
                }
            }
            ControlFlow::Continue(())
        });
        best
    }

    /// Whether world point `p` lies in a solid tile near local cell `(c, r)`.
    fn holds(&self, flat: &Isometry2<T>, p: &Point2<T>, c: i64, r: i64) -> bool {
        (-1..=1).any(|dr| {
            (-1..=1).any(|dc| {
                self.solid_id(c.saturating_add(dc), r.saturating_add(dr))
                    .is_some_and(|id| {
                        let (tc, tr) = (id as usize % self.width, id as usize / self.width);
                        self.tile
                            .contains_point(&(flat * self.tile_pose(tc, tr)), p)
                    })
            })
        })
    }

    /// A hollow cast from inside the solid tiles: where the ray leaves the
    /// last solid cell of the walk before an empty one (that tile's far
    /// slab time).
    fn leave(
        &self,
        flat: &Isometry2<T>,
        ray: &Ray<T>,
        o: &Point2<T>,
        max_toi: T,
    ) -> Option<(u32, RayHit<T>)> {
        let mut last: Option<u32> = None;
        self.walk(o, &ray.dir, T::infinity(), |c, r, _, start| {
            match self.solid_id(c, r) {
                Some(id) => {
                    last = Some(id);
                    ControlFlow::Continue(())
                }
                // The start cell may be an empty neighbour of the tile the
                // origin lies on (its boundary): keep walking.
                None if start => ControlFlow::Continue(()),
                None => ControlFlow::Break(()),
            }
        });
        let Some(id) = last else {
            // The origin is on a tile the walk did not enter (a ray pointing
            // out of it from its boundary): it leaves at once.
            let (oc, or) = (
                Self::cell(o.x, self.tile_size.x),
                Self::cell(o.y, self.tile_size.y),
            );
            let id = (-1..=1)
                .flat_map(|dr| {
                    (-1..=1).map(move |dc| (oc.saturating_add(dc), or.saturating_add(dr)))
                })
                .find_map(|(c, r)| self.solid_id(c, r))?;
            return within(T::zero(), max_toi).then(|| (id, crate::hit_at_origin(ray)));
        };
        // Where the ray leaves that tile's box: the least far slab time
        // (the lower axis on a tie), the face's inward normal.
        let (c, r) = (id as usize % self.width, id as usize / self.width);
        let b = self.tile.bounding_box(&(flat * self.tile_pose(c, r)));
        let mut exit: Option<(T, usize)> = None;
        for i in 0..2 {
            let di = ray.dir[i];
            if di == T::zero() {
                continue;
            }
            let bound = if di > T::zero() { b.max[i] } else { b.min[i] };
            let t = (bound - ray.origin[i]) / di;
            if exit.is_none_or(|(e, _)| t < e) {
                exit = Some((t, i));
            }
        }
        let (t, axis) = exit?;
        let t = Float::max(t, T::zero());
        if !within(t, max_toi) {
            return None;
        }
        let mut n = Vector2::zeros();
        n[axis] = if ray.dir[axis] > T::zero() {
            -T::one()
        } else {
            T::one()
        };
        let point = if t == T::zero() {
            ray.origin
        } else {
            ray.origin + ray.dir * t
        };
        Some((
            id,
            RayHit {
                toi: t,
                point,
                normal: Unit::new_unchecked(n),
            },
        ))
    }

    /// The grid walk of the module notes over signed cells (the map's cells
    /// and a ring of one outside), in map-local coordinates: calls `visit`
    /// with each cell, its entry time and whether it is the start cell,
    /// until it breaks, the ray leaves the map or passes `max_t`.
    fn walk(
        &self,
        o: &Point2<T>,
        d: &Vector2<T>,
        max_t: T,
        mut visit: impl FnMut(i64, i64, T, bool) -> ControlFlow<()>,
    ) {
        let (w, h) = (self.tile_size.x, self.tile_size.y);
        let size = [w, h];
        let dims = [self.width as i64, self.height as i64];
        // The map's box grown by half a tile: the clip.
        let mut t0 = T::zero();
        let mut t1 = max_t;
        for i in 0..2 {
            let lo = -size[i] * T::half();
            let hi = T::lit(dims[i] as f64) * size[i] + size[i] * T::half();
            if d[i] == T::zero() {
                if !(o[i] >= lo && o[i] <= hi) {
                    return;
                }
                continue;
            }
            let (a, b) = ((lo - o[i]) / d[i], (hi - o[i]) / d[i]);
            t0 = Float::max(t0, Float::min(a, b));
            t1 = Float::min(t1, Float::max(a, b));
        }
        if t0 > t1 || Float::is_nan(t0) || Float::is_nan(t1) {
            return;
        }
        let p = o + d * t0;
        let mut cell = [Self::cell(p.x, w), Self::cell(p.y, h)];
        let step = [
            if d.x > T::zero() { 1i64 } else { -1 },
            if d.y > T::zero() { 1i64 } else { -1 },
        ];
        // The time the ray crosses the next boundary on axis i.
        let next = |i: usize, c: i64| -> T {
            if d[i] == T::zero() {
                return T::infinity();
            }
            let k = if step[i] > 0 { c + 1 } else { c };
            (T::lit(k as f64) * size[i] - o[i]) / d[i]
        };
        let inside = |c: &[i64; 2]| (0..2).all(|i| c[i] >= -1 && c[i] <= dims[i]);
        let tie = T::epsilon() * T::lit(8.0);
        let mut t_enter = t0;
        let mut start = true;
        let budget = (dims[0] + dims[1] + 8) as usize;
        for _ in 0..budget {
            if !inside(&cell) || t_enter > max_t {
                return;
            }
            if visit(cell[0], cell[1], t_enter, start).is_break() {
                return;
            }
            start = false;
            let (tx, ty) = (next(0, cell[0]), next(1, cell[1]));
            let corner = Float::is_finite(tx)
                && Float::is_finite(ty)
                && Float::abs(tx - ty) <= tie * Float::max(Float::abs(tx), Float::abs(ty));
            if corner {
                // Through a corner: both side cells, then the diagonal one.
                let t = Float::min(tx, ty);
                for side in [[cell[0] + step[0], cell[1]], [cell[0], cell[1] + step[1]]] {
                    if inside(&side) && t <= max_t && visit(side[0], side[1], t, false).is_break() {
                        return;
                    }
                }
                cell = [cell[0] + step[0], cell[1] + step[1]];
                t_enter = t;
            } else if tx < ty {
                cell[0] += step[0];
                t_enter = tx;
            } else {
                cell[1] += step[1];
                t_enter = ty;
            }
        }
    }

    /// The nearest point of the tiles to world point `p` (of their exposed
    /// faces when `faces`), by rings about `p`'s cell (module notes).
    fn nearest(&self, flat: &Isometry2<T>, p: &Point2<T>, faces: bool) -> Option<Point2<T>> {
        let (w, h) = (self.tile_size.x, self.tile_size.y);
        let q = p - flat.translation.vector;
        let clamp = |v: i64, n: usize| v.clamp(0, n as i64 - 1);
        let (cc, cr) = (
            clamp(Self::cell(q.x, w), self.width),
            clamp(Self::cell(q.y, h), self.height),
        );
        let mut best: Option<(T, Point2<T>)> = None;
        let step = Float::min(w, h);
        let rings = self.width.max(self.height) as i64;
        for ring in 0..=rings {
            if let Some((bd, _)) = best {
                // Tiles in this ring are at least (ring − 1)·step away.
                let gap = T::lit((ring - 1).max(0) as f64) * step;
                if gap * gap > bd * (T::one() + T::epsilon() * T::lit(16.0)) {
                    break;
                }
            }
            for r in cr - ring..=cr + ring {
                for c in cc - ring..=cc + ring {
                    if (r - cr).abs() != ring && (c - cc).abs() != ring {
                        continue;
                    }
                    let Some(id) = self.solid_id(c, r) else {
                        continue;
                    };
                    let pose = flat * self.tile_pose(c as usize, r as usize);
                    let candidate = if faces {
                        self.nearest_on_faces(id, &pose, p)
                    } else {
                        Some(self.tile.project_point(&pose, p, true).point)
                    };
                    if let Some(x) = candidate {
                        let dd = (x - p).norm_squared();
                        if best.is_none_or(|(bd, _)| dd < bd) {
                            best = Some((dd, x));
                        }
                    }
                }
            }
        }
        best.map(|(_, x)| x)
    }

    /// The nearest point to `p` of tile `id`'s exposed faces at `pose`.
    fn nearest_on_faces(&self, id: u32, pose: &Isometry2<T>, p: &Point2<T>) -> Option<Point2<T>> {
        let m = self.masks[id as usize];
        let b = self.tile.bounding_box(pose);
        let corners = [
            Point2::new(b.max.x, b.min.y),
            b.max,
            Point2::new(b.min.x, b.max.y),
            b.min,
        ];
        // Face k (right, up, left, down) runs from corner k to corner k + 1.
        let mut best: Option<(T, Point2<T>)> = None;
        for k in 0..4 {
            if m & (1 << k) == 0 {
                continue;
            }
            let x = crate::dim2::closest_point_on_segment(&corners[k], &corners[(k + 1) % 4], p);
            let dd = (x - p).norm_squared();
            if best.is_none_or(|(bd, _)| dd < bd) {
                best = Some((dd, x));
            }
        }
        best.map(|(_, x)| x)
    }
}

impl<T: Real> Composite<T> for TileMap<T> {
    /// The inherent [`cast_ray_part`](Self::cast_ray_part), through the
    /// composite's own index.
    fn cast_ray_part(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<(u32, RayHit<T>)> {
        Self::cast_ray_part(self, pose, ray, max_toi, solid)
    }

    fn part_count(&self) -> usize {
        self.ids.len()
    }

    fn part(&self, id: u32) -> Option<Part<'_, T>> {
        let i = id as usize;
        if *self.ids.get(i)? == 0 {
            return None;
        }
        let (col, row) = (i % self.width, i / self.width);
        let normals = self.patterns[usize::from(self.masks[i] & 15)]
            .map(|(s, l)| &self.arcs[usize::from(s)..usize::from(s) + usize::from(l)]);
        Some(Part {
            id,
            shape: ShapeRef::Aabb(&self.tile),
            pose: self.tile_pose(col, row),
            normals,
            front: None,
        })
    }

    fn visit_parts(
        &self,
        region: &BoundingBox2<T>,
        visit: &mut dyn FnMut(Part<'_, T>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let (w, h) = (self.tile_size.x, self.tile_size.y);
        let clamp = |v: i64, n: usize| v.clamp(0, n as i64 - 1) as usize;
        let (c0, c1) = (
            clamp(Self::cell(region.min.x, w).saturating_sub(1), self.width),
            clamp(Self::cell(region.max.x, w).saturating_add(1), self.width),
        );
        let (r0, r1) = (
            clamp(Self::cell(region.min.y, h).saturating_sub(1), self.height),
            clamp(Self::cell(region.max.y, h).saturating_add(1), self.height),
        );
        // A tile's box meets the region when its columns' interval meets
        // the region's along x and its rows' along y: the same numbers and
        // comparisons as `tile.bounding_box(&tile_pose).intersects(region)`,
        // each axis tested once per column or row rather than per tile.
        let (lo, hi) = (self.tile.min(), self.tile.max());
        let meets =
            |centre: T, lo: T, hi: T, min: T, max: T| !(hi + centre < min || max < lo + centre);
        let column = |col: usize| {
            let x = T::lit(col as f64 + 0.5) * w;
            meets(x, lo.x, hi.x, region.min.x, region.max.x)
        };
        for row in r0..=r1 {
            let y = T::lit(row as f64 + 0.5) * h;
            if !meets(y, lo.y, hi.y, region.min.y, region.max.y) {
                continue;
            }
            for col in c0..=c1 {
                if !self.is_solid(col, row) || !column(col) {
                    continue;
                }
                if let Some(part) = self.part((row * self.width + col) as u32) {
                    visit(part)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn local_bounds(&self) -> BoundingBox2<T> {
        // `world_bounds` at the identity, without composing poses with it
        // (the same numbers: composing with the identity is exact).
        let (c0, r0, c1, r1) = self.extent;
        let (lo, hi) = (self.tile_pose(c0, r0), self.tile_pose(c1, r1));
        BoundingBox2::new(
            self.tile.min() + lo.translation.vector,
            self.tile.max() + hi.translation.vector,
        )
    }
}

impl<T: Real> TileMap<T> {
    /// The solid tiles' box (rotation ignored): exactly the union of the
    /// parts' boxes.
    pub(crate) fn world_bounds(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let flat = Self::flat(pose);
        let (c0, r0, c1, r1) = self.extent;
        let lo = self.tile.bounding_box(&(flat * self.tile_pose(c0, r0)));
        let hi = self.tile.bounding_box(&(flat * self.tile_pose(c1, r1)));
        BoundingBox2::new(lo.min, hi.max)
    }

    /// Only the translation: the map stays axis-aligned (module notes).
    pub(crate) fn placed(&self, pose: &Isometry2<T>) -> Isometry2<T> {
        Self::flat(pose)
    }
}

impl<T: Real> PointQuery<T> for TileMap<T> {
    /// Inside a solid tile (closed): `p` itself (solid) or the nearest
    /// exposed face point (hollow); outside, the nearest point of the tiles
    /// (module notes). The rotation of `pose` is ignored.
    fn project_point(&self, pose: &Isometry2<T>, p: &Point2<T>, solid: bool) -> PointProjection<T> {
        let flat = Self::flat(pose);
        let q = p - flat.translation.vector;
        let (c, r) = (
            Self::cell(q.x, self.tile_size.x),
            Self::cell(q.y, self.tile_size.y),
        );
        let inside = self.holds(&flat, p, c, r);
        if inside && solid {
            return PointProjection {
                point: *p,
                is_inside: true,
            };
        }
        let point = self.nearest(&flat, p, inside).unwrap_or(*p);
        PointProjection {
            point,
            is_inside: inside,
        }
    }
}

super::composite_shape!(TileMap, TILE_MAP, placed);

#[cfg(test)]
mod tests {
    use super::*;

    /// The cell by truncation is the floor's integer, at the edges too
    /// (negative non-integers, zeros, NaN, the saturation beyond `±2⁶³`,
    /// integers above `2⁵³`), in both precisions.
    #[test]
    fn cell_is_the_floor() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            -1.5,
            2.0f64.powi(53),
            -(2.0f64.powi(53)) - 2.0,
            2.0f64.powi(63),
            -(2.0f64.powi(63)),
            1e19,
            -1e19,
            1e300,
            -1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..10_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
            values.push(x * 10f64.powi((seed % 24) as i32 - 4));
        }
        for &v in &values {
            for s in [1.0, 0.3, 16.0] {
                assert_eq!(
                    TileMap::<f64>::cell(v, s),
                    Float::floor(v / s) as i64,
                    "{v} / {s}"
                );
                let (v32, s32) = (v as f32, s as f32);
                assert_eq!(
                    TileMap::<f32>::cell(v32, s32),
                    Float::floor(f64::from(v32 / s32)) as i64,
                    "{v32} / {s32}"
                );
            }
        }
    }

    /// The local bounds are the box at the identity pose, bit for bit.
    #[test]
    fn local_bounds_are_the_box_at_rest() {
        let map = TileMap::<f32>::from_ids(
            Vector2::new(0.75, 0.5),
            4,
            &[0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 2],
        )
        .unwrap();
        assert_eq!(map.local_bounds(), map.bounding_box(&Isometry2::identity()));
    }
}
