//! The shape-cast kernel of every built-in 2D pair, in the table's canonical
//! order (`<a>_<b>_cast`, A's frame, A at rest, B moving at `args.vel_b`;
//! see the [module documentation](super)).
//!
//! Closed forms wherever the shapes are polygonal cores grown by radii:
//! - polygonal pairs (point, segment, aabb, obb, triangle, polygon) and a
//!   circle or a capsule against a shape with area: the separating-axis
//!   interval sweep of [`polygonal`](super::polygonal) (with its corner
//!   quadratic for rounded shapes);
//! - a circle or a capsule against a point, a segment, a circle or a
//!   capsule: the point–capsule times of [`rounded`].
//!
//! The ellipse pairs keep the conservative advancement of
//! [`advance`](super::advance) on their exact closest-points kernels. It is
//! exact to its tolerance: every step lands at or before the first contact
//! (the separating plane of the closest points cannot be crossed sooner), the
//! distance is convex in time under a translation so the steps are Newton's
//! method from below on a convex function, and it stops when the distance is
//! below `32·ε` times the shapes' size, or when the step is below the time's
//! rounding; a closed form in the ellipse's scaled frame (where it is a
//! circle and the other shape an affine image) is not done yet.
//!
//! The register block in `dispatch.rs` names these kernels in its
//! shape-cast column.

use nalgebra::Isometry2;
use shape::{
    Aabb, Capsule, Circle, ConvexPolygon, Ellipse, Obb, Point, Real, RoundedPolygon, Segment,
    Triangle,
};

use super::advance::cast_2d;
use super::polygonal::sweep_cast;
use super::rounded::{self, rounded_core_cast};
use super::{ShapeCastArgs, ShapeCastHit};
use crate::circle::*;
use crate::ellipse::*;
use crate::point::*;
use crate::sat::*;

/// One shape-cast kernel per row, by the separating-axis interval sweep.
macro_rules! sweep_casts {
    ($( $name:ident: $a:ident, $b:ident => $contact:ident; )*) => {$(
        #[doc = concat!("The shape cast of a `", stringify!($a), "` and a `", stringify!($b),
            "` (B at `b_in_a`, moving at `args.vel_b` relative to A, in A's frame): the \
            separating-axis interval sweep [`sweep_cast`].")]
        #[must_use]
        #[inline]
        pub fn $name<T: Real>(
            a: &$a<T>,
            b: &$b<T>,
            b_in_a: &Isometry2<T>,
            args: ShapeCastArgs<T>,
        ) -> Option<ShapeCastHit<T>> {
            sweep_cast(a, b, b_in_a, &args, $contact)
        }
    )*};
}

/// One shape-cast kernel per row, by the point–capsule times of two rounded
/// point or segment cores.
macro_rules! rounded_casts {
    ($( $name:ident: $a:ident, $b:ident => $contact:ident; )*) => {$(
        #[doc = concat!("The shape cast of a `", stringify!($a), "` and a `", stringify!($b),
            "` (B at `b_in_a`, moving at `args.vel_b` relative to A, in A's frame): the \
            closed-form point–capsule times of [`rounded_core_cast`].")]
        #[must_use]
        #[inline]
        pub fn $name<T: Real>(
            a: &$a<T>,
            b: &$b<T>,
            b_in_a: &Isometry2<T>,
            args: ShapeCastArgs<T>,
        ) -> Option<ShapeCastHit<T>> {
            rounded_core_cast(a, b, b_in_a, &args, $contact)
        }
    )*};
}

/// One shape-cast kernel per row, by conservative advancement on the row's
/// closest-points and contact kernels.
macro_rules! advancement_casts {
    ($( $name:ident: $a:ident, $b:ident => $closest:ident, $contact:ident; )*) => {$(
        #[doc = concat!("The shape cast of a `", stringify!($a), "` and a `", stringify!($b),
            "` (B at `b_in_a`, moving at `args.vel_b` relative to A, in A's frame): conservative \
            advancement on [`", stringify!($closest), "`].")]
        #[must_use]
        pub fn $name<T: Real>(
            a: &$a<T>,
            b: &$b<T>,
            b_in_a: &Isometry2<T>,
            args: ShapeCastArgs<T>,
        ) -> Option<ShapeCastHit<T>> {
            cast_2d(a, b, b_in_a, &args, $closest, $contact)
        }
    )*};
}

