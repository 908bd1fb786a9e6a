//! Pair queries against composite shapes (compounds, chains, concave
//! polygons, tile maps: [`shape::dim2::composite`]).
//!
//! **What it computes.** A composite is the union of convex parts. Every
//! pair query the table serves is answered *piece by piece*: a piece is a
//! part of a composite, or a whole shape that is not one. For two shapes A
//! and B, the pieces of A whose bounding boxes can matter (they meet B's box,
//! grown by the query's reach) are paired with the pieces of B that can
//! matter for each of them, and the table's exact kernel answers each pair.
//! The answers combine as the union demands:
//!
//! | query | combined answer | ties |
//! |---|---|---|
//! | `intersects` | any pair intersects (stops at the first) | — |
//! | `contact` | the deepest contact | lowest part ids |
//! | `closest_points` | `Intersecting` if a pair is, else the nearest pair (each later pair is asked within the best distance so far) | lowest part ids |
//! | `distance` (internal) | the least distance of a pair, `0` at the first intersecting pair | — |
//! | `cast_shapes` | the earliest hit (each later pair is asked up to the best time so far) | lowest part ids |
//! | `contact_manifold` | the deepest part pair's manifold, with the points of the other pairs whose normal agrees merged in (two points kept: the deepest and the farthest from it along the surface) | lowest part ids |
//!
//! Why it is exact: `intersects` and the distance of a union are the `or`
//! and the minimum over its parts; the earliest time at which a moving shape
//! touches a union is the earliest over the parts. The boxes only skip pieces
//! that cannot change the answer: a piece whose box misses B's box (grown by
//! the maximum distance, the prediction, or the swept path) cannot touch B
//! within that reach.
//!
//! **Admissible normals.** A contact's normal and depth are not a property
//! of the union alone: a box sliding across the seam of two floor tiles
//! overlaps the second tile by a sliver, and that tile alone would push the
//! box back sideways through the face it shares with the first (the ghost
//! collision). Each part therefore says which outward normals the
//! composite's boundary has at it ([`Part::normals`]); a contact or
//! manifold normal that is not admissible is turned to the nearest
//! admissible direction `u`, and the depth is measured along `u` exactly
//! from the two support functions: `depth = u·s_A(u) − u·s_B(−u)`, the
//! overlap of the two shapes' extents along `u` (never negative for
//! intersecting convex sets, since every direction's extents overlap), with
//! `point_b = s_B(−u)` and `point_a` its projection on A's supporting line.
//! A shape-cast hit whose normal is turned counts only when the motion
//! drives the shapes together along `u` (a box sliding along a tiled floor
//! reaches the next tile's corner with its own bottom edge: along the
//! floor's normal it does not approach, so it is no hit). A one-sided part
//! ([`Part::front`]) takes no part in any query with a piece whose reference
//! point lies behind it.
//!
//! **Nearest first.** The distances (`closest_points`, `distance`) pick
//! parts with [`visit_parts_near`]: a part tree enters the nearer of two
//! subtrees first and skips the subtrees farther than the best distance
//! found so far, so a query asks the parts next to its answer, not every
//! part in reach.
//!
//! [`visit_parts_near`]: shape::dim2::composite::Composite::visit_parts_near
//!
//! The table calls this with the two shapes in its canonical order and
//! flips the answer back, so that `query(a, b)` and `query(b, a)` agree
//! exactly. References: the part-by-part traversal is parry's composite
//! shape queries; admissible normals follow the idea of Box2D's chain
//! shapes (ghost vertices), here for any part of any composite.

use core::cmp::Ordering;
use core::ops::ControlFlow;

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use shape::dim2::composite::Part;
use shape::{BoundingBox2, Real, Shape};

use crate::manifold::{Manifold, ManifoldPoint};
use crate::{ClosestPoints, Contact, DispatchError, ShapeCastArgs, ShapeCastHit, ShapeCastStatus};

/// The parts that gave a composite pair's answer: the part id of A and of B
/// (`None` for a shape that is not a composite, or for an answer no part
/// gave, such as "no contact").
///
/// ```
/// use narrowphase::composite::Parts;
/// let p = Parts { a: Some(3), b: None };
/// assert_eq!(p.flipped(), Parts { a: None, b: Some(3) });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Parts {
    /// The part of A.
    pub a: Option<u32>,
    /// The part of B.
    pub b: Option<u32>,
}

impl Parts {
    /// No part: the answer of a pair without composites.
    pub const NONE: Self = Self { a: None, b: None };

    /// The parts seen from B.
    #[must_use]
    pub const fn flipped(self) -> Self {
        Self {
            a: self.b,
            b: self.a,
        }
    }
}

