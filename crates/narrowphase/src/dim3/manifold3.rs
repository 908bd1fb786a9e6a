//! 3D contact manifolds: one kernel per built-in 3D pair, named
//! `<a>_<b>_manifold` as the register block lists them, each answering in
//! A's frame with B placed by `b_in_a`.
//!
//! What it computes: the [`Manifold3`] of the pair within `prediction` (the
//! contract is in the [`manifold`](crate::manifold) module note): one unit
//! normal from A to B, and one point for a pair with a sphere, up to 4 for
//! two boxes ([`Cuboid`] or [`Aabb3`]).
//!
//! # Method
//!
//! 1. The exact start: the pair's own exact 3D contact kernel when the
//!    shapes intersect, else its exact closest points within `prediction`
//!    (`None` beyond): the normal `n`, the separation `s₀` (`−depth`, or the
//!    distance) and the two witness points.
//! 2. Sphere pairs, and box pairs touching at an edge or a vertex, have one
//!    point: that exact answer, each shape's feature being the one that
//!    touches along the contact direction (a sphere is vertex 0; a box's
//!    face when the direction is within the flat angle of its normal, its
//!    edge when the direction is that close to perpendicular to the edge,
//!    else its vertex).
//! 3. Two boxes: the *reference face* is the face of either box best aligned
//!    with the normal (A's outward normal with `n`, B's with `−n`; A on a
//!    tie); when even that one is farther than the 2D flat angle (`1 − cos ≤
//!    1e-4`, about 0.8°) the contact is at an edge or a corner (step 2). The
//!    *incident face* is the other box's face best aligned against it; it
//!    holds that box's deepest vertex.
//! 4. The incident quad is clipped against the 4 side planes of the
//!    reference face (Sutherland–Hodgman on fixed arrays: at most 8
//!    vertices, no allocation). Each vertex left is a point on the incident
//!    face, named by the features that make it (below).
//! 5. Separations: heights are measured along the reference face's outward
//!    normal `u`, so that the incident box's deepest points are the lowest.
//!    The lowest vertex of the clipped polygon gets `s₀` exactly, every other
//!    `s₀` plus its height above it (those within rounding of it, `64 ε`
//!    times the coordinates, get `s₀` too, so a box resting flat has equal
//!    separations bit for bit). Points with a separation above `prediction`
//!    are dropped. The point on the reference box is the incident point
//!    moved by `−s n` (reference A) or the incident point is A's and B's is
//!    moved by `+s n` (reference B), so that `(point_b − point_a) · n = s`.
//! 6. At most 4 points are kept: all when they fit, else greedily the
//!    deepest, the point farthest from it, the point making the largest
//!    triangle with those two and the point making the largest
//!    quadrilateral with the three (across `n`; ties, common on a clipped
//!    rectangle's parallel sides, to the least pair of features).
//! 7. Should the clipped polygon be empty (a reference face reached only at
//!    its border, by rounding), the other box's face is tried if it too is
//!    flat, then the one exact point.
//!
//! # Why it is correct
//!
//! The normal and `s₀` are the exact kernels', so the manifold agrees with
//! [`contact3`](super::contact3) and [`closest_points3`](super::closest_points3)
//! bit for bit on the normal and the least separation. Clipping keeps
//! exactly the part of the incident face whose projection along the
//! reference normal falls on the reference face, i.e. the contact patch of
//! two nearly parallel faces. The least separation is placed on the lowest
//! clipped point: when the contact is a face axis of the separating-axis
//! test, the minimum translation leaves the two boxes touching at their
//! deepest points along it, which therefore lie over the reference face and
//! in the clipped polygon (when the incident box's deepest vertex survives
//! the clipping it is that point, at height 0 exactly, so its separation is
//! `s₀` bit for bit); for an edge axis or a closest-points normal within the
//! flat angle of the face, the lowest clipped point is the patch's deepest
//! point up to that angle. Heights along the face's own normal `u` rather
//! than `n`: `u` is an exact box axis, while a closest-points normal for
//! shapes a hair apart carries the rounding of the two points over the gap,
//! enough to make one end of a long edge spuriously deeper than the other.
//!
//! Unlike the 2D builder, which falls back to one point when the incident
//! shape's deepest vertex is clipped away, the 3D one keeps the clipped
//! patch: in 3D the deepest feature along a slightly tilted normal is often
//! an edge that crosses the reference face's border (a box overhanging a
//! ledge), whose deepest vertex lies beyond the border while the edge's
//! crossing is the exact contact. It keeps it only while the patch holds
//! the exact contact: its lowest point no higher above the reference face
//! than the incident box's exact witness point, up to the normal's tilt
//! across both boxes; a patch wholly above it (the contact at an incident
//! edge reaching past the border, the patch a face's part elsewhere) is
//! dropped for the other face, or the one exact point.
//!
//! # Feature ids
//!
//! Intrinsic to the geometry, not to the choice of reference face: an
//! unclipped incident vertex is (face `f` of the reference box, vertex `k`
//! of the incident box); a point where an incident edge crosses a side
//! plane is (the reference face's edge `e` on that side, the incident edge
//! `e'`); a reference corner inside the incident face (where a side made by
//! one side plane crosses another) is (vertex `j` of the reference box, face
//! `f'` of the incident box). A box resting on a larger box has the ids
//! (the larger box's face, the smaller box's vertex `k`) whichever face is
//! the reference, as the same point is an incident vertex in one case and a
//! reference corner in the other; likewise a crossing of an edge of each box
//! is named by the same two edges either way.
//!
//! # Box numbering
//!
//! A [`Cuboid`] and an [`Aabb3`] share one numbering, in the box's own axes
//! `x, y, z` (an `Aabb3`'s are the world's):
//!
//! - **vertex** `k` (0–7) has coordinate `+h` on axis `i` when bit `i` of `k`
//!   is set, `−h` otherwise: vertex 0 is the `min` corner, vertex 7 the
//!   `max` corner (as [`Cuboid::vertices`]);
//! - **face** `2i` (0, 2, 4) is the face of outward normal `−e_i`, face
//!   `2i + 1` (1, 3, 5) the face of outward normal `+e_i`: faces 0–5 are
//!   `−x, +x, −y, +y, −z, +z`;
//! - **edge** `4i + m` (0–11) is parallel to axis `i`; with `j = (i+1) mod 3`
//!   and `k = (i+2) mod 3`, bit 0 of `m` is set when the edge lies on the `+`
//!   side of axis `j`, bit 1 when on the `+` side of axis `k`: edges 0–3 run
//!   along `x` (bit 0 for `y`, bit 1 for `z`: edge 0 at `y = −h_y, z = −h_z`,
//!   edge 3 at `y = +h_y, z = +h_z`), edges 4–7 along `y` (bit 0 for `z`,
//!   bit 1 for `x`), edges 8–11 along `z` (bit 0 for `x`, bit 1 for `y`).
//!
//! A sphere is vertex 0.
//!
//! References: Catto, "Contact manifolds", GDC 2007 (reference/incident
//! clipping); Sutherland & Hodgman, "Reentrant polygon clipping", CACM 17
//! (1974); Ericson, *Real-Time Collision Detection*, §5.1.

