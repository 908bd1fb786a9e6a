//! The general kernel: two shapes seen as convex *cores* (point, segment or
//! polygon) grown by radii ([`Polygonal`]), in A's local frame.
//!
//! Computes whether `A = coreA ⊕ disk(rA)` and `B = coreB ⊕ disk(rB)` intersect
//! and their exact minimum translation.
//!
//! 1. Separating-axis test on the cores: A's axes, B's axes (rotated into A's
//!    frame), and when both cores are degenerate (points or segments) also the
//!    segments' directions; two points are compared directly.
//! 2. If no axis separates the cores, they overlap: the Minkowski difference of
//!    the cores, `K`, contains the origin and the shapes' difference is
//!    `K ⊕ disk(rA + rB)`. Its penetration depth is the distance from the origin
//!    to `∂K` plus `rA + rB`, along the face normal of `K` nearest the origin,
//!    which is the axis of least overlap (seed 000; Ericson, *Real-Time
//!    Collision Detection*, §4.4).
//! 3. If an axis separates the cores by `g > rA + rB`, the shapes are apart.
//!    Otherwise the closest points of the cores are found by brute force over
//!    (vertex, edge) pairs (the closest pair of two convex polygons always has a
//!    vertex on one side), and the shapes intersect when the squared distance is
//!    at most `(rA + rB)²` (no square root on the boolean path). The normal is
//!    the closest points' direction, the depth `rA + rB − d`.
//!
//! Why the axes are complete: for cores with area, the Minkowski difference is a
//! polygon whose edges are parallel to the cores' edges (a segment core adds its
//! own direction as an edge); for two degenerate cores it is a segment or a
//! parallelogram, whose normals and directions are the segments' normals and
//! directions.
//!
//! Degenerate cases: two coincident point cores overlap with the documented
//! normal `+x` of A's frame; closest points at distance zero (cores touching
//! through rounding) take the separating axis as normal.
//!
//! Cost: for cores of at most [`SCAN_UP_TO`] vertices, `O(n·m)` axis
//! projections and a pruned search over the (vertex, edge) pairs; the
//! closest points of two such polygons (edge normals, no radius) instead
//! take a separating face and a descent along their Minkowski difference
//! (`descent.rs`), usually a few steps. A bigger
//! polygon's projections on turning normals climb to their extremes instead
//! of scanning, and two polygons' closest pair comes from a walk round their
//! Minkowski difference (`linear.rs`): `O(n + m)` for every query.

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::Real;

use super::box_segment::box_segment_features;
use super::descent::{Closest, Face, descent, separating_face};
use super::exact::touching_within_rounding;
use super::lanes::{Axes, LANES};
use super::linear::{Extreme, SCAN_UP_TO, big, point_closest, walk_closest};
use crate::polygonal::{Polygonal, length_and_direction, unit};
use crate::{ClosestPoints, Contact};

/// Whether the two rounded cores intersect (closed sets: touching counts).
#[inline]
pub fn core_intersects<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> bool {
    let radii = a.radius() + b.radius();
    match core_sat(a, b, b_in_a) {
        CoreSat::Overlap { .. } => true,
        CoreSat::Separated { gap, .. } if gap > radii => false,
        CoreSat::Separated { axis, .. } => {
            if radii <= T::zero() {
                return false;
            }
            let (pa, pb) = closest_core_points(a, b, b_in_a, &axis);
            (pb - pa).norm_squared() <= radii * radii
        }
    }
}

/// The contact of the two rounded cores, in A's frame, or `None` when apart.
#[inline]
pub fn core_contact<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    core_contact_with::<false, T, A, B>(a, b, b_in_a).map(|(c, _)| c)
}

/// The face of A or B whose outward normal a contact's normal is (A's
/// face `i` as it is, B's face `j` negated and turned into A's frame), when
/// the separating-axis test of two polygons found it; `Unknown` otherwise
/// (rounded or degenerate cores, the box kernels). The contact manifold
/// starts its clipping from it (`manifold/fused.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ContactFace {
    /// Not known from the contact kernel.
    Unknown,
    /// A's face (edge) `i`: the normal is `a.core_axis(i)`.
    OfA(usize),
    /// B's face (edge) `j`: the normal is `−(rotation · b.core_axis(j))`.
    OfB(usize),
}

/// [`core_contact`] and the face its normal came from: the same contact,
/// bit for bit (`core_contact` is this without the face).
#[inline]
pub(crate) fn core_contact_face<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> Option<(Contact<T>, ContactFace)> {
    core_contact_with::<true, T, A, B>(a, b, b_in_a)
}

