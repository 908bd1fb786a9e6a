//! Circle against a triangle or a small convex polygon (at most
//! `SCAN_UP_TO` vertices) from the world poses: the circle's centre goes
//! straight into the polygon's frame, the steps of
//! [`circle_polygon`](super::circle_polygon) for a small core run there (the
//! same functions: `circle_small_polygon_decide`, `nearest_by_scan`, seed
//! 001's test), and the answer comes back with the polygon's pose only.
//!
//! **Why.** Through the table a circle is the pair's first shape, so the
//! kernels work in the circle's frame: the relative pose `A⁻¹B` (a rotation
//! composed and a translation turned), then the centre taken back into the
//! polygon's frame by that pose, and the answer turned into the world by
//! the circle's rotation, which a circle does not have. Here the centre's
//! offset `c_A − t_B` is turned once into the polygon's frame and the
//! answer's normal and point once out of it: about a third of the query in
//! the table's general path (the same change as `circle_box_world.rs`).
//!
//! **One set of numbers for every query.** The boolean test, the contact,
//! the closest points, the distance and the manifold of these pairs all
//! come from here, from the same centre `c`: touching is decided by the same
//! numbers whichever query asks (the closest points are `Intersecting`
//! exactly when the boolean is `true`, the contact `Some` exactly then). The
//! shape cast keeps the general path (its sweep works in the circle's
//! frame and never asks these functions).
//!
//! **Symmetry.** The two kinds differ, so the order is the kinds' (circle
//! first) and the reversed call is the flipped answer, as for every pair of
//! two kinds: nothing here depends on the order.
//!
//! **Where it hands over** (`None`, the table's general path answers): a
//! pose number beyond `√MAX / 4` in magnitude, NaN or infinite (the typed
//! error comes from there), and a polygon of more than `SCAN_UP_TO`
//! vertices (the core kernel's one-sided pass, `circle_polygon.rs`).

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use shape::{Circle, ConvexPolygon, Real, Triangle};

use super::circle_circle_world::offset;
use super::circle_polygon::{
    Decided, Nearest, circle_core_polygon_at, circle_small_polygon_decide, small_polygon_touch,
};
use crate::manifold::Manifold;
use crate::manifold::point_core::vertex_manifold;
use crate::manifold::polygonal::touching_feature;
use crate::polygonal::Polygonal;
use crate::sat::linear::SCAN_UP_TO;
use crate::{ClosestPoints, Contact};

/// A convex core these functions answer for: a triangle, or a convex
/// polygon when it is small.
pub(crate) trait SmallPolygon<T: Real>: Polygonal<T> {
    /// Whether the core is small enough for the scans here (a polygon of
    /// at most `SCAN_UP_TO` vertices).
    fn is_small(&self) -> bool;
}

impl<T: Real> SmallPolygon<T> for Triangle<T> {
    #[inline(always)]
    fn is_small(&self) -> bool {
        true
    }
}

impl<T: Real> SmallPolygon<T> for ConvexPolygon<T> {
    #[inline(always)]
    fn is_small(&self) -> bool {
        self.len() <= SCAN_UP_TO
    }
}

/// The circle's centre in the polygon's frame; `None` out of range or for
/// a big polygon.
#[inline(always)]
fn centre_in<T: Real, P: SmallPolygon<T>>(
    b: &P,
    pose_a: &Isometry2<T>,
    pose_b: &Isometry2<T>,
) -> Option<Point2<T>> {
    if !b.is_small() {
        return None;
    }
    // `offset` is `t_B − t_A`: its negation is exact.
    Some(Point2::from(
        pose_b
            .rotation
            .inverse_transform_vector(&-offset(pose_a, pose_b)?),
    ))
}

/// Whether the disk and the polygon intersect (closed).
#[inline(always)]
pub(crate) fn intersects<T: Real, P: SmallPolygon<T>>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &P,
    pose_b: &Isometry2<T>,
) -> Option<bool> {
    let c = centre_in(b, pose_a, pose_b)?;
    Some(circle_core_polygon_at(a.radius(), b, c))
}

