//! Conservative advancement: a linear shape cast from exact closest points,
//! for any pair whose distance the table answers.
//!
//! **What it computes.** In A's frame with A at rest and B moving at the
//! relative velocity `v`, the first time `t ∈ [0, max_toi]` at which the
//! distance `d(t)` between A and B moved by `v·t` is zero.
//!
//! **Method.** At the current time `t` (first 0) the pair's closest-points
//! kernel gives `d(t)`, the closest points and the unit normal `n` from A to
//! B. The plane through A's closest point with normal `n` separates the
//! shapes, B lying `d(t)` beyond it; B's points move towards that plane at
//! the speed `−v·n`, so the shapes cannot touch before `t + d(t) / (−v·n)`
//! (when `v·n ≥ 0`, the gap along `n` never closes). Step to that time and
//! repeat, until the distance is below a tolerance at rounding level of the
//! shapes' size ([`touch_tolerance`]).
//!
//! **Why it is correct.** Every step lands at or before the first contact,
//! so the time found is never later than the true one. For convex shapes
//! under a translation, `d(t)` is convex (the distance from a point moving on
//! a line to the convex Minkowski difference), and `v·n` is its derivative
//! where it is positive: the step is Newton's method on a convex decreasing
//! function from the left of its root, so the times increase monotonically to
//! the root, quadratically when the motion is not tangent to the surface at
//! the contact, and at least by halving the remaining distance at grazing
//! contacts. When `v·n ≥ 0` at some step, convexity proves `d` never
//! decreases again: there is no hit. The distance is computed afresh at each
//! time from the starting relative pose plus `v·t`, so errors do not
//! accumulate; the tolerance is relative to the shapes' size, not to the
//! distance travelled, so a long cast is as exact as a short one.
//!
//! **Where it comes from.** Conservative advancement (Mirtich 1996; the
//! linear case as in Catto's time of impact and van den Bergen's GJK ray
//! cast), here driven by the library's exact distance kernels instead of GJK.

use nalgebra::{Isometry, Isometry2, Point, SVector, Translation, Unit};
use shape::{Real, Shape};

use super::{ShapeCastArgs, ShapeCastHit, ShapeCastOptions, ShapeCastStatus};
use crate::{ClosestPoints, Contact};

/// The most steps a cast takes. Each step at least halves the remaining
/// distance, so the bound is reached only by inputs at the float range's
/// edges; the cast then answers the last time reached, which is still no
/// later than the first contact.
pub const MAX_STEPS: usize = 96;

/// The distance below which two shapes count as touching for the
/// advancement: `32·ε` times `scale` (the sum of the shapes' local bounding
/// box diagonals), the rounding level of the distance kernels for shapes of
/// that size.
#[must_use]
#[inline]
pub fn touch_tolerance<T: Real>(scale: T) -> T {
    T::epsilon() * T::from(32.0).unwrap_or_else(T::one) * scale
}

/// The contact at time 0 of shapes found intersecting: normal (A to B) and
/// the two witness points, in the kernel's frame.
pub type Touch<T, const D: usize> = (Unit<SVector<T, D>>, Point<T, D>, Point<T, D>);

/// The advancement in any dimension. `closest(shift, max_distance)` answers
/// the closest points of A and of B moved by `shift` (in A's frame);
/// `touch()` answers the contact at time 0 when they intersect then; `v` is
/// B's velocity relative to A, `scale` the shapes' size for the tolerance.
pub fn advance<T: Real, const D: usize>(
    mut closest: impl FnMut(&SVector<T, D>, T) -> ClosestPoints<T, D>,
    touch: impl FnOnce() -> Option<Touch<T, D>>,
    v: &SVector<T, D>,
    max_toi: T,
    options: ShapeCastOptions,
    scale: T,
) -> Option<ShapeCastHit<T, D>> {
    let (mut distance, mut normal, mut point_a, mut point_b) =
        match closest(&SVector::zeros(), T::infinity()) {
            ClosestPoints::WithinMargin {
                distance,
                normal,
                point_a,
                point_b,
            } => (distance, normal, point_a, point_b),
            ClosestPoints::Intersecting => return initial_touch(touch(), v, options),
            ClosestPoints::Farther => return None,
        };
    let tolerance = touch_tolerance(scale);
    let mut t = T::zero();
    for _ in 0..MAX_STEPS {
        let approach = -v.dot(&normal);
        if approach.partial_cmp(&T::zero()) != Some(core::cmp::Ordering::Greater) {
            // Moving apart along the separating direction (or not at all):
            // the distance, convex in time, never decreases again.
            return None;
        }
        if distance <= tolerance {
            break;
        }
        let next = t + distance / approach;
        if next
            .partial_cmp(&max_toi)
            .is_none_or(core::cmp::Ordering::is_gt)
        {
            return None;
        }
        if next <= t {
            // The step is below the time's rounding: `t` is the contact time
            // to the precision of the time itself.
            break;
        }
        match closest(&(v * next), T::infinity()) {
            ClosestPoints::WithinMargin {
                distance: d,
                normal: n,
                point_a: pa,
                point_b: pb,
            } => {
                (t, distance, normal, point_a, point_b) = (next, d, n, pa, pb);
            }
            ClosestPoints::Intersecting | ClosestPoints::Farther => {
                // Rounding carried the shapes into contact at `next`, the
                // first contact lying in `(t, next]` within the rounding of
                // the step: report `next` with the points of the last
                // separated time carried to it (they touch there up to
                // the step's rounding).
                let shift = v * (next - t);
                return Some(ShapeCastHit {
                    toi: next,
                    normal,
                    point_a,
                    point_b: point_b + shift,
                    status: ShapeCastStatus::Hit,
                });
            }
        }
    }
    Some(ShapeCastHit {
        toi: t,
        normal,
        point_a,
        point_b,
        status: ShapeCastStatus::Hit,
    })
}

