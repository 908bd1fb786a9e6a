//! Box against box, either of them rotated: the 15-axis separating-axis test
//! (Gottschalk's OBB tree test), computed and answered in A's frame.
//!
//! Box A is centred at `ca` (an [`Aabb3`](shape::Aabb3) may be off-centre)
//! with axes `e0, e1, e2`; box B is centred at `cb` with axes `b0, b1, b2`
//! (the columns of B's rotation relative to A).
//!
//! 1. For two convex polyhedra, if anything separates them then a plane
//!    parallel to a face of one, or to an edge of each, does. For boxes the
//!    candidate axes are the 3 + 3 face normals `ei`, `bj` and the 9 edge cross
//!    products `ei × bj`.
//! 2. On an axis `L`, A projects to `ca·L ± Σ hAi |ei·L|` and B to
//!    `cb·L ± Σ hBj |bj·L|`: the boxes are apart on `L` when
//!    `|(cb − ca)·L| > rA(L) + rB(L)`. The inequality is homogeneous in `L`, so
//!    the boolean test needs no unit axes and no square root.
//! 3. Near-parallel edges: `|ei × bj|² = 1 − (ei·bj)²`. When it is at most
//!    [`axis_length_squared`](shape::tolerance::axis_length_squared)
//!    (`(16 ε)²`, dimensionless because the axes are unit) the cross product is
//!    rounding noise and the axis is skipped. Skipping is sound: for exactly
//!    parallel edges the problem reduces to two rectangles in the plane normal
//!    to the shared direction, which the face normals already separate; an
//!    angle below `16 ε` moves any projection by at most `16 ε` of the boxes'
//!    size.
//! 4. Contact (only after the boolean test passed, so `Some` exactly when it
//!    is `true`): the overlap `rA + rB − |(cb − ca)·L|` on each non-degenerate
//!    axis, divided by `|L|` for the cross products; the axis of least overlap
//!    is the minimum translation, from A towards B (`+L` when
//!    `(cb − ca)·L ≥ 0`). Contact points: for a face axis, the centre of the
//!    other box's deepest feature (vertex, edge or face) and its projection on
//!    the face's plane; for an edge axis, the closest points of the two deepest
//!    edges (Ericson §5.1.9).
//! 5. Fast path: when the relative rotation is exactly the identity (boxes in
//!    the same orientation, the grid of seed 003) the test is three interval
//!    overlaps, as for two `Aabb3`s; the cross products would repeat the face
//!    axes or vanish.
//!
//! Reference: Gottschalk, Lin & Manocha, *OBBTree* (1996); Ericson,
//! *Real-Time Collision Detection*, §4.4.1.
//! Degenerate cases: concentric boxes, and ties in general, push along the
//! first axis of least overlap in the order `e0, e1, e2, b0, b1, b2,
//! e0 × b0, e0 × b1, …`, towards `+L` when the centres' offset along it is zero.

use nalgebra::{Isometry3, Point3, Unit, Vector3};
use num_traits::Float;
use shape::{Cuboid, Real};

use super::{ClosestPoints3, Contact3};

/// A box in A's frame: centre, half extents, unit axes.
#[derive(Clone, Copy)]
pub(super) struct BoxFrame<T: Real> {
    c: Point3<T>,
    h: Vector3<T>,
    axes: [Vector3<T>; 3],
}

impl<T: Real> BoxFrame<T> {
    /// Half the length of the box's projection on `l` (times `|l|`).
    #[inline]
    fn radius(&self, l: &Vector3<T>) -> T {
        self.h.x * Float::abs(self.axes[0].dot(l))
            + self.h.y * Float::abs(self.axes[1].dot(l))
            + self.h.z * Float::abs(self.axes[2].dot(l))
    }

    /// The centre of the box's feature deepest along `d` (unit): a vertex, the
    /// midpoint of an edge, or the centre of a face when `d` is (to within
    /// `tol`) perpendicular to one or two of the box's axes.
    #[inline]
    fn feature(&self, d: &Vector3<T>, tol: T) -> Point3<T> {
        let mut p = self.c;
        for (axis, h) in self.axes.iter().zip(self.h.iter()) {
            let s = axis.dot(d);
            if s > tol {
                p += axis * *h;
            } else if s < -tol {
                p -= axis * *h;
            }
        }
        p
    }