use nalgebra::{Isometry3, Point3, Unit, Vector3};
use num_traits::Float;
use shape::{Aabb3, Cuboid, Real, Sphere};

use super::{ClosestPoints3, Contact3};
use super::{
    aabb3_aabb3_closest_points, aabb3_aabb3_contact, cuboid_aabb3_closest_points,
    cuboid_aabb3_contact, cuboid_cuboid_closest_points, cuboid_cuboid_contact,
    sphere_aabb3_closest_points, sphere_aabb3_contact, sphere_cuboid_closest_points,
    sphere_cuboid_contact, sphere_sphere_closest_points, sphere_sphere_contact,
};
use crate::manifold::polygonal::flat_tolerance;
use crate::manifold::{Feature, FeatureId, Manifold3, ManifoldPoint3};

/// The exact start of every manifold, in A's frame: the unit normal from A
/// to B, the separation (`−depth`, or the distance when apart) and the two
/// witness points.
#[derive(Debug, Clone, Copy)]
struct Exact3<T: Real> {
    normal: Unit<Vector3<T>>,
    separation: T,
    point_a: Point3<T>,
    point_b: Point3<T>,
}

/// The exact contact when the shapes intersect, else their exact closest
/// points within `prediction`; `None` when they are farther apart.
#[inline]
fn exact3<T: Real>(
    contact: Option<Contact3<T>>,
    closest: impl FnOnce() -> ClosestPoints3<T>,
) -> Option<Exact3<T>> {
    if let Some(c) = contact {
        return Some(Exact3 {
            normal: c.normal,
            separation: -c.depth,
            point_a: c.point_a,
            point_b: c.point_b,
        });
    }
    match closest() {
        ClosestPoints3::WithinMargin {
            point_a,
            point_b,
            normal,
            distance,
        } => Some(Exact3 {
            normal,
            separation: distance,
            point_a,
            point_b,
        }),
        // `Intersecting` cannot follow a `None` contact (both kernels decide
        // intersection exactly): no manifold rather than a made-up one.
        ClosestPoints3::Intersecting | ClosestPoints3::Farther => None,
    }
}

