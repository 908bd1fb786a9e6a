//! GJK: whether two convex shapes intersect, and how far apart they are.
//!
//! **What.** For two convex shapes given by their support functions
//! ([`Convex`]) and their world poses, [`gjk_intersects`] decides whether the
//! closed sets meet (touching counts) and [`gjk_distance`] also returns the
//! distance and a closest pair of points when they do not. Everything is in the
//! world frame the poses map into.
//!
//! **Method** (Gilbert–Johnson–Keerthi on the Minkowski difference
//! `D = A − B`, which contains the origin exactly when `A` and `B` meet):
//! 1. Probe both shapes with the four axis directions: this bounds their
//!    coordinates (`scale`, the largest absolute coordinate) and gives a first
//!    search direction, from the centre of `D`'s box towards the origin
//!    (`+x` when the centres coincide). All differences `a − b` are multiplied
//!    by a power of two near `1 / scale` (exact), so the iteration works on
//!    numbers of size about one whatever the units.
//! 2. Keep a simplex of at most three support points `w = s_A(d) − s_B(−d)` of
//!    `D` and `v`, the point of their convex hull closest to the origin
//!    (barycentric regions, Catto's "solve2 / solve3"; an edge's closest point
//!    is computed as the projection on its normal, so `−v` is exactly
//!    perpendicular to it).
//! 3. Stop as **intersecting** when the triangle encloses the origin or
//!    `|v| ≤ δ` (the touching tolerance below). Otherwise take the next support
//!    point `w = s_D(−v)`:
//!    - `v·w / |v| > δ`: a line separates the origin from `D` by more than `δ`,
//!      **separated** ([`gjk_distance`] keeps iterating to refine the distance
//!      but never revisits the decision);
//!    - `|v| − v·w / |v| ≤ δ`, or `w` is already in the simplex: converged,
//!      **separated** at distance `|v|`;
//!    - else add `w`, solve again; if `|v|` did not shrink (rounding), stop as
//!      converged.
//!
//! **Why it is correct.** `dist(0, D) = dist(A, B)`. Every `v` is a point of
//! `D`, so `|v|` is an upper bound of the distance, and `v·s_D(−v) / |v|` is a
//! lower bound (the support line in direction `−v` has all of `D` on one side).
//! Each step strictly decreases `|v|` (the new point lies beyond the current
//! bound), and a polygonal `D` has finitely many support points, so the loop
//! terminates; for curved shapes the gap between the bounds shrinks by about a
//! factor four per step (the new point bisects the arc under the current edge).
//! Hence: shapes that touch (distance 0) are always reported intersecting, since
//! a separated answer needs a positive lower bound; shapes farther apart than `δ`
//! are always separated, since an intersecting answer needs `|v| ≤ δ` or an
//! enclosing triangle. Between 0 and `δ` either answer may come back.
//!
//! **Tolerance.** `δ = gjk_tolerance() · scale` ([`gjk_tolerance`] is `64 ε`:
//! f32 `7.6e-6`, f64 `1.4e-14` per unit of the largest coordinate). It covers
//! the rounding of the poses, of `a − b` and of the simplex solve (a few `ε ·
//! scale` each) with a wide margin, and is the convergence threshold of EPA too.
//!
//! **Caps.** At most `GJK_MAX_ITERATIONS` = 64 support steps (polygons need
//! about as many as they have vertices near the closest features; two touching
//! circles about 10 in f32 and 25 in f64). At the cap the state is judged as at
//! convergence: intersecting only if `|v| ≤ δ`.
//!
//! **References.** Ericson, *Real-Time Collision Detection*, §9.5; Catto, "Computing
//! Distance using GJK", GDC 2010 (the barycentric simplex solver); van den
//! Bergen, *Collision Detection in Interactive 3D Environments*, §4.3 (the
//! lower bound used as the stopping rule).
//!
//! **Degenerate cases.** Point shapes and segments give a flat or single-point
//! `D`; the solver handles collinear triangles through its edge regions and
//! never divides by zero. Coincident box centres start from `+x`. Shapes whose
//! coordinates are all zero (two points at the origin) get `δ = 0`, an exact
//! decision. Valid shapes and finite poses never produce NaN; coordinates beyond
//! about `max / 4` of the float type may overflow `a − b`.

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::{Convex, Real};

