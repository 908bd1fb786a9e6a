//! The *core* view of a shape: a point, a segment or a convex polygon, grown by
//! a radius. Every built-in 2D shape but the ellipse is one (a circle is a point
//! grown by its radius, a capsule a segment, a box a polygon grown by zero), so
//! one family of kernels, monomorphised per pair, serves them all.

use nalgebra::{Point2, SVector, Vector2};
use shape::{
    Aabb, Capsule, Circle, ConvexPolygon, Obb, Point, Real, RoundedPolygon, Segment, Triangle,
};

/// A shape as a convex core plus a radius, in its local frame.
///
/// - `core_vertex(i)`, `i < core_vertex_count()`: the core's vertices, 1 for a
///   point, 2 for a segment, `n ≥ 3` counter-clockwise for a polygon;
/// - `core_axis(i)`: unit directions whose projections decide the core against
///   a polygon (edge normals; one normal for a segment; none for a point);
///   opposite normals count once;
/// - `radius()`: how far the shape extends beyond its core.
pub trait Polygonal<T: Real> {
    /// How many core vertices.
    fn core_vertex_count(&self) -> usize;
    /// Core vertex `i`.
    fn core_vertex(&self, i: usize) -> Point2<T>;
    /// How many separating-axis candidates the core contributes.
    fn core_axis_count(&self) -> usize;
    /// Unit axis `i`.
    fn core_axis(&self, i: usize) -> Vector2<T>;
    /// The rounding radius (zero for polygons, points and segments).
    fn radius(&self) -> T;

    /// Whether `core_axis(i)` is the unit outward normal of the edge from
    /// vertex `i` to vertex `i + 1` for every vertex (triangles and polygons):
    /// the separating-axis test then needs to project only the other shape.
    fn has_edge_normals(&self) -> bool {
        false
    }

    /// The core as an axis-aligned box of its own frame, `(min, max)`, when
    /// it is one (boxes): its vertices are then `min`, `(max.x, min.y)`,
    /// `max`, `(min.x, max.y)`, counter-clockwise. `None` otherwise.
    fn core_box(&self) -> Option<(Point2<T>, Point2<T>)> {
        None
    }

    /// How many core edges: `n` for a polygon, 1 for a segment, 0 for a point.
    fn core_edge_count(&self) -> usize {
        match self.core_vertex_count() {
            0 | 1 => 0,
            2 => 1,
            n => n,
        }
    }

    /// The largest absolute coordinate of a core vertex (for rounding
    /// bounds): kept from construction by triangles and polygons, a closed
    /// form for boxes.
    fn core_extent(&self) -> T {
        (0..self.core_vertex_count()).fold(T::zero(), |e, i| {
            larger(e, abs_max(&self.core_vertex(i).coords))
        })
    }

    /// The largest absolute coordinate of a core vertex and the squared
    /// length of the shortest core edge (infinite for a point), for rounding
    /// bounds; triangles and polygons keep them from construction.
    fn core_extent_and_shortest_edge(&self) -> (T, T) {
        let n = self.core_vertex_count();
        let mut shortest = T::infinity();
        if n > 1 {
            for i in 0..n {
                let e = self.core_vertex(if i + 1 == n { 0 } else { i + 1 }) - self.core_vertex(i);
                shortest = num_traits::Float::min(shortest, e.norm_squared());
            }
        }
        (self.core_extent(), shortest)
    }

    /// How many faces the core has for contact manifolds: `n` for a
    /// polygon, 2 for a segment (its two sides), none for a point.
    fn core_face_count(&self) -> usize {
        match self.core_vertex_count() {
            0 | 1 => 0,
            2 => 2,
            n => n,
        }
    }

    /// The outward unit normal of face `f` (`f < core_face_count()`): edge
    /// `f` of a polygon (from vertex `f` to `f + 1`); side 0 of a segment
    /// faces along `core_axis(0)`, side 1 against it.
    fn core_face_normal(&self, f: usize) -> Vector2<T> {
        let n = self.core_vertex_count();
        if n == 2 {
            let axis = self.core_axis(0);
            return if f == 0 { axis } else { -axis };
        }
        if self.has_edge_normals() {
            return self.core_axis(f);
        }
        let d = self.core_vertex(if f + 1 == n { 0 } else { f + 1 }) - self.core_vertex(f);
        unit(Vector2::new(d.y, -d.x))
    }