    /// The eight corners.
    fn vertices(&self) -> [Point3<T>; 8] {
        core::array::from_fn(|k| {
            let mut p = self.c;
            for (i, axis) in self.axes.iter().enumerate() {
                let s = if k & (1 << i) == 0 {
                    -self.h[i]
                } else {
                    self.h[i]
                };
                p += axis * s;
            }
            p
        })
    }

    /// The midpoints of the four edges parallel to axis `i`.
    fn edges(&self, i: usize) -> [Point3<T>; 4] {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        core::array::from_fn(|e| {
            let sj = if e & 1 == 0 { -self.h[j] } else { self.h[j] };
            let sk = if e & 2 == 0 { -self.h[k] } else { self.h[k] };
            self.c + self.axes[j] * sj + self.axes[k] * sk
        })
    }

    /// The point of the box nearest `p` (`p` itself inside): `p` clamped in
    /// the box's axes.
    fn nearest_point(&self, p: &Point3<T>) -> Point3<T> {
        let r = p - self.c;
        let mut q = self.c;
        for (axis, h) in self.axes.iter().zip(self.h.iter()) {
            q += axis * nalgebra::clamp(r.dot(axis), -*h, *h);
        }
        q
    }

    /// The box's edge parallel to axis `i` deepest along `d`: its midpoint.
    #[inline]
    fn edge(&self, i: usize, d: &Vector3<T>) -> Point3<T> {
        let mut p = self.c;
        for k in (0..3).filter(|&k| k != i) {
            let s = if self.axes[k].dot(d) < T::zero() {
                -self.h[k]
            } else {
                self.h[k]
            };
            p += self.axes[k] * s;
        }
        p
    }
}

/// The two boxes in A's frame. A's axes are A's frame's; B's are the columns of
/// B's rotation in A's frame.
#[inline]
pub(super) fn frames<T: Real>(
    ca: Point3<T>,
    ha: Vector3<T>,
    cb_local: Point3<T>,
    hb: Vector3<T>,
    b_in_a: &Isometry3<T>,
) -> [BoxFrame<T>; 2] {
    let a = BoxFrame {
        c: ca,
        h: ha,
        axes: [Vector3::x(), Vector3::y(), Vector3::z()],
    };
    let m = b_in_a.rotation.to_rotation_matrix().into_inner();
    let axes = [
        m.column(0).into_owned(),
        m.column(1).into_owned(),
        m.column(2).into_owned(),
    ];
    let b = BoxFrame {
        c: b_in_a * cb_local,
        h: hb,
        axes,
    };
    [a, b]
}

/// Whether the relative rotation is exactly the identity (`q = ±1`).
#[inline]
fn aligned<T: Real>(b_in_a: &Isometry3<T>) -> bool {
    let q = b_in_a.rotation.quaternion();
    q.i == T::zero() && q.j == T::zero() && q.k == T::zero()
}

/// Cross products shorter than this (squared, of unit vectors) are skipped.
#[inline]
fn degenerate<T: Real>(l: &Vector3<T>) -> bool {
    l.norm_squared() <= shape::tolerance::axis_length_squared::<T>()
}

/// The 15-axis test, or the 3 intervals when `aligned`.
#[inline]
pub(super) fn boxes_intersect<T: Real>(f: &[BoxFrame<T>; 2], aligned: bool) -> bool {
    let d = f[1].c - f[0].c;
    if aligned {
        // Identical axes: |d_i| ≤ hA_i + hB_i on each of them.
        return (0..3).all(|i| Float::abs(d[i]) <= f[0].h[i] + f[1].h[i]);
    }
    let apart = |l: &Vector3<T>| Float::abs(d.dot(l)) > f[0].radius(l) + f[1].radius(l);
    if f[0].axes.iter().chain(&f[1].axes).any(apart) {
        return false;
    }
    for a in &f[0].axes {
        for b in &f[1].axes {
            let l = a.cross(b);
            if !degenerate(&l) && apart(&l) {
                return false;
            }
        }
    }
    true
}

/// Which axis gave the minimum translation.
#[derive(Clone, Copy)]
enum Feature {
    FaceA,
    FaceB,
    Edges(usize, usize),
}

