//! Axis-aligned box against axis-aligned box: three interval tests with early
//! outs (seed 003's box test, in 3D), in A's frame.
//!
//! Both boxes ignore rotation, so B's placement in A's frame is the
//! translation of `b_in_a` alone (its rotation is ignored).
//!
//! 1. Move B's corners into A's frame: `[min_B + t, max_B + t]`.
//! 2. Per axis, stop as soon as the intervals are apart (seed 003: apart in x,
//!    in y or in z means no collision). Closed intervals: touching counts.
//! 3. Contact: on each axis the overlap is a candidate push (up by
//!    `max_A − min_B` or down by `max_B − min_A`); the smallest is the minimum
//!    translation, because the Minkowski difference of two boxes is a box,
//!    whose nearest face lies on the axis of least overlap. The points are the
//!    centre of the overlap region placed on A's and on B's face.
//!
//! Exact: only additions, subtractions and comparisons of the inputs.
//! Degenerate cases: ties go to x, then y, then z, and to the `+` push
//! (concentric equal boxes push along `+x`).

use nalgebra::{Isometry3, Point3, Unit, Vector3};
use num_traits::Float;
use shape::{Aabb3, Real};

use super::{ClosestPoints3, Contact3};

/// Whether the two boxes intersect.
///
/// ```
/// use nalgebra::{Isometry3, Point3};
/// use narrowphase::dim3::aabb3_aabb3;
/// let a = shape::Aabb3::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
/// assert!(aabb3_aabb3(&a, &a, &Isometry3::translation(1.0, 1.0, 1.0))); // corners touch
/// assert!(!aabb3_aabb3(&a, &a, &Isometry3::translation(1.0, 0.5, 1.5)));
/// ```
#[inline]
pub fn aabb3_aabb3<T: Real>(a: &Aabb3<T>, b: &Aabb3<T>, b_in_a: &Isometry3<T>) -> bool {
    let t = b_in_a.translation.vector;
    let (bmin, bmax) = (b.min() + t, b.max() + t);
    let (amin, amax) = (a.min(), a.max());
    !(bmin.x > amax.x
        || amin.x > bmax.x
        || bmin.y > amax.y
        || amin.y > bmax.y
        || bmin.z > amax.z
        || amin.z > bmax.z)
}

/// The contact of the two boxes in A's frame.
///
/// ```
/// use nalgebra::{Isometry3, Point3, Vector3};
/// use narrowphase::dim3::aabb3_aabb3_contact;
/// let a = shape::Aabb3::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
/// let c = aabb3_aabb3_contact(&a, &a, &Isometry3::translation(0.5, 0.0, -0.75)).unwrap();
/// assert_eq!((c.depth, c.normal.into_inner()), (0.25, -Vector3::z()));
/// assert_eq!((c.point_a, c.point_b), (Point3::new(0.75, 0.5, 0.0), Point3::new(0.75, 0.5, 0.25)));
/// ```
#[inline]
pub fn aabb3_aabb3_contact<T: Real>(
    a: &Aabb3<T>,
    b: &Aabb3<T>,
    b_in_a: &Isometry3<T>,
) -> Option<Contact3<T>> {
    if !aabb3_aabb3(a, b, b_in_a) {
        return None;
    }
    let t = b_in_a.translation.vector;
    let (bmin, bmax) = (b.min() + t, b.max() + t);
    let (amin, amax) = (a.min(), a.max());
    // Per axis: push B up by amax − bmin or down by bmax − amin.
    let mut best = (T::zero(), 0, true);
    for i in 0..3 {
        let (up, down) = (amax[i] - bmin[i], bmax[i] - amin[i]);
        let cand = if up <= down {
            (up, i, true)
        } else {
            (down, i, false)
        };
        if i == 0 || cand.0 < best.0 {
            best = cand;
        }
    }
    let (depth, i, up) = best;
    let mut n = Vector3::zeros();
    n[i] = if up { T::one() } else { -T::one() };
    // The centre of the overlap region, on A's face and on B's.
    let mut m = Point3::origin();
    for k in 0..3 {
        m[k] = (Float::max(amin[k], bmin[k]) + Float::min(amax[k], bmax[k])) * T::half();
    }
    let (mut point_a, mut point_b) = (m, m);
    point_a[i] = if up { amax[i] } else { amin[i] };
    point_b[i] = if up { bmin[i] } else { bmax[i] };
    Some(Contact3 {
        normal: Unit::new_unchecked(n),
        depth,
        point_a,
        point_b,
    })
}