/// The contact of the two rounded cores, with the face of its normal when
/// `FACE` (else `ContactFace::Unknown`: the contact query's own copy keeps
/// no record of it).
fn core_contact_with<const FACE: bool, T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> Option<(Contact<T>, ContactFace)> {
    let (ra, rb) = (a.radius(), b.radius());
    let radii = ra + rb;
    let (sat, face) = core_sat_face::<FACE, T, A, B>(a, b, b_in_a);
    let (normal, depth) = match sat {
        CoreSat::Overlap { axis, depth } => (axis, depth + radii),
        CoreSat::Separated { gap, .. } if gap > radii => return None,
        CoreSat::Separated { axis, .. } => {
            if radii <= T::zero() {
                return None;
            }
            let (pa, pb, edge) = closest_core_features(a, b, b_in_a, Some(&axis));
            let d2 = (pb - pa).norm_squared();
            if d2 > radii * radii {
                return None;
            }
            // From the edge holding a closest point when there is one; else
            // length and direction from the scaled vector: `d2` may be
            // subnormal (cores 1e-160 apart in f64), and `√d2` too inexact to
            // normalise with.
            let (n, d) = closest_direction(edge, &pa, &pb, Some(&axis)).unwrap_or_else(|| {
                let (d, n) = length_and_direction(pb - pa).unwrap_or((T::zero(), axis));
                (n, d)
            });
            let n = Unit::new_unchecked(n);
            return Some((
                Contact {
                    normal: n,
                    depth: Float::max(radii - d, T::zero()),
                    point_a: pa + n.into_inner() * ra,
                    point_b: pb - n.into_inner() * rb,
                },
                ContactFace::Unknown,
            ));
        }
    };
    let n = normal;
    let point_a = a.core_support(&n) + n * ra;
    let point_b = b_in_a * b.core_support(&b_in_a.rotation.inverse_transform_vector(&-n)) - n * rb;
    Some((
        Contact {
            normal: Unit::new_unchecked(n),
            depth,
            point_a,
            point_b,
        },
        face,
    ))
}

/// The closest points of the two rounded cores (A's frame) when they are
/// apart by at most `max_distance`; `Intersecting` exactly when
/// [`core_intersects`] is `true` (the same separating-axis test and the same
/// squared-distance comparison decide both).
///
/// Apart, the distance is the cores' distance minus both radii: the closest
/// pair of two convex cores has a vertex on one side (brute force over
/// (vertex, edge) pairs, as for the contact), and growing each core by its
/// radius moves its closest point by the radius along the pair's direction.
/// The direction and the distance come from the edge holding a closest point
/// when there is one (exact to rounding even when the cores nearly touch),
/// else from the two closest vertices.
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use narrowphase::{ClosestPoints, sat::core_closest_points};
/// use shape::{Capsule, Obb};
///
/// let wall = Obb::new(Vector2::new(1.0, 1.0)).unwrap();
/// let pill = Capsule::new(Point2::new(0.0, -1.0), Point2::new(0.0, 1.0), 0.5).unwrap();
/// let m = Isometry2::translation(3.0, 0.5);
/// let ClosestPoints::WithinMargin { distance, point_a, point_b, normal } =
///     core_closest_points(&wall, &pill, &m, f64::INFINITY) else { panic!() };
/// assert_eq!(distance, 1.5);
/// assert_eq!(normal.into_inner(), Vector2::x());
/// assert_eq!((point_a.x, point_b.x), (1.0, 2.5));
/// assert_eq!(core_closest_points(&wall, &pill, &m, 1.0), ClosestPoints::Farther);
/// ```
pub fn core_closest_points<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    if a.has_edge_normals()
        && b.has_edge_normals()
        && !big(a, b)
        && a.radius() == T::zero()
        && b.radius() == T::zero()
    {
        // Two small polygons: a separating face, then the descent to the
        // closest features (`descent.rs`).
        return polygons_closest_points(a, b, b_in_a, max_distance);
    }
    match core_sat(a, b, b_in_a) {
        CoreSat::Overlap { .. } => ClosestPoints::Intersecting,
        CoreSat::Separated { axis, gap } => {
            separated_cores(a, b, b_in_a, axis, gap, max_distance, true)
        }
    }
}

/// [`core_closest_points`] for two small cores with outward edge normals
/// and no radius (triangles, polygons): `Intersecting` exactly when no face separates them
/// (the numbers of [`polygon_sat`], so exactly when [`core_intersects`] is
/// `true`), else the closest features by the descent from the separating
/// face (`descent.rs`), or, should rounding keep the descent from settling,
/// by the full walk round the Minkowski difference (`linear.rs`).
fn polygons_closest_points<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    match separating_face(a, b, b_in_a) {
        None => ClosestPoints::Intersecting,
        Some((face, gap)) => apart_from_face(a, b, b_in_a, (face, gap), max_distance),
    }
}

