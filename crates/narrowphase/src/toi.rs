//! Time of impact of two shapes under rigid motions (translation and
//! rotation) over one step: [`time_of_impact`], [`DispatchTable::time_of_impact`],
//! and in 3D [`time_of_impact3`] (built-in 3D kernels; the 3D sweep is in
//! `toi/toi3.rs`).
//!
//! # What it computes
//!
//! Each shape moves by a [`Sweep`]: its rotation centre travels on a straight
//! line and its angle changes linearly over the step `t ∈ [0, 1]` (Box2D's
//! `b2Sweep`). The answer is the first time `t ≤ t_max` at which the
//! distance between the shapes comes down to the target separation `target`
//! (within `± tolerance`), the unit normal from A to B and a witness point on
//! each shape at that time; or that the distance stays above `target` over
//! `[0, t_max]`, never closer than `target − tolerance` and never touching
//! ([`ToiStatus::Separated`]); or that the shapes are already closer than
//! `target − tolerance` at `t = 0` ([`ToiStatus::Penetrating`]). Before the
//! reported time the distance stays above `target − tolerance` (and above
//! zero: the shapes do not touch).
//! The contract is in `docs/conventions.md`, "Time of impact".
//!
//! # Method: conservative advancement on a separating axis
//!
//! 1. At the current time `t` (first `0`), take the exact closest points of
//!    the two shapes (the pair's `closest_points` kernel): the distance `d`,
//!    the unit normal `n` from A to B. If `d ≤ target + tolerance`, this is
//!    the time of impact.
//! 2. The *separation function* along the fixed world axis `n` is the gap
//!    between the shapes' projections on it,
//!    `g(τ) = min_{q ∈ B(τ)} q·n − max_{p ∈ A(τ)} p·n`, computed exactly from
//!    the shapes' support points. For every `τ`, `g(τ) ≤ dist(τ)` (a slab of
//!    width `g` separates the shapes, so no two points are nearer), and at `t`
//!    it equals `d` (the closest points of two convex sets realise the gap
//!    along their own direction).
//! 3. `g` cannot fall faster than a closing speed bound: a point of A at lever
//!    arm `ρ` from A's rotation centre moves, over the step, with velocity
//!    `Δc_A + Δθ_A × ρ`, so a support value along `n` changes at most at
//!    `Δc_A·n + |Δθ_A|·r_A`, with `r_A` the largest lever arm (the shape's
//!    bounding radius about its rotation centre). Hence
//!    `g(τ) ≥ g(s) − L (τ − s)` for `τ ≥ s`, with
//!    `L = max(0, −(Δc_B − Δc_A)·n) + |Δθ_A|·r_A + |Δθ_B|·r_B` (Mirtich's
//!    conservative advancement bound, taken along the axis: motion along the
//!    contact plane does not count).
//! 4. Advance along the axis: `s ← s + (g(s) − aim) / L`, re-evaluating `g`
//!    exactly at each new `s` (two support points, no distance query) while
//!    `g > target + tolerance`, at most [`AXIS_STEPS`] times. The level `aim`
//!    is inside the band, a quarter tolerance above its lower edge
//!    (`target − 3/4 tolerance`), and at least a quarter tolerance above zero
//!    when the band reaches down to contact (a target below the tolerance).
//!    By 3 every skipped time has `g > aim`, so `dist > aim`. For a pure
//!    translation `g` is linear and one step lands exactly on `aim`; with
//!    rotation `g` bends and the steps shrink geometrically as the bound
//!    tightens. Aiming low in the band rather than at `target` takes steps
//!    more than three times as long when the motion grazes the band (the
//!    distance hovering just above it), the case that costs the most
//!    iterations.
//! 5. Go to 1 at the new time (a new closest-points axis), at most
//!    `max_iterations` times ([`ToiStatus::IterationLimit`] with the last
//!    time proven safe); a step past `t_max` checks `t_max` itself and
//!    answers [`ToiStatus::Separated`] when it is still apart.
//!
//! # Why it never reports a time later than the first contact
//!
//! Every time skipped by a step of 4 has, by the bound of 3, a gap along some
//! axis above `aim`, and the gap along any axis is at most the distance:
//! the distance stays above `aim > max(target − tolerance, 0)` on the whole
//! skipped interval, so the shapes do not touch there. The bound holds for every shape,
//! curved or not, whatever the closest features do in between: it only uses
//! the shapes' support functions and their bounding radii. The only thing
//! assumed of a shape is that its points move rigidly with its pose, or (a
//! shape whose `effective_pose` drops the rotation, the `Aabb`) that it only
//! translates with its pose's translation, which moves by
//! `Δc − Δθ × R·local_center`: the radius used is the larger of the shape's
//! radius about its centre and `|local_center|`, covering both. Rounding:
//! the aim is a quarter tolerance inside the guaranteed level, so rounding of
//! the step (far smaller than the tolerance when the tolerance is chosen
//! above the rounding of the distance at the world's scale) does not carry a
//! time past it.
//!
//! Box2D's `b2TimeOfImpact` instead root-finds (bisection and secant) the
//! separation function of the closest features at the end of the interval;
//! that converges in fewer steps but is not a proof: the deepest features can
//! change in between under rotation (curved shapes always do). Here every
//! step is justified by a bound.
//!
//! # References
//!
//! - B. Mirtich, *Impulse-based dynamic simulation of rigid body systems*,
//!   PhD thesis, 1996 (conservative advancement).
//! - E. Catto, *Continuous collision*, GDC 2013; Box2D's `b2TimeOfImpact`
//!   (separation functions over a sweep).
//! - X. Zhang, S. Redon, M. Lee, Y. J. Kim, *Continuous collision detection
//!   for articulated models using Taylor models and temporal culling*, 2007
//!   (directional motion bounds).