/// The contact, assuming [`boxes_intersect`] is `true`.
#[inline]
pub(super) fn boxes_contact<T: Real>(f: &[BoxFrame<T>; 2], aligned: bool) -> Option<Contact3<T>> {
    if !boxes_intersect(f, aligned) {
        return None;
    }
    let d = f[1].c - f[0].c;
    // (overlap, unit axis oriented from A to B, feature)
    let mut best: Option<(T, Vector3<T>, Feature)> = None;
    let mut consider = |l: Vector3<T>, len: T, feature: Feature| {
        let s = d.dot(&l);
        let overlap = (f[0].radius(&l) + f[1].radius(&l) - Float::abs(s)) / len;
        if best.is_none_or(|(o, _, _)| overlap < o) {
            let n = l / len;
            best = Some((overlap, if s < T::zero() { -n } else { n }, feature));
        }
    };
    for a in f[0].axes {
        consider(a, T::one(), Feature::FaceA);
    }
    if !aligned {
        for b in f[1].axes {
            consider(b, T::one(), Feature::FaceB);
        }
        for (i, a) in f[0].axes.iter().enumerate() {
            for (j, b) in f[1].axes.iter().enumerate() {
                let l = a.cross(b);
                if !degenerate(&l) {
                    consider(l, Float::sqrt(l.norm_squared()), Feature::Edges(i, j));
                }
            }
        }
    }
    let (overlap, n, feature) = best?;
    // Rounding can leave a touching pair a hair below zero.
    let depth = Float::max(overlap, T::zero());
    let tol = T::epsilon() * T::lit(16.0);
    let (point_a, point_b) = match feature {
        Feature::FaceA => {
            let pb = f[1].feature(&-n, tol);
            (pb + n * depth, pb)
        }
        Feature::FaceB => {
            let pa = f[0].feature(&n, tol);
            (pa, pa - n * depth)
        }
        Feature::Edges(i, j) => closest_on_edges(
            f[0].edge(i, &n),
            f[0].axes[i],
            f[0].h[i],
            f[1].edge(j, &-n),
            f[1].axes[j],
            f[1].h[j],
        ),
    };
    Some(Contact3 {
        normal: Unit::new_unchecked(n),
        depth,
        point_a,
        point_b,
    })
}

/// The closest points of the segments `p + s u`, `|s| ≤ hu`, and `q + t v`,
/// `|t| ≤ hv` (`u`, `v` unit and not parallel). Minimising `|r + s u − t v|²`
/// with `r = p − q`: `s = t (u·v) − u·r` and `t = s (u·v) + v·r`; solve, then
/// clamp `t` and recompute `s` (Ericson, *Real-Time Collision Detection*,
/// §5.1.9).
#[inline]
fn closest_on_edges<T: Real>(
    p: Point3<T>,
    u: Vector3<T>,
    hu: T,
    q: Point3<T>,
    v: Vector3<T>,
    hv: T,
) -> (Point3<T>, Point3<T>) {
    let r = p - q;
    let (b, c, f) = (u.dot(&v), u.dot(&r), v.dot(&r));
    let denom = T::one() - b * b;
    let s = if denom > T::zero() {
        nalgebra::clamp((b * f - c) / denom, -hu, hu)
    } else {
        T::zero()
    };
    let t = nalgebra::clamp(b * s + f, -hv, hv);
    let s = nalgebra::clamp(b * t - c, -hu, hu);
    (p + u * s, q + v * t)
}

/// Whether two cuboids intersect; `b_in_a` is B's pose in A's frame.
///
/// ```
/// use nalgebra::{Isometry3, Vector3};
/// use narrowphase::dim3::cuboid_cuboid;
/// let cube = shape::Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap();
/// // Unit cubes on a grid, face to face: touching collides.
/// assert!(cuboid_cuboid(&cube, &cube, &Isometry3::translation(1.0, 0.0, 0.0)));
/// assert!(!cuboid_cuboid(&cube, &cube, &Isometry3::translation(1.0 + 1e-9, 0.0, 0.0)));
/// // Turned 45° about z, B reaches √2/2 towards A.
/// let turned = |x: f64| Isometry3::new(Vector3::new(x, 0.0, 0.0), Vector3::z() * std::f64::consts::FRAC_PI_4);
/// assert!(cuboid_cuboid(&cube, &cube, &turned(1.2)));
/// assert!(!cuboid_cuboid(&cube, &cube, &turned(1.21)));
/// ```
#[inline]
pub fn cuboid_cuboid<T: Real>(a: &Cuboid<T>, b: &Cuboid<T>, b_in_a: &Isometry3<T>) -> bool {
    let f = frames(
        Point3::origin(),
        a.half_extents(),
        Point3::origin(),
        b.half_extents(),
        b_in_a,
    );
    boxes_intersect(&f, aligned(b_in_a))
}