/// The closest points of two cores with outward edge normals and no radius
/// that `face` separates by `gap` (a lower bound of their distance): by the
/// descent from the face (`descent.rs`), or, should rounding keep it from
/// settling, by the full walk round the Minkowski difference (`linear.rs`).
/// The direction and distance come from the edge holding a closest point
/// strictly inside when there is one, else from the two vertices.
pub(crate) fn apart_from_face<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    (face, gap): (Face, T),
    max_distance: T,
) -> ClosestPoints<T> {
    if gap > max_distance {
        return ClosestPoints::Farther;
    }
    let found = descent(a, b, b_in_a, face);
    let Closest { pa, pb, by_edge } = found.unwrap_or_else(|| {
        let (pa, pb, edge) = walk_closest(a, b, b_in_a);
        Closest {
            pa,
            pb,
            by_edge: closest_direction(edge, &pa, &pb, Some(&face.axis(a, b, b_in_a))),
        }
    });
    let (n, d) = by_edge.unwrap_or_else(|| match length_and_direction(pb - pa) {
        // As in `separated_cores`: points that coincide up to rounding give
        // no direction; the separating face's normal does.
        Some((d, n)) if d > coincidence(&pa, &pb) => (n, d),
        Some((d, _)) => (face.axis(a, b, b_in_a), d),
        None => (face.axis(a, b, b_in_a), T::zero()),
    });
    ClosestPoints::apart(pa, pb, Unit::new_unchecked(n), d, max_distance)
}

/// The closest points of two shapes that a pair's own boolean kernel found
/// apart (never `Intersecting`): the cores' closest pair as in
/// [`core_closest_points`]. When the separating-axis test, computed along
/// another path, finds the cores overlapping or touching by rounding, the
/// shapes are reported apart by the smallest positive distance along its
/// axis: the distance is zero exactly when the pair's boolean kernel says
/// they intersect.
pub(crate) fn core_apart<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    match core_sat(a, b, b_in_a) {
        // The exact test found the shapes apart, and the cores' SAT overlaps
        // by rounding: they touch up to rounding. The nearest features still
        // give the points (support points along the axis could lie far apart
        // along a face), at a distance that rounds to (almost) zero.
        CoreSat::Overlap { axis, .. } => {
            separated_cores(a, b, b_in_a, axis, T::zero(), max_distance, false)
        }
        CoreSat::Separated { axis, gap } => {
            separated_cores(a, b, b_in_a, axis, gap, max_distance, false)
        }
    }
}

/// Cores separated along `axis` by `gap > 0`: `Intersecting` when `decide`
/// and the rounded shapes reach each other (the test of
/// [`core_intersects`]), else the closest points.
fn separated_cores<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    axis: Vector2<T>,
    gap: T,
    max_distance: T,
    decide: bool,
) -> ClosestPoints<T> {
    let (ra, rb) = (a.radius(), b.radius());
    let radii = ra + rb;
    // The gap along one axis bounds the cores' distance from below.
    if gap - radii > max_distance {
        return ClosestPoints::Farther;
    }
    let (pa, pb, edge) = closest_core_features(a, b, b_in_a, Some(&axis));
    if decide && radii > T::zero() && gap <= radii && (pb - pa).norm_squared() <= radii * radii {
        return ClosestPoints::Intersecting;
    }
    let (n, d) = closest_direction(edge, &pa, &pb, Some(&axis)).unwrap_or_else(|| {
        match length_and_direction(pb - pa) {
            // Points that coincide up to rounding have no direction worth
            // the name (an f64 box corner 2e-16 from a turned box's side
            // gave the normal (0, 1) off that noise, which is no direction
            // between the shapes): the separating axis then.
            Some((d, n)) if d > coincidence(&pa, &pb) => (n, d),
            Some((d, _)) => (axis, d),
            None => (axis, T::zero()),
        }
    });
    ClosestPoints::apart(
        pa + n * ra,
        pb - n * rb,
        Unit::new_unchecked(n),
        d - radii,
        max_distance,
    )
}

/// How far apart two points computed at their magnitude may be and still
/// be the same point up to rounding: `16 ε` times their largest coordinate.
#[inline]
fn coincidence<T: Real>(pa: &Point2<T>, pb: &Point2<T>) -> T {
    T::epsilon() * T::lit(16.0) * Float::max(pa.coords.amax(), pb.coords.amax())
}

enum CoreSat<T: Real> {
    /// The cores overlap; `axis` (unit, A → B) is the axis of least overlap.
    Overlap { axis: Vector2<T>, depth: T },
    /// `axis` (unit, A → B) separates the cores by `gap > 0`.
    Separated { axis: Vector2<T>, gap: T },
}

/// The core's projection on `axis`: [`Polygonal::core_interval`], the
/// extremes over the vertices, which boxes give in closed form (two
/// products and a sum instead of four dot products). The values are the
/// same: a box's corners pair either value of one coordinate with either
/// of the other, and rounding is monotonic, so the extreme rounded sum is
/// the rounded sum of the two extreme products (`polygonal.rs` tests it).
#[inline]
fn project_a<T: Real, A: Polygonal<T>>(a: &A, axis: &Vector2<T>) -> (T, T) {
    a.core_interval(axis)
}

#[inline]
fn project_b<T: Real, B: Polygonal<T>>(b: &B, b_in_a: &Isometry2<T>, axis: &Vector2<T>) -> (T, T) {
    let local = b_in_a.rotation.inverse_transform_vector(axis);
    let offset = b_in_a.translation.vector.dot(axis);
    let (lo, hi) = project_a(b, &local);
    (lo + offset, hi + offset)
}