/// The one-point manifold of the exact answer with the given features.
#[inline]
fn single_point<T: Real>(e: &Exact3<T>, id: FeatureId) -> Manifold3<T> {
    Manifold3::new(
        e.normal,
        ManifoldPoint3 {
            point_a: e.point_a,
            point_b: e.point_b,
            separation: e.separation,
            id,
        },
    )
}

#[inline]
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The index of face `(axis, positive side)` (see the module note).
#[inline]
fn face_index(axis: usize, positive: bool) -> usize {
    2 * axis + usize::from(positive)
}

/// The index of the edge parallel to `axis` through vertex `v` (see the
/// module note): bit 0 of `m` from bit `axis + 1` of `v`, bit 1 from bit
/// `axis + 2`.
#[inline]
fn edge_index(axis: usize, v: usize) -> usize {
    let m = ((v >> ((axis + 1) % 3)) & 1) | (((v >> ((axis + 2) % 3)) & 1) << 1);
    4 * axis + m
}

/// A box's feature touching along `dir`, given in the box's own axes
/// (outward, unit): the face when `dir` is within the 2D flat tolerance of a
/// face normal (`|dir_i| ≥ 1 − flat`, about 0.8°), else the edge parallel
/// to axis `i` when `dir` is that close to perpendicular to it (`|dir_i| ≤
/// sin θ` for the same angle `θ`, `sin θ = √(flat (2 − flat))`), else the
/// vertex whose signs are those of `dir` (`+` on a zero, as the support
/// point).
fn box_touching_feature<T: Real>(dir: &Vector3<T>) -> Feature {
    let flat = flat_tolerance::<T>();
    let abs = dir.map(Float::abs);
    let (imax, amax) = abs.argmax();
    if amax >= T::one() - flat {
        return Feature::Face(index(face_index(imax, dir[imax] > T::zero())));
    }
    let v = (0..3).fold(0, |v, i| v | (usize::from(dir[i] >= T::zero()) << i));
    let sin = Float::sqrt(flat * (T::two() - flat));
    let (imin, amin) = abs.argmin();
    if amin <= sin {
        return Feature::Edge(index(edge_index(imin, v)));
    }
    Feature::Vertex(index(v))
}

/// The manifold of a pair whose features are found by `feature_a` and
/// `feature_b` from the outward contact direction in A's frame.
#[inline]
fn one_point<T: Real>(
    e: &Exact3<T>,
    feature_a: impl FnOnce(&Vector3<T>) -> Feature,
    feature_b: impl FnOnce(&Vector3<T>) -> Feature,
) -> Manifold3<T> {
    let n = e.normal.into_inner();
    single_point(
        e,
        FeatureId {
            a: feature_a(&n),
            b: feature_b(&-n),
        },
    )
}

/// A sphere's one feature.
#[inline]
fn sphere_feature<T: Real>(_: &Vector3<T>) -> Feature {
    Feature::Vertex(0)
}

/// The contact manifold of two spheres, B placed by `b_in_a`, in A's frame,
/// within `prediction`: the one point of the exact
/// [`sphere_sphere_contact`] or [`sphere_sphere_closest_points`], both
/// features vertex 0.
#[must_use]
pub fn sphere_sphere_manifold<T: Real>(
    a: &Sphere<T>,
    b: &Sphere<T>,
    b_in_a: &Isometry3<T>,
    prediction: T,
) -> Option<Manifold3<T>> {
    let e = exact3(sphere_sphere_contact(a, b, b_in_a), || {
        sphere_sphere_closest_points(a, b, b_in_a, prediction)
    })?;
    Some(one_point(&e, sphere_feature, sphere_feature))
}

/// The contact manifold of a sphere and a cuboid, B placed by `b_in_a`, in
/// A's frame, within `prediction`: the one point of the exact
/// [`sphere_cuboid_contact`] or [`sphere_cuboid_closest_points`]; the
/// cuboid's feature is the face, edge or vertex it touches with.
#[must_use]
pub fn sphere_cuboid_manifold<T: Real>(
    a: &Sphere<T>,
    b: &Cuboid<T>,
    b_in_a: &Isometry3<T>,
    prediction: T,
) -> Option<Manifold3<T>> {
    let e = exact3(sphere_cuboid_contact(a, b, b_in_a), || {
        sphere_cuboid_closest_points(a, b, b_in_a, prediction)
    })?;
    Some(one_point(&e, sphere_feature, |d| {
        box_touching_feature(&b_in_a.rotation.inverse_transform_vector(d))
    }))
}

