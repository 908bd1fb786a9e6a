//! Sphere against an [`Aabb3`]: [`sphere_cuboid`](super::sphere_cuboid)'s clamp
//! with the box centred where the `Aabb3` is in its local frame.
//!
//! 1. The dispatch table hands over the `Aabb3`'s *effective* pose (translation
//!    only), so `b_in_a` rotates B only by the inverse of A's rotation, which
//!    the kernel undoes exactly as for a cuboid.
//! 2. The box is `center ± half_extents` in B's frame; clamp, compare squared
//!    distances, and find the nearest face as in `sphere_cuboid`.
//!
//! Exact for the reasons given there (Ericson, *Real-Time Collision Detection*,
//! §5.1.4). Degenerate cases: as `sphere_cuboid` (a sphere centred at the box's
//! centre pushes the box along `−x`).

use nalgebra::Isometry3;
use shape::{Aabb3, Real, Sphere};

use super::sphere_cuboid::{sphere_box, sphere_box_closest_points, sphere_box_contact};
use super::{ClosestPoints3, Contact3};

/// Whether a sphere and an axis-aligned box intersect.
///
/// ```
/// use nalgebra::{Isometry3, Point3};
/// use narrowphase::dim3::sphere_aabb3;
/// let s = shape::Sphere::new(5.0).unwrap();
/// let b = shape::Aabb3::new(Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 2.0, 2.0)).unwrap();
/// // The box's corner (0, 0, 0) placed at (3, 4, 0): 3-4-5.
/// assert!(sphere_aabb3(&s, &b, &Isometry3::translation(3.0, 4.0, 0.0)));
/// assert!(!sphere_aabb3(&s, &b, &Isometry3::translation(3.0, 4.01, 0.0)));
/// ```
#[inline]
pub fn sphere_aabb3<T: Real>(a: &Sphere<T>, b: &Aabb3<T>, b_in_a: &Isometry3<T>) -> bool {
    sphere_box(a.radius(), &b.half_extents(), &b.center(), b_in_a)
}

/// The contact of a sphere and an axis-aligned box, in the sphere's frame.
///
/// ```
/// use nalgebra::{Isometry3, Point3, Vector3};
/// use narrowphase::dim3::sphere_aabb3_contact;
/// let s = shape::Sphere::new(1.0).unwrap();
/// let b = shape::Aabb3::new(Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 2.0, 2.0)).unwrap();
/// let c = sphere_aabb3_contact(&s, &b, &Isometry3::translation(-1.0, -1.0, 0.75)).unwrap();
/// assert_eq!((c.depth, c.normal.into_inner()), (0.25, Vector3::z()));
/// ```
#[inline]
pub fn sphere_aabb3_contact<T: Real>(
    a: &Sphere<T>,
    b: &Aabb3<T>,
    b_in_a: &Isometry3<T>,
) -> Option<Contact3<T>> {
    sphere_box_contact(a.radius(), &b.half_extents(), &b.center(), b_in_a)
}

/// The closest points of a sphere and an axis-aligned box within
/// `max_distance`, in the sphere's frame; `Intersecting` exactly when
/// [`sphere_aabb3`] says so.
#[inline]
pub fn sphere_aabb3_closest_points<T: Real>(
    a: &Sphere<T>,
    b: &Aabb3<T>,
    b_in_a: &Isometry3<T>,
    max_distance: T,
) -> ClosestPoints3<T> {
    sphere_box_closest_points(
        a.radius(),
        &b.half_extents(),
        &b.center(),
        b_in_a,
        max_distance,
    )
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point3, Vector3};
    use num_traits::Float;
    use shape::testing::test_tolerance;

    use super::*;

    /// The off-centre box `[0, 2] × [0, 4] × [0, 6]`: the corner (0, 0, 0) at a
    /// 1-2-2-3 distance, and a face from inside.
    fn off_centre<T: Real>() {
        let b = Aabb3::new(
            Point3::origin(),
            Point3::new(T::two(), T::lit(4.0), T::lit(6.0)),
        )
        .unwrap();
        let s = Sphere::new(T::lit(3.0)).unwrap();
        // Sphere at (-1, -2, -2) relative to the box's local origin.
        let at = Isometry3::translation(T::one(), T::two(), T::two());
        assert!(sphere_aabb3(&s, &b, &at));
        let c = sphere_aabb3_contact(&s, &b, &at).unwrap();
        assert!(Float::abs(c.depth) <= test_tolerance(T::lit(3.0)));
        let hair = T::one() + test_tolerance(T::lit(3.0));
        assert!(!sphere_aabb3(
            &s,
            &b,
            &Isometry3::translation(hair, T::two(), T::two())
        ));
        // Inside, at (1.5, 2, 3): the +x face at 0.5 is nearest.
        let small = Sphere::new(T::half()).unwrap();
        let c = sphere_aabb3_contact(
            &small,
            &b,
            &Isometry3::translation(-T::lit(1.5), -T::two(), -T::lit(3.0)),
        )
        .unwrap();
        assert_eq!((c.depth, c.normal.into_inner()), (T::one(), -Vector3::x()));
    }
    shape::for_each_precision!(known, off_centre);
}
