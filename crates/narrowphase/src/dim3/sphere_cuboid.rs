//! Sphere against box (a [`Cuboid`], and through [`sphere_aabb3`](super::sphere_aabb3)
//! an [`Aabb3`](shape::Aabb3)), computed in the box's frame and answered in the
//! sphere's.
//!
//! 1. Move the sphere's centre into the box's local frame, relative to the box
//!    centre: `q = b_in_a⁻¹(0) − centre`.
//! 2. Clamp `q` to `[−h, h]` per axis: the box's point closest to the centre,
//!    `k`.
//! 3. The shapes intersect when `|q − k|² ≤ r²` (no square root; touching
//!    counts).
//! 4. Contact: when the centre is outside the box the normal (from the sphere
//!    to the box) is `(k − q) / |k − q|` and the depth `r − |k − q|`; when it is
//!    inside, the box leaves through the face nearest the centre, at distance
//!    `f`, so the normal is that face's inward direction and the depth `r + f`.
//!
//! Exact: the point of a box closest to a point is the per-axis clamp (Ericson,
//! *Real-Time Collision Detection*, §5.1.4), and the shortest move that takes a
//! point out of a box crosses its nearest face.
//! Degenerate cases: a centre exactly on the surface counts as outside at
//! distance zero: its normal is then the nearest face's (ties take x, then y,
//! then z), as for a centre inside; a centre at the box's centre pushes the box
//! along its own `−x` axis.

use nalgebra::{Isometry3, Point3, Unit, Vector3};
use num_traits::Float;
use shape::{Cuboid, Real, Sphere};

use super::{ClosestPoints3, Contact3};
use crate::polygonal::length_and_direction;

/// `q` (the sphere's centre relative to the box centre, in the box's frame)
/// and `k` (the clamp of `q` to the box).
#[inline]
fn clamp<T: Real>(
    h: &Vector3<T>,
    centre: &Point3<T>,
    b_in_a: &Isometry3<T>,
) -> (Vector3<T>, Vector3<T>) {
    let q = b_in_a.inverse_transform_point(&Point3::origin()) - centre;
    let k = Vector3::new(
        nalgebra::clamp(q.x, -h.x, h.x),
        nalgebra::clamp(q.y, -h.y, h.y),
        nalgebra::clamp(q.z, -h.z, h.z),
    );
    (q, k)
}

/// Sphere of radius `r` at A's origin against the box `centre ± h` of B's
/// local frame.
#[inline]
pub(super) fn sphere_box<T: Real>(
    r: T,
    h: &Vector3<T>,
    centre: &Point3<T>,
    b_in_a: &Isometry3<T>,
) -> bool {
    let (q, k) = clamp(h, centre, b_in_a);
    (q - k).norm_squared() <= r * r
}

/// The contact of [`sphere_box`], in A's frame.
#[inline]
pub(super) fn sphere_box_contact<T: Real>(
    r: T,
    h: &Vector3<T>,
    centre: &Point3<T>,
    b_in_a: &Isometry3<T>,
) -> Option<Contact3<T>> {
    let (q, k) = clamp(h, centre, b_in_a);
    let d = k - q;
    let d2 = d.norm_squared();
    if d2 > r * r {
        return None;
    }
    // The normal in B's frame and the (unsigned) distance from the centre to
    // the surface; `outside` tells on which side of it the centre is.
    let outside = d2 > T::zero();
    let (local_n, dist) = if outside {
        // From the scaled vector: `d2` may be subnormal, `√d2` inexact.
        let (len, n) = length_and_direction(d).unwrap_or((T::zero(), Vector3::x()));
        (n, len)
    } else {
        // Inside (or on the surface): the nearest face, ties to the lower axis.
        let f = Vector3::new(
            h.x - Float::abs(q.x),
            h.y - Float::abs(q.y),
            h.z - Float::abs(q.z),
        );
        let i = if f.x <= f.y && f.x <= f.z {
            0
        } else if f.y <= f.z {
            1
        } else {
            2
        };
        // The centre is on the +i side of the box centre (or on it): the box
        // must move towards −i to push that face past the sphere.
        let mut n = Vector3::zeros();
        n[i] = if q[i] < T::zero() {
            T::one()
        } else {
            -T::one()
        };
        (n, f[i])
    };
    let n = b_in_a.rotation * local_n;
    let (depth, point_b) = if outside {
        // `|d|` may exceed `r` by an ulp where `d2 ≤ r²` held: clamp.
        (Float::max(r - dist, T::zero()), b_in_a * (centre + k))
    } else {
        // The face point straight across from the centre, against the normal.
        (r + dist, Point3::from(n * -dist))
    };
    Some(Contact3 {
        normal: Unit::new_unchecked(n),
        depth,
        point_a: Point3::from(n * r),
        point_b,
    })
}

