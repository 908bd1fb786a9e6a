//! Time of impact in 3D: [`Sweep3`] and [`time_of_impact3`], the method of
//! the [parent module](super) with a 3D rotation.
//!
//! A [`Sweep3`] turns about a fixed world axis at a constant rate: the
//! orientation at time `t` is `exp(t · turn) · rotation_start`, with `turn`
//! the scaled axis (axis times angle, world frame) of the whole step, and the
//! rotation centre moves on a straight line. A point at lever arm `ρ` from the
//! centre then moves with velocity `Δc + turn × ρ`, of length at most
//! `|Δc| + |turn| |ρ|`: the bound of step 3 holds with `|Δθ|` replaced by
//! `|turn|`, and everything else (the support gap along a fixed world axis, at
//! most the distance) is the same, so the guarantee is the same.

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use num_traits::Float;
use shape::{Real, Shape3, ShapeRef3};

use super::{ToiOptions, ToiOutput3, Witness, advance};
use crate::DispatchError;

/// A rigid motion in 3D over one step `t ∈ [0, 1]`: the rotation centre
/// (`local_center`, shape frame) moves on a straight line from
/// `center_start` to `center_end` (world) while the orientation turns at a
/// constant rate about a fixed world axis, `exp(t · turn) · rotation_start`
/// (`turn` is the axis times the angle of the whole step, any length: more
/// than half a turn is representable).
///
/// ```
/// use nalgebra::{Point3, UnitQuaternion, Vector3};
/// use narrowphase::toi::Sweep3;
/// let s = Sweep3::new(
///     Point3::origin(), Point3::origin(), Point3::new(2.0f64, 0.0, 0.0),
///     UnitQuaternion::identity(), Vector3::new(0.0, 0.0, 1.0),
/// ).unwrap();
/// let mid = s.pose_at(0.5);
/// assert_eq!(mid.translation.vector, Vector3::new(1.0, 0.0, 0.0));
/// assert!((mid.rotation.angle() - 0.5).abs() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sweep3<T: Real> {
    local_center: Point3<T>,
    center_start: Point3<T>,
    center_end: Point3<T>,
    rotation_start: UnitQuaternion<T>,
    turn: Vector3<T>,
}

fn finite3<T: Real>(v: &Vector3<T>) -> bool {
    v.iter().all(|x| Float::is_finite(*x))
}

impl<T: Real> Sweep3<T> {
    /// The sweep of the rotation centre `local_center` (shape frame) from
    /// `center_start` to `center_end` (world), the orientation going from
    /// `rotation_start` by the scaled axis `turn` (world frame).
    ///
    /// # Errors
    /// [`DispatchError::NonFiniteSweep`] when a number is NaN or infinite, or
    /// the motion overflows.
    pub fn new(
        local_center: Point3<T>,
        center_start: Point3<T>,
        center_end: Point3<T>,
        rotation_start: UnitQuaternion<T>,
        turn: Vector3<T>,
    ) -> Result<Self, DispatchError> {
        let s = Self {
            local_center,
            center_start,
            center_end,
            rotation_start,
            turn,
        };
        let ok = finite3(&local_center.coords)
            && finite3(&center_start.coords)
            && finite3(&center_end.coords)
            && finite3(&(center_end - center_start))
            && rotation_start.coords.iter().all(|x| Float::is_finite(*x))
            && finite3(&turn)
            && Float::is_finite(turn.norm())
            && finite3(&s.pose_at(T::zero()).translation.vector)
            && finite3(&s.pose_at(T::one()).translation.vector);
        if ok {
            Ok(s)
        } else {
            Err(DispatchError::NonFiniteSweep)
        }
    }

    /// The sweep from pose `start` to pose `end` about the shape's local
    /// origin, turning the shorter way (an angle in `[0, π]`).
    ///
    /// # Errors
    /// [`DispatchError::NonFiniteSweep`] as [`new`](Self::new).
    pub fn from_poses(start: &Isometry3<T>, end: &Isometry3<T>) -> Result<Self, DispatchError> {
        let turn = shape::math::scaled_axis_of(&(end.rotation * start.rotation.inverse()));
        Self::new(
            Point3::origin(),
            Point3::from(start.translation.vector),
            Point3::from(end.translation.vector),
            start.rotation,
            turn,
        )
    }

    /// The sweep of a shape at `pose` translating by `motion`, not turning.
    ///
    /// # Errors
    /// [`DispatchError::NonFiniteSweep`] as [`new`](Self::new).
    pub fn linear(pose: &Isometry3<T>, motion: &Vector3<T>) -> Result<Self, DispatchError> {
        let c0 = Point3::from(pose.translation.vector);
        Self::new(
            Point3::origin(),
            c0,
            c0 + motion,
            pose.rotation,
            Vector3::zeros(),
        )
    }

    /// The rotation centre in the shape's local frame.
    #[must_use]
    pub fn local_center(&self) -> Point3<T> {
        self.local_center
    }

    /// The rotation centre's world positions at `t = 0` and `t = 1`.
    #[must_use]
    pub fn centers(&self) -> (Point3<T>, Point3<T>) {
        (self.center_start, self.center_end)
    }

    /// The turn over the step: axis times angle, world frame.
    #[must_use]
    pub fn turn(&self) -> Vector3<T> {
        self.turn
    }