    /// The face whose outward normal is best aligned with the unit `dir`
    /// (the first of equals) and that alignment (the dot product); `None`
    /// for a point core. Boxes and segments answer in closed form.
    fn core_best_face(&self, dir: &Vector2<T>) -> Option<(usize, T)> {
        let mut best: Option<(usize, T)> = None;
        for f in 0..self.core_face_count() {
            let a = self.core_face_normal(f).dot(dir);
            if best.is_none_or(|(_, b)| a > b) {
                best = Some((f, a));
            }
        }
        best
    }

    /// The core's projection on `dir`: `(min, max)` over the core vertices
    /// of `v · dir` (boxes override it with the same values in closed form).
    fn core_interval(&self, dir: &Vector2<T>) -> (T, T) {
        let first = self.core_vertex(0).coords.dot(dir);
        let (mut lo, mut hi) = (first, first);
        for i in 1..self.core_vertex_count() {
            let x = self.core_vertex(i).coords.dot(dir);
            // Plain comparisons (not `min`/`max`, which test for NaN).
            if x < lo {
                lo = x;
            }
            if x > hi {
                hi = x;
            }
        }
        (lo, hi)
    }

    /// The core vertex maximising `v · dir` (first on ties).
    fn core_support(&self, dir: &Vector2<T>) -> Point2<T> {
        let mut best = self.core_vertex(0);
        let mut best_dot = best.coords.dot(dir);
        for i in 1..self.core_vertex_count() {
            let v = self.core_vertex(i);
            let d = v.coords.dot(dir);
            if d > best_dot {
                best = v;
                best_dot = d;
            }
        }
        best
    }
}

impl<T: Real> Polygonal<T> for Point<T> {
    fn core_vertex_count(&self) -> usize {
        1
    }
    fn core_vertex(&self, _i: usize) -> Point2<T> {
        self.position()
    }
    fn core_axis_count(&self) -> usize {
        0
    }
    fn core_axis(&self, _i: usize) -> Vector2<T> {
        Vector2::x()
    }
    fn radius(&self) -> T {
        T::zero()
    }
}

impl<T: Real> Polygonal<T> for Circle<T> {
    fn core_vertex_count(&self) -> usize {
        1
    }
    fn core_vertex(&self, _i: usize) -> Point2<T> {
        Point2::origin()
    }
    fn core_axis_count(&self) -> usize {
        0
    }
    fn core_axis(&self, _i: usize) -> Vector2<T> {
        Vector2::x()
    }
    fn radius(&self) -> T {
        Circle::radius(self)
    }
}

fn segment_normal<T: Real>(a: &Point2<T>, b: &Point2<T>) -> Vector2<T> {
    let d = b - a;
    unit(Vector2::new(d.y, -d.x))
}

/// `v` scaled to unit length, divided by its largest absolute component first
/// so that a vector whose squared length underflows (a segment of f32 length
/// 1e-30) or overflows still gives a unit vector rather than NaN. `v` must be
/// finite and non-zero (a validated segment's direction is).
#[inline]
pub(crate) fn unit<T: Real>(v: Vector2<T>) -> Vector2<T> {
    let u = v / v.amax();
    u / u.norm()
}

/// The length and unit direction of `v`, computed on `v` divided by its
/// largest absolute component (no underflow of subnormal squares, no
/// overflow); `None` for a zero or non-finite `v`.
#[inline]
pub(crate) fn length_and_direction<T: Real, const D: usize>(
    v: SVector<T, D>,
) -> Option<(T, SVector<T, D>)> {
    let m = v.amax();
    // `amax` skips NaN components: test every component too.
    if !(m > T::zero() && m.is_finite() && v.iter().all(|x| x.is_finite())) {
        return None;
    }
    let u = v / m;
    let l = u.norm();
    Some((l * m, u / l))
}

