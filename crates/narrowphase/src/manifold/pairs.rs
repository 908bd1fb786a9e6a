//! One manifold kernel per built-in 2D pair, named `<a>_<b>_manifold` as the
//! register block lists them: the pairs whose first shape is a point or a
//! circle (a one-point core) have one point, from `point_core::point_core_manifold`;
//! the other pairs of shapes with cores go through `fused::fused_manifold`
//! on the pair's own exact contact (the rounded-core kernel's pairs with the
//! face of its normal, `core_contact_face`) and closest-points kernels; the
//! pairs with an ellipse have one point, from the same exact kernels, with
//! the ellipse's feature [`Feature::Surface`].

use nalgebra::Isometry2;
use shape::{
    Aabb, Capsule, Circle, ConvexPolygon, Ellipse, Obb, Point, Real, RoundedPolygon, Segment,
    Triangle,
};

use super::fused::fused_manifold;
use super::point_core::point_core_manifold;
use super::polygonal::{exact, single_point, touching_feature};
use super::{Feature, FeatureId, Manifold};
use crate::circle::*;
use crate::ellipse::*;
use crate::point::*;
use crate::sat::*;
use crate::sat::{ContactFace, core_contact_face};

/// A shape's feature at a one-point contact with an ellipse: the touching
/// feature of its core, or the smooth surface of an ellipse.
trait OnePointFeature<T: Real> {
    /// The feature touching along `dir` (shape frame, outward).
    fn feature(&self, dir: &nalgebra::Vector2<T>) -> Feature;
}

macro_rules! one_point_feature_by_core {
    ($($shape:ident),*) => {$(
        impl<T: Real> OnePointFeature<T> for $shape<T> {
            fn feature(&self, dir: &nalgebra::Vector2<T>) -> Feature {
                touching_feature::<T, Self>(self, dir)
            }
        }
    )*};
}
one_point_feature_by_core!(
    Point,
    Segment,
    Circle,
    Aabb,
    Obb,
    Triangle,
    ConvexPolygon,
    Capsule,
    RoundedPolygon
);

impl<T: Real> OnePointFeature<T> for Ellipse<T> {
    fn feature(&self, _dir: &nalgebra::Vector2<T>) -> Feature {
        Feature::Surface
    }
}

macro_rules! box_manifolds {
    ($( $name:ident: $a:ident, $b:ident => $contact:ident, $closest:ident; )*) => {$(
        #[doc = concat!("The contact manifold of a [`", stringify!($a), "`] and a [`", stringify!($b),
            "`] placed by `b_in_a`, in A's frame, within `prediction` (reference/incident clipping on the exact `",
            stringify!($contact), "` and `", stringify!($closest), "`; `fused.rs`).")]
        #[must_use]
        pub fn $name<T: Real>(a: &$a<T>, b: &$b<T>, b_in_a: &Isometry2<T>, prediction: T) -> Option<Manifold<T>> {
            fused_manifold(
                a,
                b,
                b_in_a,
                prediction,
                #[inline(always)]
                |a, b, m| $contact(a, b, m).map(|c| (c, ContactFace::Unknown)),
                $closest,
            )
        }
    )*};
}

macro_rules! core_manifolds {
    ($( $name:ident: $a:ident, $b:ident => $contact:ident, $closest:ident; )*) => {$(
        #[doc = concat!("The contact manifold of a [`", stringify!($a), "`] and a [`", stringify!($b),
            "`] placed by `b_in_a`, in A's frame, within `prediction` (reference/incident clipping on the exact `",
            stringify!($contact), "`, the rounded-core kernel, which also names the face of its normal, and `",
            stringify!($closest), "`; `fused.rs`).")]
        #[must_use]
        pub fn $name<T: Real>(a: &$a<T>, b: &$b<T>, b_in_a: &Isometry2<T>, prediction: T) -> Option<Manifold<T>> {
            fused_manifold(a, b, b_in_a, prediction, core_contact_face, $closest)
        }
    )*};
}