/// A composite pair's answer with its parts, or the error of a piece; `None`
/// when neither shape is a composite.
pub(crate) type Found<R> = Option<Result<(R, Parts), DispatchError>>;

/// What [`piece_pairs`] calls with each pair of pieces.
type PairVisit<'f, T> = dyn FnMut(&Piece<'_, T>, &Piece<'_, T>) -> ControlFlow<()> + 'f;

/// The recursion the table hands in: the query for two pieces.
pub(crate) type Each<'e, T, A, R> = dyn FnMut(&dyn Shape<T>, &Isometry2<T>, &dyn Shape<T>, &Isometry2<T>, A) -> Result<R, DispatchError>
    + 'e;

/// One side of a pair of pieces: a part of a composite, or a whole shape.
#[derive(Clone, Copy)]
struct Piece<'s, T: Real> {
    shape: &'s dyn Shape<T>,
    /// The piece's pose in the world.
    pose: Isometry2<T>,
    /// The part, when the piece is one.
    part: Option<Part<'s, T>>,
    /// The composite's pose (the frame of the part's normals).
    owner: Isometry2<T>,
}

/// Two pieces' support points along a turned normal `u` (the first's along
/// `u`, the second's along `−u`), each when its piece has a support
/// function: found when the direction is chosen, used again to measure the
/// contact or manifold along it.
type Supports<T> = (Option<Point2<T>>, Option<Point2<T>>);

/// What the admissible normals make of a normal.
enum Turn<T: Real> {
    /// Admissible as it is.
    Keep,
    /// Turned to this direction `u` (from the first piece to the second),
    /// with the pieces' support points along it (the first's along `u`, the
    /// second's along `−u`), each when its piece has a support function.
    To(Unit<Vector2<T>>, Supports<T>),
    /// A piece admits no normal at all (an interior part).
    Lost,
}

impl<T: Real> Piece<'_, T> {
    fn id(&self) -> Option<u32> {
        self.part.map(|p| p.id)
    }

    /// Whether a piece whose reference point is `p` (world) meets this one
    /// at all (see [`Part::faces`]).
    fn faces(&self, p: &Point2<T>) -> bool {
        match &self.part {
            Some(part) if part.front.is_some() => {
                part.faces(&self.owner.inverse_transform_point(p))
            }
            _ => true,
        }
    }

    /// Whether the world direction `n` (out of this piece) is admissible.
    fn admits(&self, n: &Vector2<T>) -> bool {
        match &self.part {
            Some(part) if part.normals.is_some() => {
                part.admits(&self.owner.rotation.inverse_transform_vector(n))
            }
            _ => true,
        }
    }

    /// Calls `f` with the ends of the piece's arcs of admissible normals, in
    /// the world, in order (none when every normal is admissible). A plain
    /// loop: as an iterator chain (`flat_map` of two optional ends) it was
    /// about a third of the turn's instructions.
    #[inline]
    fn for_each_arc_end(&self, mut f: impl FnMut(Unit<Vector2<T>>)) {
        let Some(arcs) = self.part.and_then(|p| p.normals) else {
            return;
        };
        let r = self.owner.rotation;
        for a in arcs {
            f(Unit::new_unchecked(r.transform_vector(&a.from)));
            // A one-direction arc (a face) is one end, not two.
            if a.to != a.from {
                f(Unit::new_unchecked(r.transform_vector(&a.to)));
            }
        }
    }
}

/// The normal `n` (from `x` to `y`) after both pieces' admissible normals:
/// kept when both admit it; otherwise the admissible direction, among the
/// ends of the pieces' arcs, along which the pieces overlap least (the
/// separating-axis choice, restricted to the directions the composite's
/// boundary has there), ties going to the direction nearest `n`. `Lost` when
/// no direction is admissible for both.
fn turn<T: Real>(x: &Piece<'_, T>, y: &Piece<'_, T>, n: &Unit<Vector2<T>>) -> Turn<T> {
    if x.admits(n) && y.admits(&-n.into_inner()) {
        return Turn::Keep;
    }
    // (overlap, alignment with `n`, direction, supports) of the best so far.
    #[allow(clippy::type_complexity)] // one local, named field by field above
    let mut best: Option<(T, T, Unit<Vector2<T>>, Supports<T>)> = None;
    // The support functions, looked up once for all the candidates.
    let (cx, cy) = (x.shape.as_convex(), y.shape.as_convex());
    let mut consider = |u: Unit<Vector2<T>>| {
        let s = (
            cx.map(|c| c.support_point(&x.pose, &u)),
            cy.map(|c| c.support_point(&y.pose, &-u.into_inner())),
        );
        let d = match s {
            (Some(sx), Some(sy)) => u.dot(&(sx - sy)),
            _ => T::zero(),
        };
        let along = u.dot(n);
        let wins = match best {
            None => true,
            Some((bd, ba, _, _)) => d < bd || (d == bd && along > ba),
        };
        if wins {
            best = Some((d, along, u, s));
        }
    };
    // An arc's own end is admissible for its piece (not asked again: the
    // rotation back to the part's frame could round it off the arc).
    x.for_each_arc_end(|u| {
        if y.admits(&-u.into_inner()) {
            consider(u);
        }
    });
    y.for_each_arc_end(|u| {
        let u = -u;
        if x.admits(&u) {
            consider(u);
        }
    });
    // A piece without arcs admits everything: only the other's ends count.
    match best {
        Some((_, _, u, s)) => Turn::To(u, s),
        None => Turn::Lost,
    }
}

