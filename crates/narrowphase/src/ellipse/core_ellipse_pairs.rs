//! Every built-in kind against the ellipse, each under its own name: one-line
//! reductions to the rounded-core kernel ([`core_ellipse`],
//! [`core_ellipse_contact`]), monomorphised for their types, so they cost
//! nothing over calling the kernel directly. In kasanari's canonical order the
//! ellipse comes last: A is the other shape, B the ellipse placed by `b_in_a`.
//!
//! The point and circle need no special code: a point core is decided by the
//! mapped containment `(x/rx)² + (y/ry)² ≤ 1`, and a circle by Eberly's distance
//! from its centre, `≤ r` (see `core_ellipse.rs`).

use nalgebra::Isometry2;
use shape::{
    Aabb, Capsule, Circle, ConvexPolygon, Ellipse, Obb, Point, Real, RoundedPolygon, Segment,
    Triangle,
};

use super::{core_ellipse, core_ellipse_closest_points, core_ellipse_contact};
use crate::{ClosestPoints, Contact};

macro_rules! core_ellipse_pairs {
    ($( $name:ident, $contact:ident, $closest:ident: $a:ident, $example:literal; )*) => {$(
        #[doc = concat!("Whether a `", stringify!($a), "` and an `Ellipse` intersect (touching counts); ",
            "`b_in_a` is the ellipse's pose in A's frame. Exact up to floating point; reduces to [`core_ellipse`].")]
        #[doc = ""]
        #[doc = concat!("```\n", $example, "\n```")]
        #[inline]
        #[must_use]
        pub fn $name<T: Real>(a: &$a<T>, b: &Ellipse<T>, b_in_a: &Isometry2<T>) -> bool {
            core_ellipse(a, b, b_in_a)
        }

        #[doc = concat!("The contact of a `", stringify!($a), "` and an `Ellipse` in A's frame (normal from A ",
            "to the ellipse), `Some` exactly when [`", stringify!($name), "`] is true; reduces to [`core_ellipse_contact`].")]
        #[doc = ""]
        #[doc = concat!("```\n", $example, "\n```")]
        #[inline]
        #[must_use]
        pub fn $contact<T: Real>(a: &$a<T>, b: &Ellipse<T>, b_in_a: &Isometry2<T>) -> Option<Contact<T>> {
            core_ellipse_contact(a, b, b_in_a)
        }

        #[doc = concat!("The closest points of a `", stringify!($a), "` and an `Ellipse` within `max_distance`, in A's ",
            "frame, `Intersecting` exactly when [`", stringify!($name), "`] is true; reduces to [`core_ellipse_closest_points`].")]
        #[inline]
        #[must_use]
        pub fn $closest<T: Real>(
            a: &$a<T>,
            b: &Ellipse<T>,
            b_in_a: &Isometry2<T>,
            max_distance: T,
        ) -> ClosestPoints<T> {
            core_ellipse_closest_points(a, b, b_in_a, max_distance)
        }
    )*};
}