/// The contact manifold of a sphere and an axis-aligned box, B placed by
/// `b_in_a`, in A's frame, within `prediction`: the one point of the exact
/// [`sphere_aabb3_contact`] or [`sphere_aabb3_closest_points`]; the box's
/// feature is the face, edge or vertex it touches with.
#[must_use]
pub fn sphere_aabb3_manifold<T: Real>(
    a: &Sphere<T>,
    b: &Aabb3<T>,
    b_in_a: &Isometry3<T>,
    prediction: T,
) -> Option<Manifold3<T>> {
    let e = exact3(sphere_aabb3_contact(a, b, b_in_a), || {
        sphere_aabb3_closest_points(a, b, b_in_a, prediction)
    })?;
    Some(one_point(&e, sphere_feature, |d| {
        box_touching_feature(&b_in_a.rotation.inverse_transform_vector(d))
    }))
}

// ------------------------------------------------------------- box pairs

/// A box in A's frame: centre, half extents and unit axes (A's own axes for
/// A; the columns of B's rotation in A's frame for B).
#[derive(Debug, Clone, Copy)]
struct Box3<T: Real> {
    c: Point3<T>,
    h: Vector3<T>,
    axes: [Vector3<T>; 3],
}

impl<T: Real> Box3<T> {
    /// A box with A's frame's axes.
    fn axis_aligned(c: Point3<T>, h: Vector3<T>) -> Self {
        Self {
            c,
            h,
            axes: [Vector3::x(), Vector3::y(), Vector3::z()],
        }
    }

    /// A box of B, centred at `center` in B's frame, placed by `b_in_a`.
    fn placed(center: Point3<T>, h: Vector3<T>, b_in_a: &Isometry3<T>) -> Self {
        let m = b_in_a.rotation.to_rotation_matrix().into_inner();
        Self {
            c: b_in_a * center,
            h,
            axes: [
                m.column(0).into_owned(),
                m.column(1).into_owned(),
                m.column(2).into_owned(),
            ],
        }
    }

    /// Vertex `k` (see the module note): `c + Σ ±h_i axis_i`.
    fn vertex(&self, k: usize) -> Point3<T> {
        let mut p = self.c;
        for (i, axis) in self.axes.iter().enumerate() {
            let s = if (k >> i) & 1 == 1 {
                self.h[i]
            } else {
                -self.h[i]
            };
            p += axis * s;
        }
        p
    }

    /// `dir` (A's frame) in the box's axes.
    fn local(&self, dir: &Vector3<T>) -> Vector3<T> {
        Vector3::new(
            self.axes[0].dot(dir),
            self.axes[1].dot(dir),
            self.axes[2].dot(dir),
        )
    }

    /// The face whose outward normal is best aligned with `dir` (unit, A's
    /// frame): its axis, its side (`+` when `true`) and the alignment
    /// `|axis · dir|`; the first axis of equals.
    fn best_face(&self, dir: &Vector3<T>) -> (usize, bool, T) {
        let mut best = (0, true, T::neg_infinity());
        for (i, axis) in self.axes.iter().enumerate() {
            let d = axis.dot(dir);
            if Float::abs(d) > best.2 {
                best = (i, d > T::zero(), Float::abs(d));
            }
        }
        best
    }

    /// The four vertices of face `(axis, positive)` in cyclic order.
    fn face_vertices(axis: usize, positive: bool) -> [usize; 4] {
        let base = usize::from(positive) << axis;
        let (j, k) = (1 << ((axis + 1) % 3), 1 << ((axis + 2) % 3));
        [base, base | j, base | j | k, base | k]
    }
}

/// What a side of the clipped polygon lies on: an edge of the incident face,
/// or a side plane of the reference face (one made by an earlier clip).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Incident(usize),
    Reference(usize),
}

/// A vertex of the polygon being clipped: the point (A's frame), the
/// features of the reference and incident boxes that make it, and what the
/// polygon's side from it to the next vertex lies on.
#[derive(Debug, Clone, Copy)]
struct ClipVertex<T: Real> {
    p: Point3<T>,
    reference: Feature,
    incident: Feature,
    next: Side,
}

/// A convex polygon of at most 8 vertices (a quad clipped by 4 planes gains
/// at most one vertex per plane): fixed arrays, no allocation.
#[derive(Debug, Clone, Copy)]
struct Polygon<T: Real> {
    v: [ClipVertex<T>; 8],
    len: usize,
}