/// The separating-axis test of the cores, with touching decided exactly: a
/// gap within rounding of zero between cores that share a point exactly
/// (`exact.rs`) is a touch, depth zero along the axis found.
#[inline]
fn core_sat<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> CoreSat<T> {
    core_sat_face::<false, T, A, B>(a, b, b_in_a).0
}

/// [`core_sat`] and, when `FACE`, the face whose normal its axis is, when
/// two polygons' test knows it ([`ContactFace`]).
#[inline]
fn core_sat_face<const FACE: bool, T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> (CoreSat<T>, ContactFace) {
    let (found, face) = if a.has_edge_normals() && b.has_edge_normals() {
        polygon_sat::<FACE, T, A, B>(a, b, b_in_a)
    } else {
        (float_core_sat(a, b, b_in_a), ContactFace::Unknown)
    };
    match found {
        CoreSat::Separated { axis, gap } if touching_within_rounding(a, b, b_in_a, gap) => (
            CoreSat::Overlap {
                axis,
                depth: T::zero(),
            },
            face,
        ),
        found => (found, face),
    }
}

/// The separating-axis test of the cores in floating point, for cores that
/// are not both polygons with edge normals (those take [`polygon_sat`]).
fn float_core_sat<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> CoreSat<T> {
    let (na, nb) = (a.core_vertex_count(), b.core_vertex_count());
    if na == 1 && nb == 1 {
        let d = b_in_a * b.core_vertex(0) - a.core_vertex(0);
        let len = d.norm();
        return if len > T::zero() {
            CoreSat::Separated {
                axis: d / len,
                gap: len,
            }
        } else {
            CoreSat::Overlap {
                axis: Vector2::x(),
                depth: T::zero(),
            }
        };
    }
    let mut best = CoreSat::Overlap {
        axis: Vector2::x(),
        depth: T::infinity(),
    };
    let test =
        |best: &mut CoreSat<T>, axis: Vector2<T>, (a0, a1): (T, T), (b0, b1): (T, T)| -> bool {
            let up = a1 - b0;
            let down = b1 - a0;
            if up < T::zero() || down < T::zero() {
                let (gap, axis) = if up < T::zero() {
                    (-up, axis)
                } else {
                    (-down, -axis)
                };
                // The first separating axis decides, in the boolean and the contact
                // alike, so the two can never disagree.
                *best = CoreSat::Separated { axis, gap };
                return true;
            }
            if let CoreSat::Overlap { depth, .. } = *best {
                let (o, n) = if up <= down {
                    (up, axis)
                } else {
                    (down, -axis)
                };
                if o < depth {
                    *best = CoreSat::Overlap { axis: n, depth: o };
                }
            }
            false
        };
    // A big polygon against a small core (a point, segment or box: at most
    // four vertices): along the polygon's outward normal `n` of the edge
    // from `v`, the polygon reaches exactly `v·n`, so only the small core is
    // projected (one-sided, as in `polygon_sat`): `O(n)` for all its faces,
    // instead of projecting the polygon on each of them. The small core's
    // own axes stay two-sided, so the candidate normals still hold every
    // face of the Minkowski difference.
    if a.has_edge_normals() && na > SCAN_UP_TO && nb <= 4 {
        let (moved, count) = small_core_in(b, b_in_a);
        for i in 0..a.core_axis_count() {
            let n = a.core_axis(i);
            let v = a.core_vertex(i);
            let sep = moved[..count]
                .iter()
                .fold(T::infinity(), |m, q| Float::min(m, (q - v).dot(&n)));
            if one_sided(&mut best, n, sep) {
                return best;
            }
        }
    } else {
        for i in 0..a.core_axis_count() {
            let axis = a.core_axis(i);
            if test(
                &mut best,
                axis,
                project_a(a, &axis),
                project_b(b, b_in_a, &axis),
            ) {
                return best;
            }
        }
    }
    if b.has_edge_normals() && nb > SCAN_UP_TO && na <= 4 {
        // The same in B's frame, A's few vertices moved into it.
        let (moved, count) = small_core_in(a, &b_in_a.inverse());
        for j in 0..b.core_axis_count() {
            let m = b.core_axis(j);
            let w = b.core_vertex(j);
            let sep = moved[..count]
                .iter()
                .fold(T::infinity(), |s, p| Float::min(s, (p - w).dot(&m)));
            // From A towards B: against B's outward normal, in A's frame.
            if one_sided(&mut best, -(b_in_a.rotation * m), sep) {
                return best;
            }
        }
    } else {
        for j in 0..b.core_axis_count() {
            let axis = b_in_a.rotation * b.core_axis(j);
            if test(
                &mut best,
                axis,
                project_a(a, &axis),
                project_b(b, b_in_a, &axis),
            ) {
                return best;
            }
        }
    }
    if na <= 2 && nb <= 2 {
        // Two degenerate cores: the segments' directions decide collinear cases.
        if na == 2 {
            let axis = unit(a.core_vertex(1) - a.core_vertex(0));
            if test(
                &mut best,
                axis,
                project_a(a, &axis),
                project_b(b, b_in_a, &axis),
            ) {
                return best;
            }
        }
        if nb == 2 {
            let axis = b_in_a.rotation * unit(b.core_vertex(1) - b.core_vertex(0));
            if test(
                &mut best,
                axis,
                project_a(a, &axis),
                project_b(b, b_in_a, &axis),
            ) {
                return best;
            }
        }
    }
    best
}