/// Most support steps one GJK query takes (see the module documentation).
pub(crate) const GJK_MAX_ITERATIONS: usize = 64;

/// The relative tolerance of GJK's touching decision and of EPA's convergence:
/// `64 ε` of `T` (f32: `7.6e-6`, f64: `1.4e-14`).
///
/// A query multiplies it by the shapes' scale, their largest absolute world
/// coordinate, to get `δ`: shapes closer than `δ` may be reported as touching,
/// and EPA depths of curved shapes are accurate to `δ`.
///
/// ```
/// use narrowphase::gjk::gjk_tolerance;
/// assert_eq!(gjk_tolerance::<f64>(), 64.0 * f64::EPSILON);
/// assert!(gjk_tolerance::<f32>() < 1e-5);
/// ```
#[must_use]
#[inline]
pub fn gjk_tolerance<T: Real>() -> T {
    shape::tolerance::gjk::<T>()
}

/// The answer of [`gjk_distance`].
///
/// ```
/// use nalgebra::Isometry2;
/// use shape::prelude::*;
/// use narrowphase::gjk::{gjk_distance, GjkResult};
/// let c = Circle::new(1.0f32).unwrap();
/// let id = Isometry2::identity();
/// assert_eq!(gjk_distance(&c, &id, &c, &Isometry2::translation(1.0, 0.0)), GjkResult::Intersecting);
/// assert!((gjk_distance(&c, &id, &c, &Isometry2::translation(0.0, 3.0)).distance() - 1.0).abs() < 1e-5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GjkResult<T: Real> {
    /// The shapes intersect or touch (their distance is within the tolerance
    /// `δ`; see [`gjk_tolerance`]).
    Intersecting,
    /// The shapes are disjoint.
    Separated {
        /// The distance between the shapes, `> 0`.
        distance: T,
        /// The point of A closest to B.
        point_a: Point2<T>,
        /// The point of B closest to A.
        point_b: Point2<T>,
        /// Unit vector from A towards B, `(point_b − point_a) / distance`.
        normal: Unit<Vector2<T>>,
    },
}

impl<T: Real> GjkResult<T> {
    /// Whether the answer is [`GjkResult::Intersecting`].
    ///
    /// ```
    /// use narrowphase::gjk::GjkResult;
    /// assert!(GjkResult::<f32>::Intersecting.is_intersecting());
    /// ```
    #[must_use]
    pub fn is_intersecting(&self) -> bool {
        matches!(self, Self::Intersecting)
    }

    /// The distance: zero when intersecting.
    ///
    /// ```
    /// use narrowphase::gjk::GjkResult;
    /// assert_eq!(GjkResult::<f64>::Intersecting.distance(), 0.0);
    /// ```
    #[must_use]
    pub fn distance(&self) -> T {
        match self {
            Self::Intersecting => T::zero(),
            Self::Separated { distance, .. } => *distance,
        }
    }

    /// The same answer seen from B: points swapped, normal negated.
    ///
    /// ```
    /// use nalgebra::{Point2, Unit, Vector2};
    /// use narrowphase::gjk::GjkResult;
    /// let r = GjkResult::Separated {
    ///     distance: 1.0,
    ///     point_a: Point2::new(0.0, 0.0),
    ///     point_b: Point2::new(1.0, 0.0),
    ///     normal: Unit::new_normalize(Vector2::new(1.0, 0.0)),
    /// };
    /// let GjkResult::Separated { point_a, normal, .. } = r.flipped() else { panic!() };
    /// assert_eq!((point_a.x, normal.x), (1.0, -1.0));
    /// ```
    #[must_use]
    pub fn flipped(&self) -> Self {
        match *self {
            Self::Intersecting => Self::Intersecting,
            Self::Separated {
                distance,
                point_a,
                point_b,
                normal,
            } => Self::Separated {
                distance,
                point_a: point_b,
                point_b: point_a,
                normal: -normal,
            },
        }
    }
}