use nalgebra::{Isometry2, Point, Point2, SVector, Translation2, Unit, Vector2};
use num_traits::Float;
use shape::math::{angle_of, rotation2};
use shape::{Real, Shape, ShapeRef};

use crate::{ClosestPoints, Contact, DispatchError, DispatchTable};

mod toi3;
pub use toi3::{Sweep3, bounding_radius3, time_of_impact3};

/// How many separation-function steps along one closest-points axis are
/// taken before a new axis is computed (step 4 of the module note).
pub const AXIS_STEPS: u32 = 16;

/// A rigid motion over one step `t ∈ [0, 1]`: the rotation centre (a point
/// fixed in the shape's local frame) travels on a straight line from
/// `center_start` to `center_end` and the angle changes linearly from
/// `angle_start` to `angle_end` (radians, any real numbers: a spin of more
/// than half a turn in one step is representable), as Box2D's `b2Sweep`.
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use narrowphase::toi::Sweep;
/// let s = Sweep::new(Point2::origin(), Point2::new(0.0, 0.0), Point2::new(2.0, 0.0), 0.0, 1.0)
///     .unwrap();
/// let mid = s.pose_at(0.5);
/// assert_eq!(mid.translation.vector, Vector2::new(1.0, 0.0));
/// assert_eq!(mid.rotation.angle(), 0.5);
/// assert!(Sweep::new(Point2::origin(), Point2::origin(), Point2::new(f64::NAN, 0.0), 0.0, 0.0)
///     .is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sweep<T: Real> {
    local_center: Point2<T>,
    center_start: Point2<T>,
    center_end: Point2<T>,
    angle_start: T,
    angle_end: T,
}

fn finite_point<T: Real>(p: &Point2<T>) -> bool {
    Float::is_finite(p.x) && Float::is_finite(p.y)
}