impl<T: Real> Polygon<T> {
    /// Adds a vertex; one beyond the capacity (only conceivable for a
    /// polygon made non-convex by rounding) is dropped.
    fn push(&mut self, v: ClipVertex<T>) {
        if self.len < self.v.len() {
            self.v[self.len] = v;
            self.len += 1;
        }
    }
}

/// The reference face `(axis, positive)` of box `r` and its four side
/// planes, side `s` being the plane `±axis_{j} · (p − c) = h_j` for
/// `j = [a1, a1, a2, a2][s]`, `+` for even `s`.
struct Reference<T: Real> {
    r: Box3<T>,
    axis: usize,
    positive: bool,
}

impl<T: Real> Reference<T> {
    /// The axis and side (`+` when `true`) of side plane `s`.
    fn side(&self, s: usize) -> (usize, bool) {
        ((self.axis + 1 + s / 2) % 3, s % 2 == 0)
    }

    /// The signed distance of `p` outside side plane `s` (`≤ 0` inside).
    fn outside(&self, s: usize, p: &Point3<T>) -> T {
        let (j, positive) = self.side(s);
        let d = (p - self.r.c).dot(&self.r.axes[j]);
        (if positive { d } else { -d }) - self.r.h[j]
    }

    /// The face's edge on side plane `s`: parallel to the third axis, through
    /// the face's vertex on that side.
    fn side_edge(&self, s: usize) -> Feature {
        let (j, positive) = self.side(s);
        let third = 3 - self.axis - j;
        let v = (usize::from(self.positive) << self.axis) | (usize::from(positive) << j);
        Feature::Edge(index(edge_index(third, v)))
    }

    /// The face's corner where side planes `s` and `t` meet (an edge of `t`
    /// if they are parallel, which only rounding could produce).
    fn corner(&self, s: usize, t: usize) -> Feature {
        let ((j, pj), (k, pk)) = (self.side(s), self.side(t));
        if j == k {
            return self.side_edge(t);
        }
        let v = (usize::from(self.positive) << self.axis)
            | (usize::from(pj) << j)
            | (usize::from(pk) << k);
        Feature::Vertex(index(v))
    }

    /// Sutherland–Hodgman: the part of `poly` inside side plane `s`. A vertex
    /// on the plane is kept and starts the plane's side when the polygon
    /// leaves there, so no vertex is repeated; a crossing of an incident edge
    /// is (reference edge of `s`, that edge), a crossing of an earlier side
    /// plane's side is (the reference corner of the two planes, the incident
    /// face).
    fn clip(&self, poly: &Polygon<T>, s: usize, incident_face: Feature) -> Polygon<T> {
        let mut out = Polygon { v: poly.v, len: 0 };
        let n = poly.len;
        for m in 0..n {
            let cur = poly.v[m];
            let next = poly.v[if m + 1 == n { 0 } else { m + 1 }];
            let (dc, dn) = (self.outside(s, &cur.p), self.outside(s, &next.p));
            let crossing = |next_side: Side| {
                // dc and dn have strictly opposite signs: t in (0, 1).
                let t = dc / (dc - dn);
                let (reference, incident) = match cur.next {
                    Side::Incident(e) => (self.side_edge(s), Feature::Edge(index(e))),
                    Side::Reference(r) => (self.corner(r, s), incident_face),
                };
                ClipVertex {
                    p: cur.p + (next.p - cur.p) * t,
                    reference,
                    incident,
                    next: next_side,
                }
            };
            if dc <= T::zero() {
                if dn > T::zero() {
                    if dc < T::zero() {
                        out.push(cur);
                        out.push(crossing(Side::Reference(s)));
                    } else {
                        // On the plane, leaving: the side from here lies on it.
                        out.push(ClipVertex {
                            next: Side::Reference(s),
                            ..cur
                        });
                    }
                } else {
                    out.push(cur);
                }
            } else if dn < T::zero() {
                out.push(crossing(cur.next));
            }
            // Both outside, or entering exactly at `next` (kept in its turn):
            // nothing.
        }
        out
    }
}