/// Whether a sphere and a cuboid intersect; `b_in_a` is the cuboid's pose in
/// the sphere's frame.
///
/// ```
/// use nalgebra::{Isometry3, Vector3};
/// use narrowphase::dim3::sphere_cuboid;
/// let s = shape::Sphere::new(3.0).unwrap();
/// let cube = shape::Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).unwrap();
/// // The cube's corner (1, 1, 1) is exactly 3 from the centre (2, 3, 3).
/// assert!(sphere_cuboid(&s, &cube, &Isometry3::translation(-2.0, -3.0, -3.0)));
/// assert!(!sphere_cuboid(&s, &cube, &Isometry3::translation(-2.0, -3.0, -3.01)));
/// ```
#[inline]
pub fn sphere_cuboid<T: Real>(a: &Sphere<T>, b: &Cuboid<T>, b_in_a: &Isometry3<T>) -> bool {
    sphere_box(a.radius(), &b.half_extents(), &Point3::origin(), b_in_a)
}

/// The contact of a sphere and a cuboid, in the sphere's frame.
///
/// ```
/// use nalgebra::{Isometry3, Vector3};
/// use narrowphase::dim3::sphere_cuboid_contact;
/// let s = shape::Sphere::new(1.0).unwrap();
/// let cube = shape::Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).unwrap();
/// // The cube's top face is 0.5 below the sphere's centre.
/// let c = sphere_cuboid_contact(&s, &cube, &Isometry3::translation(0.0, 0.0, -1.5)).unwrap();
/// assert_eq!((c.depth, c.normal.into_inner()), (0.5, -Vector3::z()));
/// ```
#[inline]
pub fn sphere_cuboid_contact<T: Real>(
    a: &Sphere<T>,
    b: &Cuboid<T>,
    b_in_a: &Isometry3<T>,
) -> Option<Contact3<T>> {
    sphere_box_contact(a.radius(), &b.half_extents(), &Point3::origin(), b_in_a)
}

/// The closest points of [`sphere_box`] within `max_distance`, in A's frame:
/// the clamp `k` of the sphere's centre is the box's point nearest it, and
/// the sphere's nearest point lies `r` from its centre towards `k`.
/// `Intersecting` exactly when [`sphere_box`] is `true`.
#[inline]
pub(super) fn sphere_box_closest_points<T: Real>(
    r: T,
    h: &Vector3<T>,
    centre: &Point3<T>,
    b_in_a: &Isometry3<T>,
    max_distance: T,
) -> ClosestPoints3<T> {
    let (q, k) = clamp(h, centre, b_in_a);
    let d = k - q;
    if d.norm_squared() <= r * r {
        return ClosestPoints3::Intersecting;
    }
    // Apart: the centre is outside the box, `d` is not zero.
    let (len, local_n) = length_and_direction(d).unwrap_or((T::zero(), Vector3::x()));
    let n = b_in_a.rotation * local_n;
    ClosestPoints3::apart(
        Point3::from(n * r),
        b_in_a * (centre + k),
        Unit::new_unchecked(n),
        len - r,
        max_distance,
    )
}