impl<T: Real> Sweep<T> {
    /// The sweep whose rotation centre `local_center` (shape frame) goes from
    /// `center_start` to `center_end` (world) while the angle goes from
    /// `angle_start` to `angle_end`.
    ///
    /// # Errors
    /// [`DispatchError::NonFiniteSweep`] when a number is NaN or infinite, or
    /// the motion (`center_end − center_start`, `angle_end − angle_start`)
    /// overflows.
    pub fn new(
        local_center: Point2<T>,
        center_start: Point2<T>,
        center_end: Point2<T>,
        angle_start: T,
        angle_end: T,
    ) -> Result<Self, DispatchError> {
        let s = Self {
            local_center,
            center_start,
            center_end,
            angle_start,
            angle_end,
        };
        let motion = center_end - center_start;
        if finite_point(&local_center)
            && finite_point(&center_start)
            && finite_point(&center_end)
            && Float::is_finite(motion.x)
            && Float::is_finite(motion.y)
            && Float::is_finite(angle_end - angle_start)
            && Float::is_finite(s.pose_at(T::zero()).translation.x)
            && Float::is_finite(s.pose_at(T::zero()).translation.y)
            && Float::is_finite(s.pose_at(T::one()).translation.x)
            && Float::is_finite(s.pose_at(T::one()).translation.y)
        {
            Ok(s)
        } else {
            Err(DispatchError::NonFiniteSweep)
        }
    }

    /// The sweep from pose `start` to pose `end` about the shape's local
    /// origin, turning the shorter way (an angle change in `[−π, π]`).
    ///
    /// # Errors
    /// [`DispatchError::NonFiniteSweep`] as [`new`](Self::new).
    pub fn from_poses(start: &Isometry2<T>, end: &Isometry2<T>) -> Result<Self, DispatchError> {
        let a0 = angle_of(&start.rotation);
        let turn = angle_of(&(start.rotation.inverse() * end.rotation));
        Self::new(
            Point2::origin(),
            Point2::from(start.translation.vector),
            Point2::from(end.translation.vector),
            a0,
            a0 + turn,
        )
    }

    /// The sweep of a shape at `pose` translating by `motion` over the step,
    /// without turning.
    ///
    /// # Errors
    /// [`DispatchError::NonFiniteSweep`] as [`new`](Self::new).
    pub fn linear(pose: &Isometry2<T>, motion: &Vector2<T>) -> Result<Self, DispatchError> {
        let c0 = Point2::from(pose.translation.vector);
        let a = angle_of(&pose.rotation);
        Self::new(Point2::origin(), c0, c0 + motion, a, a)
    }

    /// The same motion with the rotation centre moved to `local_center`
    /// (shape frame): the poses at `t = 0` and `t = 1` are kept, the path in
    /// between changes (the new centre travels straight).
    ///
    /// # Errors
    /// [`DispatchError::NonFiniteSweep`] as [`new`](Self::new).
    pub fn with_local_center(&self, local_center: Point2<T>) -> Result<Self, DispatchError> {
        let (p0, p1) = (self.pose_at(T::zero()), self.pose_at(T::one()));
        Self::new(
            local_center,
            p0 * local_center,
            p1 * local_center,
            self.angle_start,
            self.angle_end,
        )
    }

    /// The rotation centre in the shape's local frame.
    #[must_use]
    pub fn local_center(&self) -> Point2<T> {
        self.local_center
    }

    /// The rotation centre's world positions at `t = 0` and `t = 1`.
    #[must_use]
    pub fn centers(&self) -> (Point2<T>, Point2<T>) {
        (self.center_start, self.center_end)
    }

    /// The angles at `t = 0` and `t = 1`.
    #[must_use]
    pub fn angles(&self) -> (T, T) {
        (self.angle_start, self.angle_end)
    }

    /// The pose at time `t` (`0` the start, `1` the end; exact at both ends):
    /// centre and angle interpolated linearly.
    #[must_use]
    #[inline]
    pub fn pose_at(&self, t: T) -> Isometry2<T> {
        let s = T::one() - t;
        let angle = self.angle_start * s + self.angle_end * t;
        let center = self.center_start.coords * s + self.center_end.coords * t;
        let rotation = rotation2(angle);
        Isometry2::from_parts(
            Translation2::from(center - rotation * self.local_center.coords),
            rotation,
        )
    }

    /// The same motion moved by the rigid motion `m` (applied to the world).
    ///
    /// # Errors
    /// [`DispatchError::NonFiniteSweep`] as [`new`](Self::new).
    pub fn transformed(&self, m: &Isometry2<T>) -> Result<Self, DispatchError> {
        let turn = angle_of(&m.rotation);
        Self::new(
            self.local_center,
            m * self.center_start,
            m * self.center_end,
            self.angle_start + turn,
            self.angle_end + turn,
        )
    }
}

