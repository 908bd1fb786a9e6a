//! A round point (a circle, or a point) against a round segment (a segment,
//! or a capsule): the pairs `segment_circle`, `circle_capsule` and
//! `point_capsule`, in closed form.
//!
//! Both shapes are cores grown by radii: the point core `c` by `rP`, the
//! segment core `[s0, s1]` by `rS`. They meet exactly when the distance
//! from `c` to the segment is at most `R = rP + rS` (the shapes' difference
//! is the segment grown by `R`).
//!
//! 1. **The foot** (Ericson, *Real-Time Collision Detection*, §5.1.2), in
//!    the segment's frame: with `e = s1 − s0` and `t = (c − s0)·e`, the
//!    nearest point `q` of the segment is `s0` for `t ≤ 0`, `s1` for
//!    `t ≥ e·e`, else `s0 + e·t/(e·e)`, the foot of the perpendicular.
//! 2. **The decision, filtered.** `|c − q|` is within a few `ε·S` of the
//!    true distance (`S = max(|c|∞, |s0|∞, |s1|∞) + R`: one subtraction, a
//!    dot product and a division round, each by a relative `ε`). So with
//!    `band = 64 ε S`, `|c − q|² < (R − band)²` is a meeting and
//!    `|c − q|² > (R + band)²` is apart, whatever the rounding; compared
//!    squared, no square root. Within the band (touching, up to rounding),
//!    and for sizes near the ends of the float range where squares could
//!    overflow or underflow (`S > MAX^¼ / 8`, `band² < MIN_POSITIVE / ε`),
//!    the general rounded-core kernel (`sat/core.rs`), with its exact
//!    touching test, answers the whole query instead: every answer near
//!    touching is the one that kernel always gave, and outside the band
//!    both agree with the exact decision. Nothing here is a tolerance.
//! 3. **The contact and the closest points**, outside the band: along the
//!    direction from `c` to `q`, at the distance `d = |c − q|`. Strictly
//!    inside the segment that direction is the segment's normal on `c`'s
//!    side and `d` the height of `c` above its line, exact to rounding
//!    however close `c` is; at an end, `q − c` normalised from the scaled
//!    vector. Meeting: depth `R − d`, the points `c + rP·u` and `q − rS·u`
//!    (`u` the unit direction), each the deepest of its shape along the
//!    normal; `c` on the segment itself (`d = 0`) leaves across the
//!    segment, along its normal. Apart: the same points, `d − R` apart.
//!
//! About a third of the general kernel's instructions for these pairs
//! (callgrind: about 100 against 300 per contact): no separating-axis pass,
//! no unit vector of the segment unless an answer needs one, and the exact
//! touching test only where it can matter.

use core::cmp::Ordering;

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::{Capsule, Circle, Point, Real, Segment};

use crate::polygonal::{Polygonal, length_and_direction, unit};
use crate::sat::{core_closest_points, core_contact, core_intersects};
use crate::{ClosestPoints, Contact};

/// The point core's centre `c` and the segment core, in the segment
/// shape's frame, with the summed radius `R`.
#[derive(Clone, Copy)]
struct Round<T: Real> {
    c: Point2<T>,
    s0: Point2<T>,
    s1: Point2<T>,
    radius: T,
}

/// The segment's point nearest `c` (step 1) and the squared distance.
#[derive(Clone, Copy)]
struct Foot<T: Real> {
    q: Point2<T>,
    /// `q` strictly inside the segment.
    inner: bool,
    d2: T,
}

impl<T: Real> Round<T> {
    #[inline(always)]
    fn foot(&self) -> Foot<T> {
        let e = self.s1 - self.s0;
        let t = (self.c - self.s0).dot(&e);
        let ee = e.norm_squared();
        // `t ≤ 0`, or NaN: the start.
        let (q, inner) = if t.partial_cmp(&T::zero()).is_none_or(Ordering::is_le) {
            (self.s0, false)
        } else if t >= ee {
            (self.s1, false)
        } else {
            (self.s0 + e * (t / ee), true)
        };
        Foot {
            q,
            inner,
            d2: (q - self.c).norm_squared(),
        }
    }