/// The manifold of two boxes on the exact answer `e` (all in A's frame; see
/// the [`manifold`](crate::manifold) module note, "3D"). `prediction` drops
/// the points farther apart.
fn box_box_manifold<T: Real>(
    a: &Box3<T>,
    b: &Box3<T>,
    prediction: T,
    e: &Exact3<T>,
) -> Manifold3<T> {
    let n = e.normal.into_inner();
    // 1. The reference face: the better aligned of A's face facing n and
    // B's facing −n (A on a tie), then the other if that one's clipping
    // loses the deepest vertex; a corner or edge contact (one point) when
    // neither is within the flat tolerance of n.
    let face_a = a.best_face(&n);
    let face_b = b.best_face(&-n);
    let flat = T::one() - flat_tolerance::<T>();
    // The sine of the angle between n and the better aligned face normal.
    let best = Float::min(Float::max(face_a.2, face_b.2), T::one());
    let tilt = Float::sqrt(Float::max(T::one() - best * best, T::zero()));
    let order = if face_a.2 >= face_b.2 {
        [true, false]
    } else {
        [false, true]
    };
    for a_is_reference in order {
        let (reference, incident) = if a_is_reference {
            (face_a, face_b)
        } else {
            (face_b, face_a)
        };
        if reference.2 < flat {
            break;
        }
        let faces = Faces {
            a_is_reference,
            reference: (reference.0, reference.1),
            incident: (incident.0, incident.1),
            tilt,
        };
        if let Some(m) = clip_faces(a, b, &faces, prediction, e) {
            return m;
        }
    }
    single_point(
        e,
        FeatureId {
            a: box_touching_feature(&a.local(&n)),
            b: box_touching_feature(&b.local(&-n)),
        },
    )
}

/// The reference and incident faces (axis, `+` side) of a clipping, and
/// the sine of the angle between the normal and the better aligned face.
struct Faces<T> {
    a_is_reference: bool,
    reference: (usize, bool),
    incident: (usize, bool),
    tilt: T,
}

/// Steps 2 to 5 of the module note for one choice of reference face:
/// `None` when nothing survives the clipping, or when the clipped patch
/// lies above the incident box's exact witness by more than the normal's
/// tilt allows (it does not hold the contact).
fn clip_faces<T: Real>(
    a: &Box3<T>,
    b: &Box3<T>,
    faces: &Faces<T>,
    prediction: T,
    e: &Exact3<T>,
) -> Option<Manifold3<T>> {
    let n = e.normal.into_inner();
    let a_is_reference = faces.a_is_reference;
    let ((ra, rp), (ia, ip)) = (faces.reference, faces.incident);
    let (rbox, ibox) = if a_is_reference { (a, b) } else { (b, a) };
    let reference = Reference {
        r: *rbox,
        axis: ra,
        positive: rp,
    };
    let incident_face = Feature::Face(index(face_index(ia, ip)));

    // 2. The incident face: the other box's face turned most towards the
    // reference box; it holds that box's deepest vertex. Its quad, each
    // vertex with the incident edge to the next.
    let quad = Box3::<T>::face_vertices(ia, ip);
    let first = ClipVertex {
        p: Point3::origin(),
        reference: Feature::Face(index(face_index(ra, rp))),
        incident: Feature::Vertex(0),
        next: Side::Incident(0),
    };
    let mut poly = Polygon {
        v: [first; 8],
        len: 0,
    };
    for (m, &k) in quad.iter().enumerate() {
        let l = quad[(m + 1) % 4];
        poly.push(ClipVertex {
            p: ibox.vertex(k),
            incident: Feature::Vertex(index(k)),
            next: Side::Incident(edge_index((k ^ l).trailing_zeros() as usize, k)),
            ..first
        });
    }

    // 3. Clip the incident quad against the reference face's 4 side planes.
    for s in 0..4 {
        poly = reference.clip(&poly, s, incident_face);
    }
    if poly.len == 0 {
        return None;
    }

    // 4. Heights along the reference face's normal `u` (a box axis, within
    // the flat angle of n), oriented so that the incident box's deepest
    // point is the lowest: `q · u` with `u` the reference face's outward
    // normal (≈ n for a reference A, ≈ −n for a reference B). The face's
    // own normal rather than n: an exact box axis, where a closest-points
    // normal carries the rounding of two points a tiny distance apart, which
    // tilts it enough to make one end of a long edge "deeper" than the
    // other. The lowest point of the clipped polygon gets the exact
    // separation, the others the exact separation plus their height above
    // it (those within rounding of it get the exact one); farther than the
    // prediction, dropped. When the incident box's deepest vertex survives
    // the clipping it is that lowest point, at height 0 exactly (its height
    // computed from the same coordinates).
    let axis = rbox.axes[ra];
    let u = if rp { axis } else { -axis };
    let height = |p: &Point3<T>| p.coords.dot(&u);
    let mut h_min = T::infinity();
    let mut scale = Float::max(
        Float::abs(e.separation),
        rbox.c.coords.amax() + rbox.h.sum(),
    );
    for v in &poly.v[..poly.len] {
        h_min = Float::min(h_min, height(&v.p));
        scale = Float::max(scale, v.p.coords.amax());
    }
    let h_tol = T::epsilon() * T::lit(64.0) * scale;
    // The patch must hold the incident box's deepest point, the exact
    // witness, up to the tilt of the normal across both boxes: else the
    // contact is an edge of the incident box reaching past the reference
    // face's border, the clipped patch lies higher than the exact
    // separation, and placing that separation on its lowest point would
    // put the other point off its box (two cuboids 0.606 apart, the patch's
    // lowest point 0.096 above the witness; a deep run of
    // `manifolds3d::boxes`). The other face, or the one exact point, then.
    let witness = if a_is_reference { e.point_b } else { e.point_a };
    let reach = (rbox.h.norm() + ibox.h.norm()) * T::two();
    if h_min - height(&witness) > h_tol + faces.tilt * reach {
        return None;
    }
    let none = FeatureId {
        a: Feature::Surface,
        b: Feature::Surface,
    };
    let mut kept = [(T::zero(), first.p, none); 8];
    let mut count = 0;
    for v in &poly.v[..poly.len] {
        let rise = height(&v.p) - h_min;
        let separation = if rise <= h_tol {
            e.separation
        } else {
            e.separation + rise
        };
        if separation > prediction || kept[..count].iter().any(|k| k.1 == v.p) {
            continue;
        }
        let id = if a_is_reference {
            FeatureId {
                a: v.reference,
                b: v.incident,
            }
        } else {
            FeatureId {
                a: v.incident,
                b: v.reference,
            }
        };
        kept[count] = (separation, v.p, id);
        count += 1;
    }

    // 5. At most 4 (see `reduce`).
    let chosen = reduce(&kept[..count], &n);
    let point = |k: usize| {
        let (separation, p, id) = kept[k];
        let (point_a, point_b) = if a_is_reference {
            (p - n * separation, p)
        } else {
            (p, p + n * separation)
        };
        ManifoldPoint3 {
            point_a,
            point_b,
            separation,
            id,
        }
    };
    let mut m = Manifold3::new(e.normal, point(chosen[0]));
    for &k in chosen.iter().skip(1).filter(|&&k| k != usize::MAX) {
        m.push(point(k));
    }
    Some(m)
}