/// The options of a time-of-impact query.
///
/// `target` is the separation the query stops at (the shapes are reported at
/// distance `target ± tolerance`, and never come closer than
/// `target − tolerance` before); a small positive target keeps the shapes apart at the reported
/// time so that the next step's contact query sees a clean gap, as Box2D's
/// linear slop. The default is Box2D's: `target = 0.005` and
/// `tolerance = 0.00125` (a quarter of it), lengths for worlds in metres;
/// scale them with your world's unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToiOptions<T: Real> {
    /// The end of the time interval searched, in `(0, 1]` (fraction of the step).
    pub t_max: T,
    /// The target separation, finite and `≥ 0`.
    pub target: T,
    /// How close to `target` a reported distance is, finite and `> 0`.
    pub tolerance: T,
    /// The most closest-points evaluations, `≥ 1`.
    pub max_iterations: u32,
}

impl<T: Real> Default for ToiOptions<T> {
    fn default() -> Self {
        Self {
            t_max: T::one(),
            target: T::lit(0.005),
            tolerance: T::lit(0.00125),
            max_iterations: 64,
        }
    }
}

impl<T: Real> ToiOptions<T> {
    /// The options, validated.
    ///
    /// # Errors
    /// [`DispatchError::InvalidToiOptions`] unless `t_max ∈ (0, 1]`,
    /// `0 ≤ target < ∞`, `0 < tolerance < ∞` and `max_iterations ≥ 1`.
    pub fn new(
        t_max: T,
        target: T,
        tolerance: T,
        max_iterations: u32,
    ) -> Result<Self, DispatchError> {
        let o = Self {
            t_max,
            target,
            tolerance,
            max_iterations,
        };
        o.validate()?;
        Ok(o)
    }

    /// Checks the options (the query does too).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn validate(&self) -> Result<(), DispatchError> {
        let ok = self.t_max > T::zero()
            && self.t_max <= T::one()
            && self.target >= T::zero()
            && Float::is_finite(self.target)
            && self.tolerance > T::zero()
            && Float::is_finite(self.tolerance)
            && self.max_iterations >= 1;
        if ok {
            Ok(())
        } else {
            Err(DispatchError::InvalidToiOptions)
        }
    }
}

/// What a time-of-impact query found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToiStatus {
    /// The shapes are at distance `target ± tolerance` at `t` (possibly
    /// `t = 0`: they start there), and farther than `target − tolerance`
    /// before.
    Hit,
    /// The distance stays above `target − tolerance` (and the shapes apart)
    /// over `[0, t_max]`; `t = t_max`.
    Separated,
    /// At `t = 0` the shapes are closer than `target − tolerance` (overlapping
    /// counts as minus the penetration depth); `t = 0`.
    Penetrating,
    /// `max_iterations` closest-points evaluations did not settle it; `t` is
    /// the last time proven safe (the distance stays above
    /// `target − tolerance` on `[0, t]`, and is above `target + tolerance` at
    /// `t`).
    IterationLimit,
}

/// The answer of a time-of-impact query (2D; [`ToiOutput3`] in 3D). The
/// normal and the points are those at time `t` (world frame), and `distance`
/// their distance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToiOutput<T: Real, const D: usize = 2> {
    /// What was found.
    pub status: ToiStatus,
    /// The time, in `[0, t_max]` (see [`ToiStatus`]).
    pub t: T,
    /// The distance at `t`: minus the penetration depth for
    /// [`ToiStatus::Penetrating`] on overlapping shapes.
    pub distance: T,
    /// Unit normal from A to B at `t` (the closest-points direction, or the
    /// contact normal when the shapes overlap).
    pub normal: Unit<SVector<T, D>>,
    /// Witness point on A at `t`.
    pub point_a: Point<T, D>,
    /// Witness point on B at `t`.
    pub point_b: Point<T, D>,
    /// How many closest-points evaluations were made.
    pub iterations: u32,
}

/// The 3D time-of-impact answer.
pub type ToiOutput3<T> = ToiOutput<T, 3>;