/// Whether two convex shapes intersect (closed sets: touching counts, within
/// the tolerance of [`gjk_tolerance`]).
///
/// The generic fallback for pairs without a dedicated kernel; it needs nothing
/// but the support functions. [`epa_contact`](super::epa_contact) returns
/// `Some` for exactly the same inputs.
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use shape::prelude::*;
/// use narrowphase::gjk::gjk_intersects;
/// let e = Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
/// let c = Circle::new(1.0).unwrap();
/// let id = Isometry2::identity();
/// assert!(gjk_intersects(&e, &id, &c, &Isometry2::translation(2.5, 0.0)));
/// assert!(gjk_intersects(&e, &id, &c, &Isometry2::translation(3.0, 0.0))); // touching
/// assert!(!gjk_intersects(&e, &id, &c, &Isometry2::translation(0.0, 2.5)));
/// ```
pub fn gjk_intersects<T: Real>(
    a: &dyn Convex<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Convex<T>,
    pose_b: &Isometry2<T>,
) -> bool {
    let m = Minkowski::new(a, pose_a, b, pose_b);
    matches!(run(&m, false).outcome, Outcome::Intersecting { .. })
}

/// The distance between two convex shapes and a closest pair of points, or
/// [`GjkResult::Intersecting`].
///
/// Intersecting exactly when [`gjk_intersects`] says so. The distance is
/// accurate to `δ` (see [`gjk_tolerance`]); for polygons it is exact up to
/// rounding.
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use shape::prelude::*;
/// use narrowphase::gjk::{gjk_distance, GjkResult};
/// let a = Obb::new(Vector2::new(1.0, 1.0)).unwrap();
/// let b = Circle::new(1.0).unwrap();
/// let r = gjk_distance(&a, &Isometry2::identity(), &b, &Isometry2::translation(4.0, 0.5));
/// let GjkResult::Separated { distance, point_a, point_b, normal } = r else { panic!() };
/// assert!((distance - 2.0f64).abs() < 1e-12);
/// assert!((point_a.x - 1.0).abs() < 1e-12 && (point_b.x - 3.0).abs() < 1e-12);
/// assert!((normal.x - 1.0).abs() < 1e-12);
/// ```
pub fn gjk_distance<T: Real>(
    a: &dyn Convex<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Convex<T>,
    pose_b: &Isometry2<T>,
) -> GjkResult<T> {
    let m = Minkowski::new(a, pose_a, b, pose_b);
    match run(&m, true).outcome {
        Outcome::Intersecting { .. } => GjkResult::Intersecting,
        Outcome::Separated { simplex, v } => {
            let (point_a, point_b) = simplex.witnesses();
            let len = v.norm();
            GjkResult::Separated {
                distance: len * m.up,
                point_a,
                point_b,
                // `len > δ ≥ 0` here: separated answers are only given for
                // |v| > δ, so the division is safe.
                normal: Unit::new_unchecked(-v / len),
            }
        }
    }
}

/// A support point of `D = A − B`: `w = (a − b) · 2^−k` in the scaled frame,
/// with the world points it came from.
#[derive(Debug, Clone, Copy)]
pub(super) struct SupportPoint<T: Real> {
    /// `a − b`, scaled.
    pub(super) w: Vector2<T>,
    /// The support point of A (world).
    pub(super) a: Point2<T>,
    /// The support point of B (world).
    pub(super) b: Point2<T>,
}

/// The Minkowski difference `A − B` of two posed shapes, in the scaled frame.
pub(super) struct Minkowski<'s, T: Real> {
    a: &'s dyn Convex<T>,
    pose_a: &'s Isometry2<T>,
    b: &'s dyn Convex<T>,
    pose_b: &'s Isometry2<T>,
    /// `2^−k`, multiplies world differences into the scaled frame.
    down: T,
    /// `2^k`, multiplies scaled lengths back into world units.
    pub(super) up: T,
    /// The touching tolerance `δ`, in scaled units.
    pub(super) tol: T,
    /// First search direction: from the centre of `D`'s box to the origin.
    initial_dir: Vector2<T>,
}