/// The vertices of a core without edge normals (a point, segment or box: at
/// most four) moved by `m`, once, and how many there are.
#[inline]
fn small_core_in<T: Real, P: Polygonal<T>>(p: &P, m: &Isometry2<T>) -> ([Point2<T>; 4], usize) {
    let mut out = [Point2::origin(); 4];
    let count = p.core_vertex_count().min(4);
    for (k, o) in out.iter_mut().enumerate().take(count) {
        *o = m * p.core_vertex(k);
    }
    (out, count)
}

/// One face of a big polygon against a small core: `sep` is the core's
/// least offset beyond the face along its unit normal `axis` (A → B). A
/// positive `sep` separates (the first one decides, as in the two-sided
/// test); otherwise `−sep` is a candidate depth, kept when strictly least.
#[inline]
fn one_sided<T: Real>(best: &mut CoreSat<T>, axis: Vector2<T>, sep: T) -> bool {
    if sep > T::zero() {
        *best = CoreSat::Separated { axis, gap: sep };
        return true;
    }
    if let CoreSat::Overlap { depth, .. } = *best
        && -sep < depth
    {
        *best = CoreSat::Overlap { axis, depth: -sep };
    }
    false
}

/// One polygon's faces in [`polygon_sat`] (A's, or B's): each face's
/// outward normal (its own frame), the offset that turns the other
/// polygon's least projection on it into the separation, the axis to report
/// (in A's frame, from A towards B) and the face's name.
struct Faces<N, O, X, F> {
    normal: N,
    offset: O,
    axis: X,
    face: F,
}

impl<N, O, X, F> Faces<N, O, X, F> {
    /// The separation along each of the `count` faces (the other polygon
    /// `other`'s lowest vertex along the normal turned into its frame by
    /// `into_other`, plus the offset), each considered by `best`; `Some`
    /// when `best` answers early (apart). A big `other` is climbed, as the
    /// normals turn counter-clockwise (`linear.rs`); a small one is
    /// projected eight normals at a time (`lanes.rs`).
    #[inline(always)]
    fn against<const FACE: bool, T: Real>(
        &self,
        count: usize,
        other: &impl Polygonal<T>,
        into_other: &nalgebra::UnitComplex<T>,
        best: &mut BestFace<T>,
    ) -> Option<(CoreSat<T>, ContactFace)>
    where
        N: Fn(usize) -> Vector2<T>,
        O: Fn(usize, &Vector2<T>) -> T,
        X: Fn(usize) -> Vector2<T>,
        F: Fn(usize) -> ContactFace,
    {
        if other.core_vertex_count() > SCAN_UP_TO {
            let mut low = Extreme::default();
            for i in 0..count {
                let n = (self.normal)(i);
                let sep =
                    low.min(other, &into_other.inverse_transform_vector(&n)) + (self.offset)(i, &n);
                let out = best.consider::<FACE>(sep, || (self.axis)(i), (self.face)(i));
                if out.is_some() {
                    return out;
                }
            }
        } else {
            for first in (0..count).step_by(LANES) {
                let lanes = (count - first).min(LANES);
                let low = Axes::new(lanes, |k| {
                    into_other.inverse_transform_vector(&(self.normal)(first + k))
                })
                .least(other);
                for (k, low) in low.iter().enumerate().take(lanes) {
                    let i = first + k;
                    let sep = *low + (self.offset)(i, &(self.normal)(i));
                    let out = best.consider::<FACE>(sep, || (self.axis)(i), (self.face)(i));
                    if out.is_some() {
                        return out;
                    }
                }
            }
        }
        None
    }
}