core_ellipse_pairs! {
    point_ellipse, point_ellipse_contact, point_ellipse_closest_points: Point,
"use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::ellipse::{point_ellipse, point_ellipse_contact};
let e = shape::Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
let a = shape::Point::new(Point2::new(2.0, 0.0)).unwrap();
assert!(point_ellipse(&a, &e, &Isometry2::identity())); // on the tip
assert!(!point_ellipse(&a, &e, &Isometry2::translation(-0.001, 0.0)));
let c = point_ellipse_contact(&a, &e, &Isometry2::translation(0.25, 0.0)).unwrap();
assert!((c.depth - 0.25f64).abs() < 1e-9 && (c.normal.x + 1.0).abs() < 1e-9);";

    segment_ellipse, segment_ellipse_contact, segment_ellipse_closest_points: Segment,
"use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::ellipse::{segment_ellipse, segment_ellipse_contact};
let e = shape::Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
let a = shape::Segment::new(Point2::new(2.0, -1.0), Point2::new(2.0, 1.0)).unwrap();
assert!(segment_ellipse(&a, &e, &Isometry2::identity())); // through the tip
assert!(!segment_ellipse(&a, &e, &Isometry2::translation(-0.001, 0.0)));
let c = segment_ellipse_contact(&a, &e, &Isometry2::translation(0.25, 0.0)).unwrap();
assert!((c.depth - 0.25f64).abs() < 1e-9 && (c.normal.x + 1.0).abs() < 1e-9);";

    circle_ellipse, circle_ellipse_contact, circle_ellipse_closest_points: Circle,
"use nalgebra::{Isometry2, Vector2};
use narrowphase::ellipse::{circle_ellipse, circle_ellipse_contact};
let e = shape::Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
let a = shape::Circle::new(1.0).unwrap();
assert!(circle_ellipse(&a, &e, &Isometry2::translation(-3.0, 0.0))); // touching the tip
assert!(!circle_ellipse(&a, &e, &Isometry2::translation(-3.001, 0.0)));
let c = circle_ellipse_contact(&a, &e, &Isometry2::translation(0.0, 1.5)).unwrap();
assert!((c.depth - 0.5f64).abs() < 1e-9 && (c.normal.y - 1.0).abs() < 1e-9);";

    aabb_ellipse, aabb_ellipse_contact, aabb_ellipse_closest_points: Aabb,
"use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::ellipse::{aabb_ellipse, aabb_ellipse_contact};
let e = shape::Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
let a = shape::Aabb::new(Point2::new(2.0, -1.0), Point2::new(4.0, 1.0)).unwrap();
assert!(aabb_ellipse(&a, &e, &Isometry2::identity())); // face on the tip
assert!(!aabb_ellipse(&a, &e, &Isometry2::translation(-0.001, 0.0)));
let c = aabb_ellipse_contact(&a, &e, &Isometry2::translation(0.25, 0.0)).unwrap();
assert!((c.depth - 0.25f64).abs() < 1e-9 && (c.normal.x + 1.0).abs() < 1e-9);";

    obb_ellipse, obb_ellipse_contact, obb_ellipse_closest_points: Obb,
"use nalgebra::{Isometry2, Vector2};
use narrowphase::ellipse::{obb_ellipse, obb_ellipse_contact};
let e = shape::Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
let a = shape::Obb::new(Vector2::new(1.0, 1.0)).unwrap();
// The ellipse turned a quarter and centred at (0, 3): its lower tip (0, 1) on the top face.
let pose = Isometry2::new(Vector2::new(0.0, 3.0), std::f64::consts::FRAC_PI_2);
assert!(obb_ellipse(&a, &e, &pose));
let c = obb_ellipse_contact(&a, &e, &Isometry2::translation(0.0, 1.5)).unwrap();
assert!((c.depth - 0.5f64).abs() < 1e-9 && (c.normal.y - 1.0).abs() < 1e-9);";

    triangle_ellipse, triangle_ellipse_contact, triangle_ellipse_closest_points: Triangle,
"use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::ellipse::{triangle_ellipse, triangle_ellipse_contact};
let e = shape::Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
let p = |x, y| Point2::new(x, y);
let a = shape::Triangle::new(p(2.0, 0.0), p(4.0, -1.0), p(4.0, 1.0)).unwrap();
assert!(triangle_ellipse(&a, &e, &Isometry2::identity())); // vertex on the tip
assert!(!triangle_ellipse(&a, &e, &Isometry2::translation(-0.001, 0.0)));
assert!(triangle_ellipse_contact(&a, &e, &Isometry2::translation(0.25, 0.0)).is_some());";

    polygon_ellipse, polygon_ellipse_contact, polygon_ellipse_closest_points: ConvexPolygon,
"use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::ellipse::{polygon_ellipse, polygon_ellipse_contact};
let e = shape::Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
let p = |x, y| Point2::new(x, y);
let a = shape::ConvexPolygon::new(&[p(-2.0, 1.0), p(2.0, 1.0), p(0.0, 3.0)]).unwrap();
assert!(polygon_ellipse(&a, &e, &Isometry2::identity())); // a face on the side
assert!(!polygon_ellipse(&a, &e, &Isometry2::translation(0.0, -0.001)));
let c = polygon_ellipse_contact(&a, &e, &Isometry2::translation(0.0, 0.5)).unwrap();
assert!((c.depth - 0.5f64).abs() < 1e-9 && (c.normal.y + 1.0).abs() < 1e-9);";

    capsule_ellipse, capsule_ellipse_contact, capsule_ellipse_closest_points: Capsule,
"use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::ellipse::{capsule_ellipse, capsule_ellipse_contact};
let e = shape::Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
let a = shape::Capsule::new(Point2::new(3.0, 0.0), Point2::new(5.0, 0.0), 1.0).unwrap();
assert!(capsule_ellipse(&a, &e, &Isometry2::identity())); // rounded end on the tip
assert!(!capsule_ellipse(&a, &e, &Isometry2::translation(-0.001, 0.0)));
let c = capsule_ellipse_contact(&a, &e, &Isometry2::translation(0.5, 0.0)).unwrap();
assert!((c.depth - 0.5f64).abs() < 1e-9 && (c.normal.x + 1.0).abs() < 1e-9);";
}