impl<'s, T: Real> Minkowski<'s, T> {
    pub(super) fn new(
        a: &'s dyn Convex<T>,
        pose_a: &'s Isometry2<T>,
        b: &'s dyn Convex<T>,
        pose_b: &'s Isometry2<T>,
    ) -> Self {
        let (lo_a, hi_a) = support_box(a, pose_a);
        let (lo_b, hi_b) = support_box(b, pose_b);
        let scale = [lo_a, hi_a, lo_b, hi_b]
            .iter()
            .fold(T::zero(), |s, p| Float::max(s, p.coords.amax()));
        let (up, down) = power_of_two_near(scale);
        // Scaling the four corners by 2^−k before adding keeps the sum exact
        // and antisymmetric: swapping A and B negates the direction exactly.
        let dir =
            (lo_b.coords * down + hi_b.coords * down) - (lo_a.coords * down + hi_a.coords * down);
        let initial_dir = if dir == Vector2::zeros() {
            Vector2::x()
        } else {
            dir
        };
        Self {
            a,
            pose_a,
            b,
            pose_b,
            down,
            up,
            tol: gjk_tolerance::<T>() * scale * down,
            initial_dir,
        }
    }

    /// The support point of `D` in direction `d` (any length, scaled frame).
    pub(super) fn support(&self, d: &Vector2<T>) -> SupportPoint<T> {
        let a = self.a.support_point(self.pose_a, d);
        let b = self.b.support_point(self.pose_b, &-d);
        // Scale each point first (exact), then subtract: no overflow of a − b
        // for coordinates below the float's maximum / 2.
        SupportPoint {
            w: a.coords * self.down - b.coords * self.down,
            a,
            b,
        }
    }
}

/// The corners (min, max) of the box spanned by a shape's supports in ±x, ±y.
pub(super) fn support_box<T: Real>(
    s: &dyn Convex<T>,
    pose: &Isometry2<T>,
) -> (Point2<T>, Point2<T>) {
    let x = Vector2::x();
    let y = Vector2::y();
    let lo = Point2::new(s.support_point(pose, &-x).x, s.support_point(pose, &-y).y);
    let hi = Point2::new(s.support_point(pose, &x).x, s.support_point(pose, &y).y);
    (lo, hi)
}

/// `(2^k, 2^−k)` with `2^k ≤ scale < 2^(k+1)` (k clamped to ±100 so both
/// stay normal numbers in f32); `(1, 1)` for a zero or non-finite scale.
pub(super) fn power_of_two_near<T: Real>(scale: T) -> (T, T) {
    if !(scale > T::zero() && Float::is_finite(scale)) {
        return (T::one(), T::one());
    }
    let k = shape::math::exponent(scale).unwrap_or(0).clamp(-100, 100);
    (T::lit(shape::math::pow2(k)), T::lit(shape::math::pow2(-k)))
}

/// A simplex of one to three support points, with the barycentric weights of
/// its point closest to the origin.
#[derive(Debug, Clone, Copy)]
pub(super) struct Simplex<T: Real> {
    pub(super) v: [SupportPoint<T>; 3],
    /// Normalised barycentric weights of the closest point (first `count`).
    bary: [T; 3],
    pub(super) count: usize,
}

impl<T: Real> Simplex<T> {
    pub(super) fn new(p: SupportPoint<T>) -> Self {
        Self {
            v: [p; 3],
            bary: [T::one(), T::zero(), T::zero()],
            count: 1,
        }
    }

    /// A two-point simplex, solved (used by EPA for degenerate triangles).
    pub(super) fn segment(p: SupportPoint<T>, q: SupportPoint<T>) -> Self {
        let mut s = Self {
            v: [p, q, q],
            bary: [T::one(), T::zero(), T::zero()],
            count: 2,
        };
        s.solve();
        s
    }

    fn contains(&self, p: &SupportPoint<T>) -> bool {
        self.v[..self.count].iter().any(|q| q.w == p.w)
    }

    pub(super) fn push(&mut self, p: SupportPoint<T>) {
        // Only called with count < 3: a full simplex ends the iteration.
        self.v[self.count] = p;
        self.count += 1;
    }

    /// The closest point of the simplex to the origin (scaled frame).
    pub(super) fn closest(&self) -> Vector2<T> {
        match self.count {
            1 => self.v[0].w,
            2 => {
                // Projection of the origin on the edge's line, along its normal:
                // exactly perpendicular to the edge, and accurate when the edge
                // passes close to the origin (Catto's remark on solve2).
                let (p, q) = (self.v[0].w, self.v[1].w);
                if self.bary[1] == T::zero() {
                    return p;
                }
                if self.bary[0] == T::zero() {
                    return q;
                }
                let e = q - p;
                let n = Vector2::new(-e.y, e.x);
                n * (n.dot(&p) / n.norm_squared())
            }
            _ => Vector2::zeros(),
        }
    }