/// Two polygons with outward edge normals: along A's normal `n` of the edge
/// from vertex `v`, A reaches exactly `v · n`, so only B is projected: the
/// separation is `min over B of (b − v) · n` (and likewise along B's normals).
/// The largest separation over all normals is positive exactly when the
/// polygons are apart; otherwise its negation is the penetration depth, since
/// the Minkowski difference's faces are these normals and its support along one
/// of A's outward normals is one-sided (Box2D's `b2FindMaxSeparation`; Ericson
/// §5.2.1). Half the projections of the two-sided test. When `FACE`, also
/// returns the face whose normal the axis is (the face of greatest
/// separation; a separate copy, so that the other queries keep no record).
fn polygon_sat<const FACE: bool, T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
) -> (CoreSat<T>, ContactFace) {
    let mut best = BestFace::<T>::default();
    // A's faces: B's lowest vertex along each normal, in B's frame.
    let rot = &b_in_a.rotation;
    let t = b_in_a.translation.vector;
    let faces_of_a = Faces {
        normal: |i: usize| a.core_axis(i),
        offset: |i: usize, n: &Vector2<T>| (t - a.core_vertex(i).coords).dot(n),
        axis: |i: usize| a.core_axis(i),
        face: ContactFace::OfA,
    };
    if let Some(out) = faces_of_a.against::<FACE, _>(a.core_vertex_count(), b, rot, &mut best) {
        return out;
    }
    // B's faces, in B's frame: A's lowest vertex along each normal. The
    // axis is from A towards B: against B's outward normal, in A's frame.
    let a_in_b = b_in_a.inverse();
    let t_b = a_in_b.translation.vector;
    let faces_of_b = Faces {
        normal: |j: usize| b.core_axis(j),
        offset: |j: usize, n: &Vector2<T>| (t_b - b.core_vertex(j).coords).dot(n),
        axis: |j: usize| -(rot * b.core_axis(j)),
        face: ContactFace::OfB,
    };
    if let Some(out) =
        faces_of_b.against::<FACE, _>(b.core_vertex_count(), a, &a_in_b.rotation, &mut best)
    {
        return out;
    }
    let found = if best.sep > T::zero() {
        CoreSat::Separated {
            axis: best.axis,
            gap: best.sep,
        }
    } else {
        CoreSat::Overlap {
            axis: best.axis,
            depth: -best.sep,
        }
    };
    (found, best.face)
}

/// [`polygon_sat`]'s running answer: the greatest separation so far, its
/// axis (A to B, A's frame) and face.
struct BestFace<T: Real> {
    sep: T,
    axis: Vector2<T>,
    face: ContactFace,
}

impl<T: Real> Default for BestFace<T> {
    fn default() -> Self {
        Self {
            sep: T::neg_infinity(),
            axis: Vector2::x(),
            face: ContactFace::Unknown,
        }
    }
}

impl<T: Real> BestFace<T> {
    /// One face's separation `sep`, its axis (asked for only when kept) and
    /// name: the first positive separation decides (the answer), else the
    /// greatest is kept.
    #[inline(always)]
    fn consider<const FACE: bool>(
        &mut self,
        sep: T,
        axis: impl FnOnce() -> Vector2<T>,
        face: ContactFace,
    ) -> Option<(CoreSat<T>, ContactFace)> {
        if sep > self.sep {
            self.sep = sep;
            self.axis = axis();
            if FACE {
                self.face = face;
            }
            if sep > T::zero() {
                return Some((
                    CoreSat::Separated {
                        axis: self.axis,
                        gap: sep,
                    },
                    self.face,
                ));
            }
        }
        None
    }
}

/// The closest points of the two cores (A's frame), over (vertex, edge)
/// pairs ([`closest_core_features`]). Only called when the cores are apart.
fn closest_core_points<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    axis: &Vector2<T>,
) -> (Point2<T>, Point2<T>) {
    let (pa, pb, _) = closest_core_features(a, b, b_in_a, Some(axis));
    (pa, pb)
}

/// An edge holding one of the closest points strictly inside: its start, its
/// vector, and whether the edge is A's.
pub(crate) type InsideEdge<T> = Option<(Point2<T>, Vector2<T>, bool)>;