/// The indices of the (at most 4) points kept among `pts` (separation,
/// point, id), `usize::MAX` for none: all of them when there are at most 4,
/// else, greedily, the deepest (least separation), the point farthest from
/// it, the point that makes the largest triangle with those two, and the
/// point that makes the largest quadrilateral with the three (distances and
/// areas measured across the normal `n`); a point that adds no area is not
/// taken.
///
/// Ties are common (a clipped rectangle has parallel sides, along which a
/// triangle's area is constant): scores within a relative `√ε` of each
/// other count as equal and go to the least pair of features (the lesser
/// of the two features first, so that swapping the shapes changes nothing),
/// so that the choice depends on the geometry, not on rounding, on which
/// box is the reference or on the order of the shapes.
fn reduce<T: Real>(pts: &[(T, Point3<T>, FeatureId)], n: &Vector3<T>) -> [usize; 4] {
    let mut out = [usize::MAX; 4];
    if pts.len() <= 4 {
        for (k, o) in out.iter_mut().enumerate().take(pts.len()) {
            *o = k;
        }
        return out;
    }
    let rel = Float::sqrt(T::epsilon());
    // The order of ties: the least pair of features, whichever shape each
    // belongs to (the table may hand the kernel the shapes in either order).
    let key = |id: FeatureId| {
        if id.a <= id.b {
            (id.a, id.b)
        } else {
            (id.b, id.a)
        }
    };
    // The point of greatest positive score not already taken, ties (within
    // `rel`) to the least id.
    let argmax = |taken: &[usize; 4], score: &dyn Fn(&Point3<T>) -> T| {
        let mut best: Option<(usize, T)> = None;
        for (k, q) in pts.iter().enumerate() {
            let s = score(&q.1);
            if taken.contains(&k) || s <= T::zero() {
                continue;
            }
            best = match best {
                Some((j, b)) => {
                    let tol = rel * Float::max(s, b);
                    if s > b + tol || (s >= b - tol && key(q.2) < key(pts[j].2)) {
                        Some((k, s))
                    } else {
                        Some((j, b))
                    }
                }
                None => Some((k, s)),
            };
        }
        best.map_or(usize::MAX, |(k, _)| k)
    };
    // The deepest: the least separation exactly (the points at the exact
    // separation share it bit for bit), the least id among equals.
    let mut first = 0;
    for (k, q) in pts.iter().enumerate() {
        if q.0 < pts[first].0 || (q.0 == pts[first].0 && key(q.2) < key(pts[first].2)) {
            first = k;
        }
    }
    out[0] = first;
    let p1 = pts[first].1;
    // Distances across n (the points of either shape, or the two of one
    // point, differ along n only, so this does not depend on which box
    // holds the reference face).
    let second = argmax(&out, &|q| {
        let d = q - p1;
        (d - n * d.dot(n)).norm_squared()
    });
    if second == usize::MAX {
        return out;
    }
    out[1] = second;
    let p2 = pts[second].1;
    let area = |u: &Vector3<T>, v: &Vector3<T>| Float::abs(u.cross(v).dot(n));
    let third = argmax(&out, &|q| area(&(p2 - p1), &(q - p1)));
    if third == usize::MAX {
        return out;
    }
    out[2] = third;
    let p3 = pts[third].1;
    let triangle = area(&(p2 - p1), &(p3 - p1));
    // Twice the area of the hull of four points in convex position is the
    // largest of the three quadrilaterals' (a, b, c, d) `|(c − a) × (d − b)|`.
    let fourth = argmax(&out, &|q| {
        let quad = Float::max(
            Float::max(area(&(p3 - p1), &(q - p2)), area(&(q - p1), &(p3 - p2))),
            area(&(p2 - p1), &(q - p3)),
        );
        if quad > triangle * (T::one() + rel) {
            quad
        } else {
            T::zero()
        }
    });
    if fourth != usize::MAX {
        out[3] = fourth;
    }
    out
}

