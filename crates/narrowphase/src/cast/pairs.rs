//! The shape-cast kernel of every built-in 2D pair, in the table's canonical
//! order (`<a>_<b>_cast`, A's frame, A at rest, B moving at `args.vel_b`;
//! see the [module documentation](super)).
//!
//! Each kernel here is the conservative advancement of
//! [`advance`](super::advance) on the pair's exact closest-points kernel:
//! it converges to the first contact from below, to the rounding level of
//! the shapes' size. The register block in `dispatch.rs` names these kernels
//! in its shape-cast column.

use nalgebra::Isometry2;
use shape::{Aabb, Capsule, Circle, ConvexPolygon, Ellipse, Obb, Point, Real, Segment, Triangle};

use super::advance::cast_2d;
use super::{ShapeCastArgs, ShapeCastHit};
use crate::circle::*;
use crate::ellipse::*;
use crate::point::*;
use crate::sat::*;

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

advancement_casts! {
    point_point_cast: Point, Point => point_point_closest_points, point_point_contact;
    point_segment_cast: Point, Segment => point_segment_closest_points, point_segment_contact;
    point_circle_cast: Point, Circle => point_circle_closest_points, point_circle_contact;
    point_aabb_cast: Point, Aabb => point_aabb_closest_points, point_aabb_contact;
    point_obb_cast: Point, Obb => point_obb_closest_points, point_obb_contact;
    point_triangle_cast: Point, Triangle => point_triangle_closest_points, point_triangle_contact;
    point_polygon_cast: Point, ConvexPolygon => point_polygon_closest_points, point_polygon_contact;
    point_capsule_cast: Point, Capsule => point_capsule_closest_points, point_capsule_contact;
    point_ellipse_cast: Point, Ellipse => point_ellipse_closest_points, point_ellipse_contact;
    segment_segment_cast: Segment, Segment => segment_segment_closest_points, segment_segment_contact;
    segment_circle_cast: Segment, Circle => segment_circle_closest_points, segment_circle_contact;
    segment_aabb_cast: Segment, Aabb => segment_aabb_closest_points, segment_aabb_contact;
    segment_obb_cast: Segment, Obb => segment_obb_closest_points, segment_obb_contact;
    segment_triangle_cast: Segment, Triangle => segment_triangle_closest_points, segment_triangle_contact;
    segment_polygon_cast: Segment, ConvexPolygon => segment_polygon_closest_points, segment_polygon_contact;
    segment_capsule_cast: Segment, Capsule => segment_capsule_closest_points, segment_capsule_contact;
    segment_ellipse_cast: Segment, Ellipse => segment_ellipse_closest_points, segment_ellipse_contact;
    circle_circle_cast: Circle, Circle => circle_circle_closest_points, circle_circle_contact;
    circle_aabb_cast: Circle, Aabb => circle_aabb_closest_points, circle_aabb_contact;
    circle_obb_cast: Circle, Obb => circle_obb_closest_points, circle_obb_contact;
    circle_triangle_cast: Circle, Triangle => circle_triangle_closest_points, circle_triangle_contact;
    circle_polygon_cast: Circle, ConvexPolygon => circle_polygon_closest_points, circle_polygon_contact;
    circle_capsule_cast: Circle, Capsule => circle_capsule_closest_points, circle_capsule_contact;
    circle_ellipse_cast: Circle, Ellipse => circle_ellipse_closest_points, circle_ellipse_contact;
    aabb_aabb_cast: Aabb, Aabb => aabb_aabb_closest_points, aabb_aabb_contact;
    aabb_obb_cast: Aabb, Obb => aabb_obb_closest_points, aabb_obb_contact;
    aabb_triangle_cast: Aabb, Triangle => aabb_triangle_closest_points, aabb_triangle_contact;
    aabb_polygon_cast: Aabb, ConvexPolygon => aabb_polygon_closest_points, aabb_polygon_contact;
    aabb_capsule_cast: Aabb, Capsule => aabb_capsule_closest_points, aabb_capsule_contact;
    aabb_ellipse_cast: Aabb, Ellipse => aabb_ellipse_closest_points, aabb_ellipse_contact;
    obb_obb_cast: Obb, Obb => obb_obb_closest_points, obb_obb_contact;
    obb_triangle_cast: Obb, Triangle => obb_triangle_closest_points, obb_triangle_contact;
    obb_polygon_cast: Obb, ConvexPolygon => obb_polygon_closest_points, obb_polygon_contact;
    obb_capsule_cast: Obb, Capsule => obb_capsule_closest_points, obb_capsule_contact;
    obb_ellipse_cast: Obb, Ellipse => obb_ellipse_closest_points, obb_ellipse_contact;
    triangle_triangle_cast: Triangle, Triangle => triangle_triangle_closest_points, triangle_triangle_contact;
    triangle_polygon_cast: Triangle, ConvexPolygon => triangle_polygon_closest_points, triangle_polygon_contact;
    triangle_capsule_cast: Triangle, Capsule => triangle_capsule_closest_points, triangle_capsule_contact;
    triangle_ellipse_cast: Triangle, Ellipse => triangle_ellipse_closest_points, triangle_ellipse_contact;
    polygon_polygon_cast: ConvexPolygon, ConvexPolygon => polygon_polygon_closest_points, polygon_polygon_contact;
    polygon_capsule_cast: ConvexPolygon, Capsule => polygon_capsule_closest_points, polygon_capsule_contact;
    polygon_ellipse_cast: ConvexPolygon, Ellipse => polygon_ellipse_closest_points, polygon_ellipse_contact;
    capsule_capsule_cast: Capsule, Capsule => capsule_capsule_closest_points, capsule_capsule_contact;
    capsule_ellipse_cast: Capsule, Ellipse => capsule_ellipse_closest_points, capsule_ellipse_contact;
    ellipse_ellipse_cast: Ellipse, Ellipse => ellipse_ellipse_closest_points, ellipse_ellipse_contact;
}