macro_rules! point_core_manifolds {
    ($( $name:ident: $a:ident, $b:ident => $contact:ident, $closest:ident; )*) => {$(
        #[doc = concat!("The contact manifold of a [`", stringify!($a), "`] and a [`", stringify!($b),
            "`] placed by `b_in_a`, in A's frame, within `prediction`: the one point of the exact `",
            stringify!($contact), "` or `", stringify!($closest), "` (A's core is a point; `point_core.rs`).")]
        #[must_use]
        pub fn $name<T: Real>(a: &$a<T>, b: &$b<T>, b_in_a: &Isometry2<T>, prediction: T) -> Option<Manifold<T>> {
            point_core_manifold(a, b, b_in_a, prediction, $contact, $closest)
        }
    )*};
}

macro_rules! one_point_manifolds {
    ($( $name:ident: $a:ident, $b:ident => $contact:ident, $closest:ident; )*) => {$(
        #[doc = concat!("The contact manifold of a [`", stringify!($a), "`] and a [`", stringify!($b),
            "`] placed by `b_in_a`, in A's frame, within `prediction`: the one point of the exact `",
            stringify!($contact), "` or `", stringify!($closest), "`.")]
        #[must_use]
        pub fn $name<T: Real>(a: &$a<T>, b: &$b<T>, b_in_a: &Isometry2<T>, prediction: T) -> Option<Manifold<T>> {
            let e = exact($contact(a, b, b_in_a), || $closest(a, b, b_in_a, prediction))?;
            let n = e.normal.into_inner();
            let id = FeatureId {
                a: a.feature(&n),
                b: b.feature(&b_in_a.rotation.inverse_transform_vector(&-n)),
            };
            Some(single_point(&e, id))
        }
    )*};
}

point_core_manifolds! {
    point_point_manifold: Point, Point => point_point_contact, point_point_closest_points;
    point_segment_manifold: Point, Segment => point_segment_contact, point_segment_closest_points;
    point_circle_manifold: Point, Circle => point_circle_contact, point_circle_closest_points;
    point_aabb_manifold: Point, Aabb => point_aabb_contact, point_aabb_closest_points;
    point_obb_manifold: Point, Obb => point_obb_contact, point_obb_closest_points;
    point_triangle_manifold: Point, Triangle => point_triangle_contact, point_triangle_closest_points;
    point_polygon_manifold: Point, ConvexPolygon => point_polygon_contact, point_polygon_closest_points;
    point_capsule_manifold: Point, Capsule => point_capsule_contact, point_capsule_closest_points;
    circle_circle_manifold: Circle, Circle => circle_circle_contact, circle_circle_closest_points;
    circle_aabb_manifold: Circle, Aabb => circle_aabb_contact, circle_aabb_closest_points;
    circle_obb_manifold: Circle, Obb => circle_obb_contact, circle_obb_closest_points;
    circle_triangle_manifold: Circle, Triangle => circle_triangle_contact, circle_triangle_closest_points;
    circle_polygon_manifold: Circle, ConvexPolygon => circle_polygon_contact, circle_polygon_closest_points;
    circle_capsule_manifold: Circle, Capsule => circle_capsule_contact, circle_capsule_closest_points;
    point_rounded_polygon_manifold: Point, RoundedPolygon => point_rounded_polygon_contact, point_rounded_polygon_closest_points;
    circle_rounded_polygon_manifold: Circle, RoundedPolygon => circle_rounded_polygon_contact, circle_rounded_polygon_closest_points;
}

// The box pairs: their own separating-axis contact (`sat/obb_obb.rs`,
// `sat/aabb_aabb.rs`), whose faces are found in closed form; and a segment
// against a circle, whose contact is the closed form of
// `circle/circle_segment.rs` (the circle's point core: one point).
box_manifolds! {
    segment_circle_manifold: Segment, Circle => segment_circle_contact, segment_circle_closest_points;
    aabb_aabb_manifold: Aabb, Aabb => aabb_aabb_contact, aabb_aabb_closest_points;
    aabb_obb_manifold: Aabb, Obb => aabb_obb_contact, aabb_obb_closest_points;
    obb_obb_manifold: Obb, Obb => obb_obb_contact, obb_obb_closest_points;
}

