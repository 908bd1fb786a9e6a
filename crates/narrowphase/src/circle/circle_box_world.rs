//! Circle against box (oriented or axis-aligned) from the world poses: the
//! circle's centre goes straight into the box's frame, the steps of
//! [`circle_box`](super::circle_box) run there (the same functions:
//! `clamp`, `touch_in_box`, `apart_in_box`), and the answer comes back with
//! the box's rotation only.
//!
//! **Why.** Through the table a circle is the pair's first shape, so the
//! kernels work in the circle's frame: the relative pose `A⁻¹B` (a rotation
//! composed and a translation turned), then the centre taken back into the
//! box's frame by that pose, and the answer turned into the world by the
//! circle's rotation, which a circle does not have. Here the centre's offset
//! `c_A − c_B` is turned once into the box's frame (not at all for an
//! axis-aligned box) and the normal once out of it.
//!
//! **Symmetry.** The two kinds differ, so the order is the kinds' (circle
//! first) and the reversed call is the flipped answer, as for every pair of
//! two kinds: nothing here depends on the order.
//!
//! **Where it hands over** (`None`, the table's general path answers): a
//! pose number beyond `√MAX / 4` in magnitude, NaN or infinite (the typed
//! error comes from there).

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::{Aabb, Circle, Obb, Real};

use super::circle_box::{BoxTouch, apart_in_box, clamp, touch_in_box};
use super::circle_circle_world::offset;
use crate::manifold::Manifold;
use crate::manifold::point_core::vertex_manifold;
use crate::manifold::polygonal::touching_feature;
use crate::polygonal::Polygonal;
use crate::{ClosestPoints, Contact};

/// A box as the circle's partner: its half extents, and its frame in the
/// world (where its centre is, how it turns).
pub(crate) trait PlacedBox<T: Real>: Polygonal<T> {
    /// The half extents.
    fn half(&self) -> Vector2<T>;
    /// `w = c_A − t_B` (the circle's centre less the box pose's
    /// translation) in the box's frame, relative to the box's centre.
    fn to_box(&self, pose: &Isometry2<T>, w: Vector2<T>) -> Vector2<T>;
    /// A direction of the box's frame in the world.
    fn turn_out(&self, pose: &Isometry2<T>, v: Vector2<T>) -> Vector2<T>;
    /// A point `k` of the box's frame (relative to its centre) in the world.
    fn point_out(&self, pose: &Isometry2<T>, k: Vector2<T>) -> Point2<T>;
}

impl<T: Real> PlacedBox<T> for Obb<T> {
    #[inline(always)]
    fn half(&self) -> Vector2<T> {
        self.half_extents()
    }
    #[inline(always)]
    fn to_box(&self, pose: &Isometry2<T>, w: Vector2<T>) -> Vector2<T> {
        pose.rotation.inverse_transform_vector(&w)
    }
    #[inline(always)]
    fn turn_out(&self, pose: &Isometry2<T>, v: Vector2<T>) -> Vector2<T> {
        pose.rotation * v
    }
    #[inline(always)]
    fn point_out(&self, pose: &Isometry2<T>, k: Vector2<T>) -> Point2<T> {
        pose * Point2::from(k)
    }
}

/// An axis-aligned box ignores its pose's rotation (`Aabb`'s contract).
impl<T: Real> PlacedBox<T> for Aabb<T> {
    #[inline(always)]
    fn half(&self) -> Vector2<T> {
        self.half_extents()
    }
    #[inline(always)]
    fn to_box(&self, _: &Isometry2<T>, w: Vector2<T>) -> Vector2<T> {
        w - self.center().coords
    }
    #[inline(always)]
    fn turn_out(&self, _: &Isometry2<T>, v: Vector2<T>) -> Vector2<T> {
        v
    }
    #[inline(always)]
    fn point_out(&self, pose: &Isometry2<T>, k: Vector2<T>) -> Point2<T> {
        Point2::from(pose.translation.vector + (self.center().coords + k))
    }
}

/// The circle's centre in the box's frame (relative to the box's centre),
/// when every pose number is in range.
#[inline(always)]
fn centre_in_box<T: Real, B: PlacedBox<T>>(
    pose_a: &Isometry2<T>,
    b: &B,
    pose_b: &Isometry2<T>,
) -> Option<Vector2<T>> {
    // `offset` is `t_B − t_A`: its negation is exact.
    Some(b.to_box(pose_b, -offset(pose_a, pose_b)?))
}

