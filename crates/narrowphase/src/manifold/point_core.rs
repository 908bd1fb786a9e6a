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

use nalgebra::Isometry2;
use shape::Real;

use super::polygonal::{exact, single_point, touching_feature};
use super::{Feature, FeatureId, Manifold};
use crate::polygonal::Polygonal;
use crate::{ClosestPoints, Contact};

/// The manifold of `a` (whose core is one point) and `b` placed by `b_in_a`,
/// in A's frame, within `prediction`, from the pair's exact `contact` and
/// `closest` kernels; `None` when farther apart than `prediction`.
#[inline]
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
