//! Circle against circle in the world frame: every pair query of two circles
//! straight from the world poses, without the relative pose, the canonical
//! order or the answer's mapping back to the world that the table's other
//! pairs pay (`table::builtin_in_order`).
//!
//! **What it computes.** With `w = c_B − c_A` (the centres' offset in the
//! world) and `r = r_A + r_B`: they intersect when `|w|² ≤ r²` (the same
//! comparison as [`circle_circle`](super::circle_circle), so touching counts);
//! the contact and the closest points lie on the centres' line, normal
//! `n = w / |w|`, depth `r − |w|`; a shape cast solves `|w + u t| = r` for
//! the relative velocity `u = v_B − v_A` (a quadratic in a form free of
//! cancellation, `first_touch`); the manifold is the one point of the contact or of the
//! closest points within the prediction, with both features vertex 0 (as
//! `manifold::point_core` builds it).
//!
//! **Why it is symmetric without an order.** A rotation does not change a
//! circle, so nothing depends on the poses' rotations, and swapping the two
//! circles negates `w` and `u` exactly (a difference of two different numbers
//! changes sign exactly when they are swapped; equal ones give `+0` either
//! way, the last hand-over below). Every quantity is then either even in
//! `(w, u)` (`|w|²`, `w·u`, `|u|²`, the length, the time) or odd (the normal,
//! computed componentwise from `w` or `w + u t`), and each witness point is
//! written `centre ± n·radius` with the same operations for either circle: so
//! `query(b, a)` is `query(a, b)` flipped bit for bit, which the table gets
//! for the other pairs from the canonical order.
//!
//! **Where it hands over.** Each function answers `None` when it cannot
//! answer in this form, and the table then takes the general path, which
//! reports the typed errors and owns the documented fallbacks: a pose number
//! beyond `√MAX / 4` in magnitude (or NaN or infinite; in range, `|w|²`
//! cannot overflow), a relative velocity out of that range, coincident
//! centres where a direction is needed (the contact's `+x` of A's frame
//! fallback depends on A's rotation and on the order), and a normal with a
//! zero coordinate (the sign of that zero would not follow the order; the
//! general path's canonical order makes it exact).

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::{Circle, Real};

use crate::cast::advance::initial_touch;
use crate::cast::{ShapeCastArgs, ShapeCastHit, ShapeCastStatus};
use crate::manifold::point_core::vertex_manifold;
use crate::manifold::{Feature, Manifold};
use crate::polygonal::length_and_direction;
use crate::{ClosestPoints, Contact};

/// Whether `x` is at most `√MAX / 4` in magnitude (NaN is not).
#[inline(always)]
fn in_range<T: Real>(x: T) -> bool {
    // A constant: LLVM folds the square root of the constant.
    let limit = Float::sqrt(<T as Float>::max_value()) * T::lit(0.25);
    Float::abs(x) <= limit
}

/// `c_B − c_A` when every number of both poses is in range (`&` rather than
/// `&&`: no branch per number).
#[inline(always)]
pub(crate) fn offset<T: Real>(pose_a: &Isometry2<T>, pose_b: &Isometry2<T>) -> Option<Vector2<T>> {
    let numbers = |p: &Isometry2<T>| {
        in_range(p.translation.vector.x)
            & in_range(p.translation.vector.y)
            & in_range(p.rotation.re)
            & in_range(p.rotation.im)
    };
    (numbers(pose_a) & numbers(pose_b))
        .then(|| pose_b.translation.vector - pose_a.translation.vector)
}

/// The length and direction of `w` whose squared length is `w2`: the root
/// of a normal square (exact to rounding: in range nothing overflowed, and a
/// square that underflowed is below `ε |w|²`), else from the scaled vector.
///
/// `None` (hand over) when a coordinate of `w` is zero: a difference of
/// equal numbers is `+0` in either order, so that coordinate of the normal
/// would not change sign with the order, and the answer would be symmetric
/// only up to the sign of a zero.
#[inline(always)]
fn length_and_normal<T: Real>(w: Vector2<T>, w2: T) -> Option<(T, Vector2<T>)> {
    if (w.x == T::zero()) | (w.y == T::zero()) {
        return None;
    }
    if w2 >= T::min_positive_value() {
        let len = Float::sqrt(w2);
        Some((len, w / len))
    } else {
        length_and_direction(w)
    }
}