    /// The closest points on A and B (world): the same barycentric combination
    /// of the support points' sources.
    pub(super) fn witnesses(&self) -> (Point2<T>, Point2<T>) {
        let mut pa = Vector2::zeros();
        let mut pb = Vector2::zeros();
        for (s, &l) in self.v[..self.count].iter().zip(&self.bary) {
            pa += s.a.coords * l;
            pb += s.b.coords * l;
        }
        (Point2::from(pa), Point2::from(pb))
    }

    /// Reduces the simplex to the smallest face holding the closest point to
    /// the origin and records that point's barycentric weights.
    pub(super) fn solve(&mut self) {
        match self.count {
            2 => self.solve2(),
            3 => self.solve3(),
            _ => self.bary = [T::one(), T::zero(), T::zero()],
        }
    }

    fn keep1(&mut self, i: usize) {
        self.v[0] = self.v[i];
        self.bary = [T::one(), T::zero(), T::zero()];
        self.count = 1;
    }

    /// Weights `u, v > 0` (unnormalised) of the edge `(i, j)`.
    fn keep2(&mut self, i: usize, j: usize, u: T, v: T) {
        let (p, q) = (self.v[i], self.v[j]);
        self.v[0] = p;
        self.v[1] = q;
        let s = u + v;
        self.bary = [u / s, v / s, T::zero()];
        self.count = 2;
    }

    /// Segment `[w1, w2]`. With `e = w2 − w1`, the origin's projection has
    /// weights `(w2·e, −w1·e) / |e|²`; a non-positive weight puts it in the
    /// other end point's region.
    fn solve2(&mut self) {
        let (w1, w2) = (self.v[0].w, self.v[1].w);
        let e = w2 - w1;
        let u = w2.dot(&e);
        let v = -w1.dot(&e);
        if v <= T::zero() {
            self.keep1(0);
        } else if u <= T::zero() {
            self.keep1(1);
        } else {
            self.keep2(0, 1, u, v);
        }
    }

    /// Triangle `[w1, w2, w3]` (Catto, GDC 2010): edge weights as in
    /// [`solve2`](Self::solve2); the triangle weights are the signed areas
    /// `cross(w2, w3)`, `cross(w3, w1)`, `cross(w1, w2)` times the triangle's
    /// orientation `n = cross(e12, e13)`. A non-positive triangle weight puts the
    /// origin outside the opposite edge. A collinear triangle (`n = 0`) makes
    /// every triangle weight zero, so one of its edge or vertex regions applies.
    fn solve3(&mut self) {
        let (w1, w2, w3) = (self.v[0].w, self.v[1].w, self.v[2].w);
        let e12 = w2 - w1;
        let (d12_1, d12_2) = (w2.dot(&e12), -w1.dot(&e12));
        let e13 = w3 - w1;
        let (d13_1, d13_2) = (w3.dot(&e13), -w1.dot(&e13));
        let e23 = w3 - w2;
        let (d23_1, d23_2) = (w3.dot(&e23), -w2.dot(&e23));
        let n = e12.perp(&e13);
        let d123_1 = n * w2.perp(&w3);
        let d123_2 = n * w3.perp(&w1);
        let d123_3 = n * w1.perp(&w2);
        let zero = T::zero();
        if d12_2 <= zero && d13_2 <= zero {
            self.keep1(0);
        } else if d12_1 > zero && d12_2 > zero && d123_3 <= zero {
            self.keep2(0, 1, d12_1, d12_2);
        } else if d13_1 > zero && d13_2 > zero && d123_2 <= zero {
            self.keep2(0, 2, d13_1, d13_2);
        } else if d12_1 <= zero && d23_2 <= zero {
            self.keep1(1);
        } else if d13_1 <= zero && d23_1 <= zero {
            self.keep1(2);
        } else if d23_1 > zero && d23_2 > zero && d123_1 <= zero {
            self.keep2(1, 2, d23_1, d23_2);
        } else {
            // The origin is inside (or, by rounding, on) the triangle.
            let s = d123_1 + d123_2 + d123_3;
            self.bary = if s > zero {
                [d123_1 / s, d123_2 / s, d123_3 / s]
            } else {
                let third = T::one() / T::lit(3.0);
                [third; 3]
            };
        }
    }
}

