//! Composite shapes: shapes made of convex parts, for game levels and bodies
//! that no single convex shape describes.
//!
//! A composite ([`Compound`], [`Polyline`], [`ConcavePolygon`], [`TileMap`])
//! is one [`Shape`](crate::Shape) of its own kind whose geometry is the union
//! of built-in convex *parts*, each with a pose in the composite's frame. The
//! narrow phase answers a query against a composite part by part, through
//! the same exact kernels as for single shapes, visiting only the parts whose
//! bounding boxes can matter ([`Composite::visit_parts`]), and combines the
//! answers (any part for `intersects`, the deepest contact, the nearest
//! points, the earliest hit).
//!
//! # Admissible normals (no ghost collisions)
//!
//! A part of a composite may have faces that are not on the composite's
//! boundary: the inner end of a chain segment that continues into the next
//! one, the side of a tile next to another solid tile, the diagonal along
//! which a concave polygon was cut. A shape sliding across such a seam can
//! touch the part there, and the part alone would push it back along the
//! hidden face: the "ghost collision" of chains and tile maps. Each part
//! therefore states which contact normals are *admissible*
//! ([`Part::normals`]): the directions, pointing out of the part, that the
//! composite's own boundary has there. A contact whose normal is not
//! admissible is turned to the nearest admissible direction and its depth is
//! measured along that direction (exact, from the two support functions);
//! see `docs/algorithms.md`.
//!
//! Normals are arcs of the unit circle ([`NormalArc`]), counter-clockwise
//! from `from` to `to`, in the composite's frame.

/// The [`Shape`](crate::Shape) and [`RayCast`](crate::RayCast) impls every
/// built-in composite shares: its kind, itself as its data and as its own
/// composite, ray cast and point query; the bounding box from its
/// `world_bounds`, the placed pose from its `placed` when it has one (a tile
/// map keeps only the translation), the ray cast from its `cast_ray_part`.
macro_rules! composite_shape {
    ($ty:ident, $kind:ident $(, $placed:ident)?) => {
        impl<T: $crate::Real> $crate::Shape<T> for $ty<T> {
            fn kind(&self) -> $crate::ShapeKind {
                $crate::ShapeKind::$kind
            }
            fn as_any(&self) -> &dyn core::any::Any {
                self
            }
            /// Not a built-in convex shape: `None` at once (the provided
            /// method finds that out from the kind and the type).
            #[inline]
            fn as_builtin(&self) -> Option<$crate::ShapeRef<'_, T>> {
                None
            }
            fn bounding_box(&self, pose: &nalgebra::Isometry2<T>) -> $crate::BoundingBox2<T> {
                self.world_bounds(pose)
            }
            $(
                fn effective_pose(&self, pose: &nalgebra::Isometry2<T>) -> nalgebra::Isometry2<T> {
                    self.$placed(pose)
                }
            )?
            fn as_ray_cast(&self) -> Option<&dyn $crate::RayCast<T>> {
                Some(self)
            }
            fn as_point_query(&self) -> Option<&dyn $crate::PointQuery<T>> {
                Some(self)
            }
            fn as_composite(&self) -> Option<&dyn Composite<T>> {
                Some(self)
            }
        }

        impl<T: $crate::Real> $crate::RayCast<T> for $ty<T> {
            /// The `cast_ray_part` of the shape without the part id.
            fn cast_ray(
                &self,
                pose: &nalgebra::Isometry2<T>,
                ray: &$crate::Ray<T>,
                max_toi: T,
                solid: bool,
            ) -> Option<$crate::RayHit<T>> {
                self.cast_ray_part(pose, ray, max_toi, solid).map(|(_, h)| h)
            }
        }
    };
}
use composite_shape;

/// [`Composite::visit_parts_near`] through a part tree: the parts whose
/// boxes lie within `bound` of `region`, nearest subtrees first.
pub(crate) fn visit_tree_near<'a, T: Real>(
    tree: &PartTree<T>,
    region: &BoundingBox2<T>,
    bound: &Cell<T>,
    part: impl Fn(u32) -> Option<Part<'a, T>>,
    visit: &mut dyn FnMut(Part<'_, T>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    tree.visit_near_box(
        region,
        || bound.get(),
        |id| match part(id) {
            Some(p) => visit(p),
            None => ControlFlow::Continue(()),
        },
    )
}