/// The answer for shapes that touch or overlap at time 0.
fn initial_touch<T: Real, const D: usize>(
    touch: Option<Touch<T, D>>,
    v: &SVector<T, D>,
    options: ShapeCastOptions,
) -> Option<ShapeCastHit<T, D>> {
    // An intersecting pair always has a contact; should a kernel disagree
    // with itself at rounding level, the pair counts as touching along the
    // motion (normal against the velocity, points at the origin of A's frame).
    let (normal, point_a, point_b) = touch.unwrap_or_else(|| {
        let n = Unit::try_new(-*v, T::zero()).unwrap_or_else(|| {
            let mut x = SVector::zeros();
            x[0] = T::one();
            Unit::new_unchecked(x)
        });
        (n, Point::origin(), Point::origin())
    });
    if !options.stop_at_penetration && v.dot(&normal) >= T::zero() {
        return None;
    }
    Some(ShapeCastHit {
        toi: T::zero(),
        normal,
        point_a,
        point_b,
        status: ShapeCastStatus::Penetrating,
    })
}

/// The size of a shape for [`touch_tolerance`]: its local bounding box's
/// diagonal plus the box's distance from the local origin.
#[must_use]
pub fn shape_scale<T: Real>(s: &dyn Shape<T>) -> T {
    let b = s.bounding_box(&Isometry2::identity());
    (b.max - b.min).norm() + b.center().coords.norm()
}

/// A 2D kernel from a pair's closest-points and contact kernels (A's frame,
/// B at `b_in_a`): what [`pairs`](super::pairs) builds every pair's cast
/// from when no closed form serves it.
#[inline]
pub fn cast_2d<T: Real, A: Shape<T>, B: Shape<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    args: &ShapeCastArgs<T>,
    closest: fn(&A, &B, &Isometry2<T>, T) -> ClosestPoints<T>,
    contact: fn(&A, &B, &Isometry2<T>) -> Option<Contact<T>>,
) -> Option<ShapeCastHit<T>> {
    let moved = |shift: &SVector<T, 2>| {
        Isometry::from_parts(
            Translation::from(b_in_a.translation.vector + shift),
            b_in_a.rotation,
        )
    };
    let scale = shape_scale::<T>(a) + shape_scale::<T>(b);
    advance(
        |shift, max_distance| closest(a, b, &moved(shift), max_distance),
        || contact(a, b, b_in_a).map(|c| (c.normal, c.point_a, c.point_b)),
        &args.vel_b,
        args.max_toi,
        args.options,
        scale,
    )
}

/// The shape cast of two shapes at world poses from world closest points
/// and contacts (the fallback for pairs without a kernel: GJK distance and
/// EPA for convex user shapes): the same advancement with B's pose moved.
pub fn cast_world_2d<T: Real>(
    pose_b: &Isometry2<T>,
    args: &ShapeCastArgs<T>,
    closest: impl Fn(&Isometry2<T>) -> Option<ClosestPoints<T>>,
    contact: impl FnOnce() -> Option<Option<Contact<T>>>,
    scale: T,
) -> Option<Option<ShapeCastHit<T>>> {
    let v = args.vel_b - args.vel_a;
    let moved = |shift: &SVector<T, 2>| {
        Isometry2::from_parts(
            Translation::from(pose_b.translation.vector + shift),
            pose_b.rotation,
        )
    };
    // The closest points exist for the pose at time 0 exactly when the
    // fallback applies at all.
    closest(pose_b)?;
    let hit = advance(
        |shift, _| closest(&moved(shift)).unwrap_or(ClosestPoints::Intersecting),
        || {
            contact()
                .flatten()
                .map(|c| (c.normal, c.point_a, c.point_b))
        },
        &v,
        args.max_toi,
        args.options,
        scale,
    );
    // The world points at the time of impact: A moved by its velocity too.
    Some(hit.map(|h| h.shifted(&(args.vel_a * h.toi))))
}