/// The contact of two cuboids, in A's frame.
///
/// ```
/// use nalgebra::{Isometry3, Vector3};
/// use narrowphase::dim3::cuboid_cuboid_contact;
/// let cube = shape::Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap();
/// let turned = Isometry3::new(Vector3::new(1.0, 0.0, 0.0), Vector3::z() * std::f64::consts::FRAC_PI_4);
/// let c = cuboid_cuboid_contact(&cube, &cube, &turned).unwrap();
/// assert!((c.depth - (0.5 + 0.5_f64.sqrt() - 1.0)).abs() < 1e-12); // 0.5 + √2/2 − 1
/// assert!((c.normal.into_inner() - Vector3::x()).norm() < 1e-12);
/// ```
#[inline]
pub fn cuboid_cuboid_contact<T: Real>(
    a: &Cuboid<T>,
    b: &Cuboid<T>,
    b_in_a: &Isometry3<T>,
) -> Option<Contact3<T>> {
    let f = frames(
        Point3::origin(),
        a.half_extents(),
        Point3::origin(),
        b.half_extents(),
        b_in_a,
    );
    boxes_contact(&f, aligned(b_in_a))
}

/// The closest points of two boxes within `max_distance`, in A's frame;
/// `Intersecting` exactly when [`boxes_intersect`] is `true`.
///
/// Apart, the closest pair of two convex polyhedra is a vertex against a
/// face, an edge or a vertex, or an edge against an edge. The first kind is
/// found by clamping every vertex of each box into the other (the point of a
/// box nearest a point, Ericson §5.1.4), the second by the closest points of
/// every pair of edges (§5.1.9): 16 clamps and 144 edge pairs, exact up to
/// rounding. Aligned boxes (the same axes) take the per-axis gaps instead: on
/// each axis the intervals' gap, or, where they overlap, the middle of the
/// overlap for both points.
pub(super) fn boxes_closest_points<T: Real>(
    f: &[BoxFrame<T>; 2],
    aligned: bool,
    max_distance: T,
) -> ClosestPoints3<T> {
    if boxes_intersect(f, aligned) {
        return ClosestPoints3::Intersecting;
    }
    let d = f[1].c - f[0].c;
    // The face axes bound the distance from below.
    let gap = f[0]
        .axes
        .iter()
        .chain(&f[1].axes)
        .map(|l| Float::abs(d.dot(l)) - f[0].radius(l) - f[1].radius(l))
        .fold(T::zero(), Float::max);
    if gap > max_distance {
        return ClosestPoints3::Farther;
    }
    let (pa, pb) = if aligned {
        let mut pa = Point3::origin();
        let mut pb = Point3::origin();
        for i in 0..3 {
            let (a0, a1) = (f[0].c[i] - f[0].h[i], f[0].c[i] + f[0].h[i]);
            let (b0, b1) = (f[1].c[i] - f[1].h[i], f[1].c[i] + f[1].h[i]);
            (pa[i], pb[i]) = if b0 > a1 {
                (a1, b0)
            } else if a0 > b1 {
                (a0, b1)
            } else {
                let m = (Float::max(a0, b0) + Float::min(a1, b1)) * T::half();
                (m, m)
            };
        }
        (pa, pb)
    } else {
        let mut best = (f[0].c, f[1].c);
        let mut best_d2 = T::infinity();
        let mut consider = |p: Point3<T>, q: Point3<T>| {
            let d2 = (q - p).norm_squared();
            if d2 < best_d2 {
                best = (p, q);
                best_d2 = d2;
            }
        };
        for (x, y, flip) in [(0, 1, false), (1, 0, true)] {
            for v in f[x].vertices() {
                let k = f[y].nearest_point(&v);
                if flip { consider(k, v) } else { consider(v, k) }
            }
        }
        for i in 0..3 {
            for ea in f[0].edges(i) {
                for j in 0..3 {
                    for eb in f[1].edges(j) {
                        let (p, q) = closest_on_edges(
                            ea,
                            f[0].axes[i],
                            f[0].h[i],
                            eb,
                            f[1].axes[j],
                            f[1].h[j],
                        );
                        consider(p, q);
                    }
                }
            }
        }
        best
    };
    let (len, n) = crate::polygonal::length_and_direction(pb - pa).unwrap_or((T::zero(), {
        // Touching by rounding: the direction of the centres.
        crate::polygonal::length_and_direction(d).map_or(Vector3::x(), |(_, n)| n)
    }));
    ClosestPoints3::apart(pa, pb, Unit::new_unchecked(n), len, max_distance)
}