/// Whether the disk and the box intersect (closed).
#[inline(always)]
pub(crate) fn intersects<T: Real, B: PlacedBox<T>>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &B,
    pose_b: &Isometry2<T>,
) -> Option<bool> {
    let q = centre_in_box(pose_a, b, pose_b)?;
    let r = a.radius();
    Some((q - clamp(&q, &b.half())).norm_squared() <= r * r)
}

/// The contact in the world from the box-frame touch `t`.
#[inline(always)]
fn placed_contact<T: Real, B: PlacedBox<T>>(
    r: T,
    pose_a: &Isometry2<T>,
    b: &B,
    pose_b: &Isometry2<T>,
    t: &BoxTouch<T>,
) -> Contact<T> {
    let n = b.turn_out(pose_b, t.n);
    let c = pose_a.translation.vector;
    let point_b = if t.inside {
        Point2::from(c + n * t.signed)
    } else {
        b.point_out(pose_b, t.k)
    };
    Contact {
        normal: Unit::new_unchecked(n),
        // `|d|` may exceed `r` by an ulp where `d2 ≤ r²` held: clamp.
        depth: Float::max(r - t.signed, T::zero()),
        point_a: Point2::from(c + n * r),
        point_b,
    }
}

/// The contact in the world frame.
#[inline(always)]
pub(crate) fn contact<T: Real, B: PlacedBox<T>>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &B,
    pose_b: &Isometry2<T>,
) -> Option<Option<Contact<T>>> {
    let q = centre_in_box(pose_a, b, pose_b)?;
    let r = a.radius();
    Some(touch_in_box(r, &b.half(), &q).map(|t| placed_contact(r, pose_a, b, pose_b, &t)))
}

/// The closest points of a circle apart from the box, in the world, with
/// the box-frame direction from the centre to the box.
#[inline(always)]
fn placed_apart<T: Real, B: PlacedBox<T>>(
    r: T,
    pose_a: &Isometry2<T>,
    b: &B,
    pose_b: &Isometry2<T>,
    q: &Vector2<T>,
    max_distance: T,
) -> (ClosestPoints<T>, Vector2<T>) {
    let (u, d, k) = apart_in_box(&b.half(), q);
    let n = b.turn_out(pose_b, u);
    let answer = ClosestPoints::apart(
        Point2::from(pose_a.translation.vector + n * r),
        b.point_out(pose_b, k),
        Unit::new_unchecked(n),
        d - r,
        max_distance,
    );
    (answer, u)
}

/// The closest points in the world frame within `max_distance`:
/// `Intersecting` exactly when [`intersects`] says so.
#[inline(always)]
pub(crate) fn closest_points<T: Real, B: PlacedBox<T>>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &B,
    pose_b: &Isometry2<T>,
    max_distance: T,
) -> Option<ClosestPoints<T>> {
    let q = centre_in_box(pose_a, b, pose_b)?;
    let r = a.radius();
    if (q - clamp(&q, &b.half())).norm_squared() <= r * r {
        return Some(ClosestPoints::Intersecting);
    }
    Some(placed_apart(r, pose_a, b, pose_b, &q, max_distance).0)
}

/// The manifold in the world frame within `prediction`: one point, the
/// contact's or (apart, with a positive prediction) the closest points',
/// with the features `manifold::point_core` gives (vertex 0 of the circle,
/// the box's feature touching along the normal).
#[inline(always)]
pub(crate) fn manifold<T: Real, B: PlacedBox<T>>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &B,
    pose_b: &Isometry2<T>,
    prediction: T,
) -> Option<Option<Manifold<T>>> {
    let q = centre_in_box(pose_a, b, pose_b)?;
    let r = a.radius();
    let one = |n_box: Vector2<T>, normal, point_a, point_b, separation| {
        vertex_manifold(
            normal,
            point_a,
            point_b,
            separation,
            touching_feature(b, &-n_box),
        )
    };
    if let Some(t) = touch_in_box(r, &b.half(), &q) {
        let c = placed_contact(r, pose_a, b, pose_b, &t);
        return Some(Some(one(t.n, c.normal, c.point_a, c.point_b, -c.depth)));
    }
    if prediction <= T::zero() {
        return Some(None);
    }
    Some(match placed_apart(r, pose_a, b, pose_b, &q, prediction) {
        (
            ClosestPoints::WithinMargin {
                point_a,
                point_b,
                normal,
                distance,
            },
            u,
        ) => Some(one(u, normal, point_a, point_b, distance)),
        _ => None,
    })
}
