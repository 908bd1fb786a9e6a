//! The generic separating-axis test over [`SupportSeparatingAxes`].
//!
//! Decides whether two shapes intersect and, if they do, finds the minimum
//! translation vector, using nothing but the trait: every candidate axis of both
//! shapes is projected, a gap on any axis proves the shapes disjoint, and
//! otherwise the axis of least overlap gives the push-out direction and depth.
//!
//! Why it is exact: for convex sets `A`, `B` the overlap of their projections on
//! a unit axis `n` is the support function of the Minkowski difference
//! `B − A` in the directions `±n`, and the penetration depth is the minimum of
//! that overlap over all unit `n`. The trait's axis set (edge normals, and for
//! rounded shapes the core-vertex-to-nearest-core-point directions) contains a
//! minimiser, so the minimum over the candidates is the true depth; when the
//! shapes are disjoint the same set contains the direction of the closest pair
//! of points, which separates them. (Seed 000 shows the polygon case; Ericson,
//! *Real-Time Collision Detection*, §4.4 and §5.2, the rounded cases.)
//!
//! The world axes `x` and `y` are tried only when the shapes offered no usable
//! axis at all (two circles with the same centre): any axis is a valid
//! candidate, and this keeps the normal deterministic.

use nalgebra::{Isometry2, Unit, Vector2};

use crate::{Real, SupportSeparatingAxes, tolerance};

/// The minimum translation vector found by [`sat_contact`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Penetration<T: Real> {
    /// Unit normal pointing from A towards B.
    pub normal: Unit<Vector2<T>>,
    /// Penetration depth, `≥ 0`: moving B by `depth · normal` leaves the shapes
    /// touching.
    pub depth: T,
}

/// Whether the two shapes intersect (closed sets: touching counts).
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use shape::prelude::*;
/// use shape::sat::sat_intersects;
/// let a = Obb::new(Vector2::new(3.0, 1.0)).unwrap();
/// let b = Circle::new(1.0).unwrap();
/// let touching = Isometry2::translation(0.0, 2.0);
/// assert!(sat_intersects(&a, &Isometry2::identity(), &b, &touching));
/// assert!(!sat_intersects(&a, &Isometry2::identity(), &b, &Isometry2::translation(0.0, 2.5)));
/// ```
pub fn sat_intersects<T: Real>(
    a: &dyn SupportSeparatingAxes<T>,
    pose_a: &Isometry2<T>,
    b: &dyn SupportSeparatingAxes<T>,
    pose_b: &Isometry2<T>,
) -> bool {
    sat_contact(a, pose_a, b, pose_b).is_some()
}

/// The minimum translation that separates the two shapes, or `None` when they
/// do not intersect.
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use shape::prelude::*;
/// use shape::sat::sat_contact;
/// let a = Circle::new(1.0).unwrap();
/// let b = Circle::new(1.0).unwrap();
/// let p = sat_contact(&a, &Isometry2::identity(), &b, &Isometry2::translation(1.5, 0.0)).unwrap();
/// assert!((p.depth - 0.5f64).abs() < 1e-12);
/// assert!((p.normal.x - 1.0).abs() < 1e-12);
/// ```
pub fn sat_contact<T: Real>(
    a: &dyn SupportSeparatingAxes<T>,
    pose_a: &Isometry2<T>,
    b: &dyn SupportSeparatingAxes<T>,
    pose_b: &Isometry2<T>,
) -> Option<Penetration<T>> {
    let mut best = Best::<T>::default();
    let scale = scale_of(pose_a, pose_b);
    {
        let mut visit = |axis: Vector2<T>| best.test(a, pose_a, b, pose_b, axis, scale);
        a.candidate_axes(pose_a, b, pose_b, &mut visit);
        b.candidate_axes(pose_b, a, pose_a, &mut visit);
    }
    if !best.separated && best.depth.is_none() {
        best.test(a, pose_a, b, pose_b, Vector2::x(), scale);
        best.test(a, pose_a, b, pose_b, Vector2::y(), scale);
    }
    if best.separated {
        return None;
    }
    best.depth
        .map(|(depth, normal)| Penetration { normal, depth })
}

/// The axis multiplied by a power of two (exact) when its length is far from
/// one, so that projections neither overflow nor underflow.
fn rescale_exactly<T: Real>(axis: Vector2<T>) -> Vector2<T> {
    let m = axis.amax();
    let big = T::lit(1048576.0); // 2^20
    if m > big || (m < T::one() / big && m > T::zero()) {
        // m is finite and nonzero here (an axis of finite shapes).
        let k = crate::math::exponent(m).unwrap_or(0);
        axis * T::lit(crate::math::pow2(-k))
    } else {
        axis
    }
}

/// A length scale for the zero-axis tolerance: the poses' distance from the
/// origin, at least one.
fn scale_of<T: Real>(pose_a: &Isometry2<T>, pose_b: &Isometry2<T>) -> T {
    let s = pose_a.translation.vector.amax() + pose_b.translation.vector.amax();
    num_traits::Float::max(s, T::one())
}

struct Best<T: Real> {
    separated: bool,
    depth: Option<(T, Unit<Vector2<T>>)>,
}

impl<T: Real> Default for Best<T> {
    fn default() -> Self {
        Self {
            separated: false,
            depth: None,
        }
    }
}

impl<T: Real> Best<T> {
    fn test(
        &mut self,
        a: &dyn SupportSeparatingAxes<T>,
        pose_a: &Isometry2<T>,
        b: &dyn SupportSeparatingAxes<T>,
        pose_b: &Isometry2<T>,
        axis: Vector2<T>,
        scale: T,
    ) {
        if self.separated {
            return;
        }
        let axis = rescale_exactly(axis);
        let len2 = axis.norm_squared();
        if !num_traits::Float::is_finite(len2)
            || len2 <= tolerance::axis_length_squared::<T>() * scale * scale
        {
            return;
        }
        // Project on the axis as given: the boolean decision needs no unit axis
        // (seed 000), and skipping the division keeps touching contacts at exact
        // coordinates exact (a circle touching a corner: axis (3, 4), |axis| = 5).
        let ia = a.project(pose_a, &axis);
        let ib = b.project(pose_b, &axis);
        // B above A along the axis needs a push of ia.max - ib.min; B below A
        // needs ib.max - ia.min the other way.
        let up = ia.max - ib.min;
        let down = ib.max - ia.min;
        let (overlap, sign) = if up <= down {
            (up, T::one())
        } else {
            (down, -T::one())
        };
        if overlap < T::zero() {
            self.separated = true;
            return;
        }
        let len = num_traits::Float::sqrt(len2);
        let depth = overlap / len;
        let normal = axis * (sign / len);
        if self.depth.is_none_or(|(d, _)| depth < d) {
            self.depth = Some((depth, Unit::new_unchecked(normal)));
        }
    }
}
