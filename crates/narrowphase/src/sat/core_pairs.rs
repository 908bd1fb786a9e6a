//! The pairs served by the general rounded-core kernel ([`core_intersects`],
//! [`core_contact`]), each under its own name. Each is a one-line reduction,
//! monomorphised for its two types, so it costs nothing over calling the
//! general kernel directly.

use nalgebra::Isometry2;
use shape::{Aabb, Capsule, Circle, ConvexPolygon, Obb, Point, Real, Segment, Triangle};

use super::{core_contact, core_intersects};
use crate::Contact;

macro_rules! core_pairs {
    ($( $name:ident, $contact:ident: $a:ident, $b:ident; )*) => {$(
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
    )*};
}

core_pairs! {
    point_point, point_point_contact: Point, Point;
    point_segment, point_segment_contact: Point, Segment;
    point_triangle, point_triangle_contact: Point, Triangle;
    point_polygon, point_polygon_contact: Point, ConvexPolygon;
    point_capsule, point_capsule_contact: Point, Capsule;
    segment_segment, segment_segment_contact: Segment, Segment;
    segment_circle, segment_circle_contact: Segment, Circle;
    segment_aabb, segment_aabb_contact: Segment, Aabb;
    segment_obb, segment_obb_contact: Segment, Obb;
    segment_triangle, segment_triangle_contact: Segment, Triangle;
    segment_polygon, segment_polygon_contact: Segment, ConvexPolygon;
    segment_capsule, segment_capsule_contact: Segment, Capsule;
    circle_capsule, circle_capsule_contact: Circle, Capsule;
    aabb_triangle, aabb_triangle_contact: Aabb, Triangle;
    aabb_polygon, aabb_polygon_contact: Aabb, ConvexPolygon;
    aabb_capsule, aabb_capsule_contact: Aabb, Capsule;
    obb_triangle, obb_triangle_contact: Obb, Triangle;
    obb_polygon, obb_polygon_contact: Obb, ConvexPolygon;
    obb_capsule, obb_capsule_contact: Obb, Capsule;
    triangle_triangle, triangle_triangle_contact: Triangle, Triangle;
    triangle_polygon, triangle_polygon_contact: Triangle, ConvexPolygon;
    triangle_capsule, triangle_capsule_contact: Triangle, Capsule;
    polygon_polygon, polygon_polygon_contact: ConvexPolygon, ConvexPolygon;
    polygon_capsule, polygon_capsule_contact: ConvexPolygon, Capsule;
    capsule_capsule, capsule_capsule_contact: Capsule, Capsule;
}