/// The closest points of the two cores and the edge holding one of them
/// strictly inside: the closest pair of two disjoint convex polygons always
/// has a vertex of one on it, so the least of the (vertex, other core's edge)
/// distances is the cores' distance.
///
/// With a separating `axis` (unit, A → B) the pairs are pruned: for any unit
/// `s`, every point `q` of B's edge `j` and vertex `v` of A satisfy `|q − v|
/// ≥ (q − v)·s ≥ min(w_j·s, w_j+1·s) − v·s` (and likewise for B's vertices
/// against A's edges), so a pair whose bound exceeds the best distance found
/// cannot hold the closest pair and is skipped without its point–segment
/// distance. The supports along the axis (the vertices nearest the other
/// core along it) are tried first; the rest is pruned along the direction of
/// the best pair found by then, where the bound is tightest (the separating
/// axis itself can be far from the closest pair's direction: a first pass
/// pruned along it computed nearly every pair, measured). Usually a few
/// pairs are computed instead of all `n·m`. The bound is a true lower
/// bound in exact arithmetic; rounding can only skip a pair whose distance
/// is within rounding of the best. Without an axis every pair is computed.
fn closest_core_features<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    axis: Option<&Vector2<T>>,
) -> (Point2<T>, Point2<T>, InsideEdge<T>) {
    if a.has_edge_normals() && b.has_edge_normals() && big(a, b) {
        // Two polygons, one big: the walk round their Minkowski
        // difference, `O(n + m)` (`linear.rs`).
        return walk_closest(a, b, b_in_a);
    }
    // A point core against a big polygon: one pass over the polygon's edges
    // in its own frame (`linear.rs`).
    if a.core_vertex_count() == 1 && b.has_edge_normals() && big(a, b) {
        let p = a.core_vertex(0);
        let (q, edge) = point_closest(b, &b_in_a.inverse_transform_point(&p));
        let edge = edge.map(|(e0, e)| (b_in_a * e0, b_in_a.rotation * e, false));
        return (p, b_in_a * q, edge);
    }
    if b.core_vertex_count() == 1 && a.has_edge_normals() && big(a, b) {
        let q = b_in_a * b.core_vertex(0);
        let (p, edge) = point_closest(a, &q);
        return (p, q, edge.map(|(e0, e)| (e0, e, true)));
    }
    // A box and a segment: six candidates in the box's frame
    // (`box_segment.rs`), unless a segment end lies in the box.
    if let (Some((lo, hi)), 2) = (a.core_box(), b.core_vertex_count()) {
        let (p0, p1) = (b_in_a * b.core_vertex(0), b_in_a * b.core_vertex(1));
        if let Some(found) = box_segment_features(&lo, &hi, &p0, &p1) {
            return found;
        }
    }
    if let (2, Some((lo, hi))) = (a.core_vertex_count(), b.core_box()) {
        let (p0, p1) = (
            b_in_a.inverse_transform_point(&a.core_vertex(0)),
            b_in_a.inverse_transform_point(&a.core_vertex(1)),
        );
        if let Some((on_box, on_segment, edge)) = box_segment_features(&lo, &hi, &p0, &p1) {
            let edge = edge.map(|(e0, e, of_box)| (b_in_a * e0, b_in_a.rotation * e, !of_box));
            return (b_in_a * on_segment, b_in_a * on_box, edge);
        }
    }
    // The best pair so far and its squared distance.
    type Best<T> = ((Point2<T>, Point2<T>, InsideEdge<T>), T);
    let (p0, q0) = (a.core_vertex(0), b_in_a * b.core_vertex(0));
    let mut best: Best<T> = ((p0, q0, None), (q0 - p0).norm_squared());
    let consider = |best: &mut Best<T>, p: Point2<T>, q: Point2<T>, edge: InsideEdge<T>| {
        let d2 = (q - p).norm_squared();
        if d2 < best.1 {
            *best = ((p, q, edge), d2);
        }
    };
    // The edge, when the closest point to `v` on it is strictly inside: `v`
    // projects strictly between its ends.
    let inside = |v: &Point2<T>, e0: Point2<T>, e1: Point2<T>, of_a: bool| {
        let e = e1 - e0;
        let t = (v - e0).dot(&e);
        (t > T::zero() && t < e.norm_squared()).then_some((e0, e, of_a))
    };
    let (na, nb) = (a.core_vertex_count(), b.core_vertex_count());
    let (ea, eb) = (a.core_edge_count(), b.core_edge_count());
    let vb = |j: usize| b_in_a * b.core_vertex(j % nb);
    // Whether a pair with lower bound `lb` can be skipped.
    let beyond = |lb: T, best_d2: T| lb > T::zero() && lb * lb > best_d2;
    // A's vertex `i` against B's edges, B's vertex `j` against A's edges,
    // pruned by the projections on the unit `s` (zero: no pruning); B's
    // through `s` in its own frame, without moving its vertices.
    let vertex_of_a = |i: usize, s: &Vector2<T>, best: &mut Best<T>| {
        let p = a.core_vertex(i);
        if eb == 0 {
            consider(best, p, vb(0), None);
            return;
        }
        let (s_b, off) = (
            b_in_a.rotation.inverse_transform_vector(s),
            b_in_a.translation.vector.dot(s),
        );
        let proj_b = |j: usize| b.core_vertex(j % nb).coords.dot(&s_b) + off;
        let ps = p.coords.dot(s);
        for j in 0..eb {
            if beyond(Float::min(proj_b(j), proj_b(j + 1)) - ps, best.1) {
                continue;
            }
            let (q0, q1) = (vb(j), vb(j + 1));
            let q = shape::dim2::closest_point_on_segment(&q0, &q1, &p);
            consider(best, p, q, inside(&p, q0, q1, false));
        }
    };
    let vertex_of_b = |j: usize, s: &Vector2<T>, best: &mut Best<T>| {
        let q = vb(j);
        let qs = q.coords.dot(s);
        for i in 0..ea {
            let (p0, p1) = (a.core_vertex(i), a.core_vertex((i + 1) % na));
            if beyond(qs - Float::max(p0.coords.dot(s), p1.coords.dot(s)), best.1) {
                continue;
            }
            let p = shape::dim2::closest_point_on_segment(&p0, &p1, &q);
            consider(best, p, q, inside(&q, p0, p1, true));
        }
    };
    // The supports along the separating axis first (the vertices nearest
    // the other core along it).
    let s = axis.copied().unwrap_or_else(Vector2::zeros);
    let proj_a = |i: usize, s: &Vector2<T>| a.core_vertex(i).coords.dot(s);
    let proj_b = |j: usize, s: &Vector2<T>| vb(j).coords.dot(s);
    let first_a = (1..na).fold(0, |m, i| if proj_a(i, &s) > proj_a(m, &s) { i } else { m });
    let first_b = (1..nb).fold(0, |m, j| if proj_b(j, &s) < proj_b(m, &s) { j } else { m });
    vertex_of_a(first_a, &s, &mut best);
    vertex_of_b(first_b, &s, &mut best);
    // Then every pair, pruned along the best pair's direction: the bound
    // `|q − v| ≥ (q − v)·s` holds for any unit `s`, and is tightest near
    // the closest pair's direction. Whole vertices are skipped with the
    // extreme projections (`|q − p| ≥ min_B·s − p·s` for every q of B).
    let s = match (axis, length_and_direction(best.0.1 - best.0.0)) {
        (Some(_), Some((_, u))) => u,
        (Some(_), None) => s,
        (None, _) => Vector2::zeros(),
    };
    let (lo_b, hi_a) = if axis.is_some() {
        (
            (0..nb).fold(T::infinity(), |m, j| Float::min(m, proj_b(j, &s))),
            (0..na).fold(T::neg_infinity(), |m, i| Float::max(m, proj_a(i, &s))),
        )
    } else {
        (T::neg_infinity(), T::infinity())
    };
    for i in 0..na {
        if i != first_a && !beyond(lo_b - proj_a(i, &s), best.1) {
            vertex_of_a(i, &s, &mut best);
        }
    }
    for j in 0..nb {
        if j != first_b && !beyond(proj_b(j, &s) - hi_a, best.1) {
            vertex_of_b(j, &s, &mut best);
        }
    }
    // Two vertices are the closest pair only if neither projects strictly
    // inside an edge of the other ending at the other vertex (else that
    // edge's point is strictly nearer). Rounding can still pick them: when
    // the edge's point is within an ulp of squared distance of the vertex
    // (an f32 segment's end 1.2e-4 along a capsule's core from the core's
    // end, 0.39 away: both squared distances 0.1547 to the last bit, and the
    // normal from the two vertices 3e-4 rad off the core's, found by the
    // check against parry). The edge's pair then, whose normal is exact.
    let ((pa, pb, edge), _) = best;
    if edge.is_none() && ea > 0 && eb > 0 {
        // The edges at a vertex: the one it starts and the one it ends.
        let edges_at = |v: usize, n: usize, edges: usize| {
            [v, (v + n - 1) % n].into_iter().filter(move |&k| k < edges)
        };
        if let Some(j) = (0..nb).find(|&j| vb(j) == pb) {
            for k in edges_at(j, nb, eb) {
                let (q0, q1) = (vb(k), vb(k + 1));
                if let Some(e) = inside(&pa, q0, q1, false) {
                    return (
                        pa,
                        shape::dim2::closest_point_on_segment(&q0, &q1, &pa),
                        Some(e),
                    );
                }
            }
        }
        if let Some(i) = (0..na).find(|&i| a.core_vertex(i) == pa) {
            for k in edges_at(i, na, ea) {
                let (p0, p1) = (a.core_vertex(k), a.core_vertex((k + 1) % na));
                if let Some(e) = inside(&pb, p0, p1, true) {
                    return (
                        shape::dim2::closest_point_on_segment(&p0, &p1, &pb),
                        pb,
                        Some(e),
                    );
                }
            }
        }
    }
    (pa, pb, edge)
}

