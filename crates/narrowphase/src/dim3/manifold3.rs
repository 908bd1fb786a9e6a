//! 3D contact manifolds: one kernel per built-in 3D pair, named
//! `<a>_<b>_manifold` as the register block lists them, each answering in
//! A's frame with B placed by `b_in_a`.
//!
//! What it computes: the [`Manifold3`] of the pair within `prediction` (see
//! the [`manifold`](crate::manifold) module note for the contract).
//!
//! Method:
//!
//! 1. the exact start: the pair's own exact 3D contact kernel when the shapes
//!    intersect, else its exact closest points within `prediction` (`None`
//!    beyond): the unit normal `n` from A to B, the separation (`−depth`, or
//!    the distance) and the two witness points;
//! 2. the one-point manifold of that exact answer, each shape's feature being
//!    the one that touches along the contact direction (a sphere is vertex 0,
//!    a box's face, edge or vertex by the small-angle tests below).
//!
//! Why it is correct: the point, normal and separation are the exact
//! kernel's, so the manifold agrees with [`contact3`](super::contact3) and
//! [`closest_points3`](super::closest_points3) bit for bit.
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
//!   along `x` (edge 0 at `y = −h_y, z = −h_z`, edge 3 at `y = +h_y, z = +h_z`),
//!   edges 4–7 along `y` (bit 0 for `z`, bit 1 for `x`), edges 8–11 along `z`
//!   (bit 0 for `x`, bit 1 for `y`).
//!
//! A sphere is vertex 0.
//!
//! References: Catto, "Contact manifolds", GDC 2007; Ericson, *Real-Time
//! Collision Detection*, §5.1.

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

/// The contact manifold of two cuboids, B placed by `b_in_a`, in A's frame,
/// within `prediction`, on the exact [`cuboid_cuboid_contact`] or
/// [`cuboid_cuboid_closest_points`].
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
    Some(one_point(&e, box_touching_feature, |d| {
        box_touching_feature(&b_in_a.rotation.inverse_transform_vector(d))
    }))
}

/// The contact manifold of a cuboid and an axis-aligned box, B placed by
/// `b_in_a`, in A's frame, within `prediction`, on the exact
/// [`cuboid_aabb3_contact`] or [`cuboid_aabb3_closest_points`].
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
    Some(one_point(&e, box_touching_feature, |d| {
        box_touching_feature(&b_in_a.rotation.inverse_transform_vector(d))
    }))
}

/// The contact manifold of two axis-aligned boxes, B placed by the
/// translation of `b_in_a` (its rotation ignored, as
/// [`aabb3_aabb3`](super::aabb3_aabb3) does), in A's frame, within
/// `prediction`, on the exact [`aabb3_aabb3_contact`] or
/// [`aabb3_aabb3_closest_points`].
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
    Some(one_point(&e, box_touching_feature, box_touching_feature))
}
