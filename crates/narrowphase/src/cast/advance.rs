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
/// advancement, before the rounding of the contact's coordinates is added:
/// `32·ε` times `scale`, the rounding level of the distance kernels for
/// shapes of that size. [`advance`] asks it of the sum of the two shapes'
/// sizes: a kernel computes each shape's closest point in that shape's own
/// frame, with that shape's rounding, so two points nearer than the larger
/// shape's rounding have a direction that is noise.
#[must_use]
#[inline]
pub fn touch_tolerance<T: Real>(scale: T) -> T {
    T::epsilon() * T::from(32.0).unwrap_or_else(T::one) * scale
}

/// The contact of shapes found intersecting: normal (A to B), the two
/// witness points and the depth, in the kernel's frame.
pub type Touch<T, const D: usize> = (Unit<SVector<T, D>>, Point<T, D>, Point<T, D>, T);

/// A contact's normal (A to B) and witness points, in the kernel's frame.
pub type Witness<T, const D: usize> = (Unit<SVector<T, D>>, Point<T, D>, Point<T, D>);

/// The state of the advancement at a time the shapes are apart by more
/// than the tolerance.
#[derive(Clone, Copy)]
struct Apart<T: Real, const D: usize> {
    t: T,
    distance: T,
    normal: Unit<SVector<T, D>>,
    point_a: Point<T, D>,
    point_b: Point<T, D>,
}

impl<T: Real, const D: usize> Apart<T, D> {
    fn hit(&self) -> ShapeCastHit<T, D> {
        ShapeCastHit {
            toi: self.t,
            normal: self.normal,
            point_a: self.point_a,
            point_b: self.point_b,
            status: ShapeCastStatus::Hit,
        }
    }
}

/// What the closest points say at one time.
enum Probe<T: Real, const D: usize> {
    /// Apart by more than the tolerance.
    Apart(Apart<T, D>),
    /// Apart by at most the tolerance: a contact at this time, with these
    /// closest points.
    Touching(Point<T, D>, Point<T, D>),
    /// Intersecting, by `depth` (`None` when the contact kernel, disagreeing
    /// at rounding level, found no contact).
    Overlap(Option<T>),
}

/// The advancement in any dimension. `closest(shift, max_distance)` answers
/// the closest points of A and of B moved by `shift` (in A's frame);
/// `touch(shift)` answers their contact when they intersect; `v` is
/// B's velocity relative to A, `sizes` the two shapes' sizes
/// ([`shape_scale`]) for the tolerance.
pub fn advance<T: Real, const D: usize>(
    mut closest: impl FnMut(&SVector<T, D>, T) -> ClosestPoints<T, D>,
    mut touch: impl FnMut(&SVector<T, D>) -> Option<Touch<T, D>>,
    v: &SVector<T, D>,
    max_toi: T,
    options: ShapeCastOptions,
    sizes: (T, T),
) -> Option<ShapeCastHit<T, D>> {
    // Both sizes, not the smaller: a small shape a rounding apart from a
    // large one gets closest points whose direction is the large one's
    // rounding (a 0.03 quad under a 2.3 ellipse: 4e-16 apart, the normal
    // turned by 90°, read as moving apart: the cast missed a pass through
    // the ellipse, a deep run of `casts::every_pair`).
    let base = touch_tolerance(sizes.0 + sizes.1);
    let eight = T::epsilon() * T::from(8.0).unwrap_or_else(T::one);
    // The tolerance at a pair of closest points: the shapes' rounding plus
    // that of the points' coordinates (in A's frame: the contact of a small
    // shape with a large one is as exact as the coordinates there allow).
    let tolerance_at = move |pa: &Point<T, D>, pb: &Point<T, D>| {
        base + eight * (pa.coords.amax() + pb.coords.amax())
    };
    let mut now = match closest(&SVector::zeros(), T::infinity()) {
        ClosestPoints::WithinMargin {
            distance,
            normal,
            point_a,
            point_b,
        } => Apart {
            t: T::zero(),
            distance,
            normal,
            point_a,
            point_b,
        },
        ClosestPoints::Intersecting => {
            return initial_touch(
                touch(&SVector::zeros()).map(|(n, pa, pb, _)| (n, pa, pb)),
                v,
                options,
            );
        }
        ClosestPoints::Farther => return None,
    };
    if now.distance <= tolerance_at(&now.point_a, &now.point_b) {
        // Touching at time 0 up to rounding: a hit now unless the motion
        // separates them (when an initial contact is to be ignored).
        if !options.stop_at_penetration && v.dot(&now.normal) >= T::zero() {
            return None;
        }
        return Some(now.hit());
    }
    let mut probe = |t: T| -> Probe<T, D> {
        let shift = v * t;
        match closest(&shift, T::infinity()) {
            ClosestPoints::WithinMargin {
                distance,
                normal,
                point_a,
                point_b,
            } if distance > tolerance_at(&point_a, &point_b) => Probe::Apart(Apart {
                t,
                distance,
                normal,
                point_a,
                point_b,
            }),
            ClosestPoints::WithinMargin {
                point_a, point_b, ..
            } => Probe::Touching(point_a, point_b),
            ClosestPoints::Intersecting | ClosestPoints::Farther => {
                Probe::Overlap(touch(&shift).map(|(.., depth)| depth))
            }
        }
    };
    for _ in 0..MAX_STEPS {
        // `now.distance > tolerance`: the normal is reliable.
        let approach = -v.dot(&now.normal);
        if approach.partial_cmp(&T::zero()) != Some(core::cmp::Ordering::Greater) {
            // Moving apart along the separating direction (or not at all):
            // the distance, convex in time, never decreases again.
            return None;
        }
        let next = now.t + now.distance / approach;
        if next
            .partial_cmp(&max_toi)
            .is_none_or(core::cmp::Ordering::is_gt)
        {
            return None;
        }
        if next <= now.t {
            // The step is below the time's rounding: `now.t` is the contact
            // time to the precision of the time itself.
            break;
        }
        match probe(next) {
            Probe::Apart(later) => now = later,
            Probe::Touching(point_a, point_b) => {
                // The points are those at `next`; their direction is noise at
                // this distance, so the normal is the last separated one (the
                // contact's normal up to the step's rounding).
                return Some(ShapeCastHit {
                    toi: next,
                    point_a,
                    point_b,
                    ..now.hit()
                });
            }
            Probe::Overlap(depth) => {
                // Intersecting at `next`: by rounding when the step landed on
                // the contact (the contact's points are support points, not
                // the touching ones), or overshot when a kernel's normal was
                // off. Back off to just before the contact and take the
                // closest points there, refining if that is still inside.
                let back = next - tolerance_at(&now.point_a, &now.point_b) / approach;
                if back <= now.t {
                    return Some(now.hit());
                }
                return Some(match probe(back) {
                    Probe::Apart(before) => before.hit(),
                    Probe::Touching(point_a, point_b) => ShapeCastHit {
                        toi: back,
                        point_a,
                        point_b,
                        ..now.hit()
                    },
                    Probe::Overlap(d) => refine(now, back, d.or(depth), v, tolerance_at, probe),
                });
            }
        }
    }
    Some(now.hit())
}