/// The first time `t ≥ 0` at which `|w + u t| = r`, for `w` outside the
/// disk (`|w| > r`); `None` when the line misses it or moves away.
///
/// [`circle_toi`](crate::cast::rounded::circle_toi)'s root in 2D, with
/// two square roots and one division instead of four and two: the line's
/// miss distance times `|u|` is the cross product `|w × u|` (Lagrange's
/// identity `|w|²|u|² − (w·u)² = (w × u)²`), so the discriminant
/// `|u|² r² − (w × u)²` factors as `(|u| r − |w × u|)(|u| r + |w × u|)`
/// without cancellation, and `t = (|w|² − r²) / (−w·u + √disc)` is the
/// smaller root in the form free of cancellation (Goldberg 1991). Both
/// `|w|² − r²` and the cross product lose at most `ε|w|²` and `ε|w||u|`
/// in absolute terms, as the generic form's `(|w| − r)(|w| + r)` and
/// `|w − u (w·u)/|u|²|` do: the same accuracy.
#[inline(always)]
fn first_touch<T: Real>(w: &Vector2<T>, u: &Vector2<T>, r: T) -> Option<T> {
    let b = w.dot(u);
    if b >= T::zero() {
        // Moving away, or no motion (`w` and `u` are finite: no NaN).
        return None;
    }
    let su = Float::sqrt(u.norm_squared());
    let cross = Float::abs(w.x * u.y - w.y * u.x);
    let reach = su * r;
    if cross > reach {
        return None;
    }
    let root = Float::sqrt((reach - cross) * (reach + cross));
    Some(Float::max(
        (w.norm_squared() - r * r) / (root - b),
        T::zero(),
    ))
}

/// Whether the two disks intersect (closed).
#[inline(always)]
pub(crate) fn intersects<T: Real>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &Circle<T>,
    pose_b: &Isometry2<T>,
) -> Option<bool> {
    let w = offset(pose_a, pose_b)?;
    let r = a.radius() + b.radius();
    Some(w.norm_squared() <= r * r)
}

/// The contact in the world frame; `None` to hand over (out of range, or
/// coincident centres).
#[inline(always)]
pub(crate) fn contact<T: Real>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &Circle<T>,
    pose_b: &Isometry2<T>,
) -> Option<Option<Contact<T>>> {
    let w = offset(pose_a, pose_b)?;
    let r = a.radius() + b.radius();
    let w2 = w.norm_squared();
    if w2 > r * r {
        return Some(None);
    }
    let (len, n) = length_and_normal(w, w2)?;
    Some(Some(Contact {
        normal: Unit::new_unchecked(n),
        depth: Float::max(r - len, T::zero()),
        point_a: Point2::from(pose_a.translation.vector + n * a.radius()),
        point_b: Point2::from(pose_b.translation.vector - n * b.radius()),
    }))
}

/// The closest points in the world frame within `max_distance`.
#[inline(always)]
pub(crate) fn closest_points<T: Real>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &Circle<T>,
    pose_b: &Isometry2<T>,
    max_distance: T,
) -> Option<ClosestPoints<T>> {
    let w = offset(pose_a, pose_b)?;
    let r = a.radius() + b.radius();
    let w2 = w.norm_squared();
    if w2 <= r * r {
        return Some(ClosestPoints::Intersecting);
    }
    // Apart: `w` is not zero.
    let (len, n) = length_and_normal(w, w2)?;
    Some(ClosestPoints::apart(
        Point2::from(pose_a.translation.vector + n * a.radius()),
        Point2::from(pose_b.translation.vector - n * b.radius()),
        Unit::new_unchecked(n),
        len - r,
        max_distance,
    ))
}