impl<T: Real, const D: usize> ToiOutput<T, D> {
    /// The same answer seen from B: normal negated, points swapped.
    #[must_use]
    pub fn flipped(&self) -> Self {
        Self {
            normal: -self.normal,
            point_a: self.point_b,
            point_b: self.point_a,
            ..*self
        }
    }
}

/// The largest distance from `center` (local frame) of a point of the shape,
/// or `|center|` if larger: the lever arm of step 3 of the module note. Exact
/// for the built-in shapes; from the local bounding box for user kinds.
#[must_use]
pub fn bounding_radius<T: Real>(shape: &dyn Shape<T>, center: &Point2<T>) -> T {
    let from = |p: Point2<T>| (p - center).norm();
    let most = |pts: &[Point2<T>]| pts.iter().fold(T::zero(), |m, p| Float::max(m, from(*p)));
    let c = center.coords.norm();
    let r = match shape.as_builtin() {
        Some(ShapeRef::Point(p)) => from(p.position()),
        Some(ShapeRef::Segment(s)) => Float::max(from(s.a()), from(s.b())),
        Some(ShapeRef::Circle(s)) => c + s.radius(),
        Some(ShapeRef::Aabb(s)) => {
            let (lo, hi) = (s.min(), s.max());
            most(&[lo, hi, Point2::new(lo.x, hi.y), Point2::new(hi.x, lo.y)])
        }
        Some(ShapeRef::Obb(s)) => most(&s.vertices(&Isometry2::identity())),
        Some(ShapeRef::Triangle(s)) => most(s.vertices()),
        Some(ShapeRef::Polygon(s)) => most(s.vertices()),
        Some(ShapeRef::Capsule(s)) => Float::max(from(s.a()), from(s.b())) + s.radius(),
        Some(ShapeRef::Ellipse(s)) => c + Float::max(s.radii().x, s.radii().y),
        Some(ShapeRef::RoundedPolygon(s)) => most(s.vertices()) + s.radius(),
        None => {
            let b = shape.bounding_box(&Isometry2::identity());
            let (lo, hi) = (b.min, b.max);
            most(&[lo, hi, Point2::new(lo.x, hi.y), Point2::new(hi.x, lo.y)])
        }
    };
    Float::max(r, c)
}

/// The time of impact of `a` moving by `sweep_a` and `b` moving by `sweep_b`
/// (method and guarantee in the [module note](self), contract in
/// `docs/conventions.md`, "Time of impact"), through the built-in kernels.
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use narrowphase::toi::{Sweep, ToiOptions, ToiStatus, time_of_impact};
/// use shape::{Circle, Obb};
/// let wall = Obb::<f64>::new(Vector2::new(0.5, 5.0)).unwrap();
/// let ball = Circle::new(0.5).unwrap();
/// let still = Sweep::linear(&Isometry2::identity(), &Vector2::zeros()).unwrap();
/// let shot = Sweep::linear(&Isometry2::translation(-10.0, 0.0), &Vector2::new(20.0, 0.0)).unwrap();
/// let hit = time_of_impact(&ball, &shot, &wall, &still, &ToiOptions::default()).unwrap();
/// assert_eq!(hit.status, ToiStatus::Hit);
/// // The ball touches the wall after moving 9 (of 20): it stops 0.005 short,
/// // within the tolerance 0.00125.
/// assert!((hit.t - (9.0 - 0.005) / 20.0).abs() < 0.00125 / 20.0);
/// assert!((hit.normal.x - 1.0).abs() < 1e-12); // from the ball to the wall
/// ```
///
/// # Errors
/// [`DispatchError::InvalidToiOptions`] for invalid options, and the errors
/// of the pair's closest-points query (an unsupported pair, a pose too far
/// out).
pub fn time_of_impact<T: Real>(
    a: &dyn Shape<T>,
    sweep_a: &Sweep<T>,
    b: &dyn Shape<T>,
    sweep_b: &Sweep<T>,
    options: &ToiOptions<T>,
) -> Result<ToiOutput<T>, DispatchError> {
    advance2(
        |pa, pb| crate::closest_points(a, pa, b, pb, T::infinity()),
        |pa, pb| crate::contact(a, pa, b, pb),
        a,
        sweep_a,
        b,
        sweep_b,
        options,
    )
}