// The rounded-core kernel's pairs (`sat/core_pairs.rs`): its contact with
// the face of the normal.
core_manifolds! {
    segment_segment_manifold: Segment, Segment => segment_segment_contact, segment_segment_closest_points;
    segment_aabb_manifold: Segment, Aabb => segment_aabb_contact, segment_aabb_closest_points;
    segment_obb_manifold: Segment, Obb => segment_obb_contact, segment_obb_closest_points;
    segment_triangle_manifold: Segment, Triangle => segment_triangle_contact, segment_triangle_closest_points;
    segment_polygon_manifold: Segment, ConvexPolygon => segment_polygon_contact, segment_polygon_closest_points;
    segment_capsule_manifold: Segment, Capsule => segment_capsule_contact, segment_capsule_closest_points;
    aabb_triangle_manifold: Aabb, Triangle => aabb_triangle_contact, aabb_triangle_closest_points;
    aabb_polygon_manifold: Aabb, ConvexPolygon => aabb_polygon_contact, aabb_polygon_closest_points;
    aabb_capsule_manifold: Aabb, Capsule => aabb_capsule_contact, aabb_capsule_closest_points;
    obb_triangle_manifold: Obb, Triangle => obb_triangle_contact, obb_triangle_closest_points;
    obb_polygon_manifold: Obb, ConvexPolygon => obb_polygon_contact, obb_polygon_closest_points;
    obb_capsule_manifold: Obb, Capsule => obb_capsule_contact, obb_capsule_closest_points;
    triangle_triangle_manifold: Triangle, Triangle => triangle_triangle_contact, triangle_triangle_closest_points;
    triangle_polygon_manifold: Triangle, ConvexPolygon => triangle_polygon_contact, triangle_polygon_closest_points;
    triangle_capsule_manifold: Triangle, Capsule => triangle_capsule_contact, triangle_capsule_closest_points;
    polygon_polygon_manifold: ConvexPolygon, ConvexPolygon => polygon_polygon_contact, polygon_polygon_closest_points;
    polygon_capsule_manifold: ConvexPolygon, Capsule => polygon_capsule_contact, polygon_capsule_closest_points;
    capsule_capsule_manifold: Capsule, Capsule => capsule_capsule_contact, capsule_capsule_closest_points;
    segment_rounded_polygon_manifold: Segment, RoundedPolygon => segment_rounded_polygon_contact, segment_rounded_polygon_closest_points;
    aabb_rounded_polygon_manifold: Aabb, RoundedPolygon => aabb_rounded_polygon_contact, aabb_rounded_polygon_closest_points;
    obb_rounded_polygon_manifold: Obb, RoundedPolygon => obb_rounded_polygon_contact, obb_rounded_polygon_closest_points;
    triangle_rounded_polygon_manifold: Triangle, RoundedPolygon => triangle_rounded_polygon_contact, triangle_rounded_polygon_closest_points;
    polygon_rounded_polygon_manifold: ConvexPolygon, RoundedPolygon => polygon_rounded_polygon_contact, polygon_rounded_polygon_closest_points;
    capsule_rounded_polygon_manifold: Capsule, RoundedPolygon => capsule_rounded_polygon_contact, capsule_rounded_polygon_closest_points;
    rounded_polygon_rounded_polygon_manifold: RoundedPolygon, RoundedPolygon => rounded_polygon_rounded_polygon_contact, rounded_polygon_rounded_polygon_closest_points;
}

one_point_manifolds! {
    point_ellipse_manifold: Point, Ellipse => point_ellipse_contact, point_ellipse_closest_points;
    segment_ellipse_manifold: Segment, Ellipse => segment_ellipse_contact, segment_ellipse_closest_points;
    circle_ellipse_manifold: Circle, Ellipse => circle_ellipse_contact, circle_ellipse_closest_points;
    aabb_ellipse_manifold: Aabb, Ellipse => aabb_ellipse_contact, aabb_ellipse_closest_points;
    obb_ellipse_manifold: Obb, Ellipse => obb_ellipse_contact, obb_ellipse_closest_points;
    triangle_ellipse_manifold: Triangle, Ellipse => triangle_ellipse_contact, triangle_ellipse_closest_points;
    polygon_ellipse_manifold: ConvexPolygon, Ellipse => polygon_ellipse_contact, polygon_ellipse_closest_points;
    capsule_ellipse_manifold: Capsule, Ellipse => capsule_ellipse_contact, capsule_ellipse_closest_points;
    ellipse_ellipse_manifold: Ellipse, Ellipse => ellipse_ellipse_contact, ellipse_ellipse_closest_points;
    ellipse_rounded_polygon_manifold: Ellipse, RoundedPolygon => ellipse_rounded_polygon_contact, ellipse_rounded_polygon_closest_points;
}