/// The closest points of two cuboids within `max_distance`, in A's frame;
/// `Intersecting` exactly when [`cuboid_cuboid`] says so.
///
/// ```
/// use nalgebra::{Isometry3, Point3, Vector3};
/// use narrowphase::{ClosestPoints3, dim3::cuboid_cuboid_closest_points};
/// let cube = shape::Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap();
/// // Turned 45° about z, B's edge reaches √2/2 towards A: 2 − √2/2 − 0.5 apart.
/// let turned = Isometry3::new(Vector3::new(2.0, 0.0, 0.0), Vector3::z() * std::f64::consts::FRAC_PI_4);
/// let ClosestPoints3::WithinMargin { distance, point_a, .. } =
///     cuboid_cuboid_closest_points(&cube, &cube, &turned, 10.0) else { panic!() };
/// assert!((distance - (1.5 - 0.5f64.sqrt())).abs() < 1e-12);
/// assert!((point_a.x - 0.5).abs() < 1e-12);
/// ```
#[inline]
pub fn cuboid_cuboid_closest_points<T: Real>(
    a: &Cuboid<T>,
    b: &Cuboid<T>,
    b_in_a: &Isometry3<T>,
    max_distance: T,
) -> ClosestPoints3<T> {
    let f = frames(
        Point3::origin(),
        a.half_extents(),
        Point3::origin(),
        b.half_extents(),
        b_in_a,
    );
    boxes_closest_points(&f, aligned(b_in_a), max_distance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shape::testing::test_tolerance;

    fn v<T: Real>(x: f64, y: f64, z: f64) -> Vector3<T> {
        Vector3::new(T::lit(x), T::lit(y), T::lit(z))
    }

    fn at<T: Real>(t: Vector3<T>, rot: Vector3<T>) -> Isometry3<T> {
        Isometry3::new(t, rot)
    }

    fn unit<T: Real>() -> Cuboid<T> {
        Cuboid::new(Vector3::repeat(T::half())).unwrap()
    }

    /// Seed 003's grid: unit cubes touching face to face, edge to edge and
    /// corner to corner collide at exact coordinates; a hair apart they do not.
    fn grid<T: Real>() {
        let c = unit::<T>();
        let hair = T::one() + T::epsilon() * T::lit(4.0);
        for o in [
            [1.0, 0.0, 0.0],
            [0.0, -1.0, 0.0],
            [1.0, 1.0, 0.0],
            [-1.0, 1.0, -1.0],
        ] {
            let d = v::<T>(o[0], o[1], o[2]);
            let m = at(d, Vector3::zeros());
            assert!(cuboid_cuboid(&c, &c, &m), "{o:?}");
            let k = cuboid_cuboid_contact(&c, &c, &m).unwrap();
            assert_eq!(k.depth, T::zero());
            assert!(
                !cuboid_cuboid(&c, &c, &at(d * hair, Vector3::zeros())),
                "{o:?}"
            );
            assert!(cuboid_cuboid_contact(&c, &c, &at(d * hair, Vector3::zeros())).is_none());
        }
        // Overlapping by a quarter in y: normal −y, points on the two faces.
        let k = cuboid_cuboid_contact(&c, &c, &at(v(0.25, -0.75, 0.0), Vector3::zeros())).unwrap();
        assert_eq!(
            (k.depth, k.normal.into_inner()),
            (T::lit(0.25), -Vector3::y())
        );
        assert_eq!(k.point_a - k.point_b, -Vector3::y() * T::lit(0.25));
        // Concentric: the first axis, +x.
        let k = cuboid_cuboid_contact(&c, &c, &Isometry3::identity()).unwrap();
        assert_eq!((k.depth, k.normal.into_inner()), (T::one(), Vector3::x()));
    }
    shape::for_each_precision!(on_grid, grid);

    /// A unit cube turned 45° about z reaches √2/2 towards its neighbour.
    fn turned_45<T: Real>() {
        let c = unit::<T>();
        let quarter = Vector3::z() * T::lit(core::f64::consts::FRAC_PI_4);
        let reach = T::half() + T::lit(core::f64::consts::FRAC_1_SQRT_2);
        let tol = test_tolerance(T::two());
        assert!(cuboid_cuboid(
            &c,
            &c,
            &at(Vector3::x() * (reach - tol), quarter)
        ));
        assert!(!cuboid_cuboid(
            &c,
            &c,
            &at(Vector3::x() * (reach + tol), quarter)
        ));
        assert!(
            cuboid_cuboid_contact(&c, &c, &at(Vector3::x() * (reach + tol), quarter)).is_none()
        );
        let k = cuboid_cuboid_contact(&c, &c, &at(Vector3::x(), quarter)).unwrap();
        assert!(Float::abs(k.depth - (reach - T::one())) <= tol, "{k:?}");
        assert!((k.normal.into_inner() - Vector3::x()).norm() <= tol);
        // B's deepest feature is its vertical edge at x = 1 − √2/2: its midpoint.
        assert!(
            (k.point_b - Point3::new(T::one() + T::half() - reach, T::zero(), T::zero())).norm()
                <= tol
        );
        assert!((k.point_a - Point3::new(T::half(), T::zero(), T::zero())).norm() <= tol);
        // Mirrored: A turned, B axis-aligned, approached along −y.
        let k = cuboid_cuboid_contact(&c, &c, &at(-Vector3::y(), -quarter).inverse()).unwrap();
        assert!(Float::abs(k.depth - (reach - T::one())) <= tol, "{k:?}");
    }
    shape::for_each_precision!(turned, turned_45);

    /// A cube turned about all three axes against a large slab: touching where
    /// its lowest vertex (from `Cuboid::vertices`) meets the slab's face.
    fn turned_three_axes<T: Real>() {
        let slab = Cuboid::new(v::<T>(5.0, 5.0, 5.0)).unwrap();
        let c = unit::<T>();
        let rot = v::<T>(0.4, -1.1, 0.7);
        let reach = c
            .vertices(&at(Vector3::zeros(), rot))
            .iter()
            .map(|p| -p.x)
            .fold(T::zero(), Float::max);
        let d = T::lit(5.0) + reach;
        let tol = test_tolerance(T::lit(8.0));
        assert!(cuboid_cuboid(&slab, &c, &at(Vector3::x() * (d - tol), rot)));
        assert!(!cuboid_cuboid(
            &slab,
            &c,
            &at(Vector3::x() * (d + tol), rot)
        ));
        let k =
            cuboid_cuboid_contact(&slab, &c, &at(Vector3::x() * (d - T::lit(0.125)), rot)).unwrap();
        assert!(Float::abs(k.depth - T::lit(0.125)) <= tol, "{k:?}");
        assert!((k.normal.into_inner() - Vector3::x()).norm() <= tol);
        // The deepest point of B is its lowest vertex.
        assert!(Float::abs(k.point_b.x - (T::lit(5.0) - T::lit(0.125))) <= tol);
        // Two turned cubes edge to edge: depth within the reference bound of
        // the 15 axes, no NaN.
        let k = cuboid_cuboid_contact(&c, &c, &at(v(0.7, 0.6, 0.1), rot)).unwrap();
        assert!(k.depth > T::zero() && k.depth < T::one(), "{k:?}");
    }
    shape::for_each_precision!(three_axes, turned_three_axes);

    /// Regression: edges parallel to within rounding give cross products of
    /// size ~1e-20 that must be skipped, not normalised into noise.
    fn near_parallel_edges_skipped<T: Real>() {
        let c = unit::<T>();
        // A quaternion a rounding error away from the identity (the norm of
        // (1, 0, 0, 5e-21) is 1 in both precisions): not the fast path.
        let q = nalgebra::Quaternion::new(T::one(), T::zero(), T::zero(), T::lit(5e-21));
        let rot = nalgebra::UnitQuaternion::new_unchecked(q);
        let m = Isometry3::from_parts(Vector3::x().into(), rot);
        assert!(!aligned(&m));
        assert!(cuboid_cuboid(&c, &c, &m));
        let k = cuboid_cuboid_contact(&c, &c, &m).unwrap();
        assert!(
            k.depth <= test_tolerance(T::one()) && k.normal.x == T::one(),
            "{k:?}"
        );
        let hair = T::one() + T::epsilon() * T::lit(8.0);
        assert!(!cuboid_cuboid(
            &c,
            &c,
            &Isometry3::from_parts((Vector3::x() * hair).into(), rot)
        ));
    }
    shape::for_each_precision!(near_parallel, near_parallel_edges_skipped);
}