impl<T: Real> DispatchTable<T> {
    /// [`time_of_impact`] through this table's kernels (user kinds and
    /// replaced kernels included): the closest points and the contact of the
    /// pair come from [`closest_points`](Self::closest_points) and
    /// [`contact`](Self::contact). A user kind also needs a support function
    /// ([`Shape::as_convex`]) for the separation function; without one the
    /// query still answers, stepping by the distance bound alone.
    ///
    /// # Errors
    /// As [`time_of_impact`].
    pub fn time_of_impact(
        &self,
        a: &dyn Shape<T>,
        sweep_a: &Sweep<T>,
        b: &dyn Shape<T>,
        sweep_b: &Sweep<T>,
        options: &ToiOptions<T>,
    ) -> Result<ToiOutput<T>, DispatchError> {
        advance2(
            |pa, pb| self.closest_points(a, pa, b, pb, T::infinity()),
            |pa, pb| self.contact(a, pa, b, pb),
            a,
            sweep_a,
            b,
            sweep_b,
            options,
        )
    }
}

/// The state at one time: distance, normal, witness points.
pub(crate) struct Witness<T: Real, const D: usize> {
    pub(crate) distance: T,
    pub(crate) normal: Unit<SVector<T, D>>,
    pub(crate) point_a: Point<T, D>,
    pub(crate) point_b: Point<T, D>,
}

impl<T: Real, const D: usize> Witness<T, D> {
    /// The witness of a closest-points answer, with `overlap` asked for the
    /// contact (normal, depth, points) when the shapes intersect; shapes
    /// that intersect without a contact (touching exactly) get distance 0
    /// and the direction between `centre_a` and `centre_b`.
    pub(crate) fn from_closest(
        closest: ClosestPoints<T, D>,
        overlap: impl FnOnce() -> Result<Option<Self>, DispatchError>,
        centre_a: Point<T, D>,
        centre_b: Point<T, D>,
    ) -> Result<Self, DispatchError> {
        match closest {
            ClosestPoints::WithinMargin {
                point_a,
                point_b,
                normal,
                distance,
            } => Ok(Self {
                distance,
                normal,
                point_a,
                point_b,
            }),
            // `max_distance` is infinite: `Farther` does not happen; it is
            // taken as an overlap for the sake of totality.
            ClosestPoints::Intersecting | ClosestPoints::Farther => {
                Ok(overlap()?.unwrap_or_else(|| {
                    let mut axis = SVector::<T, D>::zeros();
                    axis[0] = T::one();
                    Self {
                        distance: T::zero(),
                        normal: Unit::try_new(centre_b - centre_a, T::zero())
                            .unwrap_or(Unit::new_unchecked(axis)),
                        point_a: centre_a,
                        point_b: centre_b,
                    }
                }))
            }
        }
    }
}

/// The gap between the projections of the shapes on the unit axis `n` (from
/// A to B): `min over B − max over A`, from the support points; `None` when a
/// shape has no support function.
#[inline]
fn axis_gap<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
    n: &Vector2<T>,
) -> Option<T> {
    let sa = a.as_convex()?.support_point(&a.effective_pose(pose_a), n);
    let sb = b.as_convex()?.support_point(&b.effective_pose(pose_b), &-n);
    Some((sb - sa).dot(n))
}