/// The contact manifold of two cuboids, B placed by `b_in_a`, in A's frame,
/// within `prediction`: up to 4 points by reference/incident face clipping
/// on the exact [`cuboid_cuboid_contact`] or [`cuboid_cuboid_closest_points`]
/// (see the [`manifold`](crate::manifold) module note, "3D").
#[must_use]
pub fn cuboid_cuboid_manifold<T: Real>(
    a: &Cuboid<T>,
    b: &Cuboid<T>,
    b_in_a: &Isometry3<T>,
    prediction: T,
) -> Option<Manifold3<T>> {
    let e = exact3(cuboid_cuboid_contact(a, b, b_in_a), || {
        cuboid_cuboid_closest_points(a, b, b_in_a, prediction)
    })?;
    let ba = Box3::axis_aligned(Point3::origin(), a.half_extents());
    let bb = Box3::placed(Point3::origin(), b.half_extents(), b_in_a);
    Some(box_box_manifold(&ba, &bb, prediction, &e))
}

/// The contact manifold of a cuboid and an axis-aligned box, B placed by
/// `b_in_a`, in A's frame, within `prediction`: up to 4 points by
/// reference/incident face clipping on the exact [`cuboid_aabb3_contact`] or
/// [`cuboid_aabb3_closest_points`].
#[must_use]
pub fn cuboid_aabb3_manifold<T: Real>(
    a: &Cuboid<T>,
    b: &Aabb3<T>,
    b_in_a: &Isometry3<T>,
    prediction: T,
) -> Option<Manifold3<T>> {
    let e = exact3(cuboid_aabb3_contact(a, b, b_in_a), || {
        cuboid_aabb3_closest_points(a, b, b_in_a, prediction)
    })?;
    let ba = Box3::axis_aligned(Point3::origin(), a.half_extents());
    let bb = Box3::placed(b.center(), b.half_extents(), b_in_a);
    Some(box_box_manifold(&ba, &bb, prediction, &e))
}

/// The contact manifold of two axis-aligned boxes, B placed by the
/// translation of `b_in_a` (its rotation ignored, as
/// [`aabb3_aabb3`](super::aabb3_aabb3) does), in A's frame, within
/// `prediction`: up to 4 points by reference/incident face clipping on the
/// exact [`aabb3_aabb3_contact`] or [`aabb3_aabb3_closest_points`].
#[must_use]
pub fn aabb3_aabb3_manifold<T: Real>(
    a: &Aabb3<T>,
    b: &Aabb3<T>,
    b_in_a: &Isometry3<T>,
    prediction: T,
) -> Option<Manifold3<T>> {
    let e = exact3(aabb3_aabb3_contact(a, b, b_in_a), || {
        aabb3_aabb3_closest_points(a, b, b_in_a, prediction)
    })?;
    let ba = Box3::axis_aligned(a.center(), a.half_extents());
    let bb = Box3::axis_aligned(b.center() + b_in_a.translation.vector, b.half_extents());
    Some(box_box_manifold(&ba, &bb, prediction, &e))
}
