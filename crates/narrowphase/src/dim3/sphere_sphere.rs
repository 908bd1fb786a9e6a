//! Sphere against sphere, in A's frame: the squared distance of the centres
//! against the squared sum of the radii (seed 003's circle test, in 3D).
//!
//! 1. B's centre in A's frame is the translation `d` of `b_in_a` (both spheres
//!    are centred on their local origins, so rotations play no part).
//! 2. The balls intersect when `|d|² ≤ (rA + rB)²`: no square root on the
//!    boolean path, and touching counts (closed sets).
//! 3. Contact: normal `d / |d|`, depth `rA + rB − |d|`, points `rA n` on A and
//!    `d − rB n` on B.
//!
//! Exact: two balls meet iff their centres are at most `rA + rB` apart, and
//! the shortest move that separates them is along the line of centres.
//! Reference: Ericson, *Real-Time Collision Detection*, §4.3.1; seed 003.
//! Degenerate case: coincident centres push along `+x` of A's frame.

use nalgebra::{Isometry3, Point3, Unit, Vector3};
use num_traits::Float;
use shape::{Real, Sphere};

use super::{ClosestPoints3, Contact3};
use crate::polygonal::length_and_direction;

/// Whether two spheres intersect; `b_in_a` is B's pose in A's frame.
///
/// ```
/// use nalgebra::Isometry3;
/// use narrowphase::dim3::sphere_sphere;
/// let s = shape::Sphere::new(1.0).unwrap();
/// assert!(sphere_sphere(&s, &s, &Isometry3::translation(0.0, 2.0, 0.0))); // touching
/// assert!(!sphere_sphere(&s, &s, &Isometry3::translation(0.0, 2.0, 0.01)));
/// ```
#[inline]
pub fn sphere_sphere<T: Real>(a: &Sphere<T>, b: &Sphere<T>, b_in_a: &Isometry3<T>) -> bool {
    let r = a.radius() + b.radius();
    b_in_a.translation.vector.norm_squared() <= r * r
}

/// The contact of two spheres, in A's frame; `None` when they are apart.
///
/// ```
/// use nalgebra::{Isometry3, Vector3};
/// use narrowphase::dim3::sphere_sphere_contact;
/// let s = shape::Sphere::new(1.0).unwrap();
/// let c = sphere_sphere_contact(&s, &s, &Isometry3::translation(1.5, 0.0, 0.0)).unwrap();
/// assert_eq!((c.depth, c.normal.into_inner()), (0.5, Vector3::x()));
/// ```
#[inline]
pub fn sphere_sphere_contact<T: Real>(
    a: &Sphere<T>,
    b: &Sphere<T>,
    b_in_a: &Isometry3<T>,
) -> Option<Contact3<T>> {
    let d = b_in_a.translation.vector;
    let r = a.radius() + b.radius();
    let d2 = d.norm_squared();
    if d2 > r * r {
        return None;
    }
    // Length and direction of the scaled vector (`d2` may be subnormal).
    let (len, n) = length_and_direction(d).unwrap_or((T::zero(), Vector3::x()));
    Some(Contact3 {
        normal: Unit::new_unchecked(n),
        depth: Float::max(r - len, T::zero()),
        point_a: Point3::from(n * a.radius()),
        point_b: Point3::from(d - n * b.radius()),
    })
}

/// The closest points of two spheres within `max_distance`, in A's frame:
/// along the centres' line, at distance `|d| − rA − rB`; `Intersecting`
/// exactly when [`sphere_sphere`] says so.
///
/// ```
/// use nalgebra::{Isometry3, Point3};
/// use narrowphase::{ClosestPoints3, dim3::sphere_sphere_closest_points};
/// let s = shape::Sphere::new(1.0).unwrap();
/// let ClosestPoints3::WithinMargin { distance, point_b, .. } =
///     sphere_sphere_closest_points(&s, &s, &Isometry3::translation(0.0, 0.0, 5.0), 9.0)
/// else { panic!() };
/// assert_eq!((distance, point_b), (3.0, Point3::new(0.0, 0.0, 4.0)));
/// ```
#[inline]
pub fn sphere_sphere_closest_points<T: Real>(
    a: &Sphere<T>,
    b: &Sphere<T>,
    b_in_a: &Isometry3<T>,
    max_distance: T,
) -> ClosestPoints3<T> {
    let d = b_in_a.translation.vector;
    let r = a.radius() + b.radius();
    if d.norm_squared() <= r * r {
        return ClosestPoints3::Intersecting;
    }
    let (len, n) = crate::polygonal::length_and_direction(d).unwrap_or((T::zero(), Vector3::x()));
    ClosestPoints3::apart(
        Point3::from(n * a.radius()),
        Point3::from(d - n * b.radius()),
        Unit::new_unchecked(n),
        len - r,
        max_distance,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use shape::testing::test_tolerance;

    fn known_values<T: Real>() {
        let one = Sphere::new(T::one()).unwrap();
        let at = |x: f64, y: f64, z: f64| Isometry3::translation(T::lit(x), T::lit(y), T::lit(z));
        // Two unit spheres 1.5 apart: depth 0.5, normal +x.
        let c = sphere_sphere_contact(&one, &one, &at(1.5, 0.0, 0.0)).unwrap();
        assert_eq!((c.depth, c.normal.into_inner()), (T::half(), Vector3::x()));
        assert_eq!(
            (c.point_a, c.point_b),
            (
                Point3::new(T::one(), T::zero(), T::zero()),
                Point3::new(T::half(), T::zero(), T::zero())
            )
        );
        // 1-2-2-3: radii 1 and 2 at distance exactly 3 touch.
        let two = Sphere::new(T::two()).unwrap();
        assert!(sphere_sphere(&one, &two, &at(1.0, 2.0, 2.0)));
        let c = sphere_sphere_contact(&one, &two, &at(1.0, 2.0, 2.0)).unwrap();
        assert!(Float::abs(c.depth) <= test_tolerance(T::lit(3.0)));
        let hair = test_tolerance(T::lit(3.0));
        assert!(!sphere_sphere(
            &one,
            &two,
            &Isometry3::translation(T::one(), T::two(), T::two() + hair)
        ));
        assert!(
            sphere_sphere_contact(
                &one,
                &two,
                &Isometry3::translation(T::one(), T::two(), T::two() + hair)
            )
            .is_none()
        );
        // Rotation of B plays no part.
        let turned = Isometry3::new(
            Vector3::new(T::one(), T::two(), T::two()),
            Vector3::new(T::lit(0.3), T::lit(-1.0), T::lit(2.0)),
        );
        assert!(sphere_sphere(&one, &two, &turned));
        // Coincident centres: documented +x normal, full depth.
        let c = sphere_sphere_contact(&one, &two, &Isometry3::identity()).unwrap();
        assert_eq!(
            (c.depth, c.normal.into_inner()),
            (T::lit(3.0), Vector3::x())
        );
    }
    shape::for_each_precision!(known, known_values);
}