/// The larger of two finite numbers, by one comparison (the rounding
/// bounds' hot path; `Float::max` also orders NaN).
#[inline]
pub(crate) fn larger<T: Real>(x: T, y: T) -> T {
    if x > y { x } else { y }
}

/// The largest absolute coordinate of a finite vector.
#[inline]
pub(crate) fn abs_max<T: Real>(v: &Vector2<T>) -> T {
    larger(num_traits::Float::abs(v.x), num_traits::Float::abs(v.y))
}

impl<T: Real> Polygonal<T> for Segment<T> {
    fn core_extent(&self) -> T {
        larger(abs_max(&self.a().coords), abs_max(&self.b().coords))
    }
    fn core_best_face(&self, dir: &Vector2<T>) -> Option<(usize, T)> {
        let a = self.core_axis(0).dot(dir);
        Some(if a >= T::zero() { (0, a) } else { (1, -a) })
    }
    fn core_vertex_count(&self) -> usize {
        2
    }
    fn core_vertex(&self, i: usize) -> Point2<T> {
        if i == 0 { self.a() } else { self.b() }
    }
    fn core_axis_count(&self) -> usize {
        1
    }
    fn core_axis(&self, _i: usize) -> Vector2<T> {
        segment_normal(&self.a(), &self.b())
    }
    fn radius(&self) -> T {
        T::zero()
    }
}

impl<T: Real> Polygonal<T> for Capsule<T> {
    fn core_extent(&self) -> T {
        larger(abs_max(&self.a().coords), abs_max(&self.b().coords))
    }
    fn core_best_face(&self, dir: &Vector2<T>) -> Option<(usize, T)> {
        let a = self.core_axis(0).dot(dir);
        Some(if a >= T::zero() { (0, a) } else { (1, -a) })
    }
    fn core_vertex_count(&self) -> usize {
        2
    }
    fn core_vertex(&self, i: usize) -> Point2<T> {
        if i == 0 { self.a() } else { self.b() }
    }
    fn core_axis_count(&self) -> usize {
        1
    }
    fn core_axis(&self, _i: usize) -> Vector2<T> {
        segment_normal(&self.a(), &self.b())
    }
    fn radius(&self) -> T {
        Capsule::radius(self)
    }
}

/// The outward normal of face `f` of a box in its frame: faces 0 to 3 are
/// the bottom, right, top and left sides (edge `f` from vertex `f`).
#[inline]
fn box_face_normal<T: Real>(f: usize) -> Vector2<T> {
    match f {
        0 => -Vector2::y(),
        1 => Vector2::x(),
        2 => Vector2::y(),
        _ => -Vector2::x(),
    }
}

/// The box face best aligned with the unit `dir` and that alignment: the
/// side of the larger component (x on a tie).
#[inline]
fn box_best_face<T: Real>(dir: &Vector2<T>) -> (usize, T) {
    let (ax, ay) = (num_traits::Float::abs(dir.x), num_traits::Float::abs(dir.y));
    if ax >= ay {
        if dir.x >= T::zero() { (1, ax) } else { (3, ax) }
    } else if dir.y >= T::zero() {
        (2, ay)
    } else {
        (0, ay)
    }
}