    /// The pose at time `t`: centre interpolated linearly, orientation
    /// `exp(t · turn) · rotation_start` (exact at `t = 0`).
    #[must_use]
    #[inline]
    pub fn pose_at(&self, t: T) -> Isometry3<T> {
        let s = T::one() - t;
        let center = self.center_start.coords * s + self.center_end.coords * t;
        let rotation = shape::math::rotation3(&(self.turn * t)) * self.rotation_start;
        Isometry3::from_parts(
            Translation3::from(center - rotation * self.local_center.coords),
            rotation,
        )
    }
}

/// The largest distance from `center` (local frame) of a point of the 3D
/// shape, or `|center|` if larger (the lever arm of step 3). Exact for the
/// built-in shapes; from the local bounding box for user kinds.
#[must_use]
pub fn bounding_radius3<T: Real>(shape: &dyn Shape3<T>, center: &Point3<T>) -> T {
    let box_radius = |lo: Point3<T>, hi: Point3<T>| {
        // The farthest corner: per axis, the end farther from the centre.
        let far = Vector3::from_fn(|i, _| {
            Float::max(Float::abs(lo[i] - center[i]), Float::abs(hi[i] - center[i]))
        });
        far.norm()
    };
    let c = center.coords.norm();
    let r = match shape.as_builtin() {
        Some(ShapeRef3::Sphere(s)) => c + s.radius(),
        Some(ShapeRef3::Cuboid(s)) => {
            let h = s.half_extents();
            box_radius(Point3::from(-h), Point3::from(h))
        }
        Some(ShapeRef3::Aabb3(s)) => box_radius(s.min(), s.max()),
        None => {
            let b = shape.bounding_box(&Isometry3::identity());
            box_radius(b.min, b.max)
        }
    };
    Float::max(r, c)
}

/// The gap between the projections of the 3D shapes on the unit axis `n`.
#[inline]
fn axis_gap3<T: Real>(
    a: &dyn Shape3<T>,
    pose_a: &Isometry3<T>,
    b: &dyn Shape3<T>,
    pose_b: &Isometry3<T>,
    n: &Vector3<T>,
) -> Option<T> {
    let sa = a.as_convex()?.support_point(&a.effective_pose(pose_a), n);
    let sb = b.as_convex()?.support_point(&b.effective_pose(pose_b), &-n);
    Some((sb - sa).dot(n))
}

/// The time of impact of 3D shapes under [`Sweep3`] motions, through the
/// built-in 3D kernels (`closest_points3`, `contact3`); the contract is the
/// 2D one ([`time_of_impact`](super::time_of_impact)).
///
/// ```
/// use nalgebra::{Isometry3, Vector3};
/// use narrowphase::toi::{Sweep3, ToiOptions, ToiStatus, time_of_impact3};
/// use shape::{Cuboid, Sphere};
/// let wall = Cuboid::<f64>::new(Vector3::new(0.5, 5.0, 5.0)).unwrap();
/// let ball = Sphere::new(0.5).unwrap();
/// let still = Sweep3::linear(&Isometry3::identity(), &Vector3::zeros()).unwrap();
/// let shot = Sweep3::linear(&Isometry3::translation(-10.0, 0.0, 0.0), &Vector3::new(20.0, 0.0, 0.0))
///     .unwrap();
/// let hit = time_of_impact3(&ball, &shot, &wall, &still, &ToiOptions::default()).unwrap();
/// assert_eq!(hit.status, ToiStatus::Hit);
/// assert!((hit.t - (9.0 - 0.005) / 20.0).abs() < 0.00125 / 20.0);
/// ```
///
/// # Errors
/// As [`time_of_impact`](super::time_of_impact), with the 3D queries' errors.
pub fn time_of_impact3<T: Real>(
    a: &dyn Shape3<T>,
    sweep_a: &Sweep3<T>,
    b: &dyn Shape3<T>,
    sweep_b: &Sweep3<T>,
    options: &ToiOptions<T>,
) -> Result<ToiOutput3<T>, DispatchError> {
    let (a0, a1) = sweep_a.centers();
    let (b0, b1) = sweep_b.centers();
    let relative = (b1 - b0) - (a1 - a0);
    let turning = sweep_a.turn.norm() * bounding_radius3(a, &sweep_a.local_center)
        + sweep_b.turn.norm() * bounding_radius3(b, &sweep_b.local_center);
    let witness_at = |t: T| {
        let (pa, pb) = (sweep_a.pose_at(t), sweep_b.pose_at(t));
        Witness::from_closest(
            crate::dim3::closest_points3(a, &pa, b, &pb, T::infinity())?,
            || {
                Ok(crate::dim3::contact3(a, &pa, b, &pb)?.map(|c| Witness {
                    distance: -c.depth,
                    normal: c.normal,
                    point_a: c.point_a,
                    point_b: c.point_b,
                }))
            },
            Point3::from(pa.translation.vector),
            Point3::from(pb.translation.vector),
        )
    };
    let gap_at =
        |t: T, n: &Vector3<T>| axis_gap3(a, &sweep_a.pose_at(t), b, &sweep_b.pose_at(t), n);
    advance(witness_at, gap_at, &relative, turning, options)
}