/// The first contact between `lo` (apart) and `hi` (overlapping by `depth`,
/// or by an unknown depth): the step overshot, which exact closest points
/// never do but a kernel's rounding can. The bracket
/// shrinks by regula falsi on the signed distance (Illinois' variant, so that
/// a stuck end is halved) or by bisection when a depth is unknown, until it
/// is shorter than the tolerance along the motion; the answer is the
/// separated end (never later than the contact) or a touching probe.
fn refine<T: Real, const D: usize>(
    mut lo: Apart<T, D>,
    mut hi: T,
    depth: Option<T>,
    v: &SVector<T, D>,
    tolerance_at: impl Fn(&Point<T, D>, &Point<T, D>) -> T,
    mut probe: impl FnMut(T) -> Probe<T, D>,
) -> ShapeCastHit<T, D> {
    let speed = v.norm();
    let half = T::from(0.5).unwrap_or_else(T::one);
    // The signed distance at `hi` (negative), weighted by Illinois' rule.
    let mut below = depth.map(|d| -d);
    for _ in 0..MAX_STEPS {
        if (hi - lo.t) * speed <= tolerance_at(&lo.point_a, &lo.point_b) {
            break;
        }
        let mid = match below {
            Some(b) if b < T::zero() => {
                let m = lo.t + (hi - lo.t) * (lo.distance / (lo.distance - b));
                if m > lo.t && m < hi {
                    m
                } else {
                    lo.t + (hi - lo.t) * half
                }
            }
            _ => lo.t + (hi - lo.t) * half,
        };
        match probe(mid) {
            Probe::Apart(a) => {
                lo = a;
                below = below.map(|b| b * half);
            }
            Probe::Touching(point_a, point_b) => {
                return ShapeCastHit {
                    toi: mid,
                    point_a,
                    point_b,
                    ..lo.hit()
                };
            }
            Probe::Overlap(d) => {
                hi = mid;
                below = d.map(|d| -d);
            }
        }
    }
    lo.hit()
}

/// The answer for shapes that touch or overlap at time 0.
pub(crate) fn initial_touch<T: Real, const D: usize>(
    touch: Option<Witness<T, D>>,
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
    advance(
        |shift, max_distance| closest(a, b, &moved(shift), max_distance),
        |shift| contact(a, b, &moved(shift)).map(|c| (c.normal, c.point_a, c.point_b, c.depth)),
        &args.vel_b,
        args.max_toi,
        args.options,
        (shape_scale::<T>(a), shape_scale::<T>(b)),
    )
}

/// The shape cast of two shapes at world poses from world closest points
/// and contacts (the fallback for pairs without a kernel: GJK distance and
/// EPA for convex user shapes): the same advancement with B's pose moved.
pub fn cast_world_2d<T: Real>(
    pose_b: &Isometry2<T>,
    args: &ShapeCastArgs<T>,
    closest: impl Fn(&Isometry2<T>) -> Option<ClosestPoints<T>>,
    contact: impl Fn(&Isometry2<T>) -> Option<Option<Contact<T>>>,
    sizes: (T, T),
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
        |shift| {
            contact(&moved(shift))
                .flatten()
                .map(|c| (c.normal, c.point_a, c.point_b, c.depth))
        },
        &v,
        args.max_toi,
        args.options,
        sizes,
    );
    // The world points at the time of impact: A moved by its velocity too.
    Some(hit.map(|h| h.shifted(&(args.vel_a * h.toi))))
}