/// `b` (a world box) seen in the frame of `pose`: the box of its corners
/// mapped by `pose⁻¹`; `None` when a bound is not finite (the whole
/// composite is then in reach).
fn box_in_frame<T: Real>(b: &BoundingBox2<T>, pose: &Isometry2<T>) -> Option<BoundingBox2<T>> {
    let finite = |v: T| num_traits::Float::is_finite(v);
    if !(finite(b.min.x) && finite(b.min.y) && finite(b.max.x) && finite(b.max.y)) {
        return None;
    }
    let c = pose.inverse_transform_point(&nalgebra::center(&b.min, &b.max));
    Some(turned_box(c, (b.max - b.min) * half::<T>(), &pose.rotation))
}

fn half<T: Real>() -> T {
    T::from_f64(0.5).unwrap_or_else(T::one)
}

/// The box around a box of centre `c` and half extents `h` turned by `r`
/// (or by `r⁻¹`: the same extents), grown by a relative margin for the
/// rounding of the rotation, so that no piece that touches it is skipped.
fn turned_box<T: Real>(
    c: Point2<T>,
    h: Vector2<T>,
    r: &nalgebra::UnitComplex<T>,
) -> BoundingBox2<T> {
    let (cs, sn) = (num_traits::Float::abs(r.re), num_traits::Float::abs(r.im));
    let e = Vector2::new(cs * h.x + sn * h.y, sn * h.x + cs * h.y);
    let slack = (e.x + e.y + num_traits::Float::abs(c.x) + num_traits::Float::abs(c.y))
        * T::default_epsilon()
        * T::from_f64(8.0).unwrap_or_else(T::one);
    let e = e.add_scalar(slack);
    BoundingBox2::new(c - e, c + e)
}

/// Which parts of a composite a query asks for, given a world region.
#[derive(Clone, Copy)]
enum Pick<'b, T> {
    /// The parts whose boxes meet the region.
    Meeting,
    /// The parts whose boxes lie within `bound` of the region, the
    /// nearer subtrees first ([`visit_parts_near`](shape::dim2::composite::Composite::visit_parts_near)); the caller
    /// lowers the bound as it finds nearer pairs.
    Near(&'b core::cell::Cell<T>),
}

/// Calls `f` with every piece of `shape` (at `pose`) whose box can meet the
/// world region `region` (or lie near it, as `pick` says).
fn pieces<'s, T: Real>(
    shape: &'s dyn Shape<T>,
    pose: &Isometry2<T>,
    region: &BoundingBox2<T>,
    pick: Pick<'_, T>,
    f: &mut dyn FnMut(Piece<'_, T>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let Some(c) = shape.as_composite() else {
        return f(Piece {
            shape,
            pose: *pose,
            part: None,
            owner: *pose,
        });
    };
    // The pose the composite's geometry is placed with (a tile map, like an
    // axis-aligned box, keeps only the translation).
    let pose = &shape.effective_pose(pose);
    let bounds = c.local_bounds();
    let mut each = |part: Part<'_, T>| {
        f(Piece {
            shape: part.shape.as_shape(),
            pose: pose * part.pose,
            part: Some(part),
            owner: *pose,
        })
    };
    if let Pick::Near(bound) = pick {
        // The region seen in the composite's frame holds the world region,
        // so its distance to a part's box is never more than the world's.
        return match box_in_frame(region, pose) {
            Some(r) => c.visit_parts_near(&r, bound, &mut each),
            None => c.visit_parts(&bounds, &mut each),
        };
    }
    let local = match box_in_frame(region, pose) {
        Some(r) if !r.intersects(&bounds) => return ControlFlow::Continue(()),
        Some(r) => BoundingBox2::new(
            nalgebra::Point2::new(max(r.min.x, bounds.min.x), max(r.min.y, bounds.min.y)),
            nalgebra::Point2::new(min(r.max.x, bounds.max.x), min(r.max.y, bounds.max.y)),
        ),
        None => bounds,
    };
    c.visit_parts(&local, &mut each)
}