/// The closest points of a sphere and a cuboid within `max_distance`, in the
/// sphere's frame; `Intersecting` exactly when [`sphere_cuboid`] says so.
///
/// ```
/// use nalgebra::{Isometry3, Point3, Vector3};
/// use narrowphase::{ClosestPoints3, dim3::sphere_cuboid_closest_points};
/// let s = shape::Sphere::new(1.0).unwrap();
/// let b = shape::Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).unwrap();
/// let ClosestPoints3::WithinMargin { distance, point_a, point_b, .. } =
///     sphere_cuboid_closest_points(&s, &b, &Isometry3::translation(4.0, 0.0, 0.0), 5.0)
/// else { panic!() };
/// assert_eq!((distance, point_a, point_b), (2.0, Point3::new(1.0, 0.0, 0.0), Point3::new(3.0, 0.0, 0.0)));
/// ```
#[inline]
pub fn sphere_cuboid_closest_points<T: Real>(
    a: &Sphere<T>,
    b: &Cuboid<T>,
    b_in_a: &Isometry3<T>,
    max_distance: T,
) -> ClosestPoints3<T> {
    sphere_box_closest_points(
        a.radius(),
        &b.half_extents(),
        &Point3::origin(),
        b_in_a,
        max_distance,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use shape::testing::test_tolerance;

    fn tr<T: Real>(t: Vector3<T>) -> Isometry3<T> {
        Isometry3::translation(t.x, t.y, t.z)
    }

    fn v<T: Real>(x: f64, y: f64, z: f64) -> Vector3<T> {
        Vector3::new(T::lit(x), T::lit(y), T::lit(z))
    }

    /// Face, edge and corner of the cube `[-1, 1]³` at exact 3-4-5 / 1-2-2-3
    /// distances: touching collides, a hair farther does not.
    fn face_edge_corner<T: Real>() {
        let cube = Cuboid::new(v::<T>(1.0, 1.0, 1.0)).unwrap();
        // (sphere radius, sphere centre in the cube's frame, expected normal
        // from the sphere towards the cube)
        let cases: [(f64, [f64; 3], [f64; 3]); 3] = [
            (3.0, [4.0, 0.0, 0.0], [-1.0, 0.0, 0.0]), // face x = 1, distance 3
            (5.0, [4.0, 5.0, 0.5], [-0.6, -0.8, 0.0]), // edge x = y = 1, 3-4-5
            (3.0, [2.0, 3.0, 3.0], [-1.0 / 3.0, -2.0 / 3.0, -2.0 / 3.0]), // corner, 1-2-2-3
        ];
        for (r, c, n) in cases {
            let s = Sphere::new(T::lit(r)).unwrap();
            let centre = v::<T>(c[0], c[1], c[2]);
            let tol = test_tolerance(T::lit(6.0));
            assert!(sphere_cuboid(&s, &cube, &tr(-centre)), "{c:?}");
            let contact = sphere_cuboid_contact(&s, &cube, &tr(-centre)).unwrap();
            assert!(Float::abs(contact.depth) <= tol, "{c:?}: {contact:?}");
            assert!((contact.normal.into_inner() - v::<T>(n[0], n[1], n[2])).norm() <= tol);
            assert!((contact.point_a - contact.point_b).norm() <= tol);
            let far = -centre * (T::one() + tol);
            assert!(!sphere_cuboid(&s, &cube, &tr(far)), "{c:?}");
            assert!(sphere_cuboid_contact(&s, &cube, &tr(far)).is_none());
            // The cube moved 1/4 towards the sphere, against the normal: depth 1/4.
            let near = -centre - v::<T>(n[0], n[1], n[2]) * T::lit(0.25);
            let contact = sphere_cuboid_contact(&s, &cube, &tr(near)).unwrap();
            assert!(
                Float::abs(contact.depth - T::lit(0.25)) <= tol,
                "{c:?}: {contact:?}"
            );
        }
    }
    shape::for_each_precision!(surface, face_edge_corner);

    /// Centres inside the box leave through the nearest face, in the box's
    /// rotated frame; the box's centre takes the documented `−x` of the box.
    fn inside_and_rotated<T: Real>() {
        let cube = Cuboid::new(v::<T>(1.0, 2.0, 3.0)).unwrap();
        let s = Sphere::new(T::half()).unwrap();
        // Centre at (0.75, 0, 0) of the box: the +x face is 0.25 away.
        let c = sphere_cuboid_contact(
            &s,
            &cube,
            &Isometry3::translation(-T::lit(0.75), T::zero(), T::zero()),
        )
        .unwrap();
        assert_eq!(
            (c.depth, c.normal.into_inner()),
            (T::lit(0.75), -Vector3::x())
        );
        assert!(
            (c.point_a - c.point_b - c.normal.into_inner() * c.depth).norm()
                <= test_tolerance(T::one())
        );
        // Concentric: the x face is nearest (1 < 2 < 3).
        let c = sphere_cuboid_contact(&s, &cube, &Isometry3::identity()).unwrap();
        assert_eq!(
            (c.depth, c.normal.into_inner()),
            (T::lit(1.5), -Vector3::x())
        );
        // A quarter turn about z: the box's x axis is A's y axis.
        let turned = Isometry3::rotation(Vector3::z() * T::lit(core::f64::consts::FRAC_PI_2));
        let c = sphere_cuboid_contact(&s, &cube, &turned).unwrap();
        assert!((c.normal.into_inner() + Vector3::y()).norm() <= test_tolerance(T::one()));
        // The top face z = 3 of the turned box, touched from above.
        let touching = Isometry3::from_parts(v::<T>(0.0, 0.0, -3.5).into(), turned.rotation);
        assert!(sphere_cuboid(&s, &cube, &touching));
    }
    shape::for_each_precision!(inside, inside_and_rotated);
}