impl<T: Real> Polygonal<T> for Aabb<T> {
    fn core_box(&self) -> Option<(Point2<T>, Point2<T>)> {
        Some((self.min(), self.max()))
    }
    fn core_extent(&self) -> T {
        larger(abs_max(&self.min().coords), abs_max(&self.max().coords))
    }
    fn core_face_normal(&self, f: usize) -> Vector2<T> {
        box_face_normal(f)
    }
    fn core_best_face(&self, dir: &Vector2<T>) -> Option<(usize, T)> {
        Some(box_best_face(dir))
    }
    fn core_vertex_count(&self) -> usize {
        4
    }
    fn core_vertex(&self, i: usize) -> Point2<T> {
        let (lo, hi) = (self.min(), self.max());
        match i {
            0 => lo,
            1 => Point2::new(hi.x, lo.y),
            2 => hi,
            _ => Point2::new(lo.x, hi.y),
        }
    }
    fn core_axis_count(&self) -> usize {
        2
    }
    fn core_axis(&self, i: usize) -> Vector2<T> {
        if i == 0 { Vector2::x() } else { Vector2::y() }
    }
    fn radius(&self) -> T {
        T::zero()
    }
    fn core_interval(&self, dir: &Vector2<T>) -> (T, T) {
        // Separable: the extremes per coordinate, summed.
        let (lo, hi) = (self.min(), self.max());
        let (x0, x1) = (lo.x * dir.x, hi.x * dir.x);
        let (y0, y1) = (lo.y * dir.y, hi.y * dir.y);
        let f = |a: T, b: T| (num_traits::Float::min(a, b), num_traits::Float::max(a, b));
        let ((xl, xh), (yl, yh)) = (f(x0, x1), f(y0, y1));
        (xl + yl, xh + yh)
    }
}

impl<T: Real> Polygonal<T> for Obb<T> {
    fn core_box(&self) -> Option<(Point2<T>, Point2<T>)> {
        let h = self.half_extents();
        Some((Point2::from(-h), Point2::from(h)))
    }
    fn core_extent(&self) -> T {
        abs_max(&self.half_extents())
    }
    fn core_face_normal(&self, f: usize) -> Vector2<T> {
        box_face_normal(f)
    }
    fn core_best_face(&self, dir: &Vector2<T>) -> Option<(usize, T)> {
        Some(box_best_face(dir))
    }
    fn core_vertex_count(&self) -> usize {
        4
    }
    fn core_vertex(&self, i: usize) -> Point2<T> {
        let h = self.half_extents();
        match i {
            0 => Point2::new(-h.x, -h.y),
            1 => Point2::new(h.x, -h.y),
            2 => Point2::new(h.x, h.y),
            _ => Point2::new(-h.x, h.y),
        }
    }
    fn core_axis_count(&self) -> usize {
        2
    }
    fn core_axis(&self, i: usize) -> Vector2<T> {
        if i == 0 { Vector2::x() } else { Vector2::y() }
    }
    fn radius(&self) -> T {
        T::zero()
    }
    fn core_interval(&self, dir: &Vector2<T>) -> (T, T) {
        let h = self.half_extents();
        let r = num_traits::Float::abs(dir.x) * h.x + num_traits::Float::abs(dir.y) * h.y;
        (-r, r)
    }
    fn core_support(&self, dir: &Vector2<T>) -> Point2<T> {
        self.local_support_point(dir)
    }
}

impl<T: Real> Polygonal<T> for Triangle<T> {
    fn core_vertex_count(&self) -> usize {
        3
    }
    fn core_vertex(&self, i: usize) -> Point2<T> {
        self.vertices()[i]
    }
    fn core_axis_count(&self) -> usize {
        3
    }
    fn core_axis(&self, i: usize) -> Vector2<T> {
        self.normals()[i]
    }
    fn radius(&self) -> T {
        T::zero()
    }
    fn core_interval(&self, dir: &Vector2<T>) -> (T, T) {
        slice_interval(self.vertices(), dir)
    }
    fn has_edge_normals(&self) -> bool {
        true
    }
    fn core_extent_and_shortest_edge(&self) -> (T, T) {
        (self.extent(), self.shortest_edge_squared())
    }
    fn core_extent(&self) -> T {
        self.extent()
    }
}

impl<T: Real> Polygonal<T> for ConvexPolygon<T> {
    fn core_vertex_count(&self) -> usize {
        self.len()
    }
    fn core_vertex(&self, i: usize) -> Point2<T> {
        self.vertices()[i]
    }
    fn core_axis_count(&self) -> usize {
        self.len()
    }
    fn core_axis(&self, i: usize) -> Vector2<T> {
        self.normals()[i]
    }
    fn radius(&self) -> T {
        T::zero()
    }
    fn core_interval(&self, dir: &Vector2<T>) -> (T, T) {
        slice_interval(self.vertices(), dir)
    }
    fn has_edge_normals(&self) -> bool {
        true
    }
    fn core_extent_and_shortest_edge(&self) -> (T, T) {
        (self.extent(), self.shortest_edge_squared())
    }
    fn core_extent(&self) -> T {
        self.extent()
    }
}