/// The direction (A → B) and distance of the closest core points `pa`, `pb`
/// when one of them lies strictly inside an edge: the edge's unit normal and
/// the other point's distance to the edge's line. In exact arithmetic this is
/// `(pb − pa) / |pb − pa|`; from the edge it stays accurate when the cores
/// nearly touch, where normalising the tiny difference `pb − pa` turns the
/// normal by up to `ε·scale / d` (found by a deep run: a point 1e-4 from a
/// capsule's 7-unit core, in f32, got a normal 1e-3 off and a contact point
/// 6e-3 off its support). `None` when both closest points are vertices.
fn closest_direction<T: Real>(
    edge: InsideEdge<T>,
    pa: &Point2<T>,
    pb: &Point2<T>,
    axis: Option<&Vector2<T>>,
) -> Option<(Vector2<T>, T)> {
    let (e0, e, of_a) = edge?;
    // The other closest point is a vertex of the other core.
    let vertex = if of_a { pb } else { pa };
    let m = unit(Vector2::new(e.y, -e.x));
    let side = (vertex - e0).dot(&m);
    if side.is_nan() {
        return None;
    }
    // From A to B. A separating axis (A → B) has a positive dot product
    // with the true direction, since `pb − pa` joins a point of A to one of
    // B; when `m` is clearly along or against it, the axis orients `m` even
    // where rounding puts the vertex on the wrong side of the edge's line
    // (shapes touching up to rounding: the side's sign is noise there, and
    // an f32 segment 6e-8 from a box got the normal from the box to the
    // segment). Otherwise the side does: towards the vertex when the edge is
    // A's, away from it when the edge is B's; on the line, no direction.
    let towards_b = match axis {
        Some(axis) if Float::abs(m.dot(axis)) >= T::lit(0.5) => m.dot(axis) > T::zero(),
        _ => {
            if side == T::zero() {
                return None;
            }
            (side > T::zero()) == of_a
        }
    };
    let n = if towards_b { m } else { -m };
    Some((n, Float::abs(side)))
}