/// The distance in the world frame: [`closest_points`]'s distance for
/// `max_distance = +∞`, bit for bit (0 when they meet, else
/// `max(|w| − r, smallest positive)`), with no branch on whether they meet:
/// random pairs are about as often apart as not, and that branch was
/// mispredicted on about four calls in ten (callgrind's branch simulation:
/// 0.42 per call, parry's branch-free distance none). The rare inputs where
/// [`closest_points`] leaves the common formula (apart with a zero
/// coordinate of `w`, or `|w|²` below the smallest normal number) take its
/// own path.
#[inline(always)]
pub(crate) fn distance<T: Real>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &Circle<T>,
    pose_b: &Isometry2<T>,
) -> Option<T> {
    let w = offset(pose_a, pose_b)?;
    let r = a.radius() + b.radius();
    let w2 = w.norm_squared();
    let plain = (w.x != T::zero()) & (w.y != T::zero()) & (w2 >= T::min_positive_value());
    if !plain {
        return closest_points(a, pose_a, b, pose_b, T::infinity())
            .map(|c| c.distance().unwrap_or_else(T::infinity));
    }
    // Meeting (`|w|² ≤ r²`, so `|w| ≤ r`: the square root is monotonic and
    // `√fl(r²) = r` in range), `|w| − r ≤ 0` gives way to the floor 0;
    // apart, the floor is the smallest positive number, as in
    // `ClosestPoints::apart`. A select between two constants, not a branch.
    let floor = if w2 > r * r {
        T::min_positive_value()
    } else {
        T::zero()
    };
    Some(Float::max(Float::sqrt(w2) - r, floor))
}

/// The manifold in the world frame within `prediction`: one point, from the
/// contact or (apart, with a positive prediction) the closest points.
#[inline(always)]
pub(crate) fn manifold<T: Real>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &Circle<T>,
    pose_b: &Isometry2<T>,
    prediction: T,
) -> Option<Option<Manifold<T>>> {
    let point = |normal, point_a, point_b, separation| {
        vertex_manifold(normal, point_a, point_b, separation, Feature::Vertex(0))
    };
    if let Some(c) = contact(a, pose_a, b, pose_b)? {
        return Some(Some(point(c.normal, c.point_a, c.point_b, -c.depth)));
    }
    if prediction <= T::zero() {
        return Some(None);
    }
    Some(match closest_points(a, pose_a, b, pose_b, prediction)? {
        ClosestPoints::WithinMargin {
            point_a,
            point_b,
            normal,
            distance,
        } => Some(point(normal, point_a, point_b, distance)),
        ClosestPoints::Intersecting | ClosestPoints::Farther => None,
    })
}

/// The shape cast in the world frame: the first time in `[0, max_toi]` at
/// which the circles moving at their velocities touch, with the witness
/// points at that time.
#[inline(always)]
pub(crate) fn cast<T: Real>(
    a: &Circle<T>,
    pose_a: &Isometry2<T>,
    b: &Circle<T>,
    pose_b: &Isometry2<T>,
    args: &ShapeCastArgs<T>,
) -> Option<Option<ShapeCastHit<T>>> {
    let w = offset(pose_a, pose_b)?;
    let u = args.vel_b - args.vel_a;
    if !(in_range(u.x) & in_range(u.y)) {
        return None;
    }
    let r = a.radius() + b.radius();
    if w.norm_squared() <= r * r {
        // Touching at time 0: the contact's normal and points.
        let c = contact(a, pose_a, b, pose_b)??;
        return Some(initial_touch(
            Some((c.normal, c.point_a, c.point_b)),
            &u,
            args.options,
        ));
    }
    let Some(t) = first_touch(&w, &u, r) else {
        return Some(None);
    };
    if t > args.max_toi {
        return Some(None);
    }
    // At the time of impact `|d| ≈ r`: not zero, and its square is normal
    // unless the radii are (the scaled length then).
    let d = w + u * t;
    let (_, n) = length_and_normal(d, d.norm_squared())?;
    Some(Some(ShapeCastHit {
        toi: t,
        normal: Unit::new_unchecked(n),
        point_a: Point2::from(pose_a.translation.vector + args.vel_a * t + n * a.radius()),
        point_b: Point2::from(pose_b.translation.vector + args.vel_b * t - n * b.radius()),
        status: ShapeCastStatus::Hit,
    }))
}
