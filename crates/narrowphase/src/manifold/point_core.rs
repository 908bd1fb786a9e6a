//! The contact manifold of a pair whose first shape's core is one point (a
//! [`Point`](shape::Point) or a [`Circle`](shape::Circle)): one manifold
//! point, straight from the pair's exact kernels.
//!
//! 1. The exact contact when the shapes intersect, else (with a positive
//!    prediction) the exact closest points within the prediction: the
//!    normal, the separation and the two witness points, as
//!    `polygonal::polygonal_manifold` starts.
//! 2. The manifold has that one point. Its features: vertex 0 of A (a point
//!    core has no face), and B's touching feature along `−n`
//!    (`polygonal::touching_feature`: vertex 0 again when B's core is a point
//!    too).
//!
//! Why it is the manifold the general builder gives, bit for bit: a point
//! core has no face, so the reference face can only be B's, and the
//! incident edge would have to be A's, which does not exist: the general
//! builder answers the exact single point with these same features in every
//! case (`complete`'s early returns). Doing it here skips the face search
//! and clipping set-up it would do first, and the copies of its larger
//! return paths.

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use shape::Real;

use super::polygonal::{exact, single_point, touching_feature};
use super::{Feature, FeatureId, Manifold, ManifoldPoint};
use crate::polygonal::Polygonal;
use crate::{ClosestPoints, Contact};

/// The manifold of `a` (whose core is one point) and `b` placed by `b_in_a`,
/// in A's frame, within `prediction`, from the pair's exact `contact` and
/// `closest` kernels; `None` when farther apart than `prediction`.
#[inline(always)]
pub(crate) fn point_core_manifold<T: Real, A: Polygonal<T>, B: Polygonal<T>>(
    a: &A,
    b: &B,
    b_in_a: &Isometry2<T>,
    prediction: T,
    contact: impl FnOnce(&A, &B, &Isometry2<T>) -> Option<Contact<T>>,
    closest: impl FnOnce(&A, &B, &Isometry2<T>, T) -> ClosestPoints<T>,
) -> Option<Manifold<T>> {
    debug_assert_eq!(a.core_vertex_count(), 1, "A's core is one point");
    let c = contact(a, b, b_in_a);
    // Apart with no prediction: no manifold, and no closest points to find.
    if c.is_none() && prediction <= T::zero() {
        return None;
    }
    let e = exact(c, || closest(a, b, b_in_a, prediction))?;
    let b_feature = if b.core_vertex_count() == 1 {
        Feature::Vertex(0)
    } else {
        touching_feature(
            b,
            &b_in_a
                .rotation
                .inverse_transform_vector(&-e.normal.into_inner()),
        )
    };
    Some(single_point(
        &e,
        FeatureId {
            a: Feature::Vertex(0),
            b: b_feature,
        },
    ))
}

/// The one-point manifold of a point core (vertex 0 of A: a point, a
/// circle's centre) against B's touching feature `b`, from its normal,
/// witness points and separation: what the world-frame pairs of a circle
/// (`circle/*_world.rs`) build.
#[inline(always)]
pub(crate) fn vertex_manifold<T: Real>(
    normal: Unit<Vector2<T>>,
    point_a: Point2<T>,
    point_b: Point2<T>,
    separation: T,
    b: Feature,
) -> Manifold<T> {
    Manifold::new(
        normal,
        ManifoldPoint {
            point_a,
            point_b,
            separation,
            id: FeatureId {
                a: Feature::Vertex(0),
                b,
            },
        },
    )
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point2, UnitComplex, Vector2};
    use proptest::prelude::*;
    use shape::{Capsule, Circle, ConvexPolygon, Obb, Point, Triangle};

    use super::*;
    use crate::circle::*;
    use crate::manifold::polygonal::polygonal_manifold;
    use crate::point::*;
    use crate::sat::*;

    fn pose<T: Real>(x: f64, y: f64, angle: f64) -> Isometry2<T> {
        Isometry2::from_parts(
            nalgebra::Translation2::new(T::lit(x), T::lit(y)),
            UnitComplex::from_cos_sin_unchecked(T::lit(angle.cos()), T::lit(angle.sin())),
        )
    }

    /// The one-point path and the general builder (its independent
    /// reference: face search, then the early returns) give the same
    /// manifold, bit for bit, for a circle or a point against every kind
    /// of core, touching, apart within the prediction, and apart beyond it.
    fn agrees<T: Real>(r: f64, (x, y, angle): (f64, f64, f64), prediction: f64) {
        let m = pose::<T>(x, y, angle);
        let p = T::lit(prediction);
        let circle = Circle::new(T::lit(r)).unwrap();
        let point = Point::<T>::origin();
        let pt = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let obb = Obb::new(Vector2::new(T::lit(0.8), T::lit(0.3))).unwrap();
        let triangle = Triangle::new(pt(-0.7, -0.4), pt(0.9, -0.2), pt(0.1, 0.8)).unwrap();
        let polygon = ConvexPolygon::new(&[
            pt(0.6, 0.0),
            pt(0.3, 0.5),
            pt(-0.3, 0.5),
            pt(-0.6, 0.0),
            pt(-0.3, -0.5),
            pt(0.3, -0.5),
        ])
        .unwrap();
        let capsule = Capsule::new(pt(0.0, -0.6), pt(0.0, 0.6), T::lit(0.25)).unwrap();
        macro_rules! check {
            ($a:expr, $b:expr, $contact:ident, $closest:ident) => {
                assert_eq!(
                    point_core_manifold($a, $b, &m, p, $contact, $closest),
                    polygonal_manifold($a, $b, &m, p, $contact, $closest),
                    "{} at {:?}, prediction {prediction}",
                    stringify!($contact),
                    (x, y, angle),
                );
            };
        }
        check!(
            &circle,
            &circle,
            circle_circle_contact,
            circle_circle_closest_points
        );
        check!(&circle, &obb, circle_obb_contact, circle_obb_closest_points);
        check!(
            &circle,
            &triangle,
            circle_triangle_contact,
            circle_triangle_closest_points
        );
        check!(
            &circle,
            &polygon,
            circle_polygon_contact,
            circle_polygon_closest_points
        );
        check!(
            &circle,
            &capsule,
            circle_capsule_contact,
            circle_capsule_closest_points
        );
        check!(&point, &obb, point_obb_contact, point_obb_closest_points);
        check!(
            &point,
            &polygon,
            point_polygon_contact,
            point_polygon_closest_points
        );
        check!(
            &point,
            &capsule,
            point_capsule_contact,
            point_capsule_closest_points
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(shape::testing::cases(256)))]

        #[test]
        fn agrees_with_the_general_builder(
            r in 0.1f64..1.5,
            x in -2.5f64..2.5,
            y in -2.5f64..2.5,
            angle in -3.2f64..3.2,
            prediction in prop_oneof![Just(0.0), 0.0f64..1.0],
        ) {
            agrees::<f32>(r, (x, y, angle), prediction);
            agrees::<f64>(r, (x, y, angle), prediction);
        }
    }

    /// Flat cases the random poses rarely hit: a circle resting on a box's
    /// face and on a capsule's side, exactly and a hair apart.
    #[test]
    fn flat_contacts_agree() {
        for (x, y) in [
            (0.0, 1.3),
            (0.0, 0.3),
            (1.05, 0.0),
            (0.25, 0.0),
            (0.0, -0.31),
        ] {
            for prediction in [0.0, 0.1] {
                agrees::<f32>(1.0, (x, y, 0.0), prediction);
                agrees::<f64>(1.0, (x, y, 0.0), prediction);
            }
        }
    }
}