/// Whether an `Ellipse` and a `RoundedPolygon` intersect (touching counts);
/// `b_in_a` is the rounded polygon's pose in the ellipse's frame. In the
/// canonical order the ellipse comes first here (the rounded polygon's kind
/// was added after it), so this mirrors [`core_ellipse`] on the rounded
/// polygon's core: the same question asked from the rounded polygon, with the
/// ellipse at `b_in_a⁻¹`.
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use narrowphase::ellipse::{ellipse_rounded_polygon, ellipse_rounded_polygon_contact};
/// let e = shape::Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
/// let b = shape::RoundedPolygon::rounded_box(Vector2::new(1.0, 1.0), 0.5).unwrap();
/// // The box's left side (x = 2 − 1) on the ellipse's right tip.
/// assert!(ellipse_rounded_polygon(&e, &b, &Isometry2::translation(3.0, 0.0)));
/// assert!(!ellipse_rounded_polygon(&e, &b, &Isometry2::translation(3.001, 0.0)));
/// let c = ellipse_rounded_polygon_contact(&e, &b, &Isometry2::translation(2.5, 0.0)).unwrap();
/// assert!((c.depth - 0.5f64).abs() < 1e-9 && (c.normal.x - 1.0).abs() < 1e-9);
/// ```
#[inline]
#[must_use]
pub fn ellipse_rounded_polygon<T: Real>(
    a: &Ellipse<T>,
    b: &RoundedPolygon<T>,
    b_in_a: &Isometry2<T>,
) -> bool {
    core_ellipse(b, a, &b_in_a.inverse())
}

/// The contact of an `Ellipse` and a `RoundedPolygon` in the ellipse's frame
/// (normal from the ellipse to the rounded polygon), `Some` exactly when
/// [`ellipse_rounded_polygon`] is true: [`core_ellipse_contact`] asked from the
/// rounded polygon, mapped back and flipped.
#[inline]
#[must_use]
pub fn ellipse_rounded_polygon_contact<T: Real>(
    a: &Ellipse<T>,
    b: &RoundedPolygon<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    core_ellipse_contact(b, a, &b_in_a.inverse()).map(|c| c.transformed(b_in_a).flipped())
}

/// The closest points of an `Ellipse` and a `RoundedPolygon` within
/// `max_distance`, in the ellipse's frame, `Intersecting` exactly when
/// [`ellipse_rounded_polygon`] is true: [`core_ellipse_closest_points`] asked
/// from the rounded polygon, mapped back and flipped.
#[inline]
#[must_use]
pub fn ellipse_rounded_polygon_closest_points<T: Real>(
    a: &Ellipse<T>,
    b: &RoundedPolygon<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    core_ellipse_closest_points(b, a, &b_in_a.inverse(), max_distance)
        .transformed(b_in_a)
        .flipped()
}