/// [`advance`] for 2D shapes and sweeps.
fn advance2<T: Real, C, K>(
    mut closest: C,
    mut contact: K,
    a: &dyn Shape<T>,
    sweep_a: &Sweep<T>,
    b: &dyn Shape<T>,
    sweep_b: &Sweep<T>,
    options: &ToiOptions<T>,
) -> Result<ToiOutput<T>, DispatchError>
where
    C: FnMut(&Isometry2<T>, &Isometry2<T>) -> Result<ClosestPoints<T>, DispatchError>,
    K: FnMut(&Isometry2<T>, &Isometry2<T>) -> Result<Option<Contact<T>>, DispatchError>,
{
    // The relative motion of the centres over the step and the turning
    // speeds times the lever arms (step 3).
    let (a0, a1) = sweep_a.centers();
    let (b0, b1) = sweep_b.centers();
    let relative = (b1 - b0) - (a1 - a0);
    let turn_a = Float::abs(sweep_a.angle_end - sweep_a.angle_start)
        * bounding_radius(a, &sweep_a.local_center);
    let turn_b = Float::abs(sweep_b.angle_end - sweep_b.angle_start)
        * bounding_radius(b, &sweep_b.local_center);
    let witness_at = |t: T| {
        let (pa, pb) = (sweep_a.pose_at(t), sweep_b.pose_at(t));
        Witness::from_closest(
            closest(&pa, &pb)?,
            || {
                Ok(contact(&pa, &pb)?.map(|c| Witness {
                    distance: -c.depth,
                    normal: c.normal,
                    point_a: c.point_a,
                    point_b: c.point_b,
                }))
            },
            Point2::from(pa.translation.vector),
            Point2::from(pb.translation.vector),
        )
    };
    let gap_at = |t: T, n: &Vector2<T>| axis_gap(a, &sweep_a.pose_at(t), b, &sweep_b.pose_at(t), n);
    advance(witness_at, gap_at, &relative, turn_a + turn_b, options)
}

/// Conservative advancement (the module note's steps 1, 3 to 5), in any
/// dimension: `witness_at(t)` is step 1, `gap_at(t, n)` the separation
/// function of step 2, `relative` the relative motion of the rotation
/// centres over the step (B's minus A's) and `turning` the sum over both
/// shapes of `|turn| × bounding radius`.
pub(crate) fn advance<T: Real, const D: usize, W, G>(
    mut witness_at: W,
    mut gap_at: G,
    relative: &SVector<T, D>,
    turning: T,
    options: &ToiOptions<T>,
) -> Result<ToiOutput<T, D>, DispatchError>
where
    W: FnMut(T) -> Result<Witness<T, D>, DispatchError>,
    G: FnMut(T, &SVector<T, D>) -> Option<T>,
{
    options.validate()?;
    let ToiOptions {
        t_max,
        target,
        tolerance,
        max_iterations,
    } = *options;
    // The level the steps aim at (step 4): a quarter tolerance inside the
    // band `target ± tolerance`, above its lower edge, and above zero (a
    // quarter tolerance) when the band reaches down to contact.
    let quarter = tolerance * T::lit(0.25);
    let aim = Float::max(
        target - tolerance + quarter,
        Float::min(quarter, target + tolerance * T::half()),
    );
    let output = |status, t, w: &Witness<T, D>, iterations| ToiOutput {
        status,
        t,
        distance: w.distance,
        normal: w.normal,
        point_a: w.point_a,
        point_b: w.point_b,
        iterations,
    };

    let mut t = T::zero();
    let mut iterations = 0;
    loop {
        let w = witness_at(t)?;
        iterations += 1;
        if t == T::zero() && w.distance < target - tolerance {
            return Ok(output(ToiStatus::Penetrating, t, &w, iterations));
        }
        if w.distance <= target + tolerance {
            return Ok(output(ToiStatus::Hit, t, &w, iterations));
        }
        if t >= t_max {
            return Ok(output(ToiStatus::Separated, t_max, &w, iterations));
        }
        if iterations >= max_iterations {
            return Ok(output(ToiStatus::IterationLimit, t, &w, iterations));
        }
        // Step 3: the closing speed bound along the normal.
        let n = w.normal.into_inner();
        let rate = Float::max(T::zero(), -relative.dot(&n)) + turning;
        // Step 4: advance along the axis while its gap stays above the
        // tolerance band.
        let mut s = t;
        let mut gap = w.distance;
        let mut next = t_max;
        for _ in 0..AXIS_STEPS {
            if rate <= T::zero() {
                next = t_max;
                break;
            }
            let step = (gap - aim) / rate;
            let candidate = s + step;
            if candidate >= t_max {
                next = t_max;
                break;
            }
            s = candidate;
            next = s;
            match gap_at(s, &n) {
                Some(g) if g > target + tolerance => gap = g,
                _ => break,
            }
        }
        if next <= t {
            // No representable progress: the interval is used up at this
            // precision.
            return Ok(output(ToiStatus::IterationLimit, t, &w, iterations));
        }
        t = next;
    }
}
