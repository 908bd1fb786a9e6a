//! The pairs served by the general rounded-core kernel ([`core_intersects`],
//! [`core_contact`], [`core_closest_points`]), each under its own name. Each is a one-line reduction,
//! monomorphised for its two types, so it costs nothing over calling the
//! general kernel directly.

use nalgebra::Isometry2;
use shape::{
    Aabb, Capsule, Circle, ConvexPolygon, Obb, Point, Real, RoundedPolygon, Segment, Triangle,
};

use super::{core_closest_points, core_contact, core_intersects};
use crate::{ClosestPoints, Contact};

macro_rules! core_pairs {
    ($( $name:ident, $contact:ident, $closest:ident: $a:ident, $b:ident; )*) => {$(
        #[doc = concat!("Whether a `", stringify!($a), "` and a `", stringify!($b),
            "` intersect; `b_in_a` is B's pose in A's frame. Reduces to the general rounded-core kernel.")]
        #[inline]
        pub fn $name<T: Real>(a: &$a<T>, b: &$b<T>, b_in_a: &Isometry2<T>) -> bool {
            core_intersects(a, b, b_in_a)
        }

        #[doc = concat!("The contact of a `", stringify!($a), "` and a `", stringify!($b),
            "`, in A's frame. Reduces to the general rounded-core kernel.")]
        #[inline]
        pub fn $contact<T: Real>(a: &$a<T>, b: &$b<T>, b_in_a: &Isometry2<T>) -> Option<Contact<T>> {
            core_contact(a, b, b_in_a)
        }

        #[doc = concat!("The closest points of a `", stringify!($a), "` and a `", stringify!($b),
            "` within `max_distance`, in A's frame. Reduces to the general rounded-core kernel.")]
        #[inline]
        pub fn $closest<T: Real>(
            a: &$a<T>,
            b: &$b<T>,
            b_in_a: &Isometry2<T>,
            max_distance: T,
        ) -> ClosestPoints<T> {
            core_closest_points(a, b, b_in_a, max_distance)
        }
    )*};
}

core_pairs! {
    point_point, point_point_contact, point_point_closest_points: Point, Point;
    point_segment, point_segment_contact, point_segment_closest_points: Point, Segment;
    point_triangle, point_triangle_contact, point_triangle_closest_points: Point, Triangle;
    point_polygon, point_polygon_contact, point_polygon_closest_points: Point, ConvexPolygon;
    segment_segment, segment_segment_contact, segment_segment_closest_points: Segment, Segment;
    segment_aabb, segment_aabb_contact, segment_aabb_closest_points: Segment, Aabb;
    segment_obb, segment_obb_contact, segment_obb_closest_points: Segment, Obb;
    segment_triangle, segment_triangle_contact, segment_triangle_closest_points: Segment, Triangle;
    segment_polygon, segment_polygon_contact, segment_polygon_closest_points: Segment, ConvexPolygon;
    segment_capsule, segment_capsule_contact, segment_capsule_closest_points: Segment, Capsule;
    aabb_triangle, aabb_triangle_contact, aabb_triangle_closest_points: Aabb, Triangle;
    aabb_polygon, aabb_polygon_contact, aabb_polygon_closest_points: Aabb, ConvexPolygon;
    aabb_capsule, aabb_capsule_contact, aabb_capsule_closest_points: Aabb, Capsule;
    obb_triangle, obb_triangle_contact, obb_triangle_closest_points: Obb, Triangle;
    obb_polygon, obb_polygon_contact, obb_polygon_closest_points: Obb, ConvexPolygon;
    obb_capsule, obb_capsule_contact, obb_capsule_closest_points: Obb, Capsule;
    triangle_triangle, triangle_triangle_contact, triangle_triangle_closest_points: Triangle, Triangle;
    triangle_polygon, triangle_polygon_contact, triangle_polygon_closest_points: Triangle, ConvexPolygon;
    triangle_capsule, triangle_capsule_contact, triangle_capsule_closest_points: Triangle, Capsule;
    polygon_polygon, polygon_polygon_contact, polygon_polygon_closest_points: ConvexPolygon, ConvexPolygon;
    polygon_capsule, polygon_capsule_contact, polygon_capsule_closest_points: ConvexPolygon, Capsule;
    capsule_capsule, capsule_capsule_contact, capsule_capsule_closest_points: Capsule, Capsule;
    point_rounded_polygon, point_rounded_polygon_contact, point_rounded_polygon_closest_points: Point, RoundedPolygon;
    segment_rounded_polygon, segment_rounded_polygon_contact, segment_rounded_polygon_closest_points: Segment, RoundedPolygon;
    circle_rounded_polygon, circle_rounded_polygon_contact, circle_rounded_polygon_closest_points: Circle, RoundedPolygon;
    aabb_rounded_polygon, aabb_rounded_polygon_contact, aabb_rounded_polygon_closest_points: Aabb, RoundedPolygon;
    obb_rounded_polygon, obb_rounded_polygon_contact, obb_rounded_polygon_closest_points: Obb, RoundedPolygon;
    triangle_rounded_polygon, triangle_rounded_polygon_contact, triangle_rounded_polygon_closest_points: Triangle, RoundedPolygon;
    polygon_rounded_polygon, polygon_rounded_polygon_contact, polygon_rounded_polygon_closest_points: ConvexPolygon, RoundedPolygon;
    capsule_rounded_polygon, capsule_rounded_polygon_contact, capsule_rounded_polygon_closest_points: Capsule, RoundedPolygon;
    rounded_polygon_rounded_polygon, rounded_polygon_rounded_polygon_contact, rounded_polygon_rounded_polygon_closest_points: RoundedPolygon, RoundedPolygon;
}