sweep_casts! {
    point_point_cast: Point, Point => point_point_contact;
    point_segment_cast: Point, Segment => point_segment_contact;
    point_aabb_cast: Point, Aabb => point_aabb_contact;
    point_obb_cast: Point, Obb => point_obb_contact;
    point_triangle_cast: Point, Triangle => point_triangle_contact;
    point_polygon_cast: Point, ConvexPolygon => point_polygon_contact;
    segment_segment_cast: Segment, Segment => segment_segment_contact;
    segment_aabb_cast: Segment, Aabb => segment_aabb_contact;
    segment_obb_cast: Segment, Obb => segment_obb_contact;
    segment_triangle_cast: Segment, Triangle => segment_triangle_contact;
    segment_polygon_cast: Segment, ConvexPolygon => segment_polygon_contact;
    circle_aabb_cast: Circle, Aabb => circle_aabb_contact;
    circle_obb_cast: Circle, Obb => circle_obb_contact;
    circle_triangle_cast: Circle, Triangle => circle_triangle_contact;
    circle_polygon_cast: Circle, ConvexPolygon => circle_polygon_contact;
    aabb_aabb_cast: Aabb, Aabb => aabb_aabb_contact;
    aabb_obb_cast: Aabb, Obb => aabb_obb_contact;
    aabb_triangle_cast: Aabb, Triangle => aabb_triangle_contact;
    aabb_polygon_cast: Aabb, ConvexPolygon => aabb_polygon_contact;
    aabb_capsule_cast: Aabb, Capsule => aabb_capsule_contact;
    obb_obb_cast: Obb, Obb => obb_obb_contact;
    obb_triangle_cast: Obb, Triangle => obb_triangle_contact;
    obb_polygon_cast: Obb, ConvexPolygon => obb_polygon_contact;
    obb_capsule_cast: Obb, Capsule => obb_capsule_contact;
    triangle_triangle_cast: Triangle, Triangle => triangle_triangle_contact;
    triangle_polygon_cast: Triangle, ConvexPolygon => triangle_polygon_contact;
    triangle_capsule_cast: Triangle, Capsule => triangle_capsule_contact;
    polygon_polygon_cast: ConvexPolygon, ConvexPolygon => polygon_polygon_contact;
    polygon_capsule_cast: ConvexPolygon, Capsule => polygon_capsule_contact;
    point_rounded_polygon_cast: Point, RoundedPolygon => point_rounded_polygon_contact;
    segment_rounded_polygon_cast: Segment, RoundedPolygon => segment_rounded_polygon_contact;
    circle_rounded_polygon_cast: Circle, RoundedPolygon => circle_rounded_polygon_contact;
    aabb_rounded_polygon_cast: Aabb, RoundedPolygon => aabb_rounded_polygon_contact;
    obb_rounded_polygon_cast: Obb, RoundedPolygon => obb_rounded_polygon_contact;
    triangle_rounded_polygon_cast: Triangle, RoundedPolygon => triangle_rounded_polygon_contact;
    polygon_rounded_polygon_cast: ConvexPolygon, RoundedPolygon => polygon_rounded_polygon_contact;
    capsule_rounded_polygon_cast: Capsule, RoundedPolygon => capsule_rounded_polygon_contact;
    rounded_polygon_rounded_polygon_cast: RoundedPolygon, RoundedPolygon => rounded_polygon_rounded_polygon_contact;
}

rounded_casts! {
    point_circle_cast: Point, Circle => point_circle_contact;
    point_capsule_cast: Point, Capsule => point_capsule_contact;
    segment_circle_cast: Segment, Circle => segment_circle_contact;
    segment_capsule_cast: Segment, Capsule => segment_capsule_contact;
    circle_capsule_cast: Circle, Capsule => circle_capsule_contact;
    capsule_capsule_cast: Capsule, Capsule => capsule_capsule_contact;
}

advancement_casts! {
    point_ellipse_cast: Point, Ellipse => point_ellipse_closest_points, point_ellipse_contact;
    segment_ellipse_cast: Segment, Ellipse => segment_ellipse_closest_points, segment_ellipse_contact;
    circle_ellipse_cast: Circle, Ellipse => circle_ellipse_closest_points, circle_ellipse_contact;
    aabb_ellipse_cast: Aabb, Ellipse => aabb_ellipse_closest_points, aabb_ellipse_contact;
    obb_ellipse_cast: Obb, Ellipse => obb_ellipse_closest_points, obb_ellipse_contact;
    triangle_ellipse_cast: Triangle, Ellipse => triangle_ellipse_closest_points, triangle_ellipse_contact;
    polygon_ellipse_cast: ConvexPolygon, Ellipse => polygon_ellipse_closest_points, polygon_ellipse_contact;
    capsule_ellipse_cast: Capsule, Ellipse => capsule_ellipse_closest_points, capsule_ellipse_contact;
    ellipse_ellipse_cast: Ellipse, Ellipse => ellipse_ellipse_closest_points, ellipse_ellipse_contact;
    ellipse_rounded_polygon_cast: Ellipse, RoundedPolygon => ellipse_rounded_polygon_closest_points, ellipse_rounded_polygon_contact;
}

/// The shape cast of two circles (B at `b_in_a`, moving at `args.vel_b`
/// relative to A, in A's frame): the quadratic on the centres,
/// [`rounded::circle_circle_cast`].
#[must_use]
#[inline]
pub fn circle_circle_cast<T: Real>(
    a: &Circle<T>,
    b: &Circle<T>,
    b_in_a: &Isometry2<T>,
    args: ShapeCastArgs<T>,
) -> Option<ShapeCastHit<T>> {
    rounded::circle_circle_cast(a, b, b_in_a, &args, circle_circle_contact)
}