    /// Step 2: `Some(meet)` when the squared distance decides, `None`
    /// within the band (or near the ends of the float range).
    #[inline(always)]
    fn decide(&self, f: &Foot<T>) -> Option<bool> {
        let m = |p: &Point2<T>| {
            let (x, y) = (Float::abs(p.x), Float::abs(p.y));
            if x > y { x } else { y }
        };
        let (a, b, c) = (m(&self.c), m(&self.s0), m(&self.s1));
        let ab = if a > b { a } else { b };
        let scale = (if ab > c { ab } else { c }) + self.radius;
        let eps = <T as Float>::epsilon();
        let band = eps * T::lit(64.0) * scale;
        let limit = Float::sqrt(Float::sqrt(<T as Float>::max_value())) * T::lit(0.125);
        // `!(x <= limit)` also refuses a NaN.
        if !(scale <= limit && band * band >= <T as Float>::min_positive_value() / eps) {
            return None;
        }
        let hi = self.radius + band;
        if f.d2 > hi * hi {
            return Some(false);
        }
        let lo = self.radius - band;
        (lo > T::zero() && f.d2 < lo * lo).then_some(true)
    }

    /// Step 3: the unit direction from `c` towards the segment and the
    /// distance `d`.
    #[inline]
    fn direction(&self, f: &Foot<T>) -> (Vector2<T>, T) {
        let e = self.s1 - self.s0;
        // The segment's left normal, and `c`'s height above its line.
        let left = || {
            let l = unit(Vector2::new(-e.y, e.x));
            (l, (self.c - self.s0).dot(&l))
        };
        if f.inner {
            let (l, h) = left();
            if h > T::zero() {
                return (-l, h);
            }
            if h < T::zero() {
                return (l, -h);
            }
        }
        match length_and_direction(f.q - self.c) {
            Some((d, u)) => (u, d),
            // `c` on the segment: out across it.
            None => (-left().0, T::zero()),
        }
    }
}

/// How the two shapes sit: which is A, and the map from the segment's frame
/// to A's.
#[derive(Clone, Copy)]
enum Order<'m, T: Real> {
    /// A is the segment shape: its frame is A's.
    SegmentFirst,
    /// A is the point shape; `m` is B's (the segment's) pose in A's frame.
    PointFirst(&'m Isometry2<T>),
}

/// The pair in the segment's frame.
#[inline(always)]
fn round<T: Real, P: Polygonal<T>, S: Polygonal<T>>(
    p: &P,
    s: &S,
    order: Order<'_, T>,
    b_in_a: &Isometry2<T>,
) -> Round<T> {
    let c = match order {
        Order::SegmentFirst => b_in_a * p.core_vertex(0),
        Order::PointFirst(m) => m.inverse_transform_point(&p.core_vertex(0)),
    };
    Round {
        c,
        s0: s.core_vertex(0),
        s1: s.core_vertex(1),
        radius: p.radius() + s.radius(),
    }
}

/// The contact or closest points' numbers in A's frame: the unit normal
/// from A to B and the points on A and on B.
#[inline]
fn placed<T: Real>(
    r: &Round<T>,
    f: &Foot<T>,
    (rp, rs): (T, T),
    order: Order<'_, T>,
) -> (Vector2<T>, T, Point2<T>, Point2<T>) {
    let (u, d) = r.direction(f);
    let on_p = r.c + u * rp;
    let on_s = f.q - u * rs;
    match order {
        Order::SegmentFirst => (-u, d, on_s, on_p),
        Order::PointFirst(m) => (m.rotation * u, d, m * on_p, m * on_s),
    }
}

/// Whether the round point and the round segment meet.
#[inline(always)]
fn meets<T: Real>(r: &Round<T>, general: impl FnOnce() -> bool) -> bool {
    let f = r.foot();
    r.decide(&f).unwrap_or_else(general)
}

#[inline(always)]
fn contact<T: Real>(
    r: &Round<T>,
    radii: (T, T),
    order: Order<'_, T>,
    general: impl FnOnce() -> Option<Contact<T>>,
) -> Option<Contact<T>> {
    let f = r.foot();
    match r.decide(&f) {
        Some(false) => None,
        Some(true) => {
            let (n, d, point_a, point_b) = placed(r, &f, radii, order);
            Some(Contact {
                normal: Unit::new_unchecked(n),
                depth: r.radius - d,
                point_a,
                point_b,
            })
        }
        None => general(),
    }
}