/// The closest points of two axis-aligned boxes within `max_distance`, in
/// A's frame; `Intersecting` exactly when [`aabb3_aabb3`] says so. Per axis:
/// the gap between the intervals, or, where they overlap, the middle of the
/// overlap for both points; the distance is the length of the gaps.
///
/// ```
/// use nalgebra::{Isometry3, Point3};
/// use narrowphase::{ClosestPoints3, dim3::aabb3_aabb3_closest_points};
/// let a = shape::Aabb3::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
/// let ClosestPoints3::WithinMargin { distance, point_a, point_b, .. } =
///     aabb3_aabb3_closest_points(&a, &a, &Isometry3::translation(4.0, 5.0, 0.5), 10.0)
/// else { panic!() };
/// assert_eq!(distance, 5.0); // gaps 3 and 4
/// assert_eq!((point_a, point_b), (Point3::new(1.0, 1.0, 0.75), Point3::new(4.0, 5.0, 0.75)));
/// ```
#[inline]
pub fn aabb3_aabb3_closest_points<T: Real>(
    a: &Aabb3<T>,
    b: &Aabb3<T>,
    b_in_a: &Isometry3<T>,
    max_distance: T,
) -> ClosestPoints3<T> {
    if aabb3_aabb3(a, b, b_in_a) {
        return ClosestPoints3::Intersecting;
    }
    let t = b_in_a.translation.vector;
    let (bmin, bmax) = (b.min() + t, b.max() + t);
    let (amin, amax) = (a.min(), a.max());
    let mut pa = Point3::origin();
    let mut pb = Point3::origin();
    for i in 0..3 {
        (pa[i], pb[i]) = if bmin[i] > amax[i] {
            (amax[i], bmin[i])
        } else if amin[i] > bmax[i] {
            (amin[i], bmax[i])
        } else {
            let m = (Float::max(amin[i], bmin[i]) + Float::min(amax[i], bmax[i])) * T::half();
            (m, m)
        };
    }
    // Apart on at least one axis: the difference is not zero.
    let (len, n) =
        crate::polygonal::length_and_direction(pb - pa).unwrap_or((T::zero(), Vector3::x()));
    ClosestPoints3::apart(pa, pb, Unit::new_unchecked(n), len, max_distance)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit<T: Real>(x: f64, y: f64, z: f64) -> Aabb3<T> {
        let p = Point3::new(T::lit(x), T::lit(y), T::lit(z));
        Aabb3::new(p, p + Vector3::repeat(T::one())).unwrap()
    }

    /// Seed 003's grid: unit boxes at integer coordinates touch face to face,
    /// edge to edge and corner to corner; a hair apart they do not.
    fn grid<T: Real>() {
        let a = unit::<T>(0.0, 0.0, 0.0);
        let hair = T::epsilon() * T::lit(4.0);
        for (x, y, z) in [
            (1.0, 0.0, 0.0),
            (0.0, -1.0, 0.0),
            (0.0, 0.0, 1.0),
            (1.0, 1.0, 0.0),
            (-1.0, 1.0, -1.0),
        ] {
            let b = unit::<T>(x, y, z);
            let at = Isometry3::identity();
            assert!(aabb3_aabb3(&a, &b, &at));
            let c = aabb3_aabb3_contact(&a, &b, &at).unwrap();
            assert_eq!(c.depth, T::zero());
            // A hair farther out along the offset.
            let push = Vector3::new(T::lit(x), T::lit(y), T::lit(z)) * hair;
            let apart = Isometry3::translation(push.x, push.y, push.z);
            assert!(!aabb3_aabb3(&a, &b, &apart));
            assert!(aabb3_aabb3_contact(&a, &b, &apart).is_none());
        }
        // Rotation in b_in_a is ignored.
        let turned = Isometry3::new(Vector3::x(), Vector3::new(T::one(), T::two(), T::lit(0.5)));
        assert_eq!(
            aabb3_aabb3_contact(&a, &a, &turned),
            aabb3_aabb3_contact(
                &a,
                &a,
                &Isometry3::translation(T::one(), T::zero(), T::zero())
            )
        );
        // Concentric: +x.
        let c = aabb3_aabb3_contact(&a, &a, &Isometry3::identity()).unwrap();
        assert_eq!((c.depth, c.normal.into_inner()), (T::one(), Vector3::x()));
    }
    shape::for_each_precision!(known, grid);
}