/// A rounded polygon's core is its polygon, with the same edge normals,
/// grown by its radius.
impl<T: Real> Polygonal<T> for RoundedPolygon<T> {
    fn core_vertex_count(&self) -> usize {
        self.core().len()
    }
    fn core_vertex(&self, i: usize) -> Point2<T> {
        self.vertices()[i]
    }
    fn core_axis_count(&self) -> usize {
        self.core().len()
    }
    fn core_axis(&self, i: usize) -> Vector2<T> {
        self.normals()[i]
    }
    fn radius(&self) -> T {
        RoundedPolygon::radius(self)
    }
    fn core_interval(&self, dir: &Vector2<T>) -> (T, T) {
        slice_interval(self.vertices(), dir)
    }
    fn has_edge_normals(&self) -> bool {
        true
    }
    fn core_extent_and_shortest_edge(&self) -> (T, T) {
        (self.core().extent(), self.core().shortest_edge_squared())
    }
    fn core_extent(&self) -> T {
        self.core().extent()
    }
}

/// `(min, max)` of `v · dir` over the vertices (plain comparisons: a NaN
/// projection is skipped, never propagated into a panic).
#[inline]
fn slice_interval<T: Real>(vertices: &[Point2<T>], dir: &Vector2<T>) -> (T, T) {
    let Some((first, rest)) = vertices.split_first() else {
        return (T::zero(), T::zero());
    };
    let x = first.coords.dot(dir);
    let (mut lo, mut hi) = (x, x);
    for v in rest {
        let x = v.coords.dot(dir);
        if x < lo {
            lo = x;
        }
        if x > hi {
            hi = x;
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The projection extremes over the core vertices, each dot product
    /// as `Vector2::dot` computes it: the reference the closed forms must
    /// equal exactly (the separating-axis test takes either).
    fn vertex_interval<T: Real, P: Polygonal<T>>(p: &P, dir: &Vector2<T>) -> (T, T) {
        (0..p.core_vertex_count())
            .map(|i| p.core_vertex(i).coords.dot(dir))
            .fold((T::infinity(), T::neg_infinity()), |(lo, hi), d| {
                (num_traits::Float::min(lo, d), num_traits::Float::max(hi, d))
            })
    }

    /// The boxes' closed-form intervals equal the vertices' extremes, bit
    /// for bit (up to the sign of a zero): rounding is monotonic and a
    /// negated product is exact, so the largest sum of rounded products is
    /// the rounded sum of their largest values.
    fn box_intervals_are_the_vertex_extremes<T: Real>(
        (lo, size): ([f64; 2], [f64; 2]),
        (angle, snap): (f64, u8),
    ) -> Result<(), TestCaseError> {
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let min = Point2::from(v(lo[0], lo[1]));
        let aabb = Aabb::new(min, min + v(size[0], size[1])).unwrap();
        let obb = Obb::new(v(size[0], size[1])).unwrap();
        // Axis-aligned directions (with zero components, either sign) too.
        let dir = match snap {
            0 => v(0.0, 1.0),
            1 => v(-0.0, -1.0),
            2 => v(1.0, -0.0),
            _ => v(angle.cos(), angle.sin()),
        };
        prop_assert_eq!(aabb.core_interval(&dir), vertex_interval(&aabb, &dir));
        prop_assert_eq!(obb.core_interval(&dir), vertex_interval(&obb, &dir));
        Ok(())
    }

    proptest! {
        #[test]
        fn box_intervals_are_exact(
            corner in (prop::array::uniform2(-1e4f64..1e4), prop::array::uniform2(1e-3f64..1e3)),
            dir in (-4.0f64..4.0, 0u8..6),
        ) {
            box_intervals_are_the_vertex_extremes::<f32>(corner, dir)?;
            box_intervals_are_the_vertex_extremes::<f64>(corner, dir)?;
        }
    }
}