#[inline(always)]
fn closest<T: Real>(
    r: &Round<T>,
    radii: (T, T),
    order: Order<'_, T>,
    max_distance: T,
    general: impl FnOnce() -> ClosestPoints<T>,
) -> ClosestPoints<T> {
    let f = r.foot();
    match r.decide(&f) {
        Some(true) => ClosestPoints::Intersecting,
        Some(false) => {
            let (n, d, point_a, point_b) = placed(r, &f, radii, order);
            ClosestPoints::apart(
                point_a,
                point_b,
                Unit::new_unchecked(n),
                d - r.radius,
                max_distance,
            )
        }
        None => general(),
    }
}

/// Whether a `Segment` and a `Circle` intersect; `b_in_a` is the circle's
/// pose in the segment's frame.
///
/// ```
/// use nalgebra::{Isometry2, Point2};
/// use narrowphase::circle::segment_circle;
/// let s = shape::Segment::new(Point2::new(-1.0, 0.0), Point2::new(1.0, 0.0)).unwrap();
/// let c = shape::Circle::new(0.5).unwrap();
/// assert!(segment_circle(&s, &c, &Isometry2::translation(0.3, 0.5))); // touching
/// assert!(segment_circle(&s, &c, &Isometry2::translation(1.3, 0.39)));
/// assert!(!segment_circle(&s, &c, &Isometry2::translation(1.3, 0.41)));
/// ```
#[inline]
pub fn segment_circle<T: Real>(a: &Segment<T>, b: &Circle<T>, b_in_a: &Isometry2<T>) -> bool {
    meets(&round(b, a, Order::SegmentFirst, b_in_a), || {
        core_intersects(a, b, b_in_a)
    })
}

/// The contact of a `Segment` and a `Circle`, in the segment's frame.
#[inline]
pub fn segment_circle_contact<T: Real>(
    a: &Segment<T>,
    b: &Circle<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    let r = round(b, a, Order::SegmentFirst, b_in_a);
    contact(&r, (b.radius(), T::zero()), Order::SegmentFirst, || {
        core_contact(a, b, b_in_a)
    })
}

/// The closest points of a `Segment` and a `Circle` within `max_distance`,
/// in the segment's frame.
#[inline]
pub fn segment_circle_closest_points<T: Real>(
    a: &Segment<T>,
    b: &Circle<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    let r = round(b, a, Order::SegmentFirst, b_in_a);
    closest(
        &r,
        (b.radius(), T::zero()),
        Order::SegmentFirst,
        max_distance,
        || core_closest_points(a, b, b_in_a, max_distance),
    )
}

macro_rules! point_first {
    ($( $name:ident, $contact:ident, $closest:ident: $a:ident, $b:ident; )*) => {$(
        #[doc = concat!("Whether a `", stringify!($a), "` and a `", stringify!($b),
            "` intersect; `b_in_a` is B's pose in A's frame (module notes).")]
        #[inline]
        pub fn $name<T: Real>(a: &$a<T>, b: &$b<T>, b_in_a: &Isometry2<T>) -> bool {
            meets(&round(a, b, Order::PointFirst(b_in_a), b_in_a), || {
                core_intersects(a, b, b_in_a)
            })
        }

        #[doc = concat!("The contact of a `", stringify!($a), "` and a `", stringify!($b),
            "`, in A's frame (module notes).")]
        #[inline]
        pub fn $contact<T: Real>(a: &$a<T>, b: &$b<T>, b_in_a: &Isometry2<T>) -> Option<Contact<T>> {
            let order = Order::PointFirst(b_in_a);
            contact(&round(a, b, order, b_in_a), (a.radius(), b.radius()), order, || {
                core_contact(a, b, b_in_a)
            })
        }

        #[doc = concat!("The closest points of a `", stringify!($a), "` and a `", stringify!($b),
            "` within `max_distance`, in A's frame (module notes).")]
        #[inline]
        pub fn $closest<T: Real>(
            a: &$a<T>,
            b: &$b<T>,
            b_in_a: &Isometry2<T>,
            max_distance: T,
        ) -> ClosestPoints<T> {
            let order = Order::PointFirst(b_in_a);
            closest(&round(a, b, order, b_in_a), (a.radius(), b.radius()), order, max_distance, || {
                core_closest_points(a, b, b_in_a, max_distance)
            })
        }
    )*};
}