/// How the iteration ended.
pub(super) enum Outcome<T: Real> {
    /// The origin is enclosed (`simplex.count == 3`) or within `δ` of the
    /// simplex; `dir` is the search direction that produced the newest point.
    Intersecting {
        simplex: Simplex<T>,
        dir: Vector2<T>,
    },
    /// Separated; `v` (scaled) is the simplex's closest point to the origin,
    /// `|v| > δ`.
    Separated { simplex: Simplex<T>, v: Vector2<T> },
}

/// The outcome and the number of support steps taken.
pub(super) struct Run<T: Real> {
    pub(super) outcome: Outcome<T>,
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the tests"))]
    pub(super) iterations: usize,
}

/// The GJK iteration of the module documentation. With `refine == false` it
/// stops as soon as separation is proven; with `refine == true` it goes on to
/// converge the distance. Every decision is taken by the same code in the same
/// order, so both modes (and EPA, which uses `refine == false`) agree on
/// intersecting versus separated for every input.
pub(super) fn run<T: Real>(m: &Minkowski<'_, T>, refine: bool) -> Run<T> {
    let tol = m.tol;
    let mut dir = m.initial_dir;
    let mut simplex = Simplex::new(m.support(&dir));
    let mut v = simplex.closest();
    let mut vv = v.norm_squared();
    // Set once a support line proved separation (refine mode only).
    let mut proven: Option<(Simplex<T>, Vector2<T>)> = None;
    let mut iterations = 0;
    let separated = |simplex, v| Outcome::Separated { simplex, v };
    loop {
        if simplex.count == 3 || vv <= tol * tol {
            let outcome = match proven {
                // Rounding contradicted a proof: keep the proven answer.
                Some((s, pv)) => separated(s, pv),
                None => Outcome::Intersecting { simplex, dir },
            };
            return Run {
                outcome,
                iterations,
            };
        }
        if iterations == GJK_MAX_ITERATIONS {
            break;
        }
        iterations += 1;
        let len = Float::sqrt(vv);
        dir = -v;
        let w = m.support(&dir);
        let vw = v.dot(&w.w);
        if vw > tol * len {
            // The support line in direction −v lies beyond δ: separated.
            if !refine {
                break;
            }
            proven = Some((simplex, v));
        }
        // Converged: the lower bound vw / |v| is within δ of |v| (so the
        // distance is known to δ and, as |v| > δ, is positive), or no new point.
        if vv - vw <= tol * len || simplex.contains(&w) {
            break;
        }
        let previous = simplex;
        simplex.push(w);
        simplex.solve();
        let nv = simplex.closest();
        let nvv = nv.norm_squared();
        if simplex.count < 3 && nvv >= vv {
            // No progress, only possible by rounding: keep the better state.
            simplex = previous;
            break;
        }
        v = nv;
        vv = nvv;
        if proven.is_some() {
            proven = Some((simplex, v));
        }
    }
    Run {
        outcome: separated(simplex, v),
        iterations,
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::Vector2;
    use shape::for_each_precision;
    use shape::testing::test_tolerance;
    use shape::{Aabb, Capsule, Circle, ConvexPolygon, Ellipse, Obb, Point, Segment};

    use super::*;

    fn p<T: Real>(x: f64, y: f64) -> Point2<T> {
        Point2::new(T::lit(x), T::lit(y))
    }

    fn at<T: Real>(x: f64, y: f64) -> Isometry2<T> {
        Isometry2::translation(T::lit(x), T::lit(y))
    }

    fn separated<T: Real>(r: GjkResult<T>) -> (T, Point2<T>, Point2<T>, Vector2<T>) {
        match r {
            GjkResult::Separated {
                distance,
                point_a,
                point_b,
                normal,
            } => (distance, point_a, point_b, normal.into_inner()),
            GjkResult::Intersecting => panic!("expected separated"),
        }
    }

    fn circles<T: Real>() {
        let c = Circle::new(T::one()).unwrap();
        let id = Isometry2::identity();
        let tol = test_tolerance::<T>(T::lit(4.0));
        assert!(gjk_intersects(&c, &id, &c, &at(1.5, 0.0)));
        assert!(gjk_distance(&c, &id, &c, &at(1.5, 0.0)).is_intersecting());
        // Touching at (1, 0).
        assert!(gjk_intersects(&c, &id, &c, &at(2.0, 0.0)));
        let (d, pa, pb, n) = separated(gjk_distance(&c, &id, &c, &at(2.5, 0.0)));
        assert!(Float::abs(d - T::half()) < tol);
        assert!((pa - p(1.0, 0.0)).norm() < tol && (pb - p(1.5, 0.0)).norm() < tol);
        assert!((n - Vector2::x()).norm() < tol);
        // Diagonal: centres 5 apart along (3, 4).
        let (d, _, _, n) = separated(gjk_distance(&c, &id, &c, &at(3.0, 4.0)));
        assert!(Float::abs(d - T::lit(3.0)) < tol);
        assert!((n - Vector2::new(T::lit(0.6), T::lit(0.8))).norm() < tol);
    }
    for_each_precision!(circles_known, circles);

    /// Boxes touching at exactly representable coordinates collide; a gap
    /// wider than the tolerance does not, and its width is the distance.
    fn touching_boxes<T: Real>() {
        let a = Obb::new(Vector2::new(T::one(), T::one())).unwrap();
        let id = Isometry2::identity();
        for (x, y) in [(2.0, 0.0), (2.0, 0.5), (2.0, 2.0), (0.0, -2.0), (-2.0, 1.0)] {
            assert!(gjk_intersects(&a, &id, &a, &at(x, y)), "{x} {y}");
            assert!(gjk_distance(&a, &id, &a, &at(x, y)).is_intersecting());
        }
        // A hair apart: 4 δ (δ = 64 ε · scale, scale = 3 here).
        let hair = gjk_tolerance::<T>() * T::lit(3.0) * T::lit(4.0);
        let pose = Isometry2::translation(T::two() + hair, T::half());
        assert!(!gjk_intersects(&a, &id, &a, &pose));
        let (d, pa, pb, n) = separated(gjk_distance(&a, &id, &a, &pose));
        assert!(Float::abs(d - hair) <= T::epsilon() * T::lit(8.0));
        assert_eq!(pa.x, T::one());
        assert_eq!(pb.x, T::one() + hair);
        assert_eq!(n, Vector2::x());
        // Axis-aligned boxes, rotation ignored, corner to corner.
        let b = Aabb::from_half_extents(Vector2::new(T::one(), T::half())).unwrap();
        let turned = Isometry2::new(Vector2::new(T::lit(2.0), T::lit(1.0)), T::lit(0.3));
        assert!(gjk_intersects(&b, &id, &b, &turned));
    }
    for_each_precision!(touching_boxes_known, touching_boxes);

    fn points_and_segments<T: Real>() {
        let id = Isometry2::identity();
        let o = Point::<T>::origin();
        // Two points: equal collide, distinct do not (exact, δ = 0 at the origin).
        assert!(gjk_intersects(&o, &id, &o, &id));
        let (d, ..) = separated(gjk_distance(&o, &id, &o, &at(3.0, 4.0)));
        assert!(Float::abs(d - T::lit(5.0)) < test_tolerance::<T>(T::lit(5.0)));
        // Crossing segments, and a point on a segment.
        let s = Segment::new(p(-1.0, 0.0), p(1.0, 0.0)).unwrap();
        let t = Segment::new(p(0.0, -1.0), p(0.0, 1.0)).unwrap();
        assert!(gjk_intersects(&s, &id, &t, &at(0.25, 0.5)));
        assert!(gjk_intersects(
            &s,
            &id,
            &Point::new(p(0.5, 0.0)).unwrap(),
            &id
        ));
        assert!(!gjk_intersects(&s, &id, &t, &at(0.0, 1.5)));
        // Parallel collinear segments overlapping, and end to end.
        assert!(gjk_intersects(&s, &id, &s, &at(1.5, 0.0)));
        assert!(gjk_intersects(&s, &id, &s, &at(2.0, 0.0)));
        let (d, ..) = separated(gjk_distance(&s, &id, &s, &at(2.5, 0.0)));
        assert!(Float::abs(d - T::half()) < test_tolerance::<T>(T::lit(4.0)));
        // A capsule is a segment grown by its radius.
        let c = Capsule::new(p(-1.0, 0.0), p(1.0, 0.0), T::half()).unwrap();
        let (d, ..) = separated(gjk_distance(&c, &id, &t, &at(0.0, 2.0)));
        assert!(Float::abs(d - T::half()) < test_tolerance::<T>(T::lit(4.0)));
    }
    for_each_precision!(points_and_segments_known, points_and_segments);

    fn point_in_polygon<T: Real>() {
        let hex = ConvexPolygon::from_hull(&[
            p(1.0, 0.0),
            p(0.5, 0.866),
            p(-0.5, 0.866),
            p(-1.0, 0.0),
            p(-0.5, -0.866),
            p(0.5, -0.866),
        ])
        .unwrap();
        let pose = Isometry2::new(Vector2::new(T::lit(5.0), T::zero()), T::lit(0.4));
        let q = Point::<T>::origin();
        assert!(gjk_intersects(&hex, &pose, &q, &at(5.2, 0.1)));
        assert!(gjk_intersects(&q, &at(5.2, 0.1), &hex, &pose));
        assert!(!gjk_intersects(&hex, &pose, &q, &at(6.1, 0.0)));
    }
    for_each_precision!(point_in_polygon_known, point_in_polygon);

    /// Identical shapes on identical poses (box centres coincide: the `+x`
    /// fallback direction) give a deterministic answer without NaN.
    fn coincident<T: Real>() {
        let e = Ellipse::new(Vector2::new(T::two(), T::one())).unwrap();
        let c = Circle::new(T::one()).unwrap();
        let pose = Isometry2::new(Vector2::new(T::lit(-3.0), T::lit(7.0)), T::lit(1.1));
        assert!(gjk_intersects(&e, &pose, &e, &pose));
        assert!(gjk_intersects(&c, &pose, &c, &pose));
        assert!(gjk_intersects(&e, &pose, &c, &pose));
    }
    for_each_precision!(coincident_known, coincident);

    fn ellipses<T: Real>() {
        let e = Ellipse::new(Vector2::new(T::two(), T::one())).unwrap();
        let id = Isometry2::identity();
        let tol = test_tolerance::<T>(T::lit(8.0));
        // Along the major axes: gap 5 − 2 − 2 = 1; along the minor axes 3 − 2 = 1.
        let (d, _, pb, _) = separated(gjk_distance(&e, &id, &e, &at(5.0, 0.0)));
        assert!(Float::abs(d - T::one()) < tol && (pb - p(3.0, 0.0)).norm() < tol);
        let (d, ..) = separated(gjk_distance(&e, &id, &e, &at(0.0, 3.0)));
        assert!(Float::abs(d - T::one()) < tol);
        // Touching along the minor axis, found to the tolerance.
        assert!(gjk_intersects(&e, &id, &e, &at(0.0, 2.0)));
        // The same ellipse turned a quarter: its tip meets the other's side.
        let turned = Isometry2::new(Vector2::new(T::zero(), T::lit(3.0)), T::frac_pi_2());
        assert!(gjk_intersects(&e, &id, &e, &turned));
        let turned = Isometry2::new(Vector2::new(T::zero(), T::lit(3.5)), T::frac_pi_2());
        let (d, ..) = separated(gjk_distance(&e, &id, &e, &turned));
        assert!(Float::abs(d - T::half()) < tol);
    }
    for_each_precision!(ellipses_known, ellipses);

    /// Iteration counts for the slow case (curved, touching): well under the cap.
    fn iterations_touching_circles<T: Real>() {
        let c = Circle::new(T::one()).unwrap();
        let id = Isometry2::identity();
        let pose = Isometry2::translation(T::lit(1.2), T::lit(1.6));
        let m = Minkowski::new(&c, &id, &c, &pose);
        let r = run(&m, true);
        assert!(matches!(r.outcome, Outcome::Intersecting { .. }));
        assert!(r.iterations < GJK_MAX_ITERATIONS / 2, "{}", r.iterations);
    }
    for_each_precision!(iterations_known, iterations_touching_circles);
}