/// [`Composite::visit_parts`] through a part tree: the parts whose boxes
/// meet `region`, as `part` names them.
pub(crate) fn visit_tree<'a, T: Real>(
    tree: &PartTree<T>,
    region: &BoundingBox2<T>,
    part: impl Fn(u32) -> Option<Part<'a, T>>,
    visit: &mut dyn FnMut(Part<'_, T>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    tree.visit(region, |id| match part(id) {
        Some(p) => visit(p),
        None => ControlFlow::Continue(()),
    })
}

mod arc;
mod compound;
mod concave_polygon;
mod part_shape;
mod polyline;
mod tile_map;
mod tree;

pub use arc::NormalArc;
pub use compound::Compound;
pub use concave_polygon::ConcavePolygon;
pub use part_shape::ConvexPart;
pub use polyline::Polyline;
pub use tile_map::TileMap;

use core::cell::Cell;
use core::ops::ControlFlow;

use nalgebra::{Isometry2, Point2, Unit, Vector2};

use crate::{BoundingBox2, PointProjection, Ray, RayHit, Real, ShapeRef};
use tree::PartTree;

/// Which arcs a part admits: a range of the shared array, or every
/// direction.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Arcs {
    /// Every direction.
    All,
    /// `arcs[start..start + len]`.
    Some { start: u32, len: u32 },
}

impl Arcs {
    /// The slice of `arcs` this names (`None`: every direction).
    pub(crate) fn slice<T: Real>(self, arcs: &[NormalArc<T>]) -> Option<&[NormalArc<T>]> {
        match self {
            Self::All => None,
            Self::Some { start, len } => {
                let (s, l) = (start as usize, len as usize);
                Some(arcs.get(s..s + l).unwrap_or(&[]))
            }
        }
    }
}

/// One convex part of a composite, as the narrow phase sees it.
#[derive(Debug, Clone, Copy)]
pub struct Part<'a, T: Real> {
    /// The part's index in its composite (what results name).
    pub id: u32,
    /// The part's geometry: a built-in convex shape. An
    /// [`Aabb`](crate::Aabb) part ignores rotation, as every `Aabb` does: it
    /// stays axis-aligned when its composite turns (an [`Obb`](crate::Obb)
    /// turns with it).
    pub shape: ShapeRef<'a, T>,
    /// The part's pose in the composite's frame.
    pub pose: Isometry2<T>,
    /// The admissible contact normals (out of the part, composite frame):
    /// `None` when every direction is admissible (a free-standing part), an
    /// empty slice for a part with no face on the composite's boundary (an
    /// interior tile).
    pub normals: Option<&'a [NormalArc<T>]>,
    /// For a one-sided part: a point of its supporting line and the side
    /// that collides. A shape whose reference point (its pose's translation)
    /// lies strictly behind (`(p − point) · normal < 0`) passes through the
    /// part: the part takes no part in any query with it.
    pub front: Option<(Point2<T>, Unit<Vector2<T>>)>,
}

impl<T: Real> Part<'_, T> {
    /// Whether a shape whose reference point is `p` (composite frame) meets
    /// this part at all: always, unless the part is one-sided and `p` lies
    /// strictly behind it.
    #[must_use]
    #[inline]
    pub fn faces(&self, p: &Point2<T>) -> bool {
        match &self.front {
            None => true,
            Some((o, n)) => (p - o).dot(n) >= T::zero(),
        }
    }

    /// Whether `normal` (out of the part, composite frame) is admissible.
    #[must_use]
    pub fn admits(&self, normal: &Vector2<T>) -> bool {
        match self.normals {
            None => true,
            Some(arcs) => arcs.iter().any(|a| a.contains(normal)),
        }
    }

    /// The admissible normal nearest to `normal` (the largest dot product),
    /// `normal` itself when it is admissible; `None` when the part has no
    /// admissible normal.
    #[must_use]
    pub fn nearest_admissible(&self, normal: &Unit<Vector2<T>>) -> Option<Unit<Vector2<T>>> {
        let arcs = match self.normals {
            None => return Some(*normal),
            Some(arcs) => arcs,
        };
        if arcs.iter().any(|a| a.contains(normal)) {
            return Some(*normal);
        }
        let mut best: Option<(T, Unit<Vector2<T>>)> = None;
        for arc in arcs {
            for end in [arc.from, arc.to] {
                let d = end.dot(normal);
                if best.is_none_or(|(b, _)| d > b) {
                    best = Some((d, end));
                }
            }
        }
        best.map(|(_, n)| n)
    }
}