fn max<T: Real>(a: T, b: T) -> T {
    if a >= b { a } else { b }
}
fn min<T: Real>(a: T, b: T) -> T {
    if a <= b { a } else { b }
}

/// Which side's pieces a region is asked for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Of {
    A,
    B,
}

/// Calls `f` with every pair of pieces of A and B that can matter: the
/// pieces of A whose boxes meet `reach(B's box, Of::A)`, and for each, the
/// pieces of B whose boxes meet `reach(its box, Of::B)`; one-sided parts
/// skip the pieces behind them.
fn piece_pairs<T: Real>(
    (a, pose_a): (&dyn Shape<T>, &Isometry2<T>),
    (b, pose_b): (&dyn Shape<T>, &Isometry2<T>),
    reach: &dyn Fn(BoundingBox2<T>, Of) -> BoundingBox2<T>,
    pick: Pick<'_, T>,
    f: &mut PairVisit<'_, T>,
) {
    let b_is_composite = b.as_composite().is_some();
    // A shape that is not a composite is one piece whatever the region: B's
    // box (which a long chain pays for) is needed only to pick A's parts.
    let region_a = if a.as_composite().is_some() {
        reach(reach_box(b, pose_b), Of::A)
    } else {
        BoundingBox2::new(Point2::origin(), Point2::origin())
    };
    let _ = pieces(a, pose_a, &region_a, pick, &mut |pa| {
        let region_b = if b_is_composite {
            reach(pa.shape.bounding_box(&pa.pose), Of::B)
        } else {
            region_a // unused: B is one piece
        };
        pieces(b, pose_b, &region_b, pick, &mut |pb| {
            let (ra, rb) = (
                Point2::from(pa.pose.translation.vector),
                Point2::from(pb.pose.translation.vector),
            );
            if pa.faces(&rb) && pb.faces(&ra) {
                f(&pa, &pb)
            } else {
                ControlFlow::Continue(())
            }
        })
    });
}

/// A box around `shape` at `pose`, for picking parts: the shape's own box,
/// or for a composite its local bounds turned with the pose (a box that
/// holds it, in constant time, where its tight box would visit every part).
fn reach_box<T: Real>(shape: &dyn Shape<T>, pose: &Isometry2<T>) -> BoundingBox2<T> {
    let Some(c) = shape.as_composite() else {
        return shape.bounding_box(pose);
    };
    let pose = shape.effective_pose(pose);
    let local = c.local_bounds();
    let centre = pose * nalgebra::center(&local.min, &local.max);
    turned_box(
        centre,
        (local.max - local.min) * half::<T>(),
        &pose.rotation,
    )
}

fn is_composite<T: Real>(a: &dyn Shape<T>, b: &dyn Shape<T>) -> bool {
    a.as_composite().is_some() || b.as_composite().is_some()
}

fn ids<T: Real>(x: &Piece<'_, T>, y: &Piece<'_, T>) -> Parts {
    Parts {
        a: x.id(),
        b: y.id(),
    }
}

/// Whether `(key, parts)` beats the best so far: a smaller key, or the same
/// key and lower part ids.
fn better<K: PartialOrd>(key: K, parts: Parts, best: Option<(K, Parts)>) -> bool {
    match best {
        None => true,
        Some((k, p)) => match key.partial_cmp(&k) {
            Some(Ordering::Less) => true,
            Some(Ordering::Equal) => parts < p,
            _ => false,
        },
    }
}

/// `intersects` for a pair with a composite (see the module note).
pub(crate) fn intersects<T: Real>(
    (a, pose_a): (&dyn Shape<T>, &Isometry2<T>),
    (b, pose_b): (&dyn Shape<T>, &Isometry2<T>),
    each: &mut Each<'_, T, (), bool>,
) -> Found<bool> {
    if !is_composite(a, b) {
        return None;
    }
    let mut out = Ok((false, Parts::NONE));
    piece_pairs(
        (a, pose_a),
        (b, pose_b),
        &|bx, _| bx,
        Pick::Meeting,
        &mut |x, y| match each(x.shape, &x.pose, y.shape, &y.pose, ()) {
            Ok(false) => ControlFlow::Continue(()),
            Ok(true) => {
                out = Ok((true, ids(x, y)));
                ControlFlow::Break(())
            }
            Err(e) => {
                out = Err(e);
                ControlFlow::Break(())
            }
        },
    );
    Some(out)
}

