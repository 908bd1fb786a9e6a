//! Regression tests, each named after the bug it pins.

use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::circle::circle_obb_contact;
use num_traits::Float;
use shape::prelude::*;

/// A circle whose centre is inside a box had the box's contact point placed on
/// the far side of the centre instead of on the nearest face.
fn circle_centre_inside_box_contact_point_on_the_face<T: Real>() {
    let c = Circle::new(T::half()).unwrap();
    let b = Obb::new(Vector2::new(T::two(), T::one())).unwrap();
    // The box sits at the origin; in the circle's frame it is at (-1.5, 0).
    let contact =
        circle_obb_contact(&c, &b, &Isometry2::translation(T::lit(-1.5), T::zero())).unwrap();
    let tol = T::lit(1e-5);
    assert!(
        (contact.normal.into_inner() + Vector2::x()).norm() < tol,
        "{contact:?}"
    );
    assert!(Float::abs(contact.depth - T::one()) < tol);
    assert!((contact.point_a - Point2::new(-T::half(), T::zero())).norm() < tol);
    // The box's +x face is at x = 2 in the box frame, 0.5 in the circle's.
    assert!(
        (contact.point_b - Point2::new(T::half(), T::zero())).norm() < tol,
        "{contact:?}"
    );
    assert!(
        Float::abs((contact.point_a - contact.point_b).dot(&contact.normal) - contact.depth) < tol
    );
}
shape::for_each_precision!(
    circle_inside_box,
    circle_centre_inside_box_contact_point_on_the_face
);