point_first! {
    circle_capsule, circle_capsule_contact, circle_capsule_closest_points: Circle, Capsule;
    point_capsule, point_capsule_contact, point_capsule_closest_points: Point, Capsule;
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::UnitComplex;
    use proptest::prelude::*;
    use shape::testing::{cases, test_tolerance};

    fn pose<T: Real>(x: f64, y: f64, angle: f64) -> Isometry2<T> {
        Isometry2::from_parts(
            nalgebra::Translation2::new(T::lit(x), T::lit(y)),
            UnitComplex::from_cos_sin_unchecked(T::lit(angle.cos()), T::lit(angle.sin())),
        )
    }

    /// The closed forms against the general rounded-core kernel they
    /// replace (a slower, independent method: a separating-axis pass, then
    /// the closest features, then the exact touching test): the same
    /// decision always, the same depth and distance to rounding, normals
    /// within rounding of each other (away from `c` on the core, where any
    /// perpendicular is right).
    fn agrees<T: Real>(
        (ax, ay, bx, by): (f64, f64, f64, f64),
        (rp, rs): (f64, f64),
        m: &Isometry2<T>,
    ) -> Result<(), TestCaseError> {
        let pt = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let (s0, s1) = (pt(ax, ay), pt(bx, by));
        let circle = Circle::new(T::lit(rp)).unwrap();
        let segment = Segment::new(s0, s1).unwrap();
        let capsule = Capsule::new(s0, s1, T::lit(rs)).unwrap();
        let point =
            Point::new(pt(0.25, -0.5)).unwrap_or_else(|_| Point::new(pt(0.0, 0.0)).unwrap());
        let scale = T::lit(ax.abs().max(ay.abs()).max(bx.abs()).max(by.abs()) + rp + rs + 8.0);
        let tol = T::lit(64.0) * test_tolerance::<T>(scale);
        macro_rules! check {
            ($a:expr, $b:expr, $fast:ident, $contact:ident, $closest:ident) => {{
                let (a, b) = ($a, $b);
                let hit = core_intersects(a, b, m);
                prop_assert_eq!($fast(a, b, m), hit, "{} {:?}", stringify!($fast), m);
                let (fc, gc) = ($contact(a, b, m), core_contact(a, b, m));
                prop_assert_eq!(fc.is_some(), hit);
                if let (Some(f), Some(g)) = (fc, gc) {
                    prop_assert!(
                        Float::abs(f.depth - g.depth) <= tol,
                        "depth {:?} {:?}",
                        f,
                        g
                    );
                    prop_assert!(
                        Float::abs((f.point_a - f.point_b).dot(&f.normal) - f.depth) <= tol,
                        "{:?}",
                        f
                    );
                    if f.depth < T::lit(rp + rs) * T::lit(0.9) {
                        prop_assert!(
                            (f.normal.into_inner() - g.normal.into_inner()).norm()
                                <= Float::sqrt(tol),
                            "normal {:?} {:?}",
                            f,
                            g
                        );
                    }
                }
                let inf = T::infinity();
                match ($closest(a, b, m, inf), core_closest_points(a, b, m, inf)) {
                    (ClosestPoints::Intersecting, g) => {
                        prop_assert!(hit);
                        prop_assert!(matches!(g, ClosestPoints::Intersecting));
                    }
                    (
                        ClosestPoints::WithinMargin {
                            distance,
                            point_a,
                            point_b,
                            normal,
                        },
                        ClosestPoints::WithinMargin { distance: d2, .. },
                    ) => {
                        prop_assert!(!hit);
                        prop_assert!(Float::abs(distance - d2) <= tol, "{:?} {:?}", distance, d2);
                        prop_assert!(
                            Float::abs((point_b - point_a).dot(&normal) - distance) <= tol,
                        );
                    }
                    (f, g) => prop_assert!(false, "{:?} against {:?}", f, g),
                }
            }};
        }
        check!(
            &segment,
            &circle,
            segment_circle,
            segment_circle_contact,
            segment_circle_closest_points
        );
        check!(
            &circle,
            &capsule,
            circle_capsule,
            circle_capsule_contact,
            circle_capsule_closest_points
        );
        check!(
            &point,
            &capsule,
            point_capsule,
            point_capsule_contact,
            point_capsule_closest_points
        );
        Ok(())
    }

    /// Random placements, and placements at the distance of touching
    /// (`R` from the core along a random direction, off by nothing or by a
    /// few ulps), where the filter hands over.
    fn placement() -> impl Strategy<Value = (f64, f64, f64)> {
        (-4.0f64..4.0, -4.0f64..4.0, -3.2f64..3.2)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(256)))]

        #[test]
        fn agrees_with_the_general_kernel(
            ends in (-3.0f64..3.0, -3.0f64..3.0, -3.0f64..3.0, -3.0f64..3.0)
                .prop_filter("a segment", |(a, b, c, d)| (a - c).abs() + (b - d).abs() > 1e-3),
            radii in (0.05f64..2.0, 0.05f64..2.0),
            (x, y, angle) in placement(),
        ) {
            agrees::<f32>(ends, radii, &pose(x, y, angle))?;
            agrees::<f64>(ends, radii, &pose(x, y, angle))?;
        }

        /// B placed so that its core is `R` (plus `k` ulps) from A's along
        /// a direction: the band, where the general kernel decides.
        #[test]
        fn agrees_near_touching(
            t in -0.5f64..1.5,
            side in prop_oneof![Just(1.0), Just(-1.0)],
            radii in (0.05f64..2.0, 0.05f64..2.0),
            k in -4i32..4,
        ) {
            // The segment from (-1, 0) to (1, 0); a point at parameter t
            // along it (clamped), moved out by R along the normal (or
            // radially beyond the ends).
            let (rp, rs) = radii;
            let q = (2.0 * t - 1.0).clamp(-1.0, 1.0);
            let r = rp + rs;
            let (x, y) = if (-1.0..=1.0).contains(&(2.0 * t - 1.0)) {
                (q, side * r)
            } else {
                let d = 2.0 * t - 1.0 - q;
                let dir = (d.signum(), 0.5 * side);
                let l = (dir.0 * dir.0 + dir.1 * dir.1).sqrt();
                (q + r * dir.0 / l, r * dir.1 / l)
            };
            let nudge = 1.0 + f64::from(k) * f64::EPSILON;
            let ends = (-1.0, 0.0, 1.0, 0.0);
            agrees::<f64>(ends, radii, &pose(x * nudge, y * nudge, 0.3))?;
            let nudge = 1.0 + f64::from(k) * f64::from(f32::EPSILON);
            agrees::<f32>(ends, radii, &pose(x * nudge, y * nudge, 0.3))?;
        }
    }

    /// Known values: a unit circle over the middle of a segment and past
    /// its end, touching at exactly representable coordinates and a hair
    /// apart (seed 001's edge and end-point cases).
    #[test]
    fn known_values() {
        fn run<T: Real>() {
            let pt = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
            let s = Segment::new(pt(-2.0, 0.0), pt(2.0, 0.0)).unwrap();
            let c = Circle::new(T::lit(1.0)).unwrap();
            let at = |x: f64, y: f64| Isometry2::translation(T::lit(x), T::lit(y));
            // Over the middle, 0.25 deep: normal +y from the segment.
            let k = segment_circle_contact(&s, &c, &at(0.5, 0.75)).unwrap();
            assert_eq!(k.normal.into_inner(), Vector2::y());
            assert_eq!(k.depth, T::lit(0.25));
            assert_eq!(k.point_a, pt(0.5, 0.0));
            assert_eq!(k.point_b, pt(0.5, -0.25));
            // Past the end (2, 0), at (3, 0.5): depth 1 − √1.25.
            let k = segment_circle_contact(&s, &c, &at(2.5, 0.5)).unwrap();
            let expected = 1.0 - 0.5f64.hypot(0.5);
            assert!((k.depth.as_f64() - expected).abs() < 1e-6);
            // Touching at (0, 1) and (3, 0); apart by one ulp.
            assert!(segment_circle(&s, &c, &at(0.0, 1.0)));
            assert!(segment_circle(&s, &c, &at(3.0, 0.0)));
            let above = T::lit(1.0) + <T as Float>::epsilon();
            assert!(!segment_circle(
                &s,
                &c,
                &Isometry2::translation(T::zero(), above)
            ));
            // A capsule of radius 0.5 round the same core, the circle 1 away.
            let cap = Capsule::new(pt(-2.0, 0.0), pt(2.0, 0.0), T::lit(0.5)).unwrap();
            let ClosestPoints::WithinMargin {
                distance,
                normal,
                point_a,
                point_b,
            } = circle_capsule_closest_points(&c, &cap, &at(0.0, -2.5), T::infinity())
            else {
                panic!("apart");
            };
            assert_eq!(distance, T::lit(1.0));
            assert_eq!(normal.into_inner(), -Vector2::y());
            assert_eq!(point_a, pt(0.0, -1.0));
            assert_eq!(point_b, pt(0.0, -2.0));
        }
        run::<f32>();
        run::<f64>();
    }
}