/// A contact whose normal must be `u` (from the first piece to the
/// second): the depth along `u` from the pieces' support points; the
/// contact as it is when a piece has none.
fn contact_along<T: Real>(
    c: &Contact<T>,
    supports: Supports<T>,
    u: Unit<Vector2<T>>,
) -> Contact<T> {
    let (Some(sx), Some(sy)) = supports else {
        return *c;
    };
    let depth = max(u.dot(&(sx - sy)), T::zero());
    Contact {
        normal: u,
        depth,
        point_a: sy + u.into_inner() * depth,
        point_b: sy,
    }
}

/// `contact` for a pair with a composite: the deepest admissible contact
/// (the deepest contact of all when no intersecting pair admits a normal,
/// so that there is a contact exactly when the shapes intersect).
pub(crate) fn contact<T: Real>(
    (a, pose_a): (&dyn Shape<T>, &Isometry2<T>),
    (b, pose_b): (&dyn Shape<T>, &Isometry2<T>),
    each: &mut Each<'_, T, (), Option<Contact<T>>>,
) -> Found<Option<Contact<T>>> {
    if !is_composite(a, b) {
        return None;
    }
    let mut best: Option<(T, Parts, Contact<T>)> = None;
    let mut lost: Option<(T, Parts, Contact<T>)> = None;
    let mut error = None;
    piece_pairs(
        (a, pose_a),
        (b, pose_b),
        &|bx, _| bx,
        Pick::Meeting,
        &mut |x, y| {
            let c = match each(x.shape, &x.pose, y.shape, &y.pose, ()) {
                Ok(Some(c)) => c,
                Ok(None) => return ControlFlow::Continue(()),
                Err(e) => {
                    error = Some(e);
                    return ControlFlow::Break(());
                }
            };
            let (slot, c) = match turn(x, y, &c.normal) {
                Turn::Keep => (&mut best, c),
                Turn::To(u, s) => (&mut best, contact_along(&c, s, u)),
                Turn::Lost => (&mut lost, c),
            };
            let p = ids(x, y);
            if better(-c.depth, p, slot.map(|(d, q, _)| (-d, q))) {
                *slot = Some((c.depth, p, c));
            }
            ControlFlow::Continue(())
        },
    );
    if let Some(e) = error {
        return Some(Err(e));
    }
    Some(Ok(match best.or(lost) {
        Some((_, p, c)) => (Some(c), p),
        None => (None, Parts::NONE),
    }))
}

/// `closest_points` for a pair with a composite: `Intersecting` when a pair
/// intersects, else the nearest pair within `max_distance` (each pair after
/// the first answer is asked within the best distance so far).
pub(crate) fn closest_points<T: Real>(
    (a, pose_a): (&dyn Shape<T>, &Isometry2<T>),
    (b, pose_b): (&dyn Shape<T>, &Isometry2<T>),
    max_distance: T,
    each: &mut Each<'_, T, T, ClosestPoints<T>>,
) -> Found<ClosestPoints<T>> {
    if !is_composite(a, b) {
        return None;
    }
    // The search grows (`search_rounds`). A pair found within the reach
    // `r` is the nearest: every piece nearer than it is within `r` and was
    // asked. So a far `max_distance` (`+∞` for the time of impact) visits
    // the parts near the answer, not all of them.
    Some(
        search_rounds((a, pose_a), (b, pose_b), max_distance, &mut |r| {
            closest_within((a, pose_a), (b, pose_b), r, each)
        })
        .unwrap_or(Ok((ClosestPoints::Farther, Parts::NONE))),
    )
}