/// A shape made of convex parts (see the [module documentation](self)).
///
/// The narrow phase reaches it through
/// [`Shape::as_composite`](crate::Shape::as_composite). Part ids are below
/// [`part_count`](Self::part_count); an id may name no part (an empty tile
/// of a tile map).
pub trait Composite<T: Real> {
    /// One more than the largest part id.
    fn part_count(&self) -> usize;

    /// Part `id`, or `None` when there is no such part.
    fn part(&self, id: u32) -> Option<Part<'_, T>>;

    /// Calls `visit` with every part whose bounding box (composite frame)
    /// meets `region` (composite frame), each once, in an order that
    /// depends on the composite alone (the narrow phase breaks ties by id,
    /// so the order never changes an answer), until `visit` breaks. Parts whose boxes miss `region` may be visited too, but a
    /// composite with many parts finds them through an index (a tree, a
    /// grid) so that a query pays for the parts near it only.
    fn visit_parts(
        &self,
        region: &BoundingBox2<T>,
        visit: &mut dyn FnMut(Part<'_, T>) -> ControlFlow<()>,
    ) -> ControlFlow<()>;

    /// The composite's bounding box in its own frame.
    fn local_bounds(&self) -> BoundingBox2<T>;

    /// Calls `visit` with every part whose bounding box (composite frame)
    /// lies within `bound` of the box `region` (composite frame), each
    /// once, until `visit` breaks; `bound` is a distance (`+∞` for every
    /// part), read again as the visit goes: a caller that found an answer
    /// at distance `d` sets it to `d`, and the parts left farther than `d`
    /// may then be skipped. Parts farther than the bound may be visited too.
    /// The narrow phase's distances to composites walk it.
    ///
    /// The default is one [`visit_parts`](Self::visit_parts) call over
    /// `region` grown by the bound as it is first; the built-in composites with a
    /// part tree enter the nearer of two subtrees first and skip the
    /// subtrees that the lowered bound leaves out.
    fn visit_parts_near(
        &self,
        region: &BoundingBox2<T>,
        bound: &Cell<T>,
        visit: &mut dyn FnMut(Part<'_, T>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let grown = region.loosened(bound.get());
        let region = if grown.is_valid() {
            grown
        } else {
            self.local_bounds()
        };
        self.visit_parts(&region, visit)
    }

    /// The earliest hit of `ray` (world frame) on the composite placed at
    /// `pose`, up to `max_toi`, with the id of the part hit: the least time
    /// over the parts' own ray casts (`pose * part.pose`), ties to the
    /// lowest id; a one-sided part is skipped by a ray that does not come
    /// from its front (`dir · front ≥ 0`). `None` when it misses.
    ///
    /// The default visits the parts whose boxes meet the ray's stretch
    /// inside [`local_bounds`](Self::local_bounds) (one
    /// [`visit_parts`](Self::visit_parts) call) and casts on each; the
    /// built-in composites walk their own index instead (a tree, the tile
    /// grid), nearest parts first. The World names parts with it
    /// (`World::cast_ray_part`).
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use shape::dim2::composite::{Composite, Part};
    /// use shape::{BoundingBox2, Circle, Ray, ShapeRef};
    ///
    /// // Three beads in a row: a composite of the user's own, with the
    /// // default `cast_ray_part`.
    /// struct Beads(Circle<f64>);
    /// impl Composite<f64> for Beads {
    ///     fn part_count(&self) -> usize {
    ///         3
    ///     }
    ///     fn part(&self, id: u32) -> Option<Part<'_, f64>> {
    ///         (id < 3).then(|| Part {
    ///             id,
    ///             shape: ShapeRef::Circle(&self.0),
    ///             pose: Isometry2::translation(3.0 * f64::from(id), 0.0),
    ///             normals: None,
    ///             front: None,
    ///         })
    ///     }
    ///     fn visit_parts(
    ///         &self,
    ///         _: &BoundingBox2<f64>,
    ///         visit: &mut dyn FnMut(Part<'_, f64>) -> ControlFlow<()>,
    ///     ) -> ControlFlow<()> {
    ///         (0..3).filter_map(|id| self.part(id)).try_for_each(|p| visit(p))
    ///     }
    ///     fn local_bounds(&self) -> BoundingBox2<f64> {
    ///         BoundingBox2::new(Point2::new(-1.0, -1.0), Point2::new(7.0, 1.0))
    ///     }
    /// }
    /// let beads = Beads(Circle::new(1.0).unwrap());
    /// // Straight down onto the middle bead's top.
    /// let ray = Ray::new(Point2::new(3.0, 5.0), Vector2::new(0.0, -1.0));
    /// let (part, hit) = beads.cast_ray_part(&Isometry2::identity(), &ray, 100.0, true).unwrap();
    /// assert_eq!((part, hit.toi), (1, 4.0));
    /// ```
    fn cast_ray_part(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<(u32, RayHit<T>)> {
        let local = ray.inverse_transformed(pose);
        let (t0, t1) = tree::ray_span(&local.origin, &local.dir, &self.local_bounds(), max_toi)?;
        let (p, q) = (local.origin + local.dir * t0, local.origin + local.dir * t1);
        let region = BoundingBox2::new(p.inf(&q), p.sup(&q));
        let mut best: Option<(u32, RayHit<T>)> = None;
        let _ = self.visit_parts(&region, &mut |part| {
            let behind = part
                .front
                .is_some_and(|(_, n)| local.dir.dot(&n) >= T::zero());
            let caster = part.shape.as_shape().as_ray_cast();
            if let (false, Some(caster)) = (behind, caster) {
                let limit = best.map_or(max_toi, |(_, h)| h.toi);
                if let Some(hit) = caster.cast_ray(&(pose * part.pose), ray, limit, solid) {
                    let better = best.is_none_or(|(bid, b)| {
                        hit.toi < b.toi || (hit.toi == b.toi && part.id < bid)
                    });
                    if better {
                        best = Some((part.id, hit));
                    }
                }
            }
            ControlFlow::Continue(())
        });
        best
    }
}

/// The earliest hit of `ray` (world frame) on the parts of a composite
/// placed at `pose`, with the part that it hits: each part is cast on its
/// own (`pose * part.pose`, the part's built-in ray cast), the least time
/// wins, ties going to the lowest id; `tree` prunes the parts whose boxes
/// the ray misses, and `skip` drops parts the caller excludes (one-sided
/// chains). The same answer as the minimum over every part, found visiting
/// only the parts near the ray.
pub(crate) fn cast_ray_parts<'a, T: Real>(
    tree: &PartTree<T>,
    part: impl Fn(u32) -> Option<Part<'a, T>>,
    skip: impl Fn(&Part<'a, T>, &Ray<T>) -> bool,
    pose: &Isometry2<T>,
    ray: &Ray<T>,
    max_toi: T,
    solid: bool,
) -> Option<(u32, RayHit<T>)> {
    let local = ray.inverse_transformed(pose);
    let best: Cell<Option<(u32, RayHit<T>)>> = Cell::new(None);
    // The tree tests boxes in the composite's frame, where times differ from
    // the world's by rounding: a slightly wider bound keeps the parts whose
    // hits tie with the best one (the lower id must win, as it would over
    // every part).
    let widen = T::one() + T::epsilon() * T::lit(16.0);
    let bound = || best.get().map_or(max_toi, |(_, h)| h.toi * widen);
    tree.visit_ray(&local.origin, &local.dir, bound, |id| {
        let Some(p) = part(id) else { return };
        if skip(&p, &local) {
            return;
        }
        let Some(caster) = p.shape.as_shape().as_ray_cast() else {
            return;
        };
        let limit = best.get().map_or(max_toi, |(_, h)| h.toi);
        if let Some(hit) = caster.cast_ray(&(pose * p.pose), ray, limit, solid) {
            let better = match best.get() {
                None => true,
                Some((bid, b)) => hit.toi < b.toi || (hit.toi == b.toi && id < bid),
            };
            if better {
                best.set(Some((id, hit)));
            }
        }
    });
    best.get()
}

/// The point of the parts of a composite placed at `pose` nearest `p`
/// (world frame), with its part: each part's own projection
/// (`pose * part.pose`), the least distance winning, ties to the lowest id;
/// `is_inside` when `p` lies in any part. `tree` prunes parts farther than
/// the best distance found.
pub(crate) fn project_parts<'a, T: Real>(
    tree: &PartTree<T>,
    part: impl Fn(u32) -> Option<Part<'a, T>>,
    pose: &Isometry2<T>,
    p: &Point2<T>,
    solid: bool,
) -> Option<(u32, PointProjection<T>)> {
    let local = pose.inverse_transform_point(p);
    let best: Cell<Option<(u32, T, PointProjection<T>)>> = Cell::new(None);
    let inside = Cell::new(false);
    let bound = || best.get().map_or(T::infinity(), |(_, d, _)| d);
    tree.visit_near(&local, bound, |id| {
        let Some(part) = part(id) else { return };
        let Some(q) = part.shape.as_shape().as_point_query() else {
            return;
        };
        let proj = q.project_point(&(pose * part.pose), p, solid);
        inside.set(inside.get() || proj.is_inside);
        let d = (proj.point - p).norm_squared();
        let better = match best.get() {
            None => true,
            Some((bid, bd, _)) => d < bd || (d == bd && id < bid),
        };
        if better {
            best.set(Some((id, d, proj)));
        }
    });
    if !solid && !inside.get() {
        // A part holding `p` may have been pruned (its boundary farther than
        // another part's): ask the parts whose boxes hold `p`.
        let here = BoundingBox2::new(local, local);
        let _ = tree.visit(&here, |id| {
            let held = part(id).is_some_and(|part| {
                part.shape
                    .as_shape()
                    .as_point_query()
                    .is_some_and(|q| q.project_point(&(pose * part.pose), p, true).is_inside)
            });
            inside.set(held);
            if held {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
    }
    best.get().map(|(id, _, proj)| {
        (
            id,
            PointProjection {
                point: proj.point,
                is_inside: inside.get(),
            },
        )
    })
}

/// The vertices of the convex hull of `points` (Andrew's monotone chain with
/// the exact orientation of `robust`; collinear points dropped, the two
/// extremes kept when all are collinear): the points a tight bounding box at
/// any rotation depends on, so that a long chain's box costs its hull, not
/// its length.
pub(crate) fn hull_points<T: Real>(points: &[Point2<T>]) -> alloc::vec::Vec<Point2<T>> {
    use alloc::vec::Vec;
    let wide = |p: &Point2<T>| -> Point2<f64> {
        Point2::new(
            num_traits::ToPrimitive::to_f64(&p.x).unwrap_or(0.0),
            num_traits::ToPrimitive::to_f64(&p.y).unwrap_or(0.0),
        )
    };
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&i, &j| {
        let (a, b) = (points[i], points[j]);
        a.x.partial_cmp(&b.x)
            .unwrap_or(core::cmp::Ordering::Equal)
            .then(a.y.partial_cmp(&b.y).unwrap_or(core::cmp::Ordering::Equal))
    });
    order.dedup_by(|i, j| points[*i] == points[*j]);
    if order.len() <= 2 {
        return order.iter().map(|&i| points[i]).collect();
    }
    let mut hull: Vec<usize> = Vec::with_capacity(order.len() + 1);
    // The lower chain left to right, then the upper chain right to left;
    // a point that does not turn left is removed.
    for pass in 0..2 {
        let start = hull.len();
        let seq: Vec<usize> = if pass == 0 {
            order.clone()
        } else {
            order.iter().rev().copied().collect()
        };
        for &i in &seq {
            while hull.len() >= start + 2 {
                let (a, b) = (hull[hull.len() - 2], hull[hull.len() - 1]);
                if crate::dim2::decompose::orient(
                    &wide(&points[a]),
                    &wide(&points[b]),
                    &wide(&points[i]),
                ) > 0.0
                {
                    break;
                }
                hull.pop();
            }
            hull.push(i);
        }
        // The last point of a chain is the first of the next.
        hull.pop();
    }
    hull.iter().map(|&i| points[i]).collect()
}

/// The tight box of a point set at `pose` from its local box (an unrotated
/// pose: exactly the box of the points moved) or its hull (any rotation).
pub(crate) fn hull_bounds<T: Real>(
    local: &BoundingBox2<T>,
    hull: &[Point2<T>],
    pose: &Isometry2<T>,
) -> BoundingBox2<T> {
    let r = &pose.rotation;
    if r.im == T::zero() && r.re == T::one() {
        let t = pose.translation.vector;
        BoundingBox2::new(local.min + t, local.max + t)
    } else {
        crate::dim2::polygonal::bounds(hull, pose)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The composites' `as_builtin` says `None` at once, as the provided
    /// method would from their kinds and types.
    #[test]
    fn composites_are_not_builtin_shapes() {
        use crate::{Circle, Shape, ShapeRef};
        let p = |x: f64, y: f64| Point2::new(x, y);
        let square = [p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)];
        let shapes: [&dyn Shape<f64>; 4] = [
            &Polyline::new(&square, false).unwrap(),
            &ConcavePolygon::new(&square).unwrap(),
            &Compound::new(alloc::vec![(
                Isometry2::identity(),
                Circle::new(1.0).unwrap().into()
            )])
            .unwrap(),
            &TileMap::from_ids(Vector2::new(1.0, 1.0), 1, &[1]).unwrap(),
        ];
        for s in shapes {
            assert!(s.as_builtin().is_none());
            assert!(ShapeRef::<f64>::from_kind(s.kind(), s.as_any()).is_none());
        }
    }

    /// The hull's box is the box of every point, at any pose: exactly when
    /// the pose does not turn, up to rounding otherwise; collinear and
    /// repeated points included.
    fn hull_box_is_the_points_box<T: Real>() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..200 {
            let n = 2 + case % 40;
            let mut pts: alloc::vec::Vec<Point2<T>> = (0..n)
                .map(|_| Point2::new(T::lit((next() * 20.0).round() - 10.0), T::lit(next() * 8.0)))
                .collect();
            if case % 3 == 0 {
                // A straight floor with repeated points.
                for (i, p) in pts.iter_mut().enumerate() {
                    *p = Point2::new(T::lit((i / 2) as f64), T::lit(1.5));
                }
            }
            let hull = hull_points(&pts);
            let local = crate::dim2::polygonal::bounds(&pts, &Isometry2::identity());
            for k in 0..8 {
                let pose = Isometry2::new(
                    nalgebra::Vector2::new(T::lit(next() * 100.0 - 50.0), T::lit(next() * 4.0)),
                    T::lit(if k == 0 { 0.0 } else { next() * 7.0 - 3.5 }),
                );
                let want = crate::dim2::polygonal::bounds(&pts, &pose);
                let got = hull_bounds(&local, &hull, &pose);
                if k == 0 {
                    assert_eq!(got, want);
                } else {
                    let tol = T::default_epsilon() * T::lit(256.0);
                    assert!((got.min - want.min).norm() <= tol, "{got:?} {want:?}");
                    assert!((got.max - want.max).norm() <= tol, "{got:?} {want:?}");
                }
            }
        }
    }

    /// A composite that answers ray casts with the trait's default
    /// `cast_ray_part`, everything else from the composite it wraps.
    struct Plain<'c, T: Real>(&'c dyn Composite<T>);

    impl<T: Real> Composite<T> for Plain<'_, T> {
        fn part_count(&self) -> usize {
            self.0.part_count()
        }
        fn part(&self, id: u32) -> Option<Part<'_, T>> {
            self.0.part(id)
        }
        fn visit_parts(
            &self,
            region: &BoundingBox2<T>,
            visit: &mut dyn FnMut(Part<'_, T>) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            self.0.visit_parts(region, visit)
        }
        fn local_bounds(&self) -> BoundingBox2<T> {
            self.0.local_bounds()
        }
    }

    /// The default `cast_ray_part` (one region visit) gives the built-in
    /// composites' own answers (their index walks) bit for bit: the same
    /// part, the same hit; a one-sided chain's parts are skipped from
    /// behind alike. The region is the wrapped composite's real pruning, so
    /// a region that missed a part would show here.
    fn default_ray_part_agrees<T: Real>() {
        use super::super::{Circle, Obb, Triangle};
        use alloc::vec;
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let compound = Compound::new(vec![
            (
                Isometry2::identity(),
                ConvexPart::Circle(Circle::new(T::one()).unwrap()),
            ),
            (
                Isometry2::new(Vector2::new(T::lit(3.0), T::zero()), T::lit(0.4)),
                ConvexPart::Obb(Obb::new(Vector2::new(T::one(), T::lit(0.5))).unwrap()),
            ),
            (
                Isometry2::new(Vector2::new(T::lit(-2.0), T::lit(2.5)), T::zero()),
                ConvexPart::Triangle(Triangle::new(p(0.0, 0.0), p(2.0, 0.0), p(0.0, 2.0)).unwrap()),
            ),
            (
                Isometry2::new(Vector2::new(T::lit(1.0), T::lit(-3.0)), T::zero()),
                ConvexPart::Circle(Circle::new(T::lit(0.75)).unwrap()),
            ),
        ])
        .unwrap();
        let zigzag: alloc::vec::Vec<Point2<T>> = (0..12)
            .map(|i| p(f64::from(i) - 6.0, if i % 2 == 0 { 0.0 } else { 1.5 }))
            .collect();
        let chain = Polyline::new(&zigzag, false).unwrap().with_one_sided(true);
        let mut hits = 0;
        for case in 0..400 {
            let pose = Isometry2::new(
                Vector2::new(T::lit(next() * 4.0 - 2.0), T::lit(next() * 4.0 - 2.0)),
                T::lit(next() * 6.0 - 3.0),
            );
            // Aimed at a point near the shapes, from up to 10 away.
            let (ox, oy) = (next() * 20.0 - 10.0, next() * 20.0 - 10.0);
            let (tx, ty) = (next() * 6.0 - 3.0, next() * 6.0 - 3.0);
            let ray = Ray::new(p(ox, oy), Vector2::new(T::lit(tx - ox), T::lit(ty - oy)));
            let max_toi = if case % 3 == 0 {
                T::infinity()
            } else {
                T::lit(next() * 15.0)
            };
            let solid = case % 2 == 0;
            let own: &dyn Composite<T> = if case % 2 == 0 { &compound } else { &chain };
            let want = own.cast_ray_part(&pose, &ray, max_toi, solid);
            let got = Plain(own).cast_ray_part(&pose, &ray, max_toi, solid);
            assert_eq!(
                got.map(|(i, h)| (i, h.toi)),
                want.map(|(i, h)| (i, h.toi)),
                "case {case}"
            );
            hits += usize::from(want.is_some());
        }
        // Enough of both outcomes for the comparison to mean something.
        assert!(hits > 60 && hits < 340, "{hits} hits");
    }

    #[test]
    fn default_ray_part_agrees_f32() {
        default_ray_part_agrees::<f32>();
    }
    #[test]
    fn default_ray_part_agrees_f64() {
        default_ray_part_agrees::<f64>();
    }

    #[test]
    fn hull_box_is_the_points_box_f32() {
        hull_box_is_the_points_box::<f32>();
    }
    #[test]
    fn hull_box_is_the_points_box_f64() {
        hull_box_is_the_points_box::<f64>();
    }
}