/// The contact in the world of a circle of radius `r` centred at `c` (the
/// polygon's frame) that the decision found intersecting, with its normal
/// in the polygon's frame.
#[inline(always)]
fn placed_contact<T: Real, P: SmallPolygon<T>>(
    r: T,
    pose_a: &Isometry2<T>,
    b: &P,
    pose_b: &Isometry2<T>,
    c: &Point2<T>,
    decided: ((usize, T), Option<Nearest<T>>),
) -> (Contact<T>, Vector2<T>) {
    let t = small_polygon_touch(r, b, c, decided);
    let n = pose_b.rotation * t.normal;
    let contact = Contact {
        normal: Unit::new_unchecked(n),
        depth: t.depth,
        point_a: Point2::from(pose_a.translation.vector + n * r),
        point_b: pose_b * t.q,
    };
    (contact, t.normal)
}

/// The closest points in the world of a circle of radius `r` apart from
/// the polygon, `near` being the polygon's point nearest its centre.
#[inline(always)]
fn placed_apart<T: Real>(
    r: T,
    pose_a: &Isometry2<T>,
    pose_b: &Isometry2<T>,
    near: &Nearest<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    let n = pose_b.rotation * near.direction;
    ClosestPoints::apart(
        Point2::from(pose_a.translation.vector + n * r),
        pose_b * near.q,
        Unit::new_unchecked(n),
        near.distance - r,
        max_distance,
    )
}

/// The contact in the world frame.
#[inline(always)]
pub(crate) fn contact<T: Real, P: SmallPolygon<T>>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &P,
    pose_b: &Isometry2<T>,
) -> Option<Option<Contact<T>>> {
    let c = centre_in(b, pose_a, pose_b)?;
    let r = a.radius();
    Some(match circle_small_polygon_decide(r, b, &c) {
        Decided::Intersecting { face, nearest } => {
            Some(placed_contact(r, pose_a, b, pose_b, &c, (face, nearest)).0)
        }
        Decided::Apart(_) => None,
    })
}

/// The closest points in the world frame within `max_distance`:
/// `Intersecting` exactly when [`intersects`] says so.
#[inline(always)]
pub(crate) fn closest_points<T: Real, P: SmallPolygon<T>>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &P,
    pose_b: &Isometry2<T>,
    max_distance: T,
) -> Option<ClosestPoints<T>> {
    let c = centre_in(b, pose_a, pose_b)?;
    let r = a.radius();
    Some(match circle_small_polygon_decide(r, b, &c) {
        Decided::Intersecting { .. } => ClosestPoints::Intersecting,
        Decided::Apart(near) => placed_apart(r, pose_a, pose_b, &near, max_distance),
    })
}

/// The manifold in the world frame within `prediction`: one point, the
/// contact's or (apart, with a positive prediction) the closest points',
/// with the features `manifold::point_core` gives (vertex 0 of the circle,
/// the polygon's feature touching along the normal, found from the
/// normal in the polygon's frame).
#[inline(always)]
pub(crate) fn manifold<T: Real, P: SmallPolygon<T>>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &P,
    pose_b: &Isometry2<T>,
    prediction: T,
) -> Option<Option<Manifold<T>>> {
    let c = centre_in(b, pose_a, pose_b)?;
    let r = a.radius();
    let one = |local: Vector2<T>, normal, point_a, point_b, separation| {
        vertex_manifold(
            normal,
            point_a,
            point_b,
            separation,
            touching_feature(b, &-local),
        )
    };
    Some(match circle_small_polygon_decide(r, b, &c) {
        Decided::Intersecting { face, nearest } => {
            let (k, local) = placed_contact(r, pose_a, b, pose_b, &c, (face, nearest));
            Some(one(local, k.normal, k.point_a, k.point_b, -k.depth))
        }
        Decided::Apart(_) if prediction <= T::zero() => None,
        Decided::Apart(near) => match placed_apart(r, pose_a, pose_b, &near, prediction) {
            ClosestPoints::WithinMargin {
                point_a,
                point_b,
                normal,
                distance,
            } => Some(one(near.direction, normal, point_a, point_b, distance)),
            ClosestPoints::Intersecting | ClosestPoints::Farther => None,
        },
    })
}