/// The distance of a pair with a composite: [`closest_points`]' distance
/// with `max_distance = +∞`, from the scalar distance of each pair of
/// pieces (nothing mapped to the world; `0` as soon as a pair intersects).
/// The same search, so the same pairs are asked and the least distance is
/// the same number.
pub(crate) fn distance<T: Real>(
    (a, pose_a): (&dyn Shape<T>, &Isometry2<T>),
    (b, pose_b): (&dyn Shape<T>, &Isometry2<T>),
    each: &mut Each<'_, T, (), T>,
) -> Found<T> {
    if !is_composite(a, b) {
        return None;
    }
    let mut within = |r: T| {
        let bound = core::cell::Cell::new(r);
        let mut best: Option<(T, Parts)> = None;
        let mut error = None;
        piece_pairs(
            (a, pose_a),
            (b, pose_b),
            &|bx, _| bx,
            Pick::Near(&bound),
            &mut |x, y| {
                match each(x.shape, &x.pose, y.shape, &y.pose, ()) {
                    Ok(d) if d <= bound.get() => {
                        let p = ids(x, y);
                        if better(d, p, best) {
                            best = Some((d, p));
                            bound.set(d);
                        }
                        if d == T::zero() {
                            return ControlFlow::Break(());
                        }
                    }
                    Ok(_) => {}
                    Err(e) => {
                        error = Some(e);
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            },
        );
        match error {
            Some(e) => Some(Err(e)),
            None => best.map(|(d, p)| Ok((d, p))),
        }
    };
    search_rounds((a, pose_a), (b, pose_b), T::infinity(), &mut within)
        .or(Some(Ok((T::infinity(), Parts::NONE))))
}

/// The growing search of [`closest_points`] and [`distance`]: `within(r)`
/// for a reach `r` within the other shape's own size first, then four
/// times farther each round, until it finds an answer, the reach covers
/// both shapes, or it reaches `max_distance` (`None` then).
fn search_rounds<T: Real, R>(
    (a, pose_a): (&dyn Shape<T>, &Isometry2<T>),
    (b, pose_b): (&dyn Shape<T>, &Isometry2<T>),
    max_distance: T,
    within: &mut dyn FnMut(T) -> Option<R>,
) -> Option<R> {
    // The boxes only size the rounds (any sizes would give the same
    // answer): a composite's turned local bounds, in constant time, rather
    // than its tight box, which reads its whole hull when it is turned.
    let (ab, bb) = (reach_box(a, pose_a), reach_box(b, pose_b));
    let span = {
        let u = ab.merged(&bb);
        (u.max - u.min).norm()
    };
    let own = min((bb.max - bb.min).norm(), (ab.max - ab.min).norm());
    let mut reach = max(own, T::default_epsilon());
    loop {
        let r = min(reach, max_distance);
        let last = !(r < max_distance && reach < span);
        if let Some(found) = within(r) {
            return Some(found);
        }
        if last {
            return None;
        }
        reach *= T::from_f64(4.0).unwrap_or_else(T::one);
    }
}

/// [`closest_points`] within `max_distance`: `None` when no pair is.
fn closest_within<T: Real>(
    (a, pose_a): (&dyn Shape<T>, &Isometry2<T>),
    (b, pose_b): (&dyn Shape<T>, &Isometry2<T>),
    max_distance: T,
    each: &mut Each<'_, T, T, ClosestPoints<T>>,
) -> Option<Result<(ClosestPoints<T>, Parts), DispatchError>> {
    let bound = core::cell::Cell::new(max_distance);
    let mut best: Option<(T, Parts, ClosestPoints<T>)> = None;
    let mut out = None;
    piece_pairs(
        (a, pose_a),
        (b, pose_b),
        &|bx, _| bx,
        Pick::Near(&bound),
        &mut |x, y| {
            match each(x.shape, &x.pose, y.shape, &y.pose, bound.get()) {
                Ok(ClosestPoints::Intersecting) => {
                    out = Some(Ok((ClosestPoints::Intersecting, ids(x, y))));
                    return ControlFlow::Break(());
                }
                Ok(c @ ClosestPoints::WithinMargin { distance, .. }) => {
                    let p = ids(x, y);
                    if better(distance, p, best.map(|(d, q, _)| (d, q))) {
                        best = Some((distance, p, c));
                        bound.set(min(bound.get(), distance));
                    }
                }
                Ok(ClosestPoints::Farther) => {}
                Err(e) => {
                    out = Some(Err(e));
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        },
    );
    out.or_else(|| best.map(|(_, p, c)| Ok((c, p))))
}

/// `b` swept by `v·t` for `t ∈ [0, max_toi]`.
fn swept<T: Real>(b: BoundingBox2<T>, v: &Vector2<T>, max_toi: T) -> BoundingBox2<T> {
    let inf = T::infinity();
    let step = |v: T| {
        if v == T::zero() {
            T::zero()
        } else if num_traits::Float::is_finite(max_toi) {
            v * max_toi
        } else if v > T::zero() {
            inf
        } else {
            -inf
        }
    };
    let d = Vector2::new(step(v.x), step(v.y));
    let moved = BoundingBox2::new(b.min + d, b.max + d);
    b.merged(&moved)
}

/// `cast_shapes` for a pair with a composite: the earliest admissible hit
/// (each pair after the first hit is asked up to the best time so far).
pub(crate) fn cast_shapes<T: Real>(
    (a, pose_a): (&dyn Shape<T>, &Isometry2<T>),
    (b, pose_b): (&dyn Shape<T>, &Isometry2<T>),
    args: ShapeCastArgs<T>,
    each: &mut Each<'_, T, ShapeCastArgs<T>, Option<ShapeCastHit<T>>>,
) -> Found<Option<ShapeCastHit<T>>> {
    if !is_composite(a, b) {
        return None;
    }
    let rel = args.vel_b - args.vel_a;
    let bound = core::cell::Cell::new(args.max_toi);
    let mut best: Option<(T, Parts, ShapeCastHit<T>)> = None;
    let mut error = None;
    piece_pairs(
        (a, pose_a),
        (b, pose_b),
        &|bx, of| match of {
            Of::A => swept(bx, &rel, bound.get()),
            Of::B => swept(bx, &-rel, bound.get()),
        },
        Pick::Meeting,
        &mut |x, y| {
            let piece_args = ShapeCastArgs {
                max_toi: bound.get(),
                ..args
            };
            let hit = match each(x.shape, &x.pose, y.shape, &y.pose, piece_args) {
                Ok(Some(h)) => h,
                Ok(None) => return ControlFlow::Continue(()),
                Err(e) => {
                    error = Some(e);
                    return ControlFlow::Break(());
                }
            };
            let hit = match turn(x, y, &hit.normal) {
                // With `stop_at_penetration` off the caller slides: a part
                // that the motion does not drive into (a grazing touch along
                // a floor, found up to rounding by the part's kernel) is no
                // hit.
                Turn::Keep
                    if !args.options.stop_at_penetration && rel.dot(&hit.normal) >= T::zero() =>
                {
                    return ControlFlow::Continue(());
                }
                Turn::Keep => hit,
                // A turned normal: a hit only when the motion drives the
                // pieces together along it (or they already overlap and the
                // caller stops there).
                Turn::To(u, _) => {
                    let stop = hit.status == ShapeCastStatus::Penetrating
                        && args.options.stop_at_penetration;
                    if !stop && rel.dot(&u) >= T::zero() {
                        return ControlFlow::Continue(());
                    }
                    ShapeCastHit { normal: u, ..hit }
                }
                Turn::Lost if hit.status == ShapeCastStatus::Penetrating => hit,
                Turn::Lost => return ControlFlow::Continue(()),
            };
            let p = ids(x, y);
            if better(hit.toi, p, best.map(|(t, q, _)| (t, q))) {
                best = Some((hit.toi, p, hit));
                bound.set(min(bound.get(), hit.toi));
            }
            ControlFlow::Continue(())
        },
    );
    if let Some(e) = error {
        return Some(Err(e));
    }
    Some(Ok(match best {
        Some((_, p, h)) => (Some(h), p),
        None => (None, Parts::NONE),
    }))
}

/// How many part manifolds a composite manifold merges (the deepest are
/// kept when more pairs touch).
const MANIFOLD_CANDIDATES: usize = 8;

/// A manifold whose normal must be `u` (from the first piece to the
/// second): each point keeps its point on B and is measured again along `u`
/// against A's supporting line (through `support_x`, the first piece's
/// support point along `u`); points beyond `prediction` go. The manifold as
/// it is when the first piece has no support function.
fn manifold_along<T: Real>(
    m: &Manifold<T>,
    support_x: Option<Point2<T>>,
    u: Unit<Vector2<T>>,
    prediction: T,
) -> Option<Manifold<T>> {
    let Some(sx) = support_x else {
        return Some(*m);
    };
    let mut out: Option<Manifold<T>> = None;
    for p in m.points() {
        let separation = u.dot(&(p.point_b - sx));
        if separation > prediction {
            continue;
        }
        let q = ManifoldPoint {
            point_a: p.point_b - u.into_inner() * separation,
            separation,
            ..*p
        };
        match &mut out {
            None => out = Some(Manifold::new(u, q)),
            Some(m) => {
                m.push(q);
            }
        }
    }
    out
}

fn deepest_separation<T: Real>(m: &Manifold<T>) -> T {
    m.deepest().separation
}

/// `contact_manifold` for a pair with a composite (see the module note).
pub(crate) fn contact_manifold<T: Real>(
    (a, pose_a): (&dyn Shape<T>, &Isometry2<T>),
    (b, pose_b): (&dyn Shape<T>, &Isometry2<T>),
    prediction: T,
    each: &mut Each<'_, T, T, Option<Manifold<T>>>,
) -> Found<Option<Manifold<T>>> {
    if !is_composite(a, b) {
        return None;
    }
    let mut found: [Option<(T, Parts, Manifold<T>)>; MANIFOLD_CANDIDATES] =
        [None; MANIFOLD_CANDIDATES];
    let mut lost: Option<(T, Parts, Manifold<T>)> = None;
    let mut error = None;
    piece_pairs(
        (a, pose_a),
        (b, pose_b),
        &|bx, _| bx.loosened(prediction),
        Pick::Meeting,
        &mut |x, y| {
            let m = match each(x.shape, &x.pose, y.shape, &y.pose, prediction) {
                Ok(Some(m)) => m,
                Ok(None) => return ControlFlow::Continue(()),
                Err(e) => {
                    error = Some(e);
                    return ControlFlow::Break(());
                }
            };
            let p = ids(x, y);
            let m = match turn(x, y, &m.normal()) {
                Turn::Keep => m,
                // Pieces that are apart with a normal the composite's
                // boundary does not have there (a speculative contact with
                // a neighbouring tile's hidden corner): the piece that owns
                // that stretch of boundary answers for it; measured along an
                // admissible normal, this one would report a penetration
                // that is not there.
                Turn::To(..) | Turn::Lost if deepest_separation(&m) > T::zero() => {
                    return ControlFlow::Continue(());
                }
                Turn::To(u, (sx, _)) => match manifold_along(&m, sx, u, prediction) {
                    Some(m) => m,
                    None => return ControlFlow::Continue(()),
                },
                Turn::Lost => {
                    let d = deepest_separation(&m);
                    if better(d, p, lost.map(|(s, q, _)| (s, q))) {
                        lost = Some((d, p, m));
                    }
                    return ControlFlow::Continue(());
                }
            };
            let d = deepest_separation(&m);
            // Keep the deepest candidates: replace the worst when full.
            let slot = match found.iter().position(Option::is_none) {
                Some(i) => Some(i),
                None => {
                    let worst = (0..MANIFOLD_CANDIDATES)
                        .max_by(|&i, &j| {
                            let (ki, kj) = (found[i].unwrap(), found[j].unwrap());
                            if better(ki.0, ki.1, Some((kj.0, kj.1))) {
                                Ordering::Less
                            } else {
                                Ordering::Greater
                            }
                        })
                        .unwrap_or(0);
                    let w = found[worst].unwrap();
                    better(d, p, Some((w.0, w.1))).then_some(worst)
                }
            };
            if let Some(i) = slot {
                found[i] = Some((d, p, m));
            }
            ControlFlow::Continue(())
        },
    );
    if let Some(e) = error {
        return Some(Err(e));
    }
    let mut primary: Option<(T, Parts, Manifold<T>)> = None;
    for c in found.iter().flatten() {
        if better(c.0, c.1, primary.map(|(d, p, _)| (d, p))) {
            primary = Some(*c);
        }
    }
    let Some((_, parts, m)) = primary.or(lost) else {
        return Some(Ok((None, Parts::NONE)));
    };
    Some(Ok((Some(merged(&m, parts, &found)), parts)))
}

/// `primary` with the points of the other candidates whose normal agrees
/// with its own (to `√ε`): two points, the deepest and the farthest from it
/// along the surface.
fn merged<T: Real>(
    primary: &Manifold<T>,
    parts: Parts,
    found: &[Option<(T, Parts, Manifold<T>)>],
) -> Manifold<T> {
    let n = primary.normal();
    let agree = T::one() - num_traits::Float::sqrt(T::default_epsilon());
    let others = found
        .iter()
        .flatten()
        .filter(|c| c.1 != parts && c.2.normal().dot(&n) >= agree);
    let mut deepest = *primary.deepest();
    let mut count = 0usize;
    for c in others.clone() {
        count += 1;
        let d = c.2.deepest();
        if d.separation < deepest.separation {
            deepest = *d;
        }
    }
    if count == 0 {
        return *primary;
    }
    let tangent = Vector2::new(-n.y, n.x);
    let at = |p: &ManifoldPoint<T>| tangent.dot(&(p.point_b - deepest.point_b));
    let mut far: Option<(T, ManifoldPoint<T>)> = None;
    for p in primary
        .points()
        .iter()
        .chain(others.flat_map(|c| c.2.points().iter()))
    {
        let d = num_traits::Float::abs(at(p));
        if d > T::zero() && far.is_none_or(|(e, _)| d > e) {
            far = Some((d, *p));
        }
    }
    let mut out = Manifold::new(n, deepest);
    if let Some((_, p)) = far {
        out.push(p);
    }
    out
}
