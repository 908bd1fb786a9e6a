//! A polyline: a chain of segments (open or closed, two-sided or
//! one-sided), the ground and walls of a level.
//!
//! Part `i` is the segment from point `i` to point `i + 1` (for a closed
//! chain, the last one back to point 0). With `dᵢ = pᵢ₊₁ − pᵢ`, the segment's
//! *right* normal is `rᵢ = (dᵢ.y, −dᵢ.x) / |dᵢ|` and its left normal
//! `lᵢ = −rᵢ`. A one-sided chain collides on its right side only, its
//! *front*: the side of a counter-clockwise polygon's outward normals (a
//! closed chain drawn counter-clockwise around solid ground faces out, a
//! floor drawn right to left faces up), as in Box2D.
//!
//! # Admissible normals: the ghost-vertex rule
//!
//! A shape sliding along a flat chain touches, at each inner vertex, the end
//! of the next segment; the segment alone would push it back along the
//! direction from that end point (the segment's round cap), although the
//! chain's surface there is flat: a *ghost collision*. The normals a contact
//! with segment `i` may have are those of the chain's own surface at the
//! points of segment `i`, on the side touched:
//!
//! 1. On the segment's inside, the surface normal on side `s` is `nₛ`
//!    (`rᵢ` or `lᵢ`).
//! 2. At an end vertex `v` joining segment `i` to a neighbour `j`, the chain
//!    seen from side `s` is **convex** when the neighbour turns away from
//!    `nₛ`: for the right side, a left turn at `v` (the exact orientation
//!    `orient(pᵢ₋₁, pᵢ, pᵢ₊₁) > 0`), for the left side a right turn. The
//!    surface normals at a convex vertex form the cone between the two
//!    segments' normals on that side (the normal cone of the corner): the
//!    arc is extended to the neighbour's normal `nₛ(j)`, which is the cone's
//!    other end. A contact in that cone with segment `i` is a contact with
//!    the corner, and is admissible.
//! 3. At a **flat or concave** vertex (no turn, or a turn towards `nₛ`) the
//!    surface has no normal there other than `nₛ` and the neighbour's face
//!    (on a concave vertex, the neighbour's face is in the way; on a flat one
//!    it continues the surface): the arc stops at `nₛ`. The neighbour's own
//!    face answers contacts there; a normal from segment `i`'s end cap is
//!    refused, which is what removes the ghost collision.
//! 4. At an **open end** (no neighbour) the segment's end is the chain's
//!    end: a two-sided segment takes the whole round cap, the arc from one
//!    side's normal through the outward tangent (`−dᵢ` at the start, `dᵢ`
//!    at the end) to the other side's normal, which merges the two sides'
//!    arcs into one. A one-sided segment extends its front arc to the
//!    outward tangent only (the back is never touched).
//!
//! Going counter-clockwise, the right side's arc runs from the start vertex
//! to the end vertex (`rᵢ₋₁ → rᵢ → rᵢ₊₁`), the left side's from the end to
//! the start (`lᵢ₊₁ → lᵢ → lᵢ₋₁`): a left turn rotates the right normals
//! counter-clockwise, a right turn rotates the left normals clockwise. Every
//! turn is less than half a turn, so an arc extended at both ends spans less
//! than a full turn. Each segment has at most two arcs (one per side, or one
//! merged by an open end); a single open two-sided segment admits every
//! direction (`None`). All arcs are computed once, at construction, into one
//! array that each part slices.
//!
//! # Queries
//!
//! **Ray cast**: the earliest of the segments' own hits through the part
//! tree (ties to the lower id); a one-sided chain is hit only by rays that
//! come from its front, `dir · rᵢ < 0` (a ray from behind, or along the
//! segment, passes through). Segments have no interior: `solid` does not
//! matter. **Projection**: the nearest point of the segments; `is_inside`
//! when the point lies on the chain (as for a [`Segment`]: a chain has no
//! interior).
//!
//! Reference: Box2D's chain shapes, for the problem and the one-sided
//! convention; the normal-cone derivation above is this crate's.

use alloc::vec::Vec;
use core::cell::Cell;
use core::ops::ControlFlow;

use nalgebra::{Isometry2, Point2, Unit, Vector2};

use super::{Arcs, Composite, NormalArc, Part, PartTree, cast_ray_parts, project_parts};
use crate::dim2::decompose::orient;
use crate::dim2::polygonal::{check_vertices, outward_normal};
use crate::query::unit_vector;
use crate::{
    BoundingBox2, PointProjection, PointQuery, Ray, RayHit, Real, Segment, ShapeError, ShapeRef,
};

/// A chain of segments through given points, open or closed, two-sided or
/// one-sided (module notes for the conventions and the admissible normals).
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use shape::prelude::*;
/// use shape::dim2::composite::Composite;
/// // A floor drawn right to left: its front (right side) faces up.
/// let floor = Polyline::new(
///     &[Point2::new(4.0, 0.0), Point2::new(2.0, 0.0), Point2::new(0.0, 0.0)],
///     false,
/// ).unwrap().with_one_sided(true);
/// let up = Vector2::new(0.0, 1.0);
/// // The inner vertex is flat: segment 0 admits only the face normal.
/// assert!(floor.part(0).unwrap().admits(&up));
/// assert!(!floor.part(0).unwrap().admits(&Vector2::new(-1.0, 1.0)));
/// // A ray from above hits; one from below passes through.
/// let id = Isometry2::identity();
/// let down = Ray::new(Point2::new(1.0, 5.0), Vector2::new(0.0, -1.0));
/// assert_eq!(floor.cast_ray_part(&id, &down, 100.0, true).unwrap().0, 1);
/// let up_ray = Ray::new(Point2::new(1.0, -5.0), up);
/// assert!(floor.cast_ray(&id, &up_ray, 100.0, true).is_none());
/// ```
#[derive(Debug, Clone)]
pub struct Polyline<T: Real> {
    points: Vec<Point2<T>>,
    segments: Vec<Segment<T>>,
    /// The unit right normal of each segment.
    fronts: Vec<Unit<Vector2<T>>>,
    closed: bool,
    one_sided: bool,
    arcs: Vec<NormalArc<T>>,
    ranges: Vec<Arcs>,
    tree: PartTree<T>,
    local_bounds: BoundingBox2<T>,
    /// The hull of the points: the bounding box at a rotation reads these.
    hull: Vec<Point2<T>>,
}

impl<T: Real> Polyline<T> {
    /// The two-sided chain through `points`; `closed` joins the last point
    /// back to the first (do not repeat it). Crossings are allowed.
    ///
    /// # Errors
    /// [`ShapeError::TooFewVertices`] for fewer than 2 points (3 when
    /// closed), [`ShapeError::NonFiniteVertex`] (naming the point),
    /// [`ShapeError::TooLarge`] for a coordinate beyond
    /// [`tolerance::max_size`](crate::tolerance::max_size),
    /// [`ShapeError::NonFinite`] when the points' extent overflows, and
    /// [`ShapeError::DuplicateVertex`] for a point equal to the one before
    /// it (for a closed chain, point 0 equal to the last point names 0).
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::prelude::*;
    /// let p = |x, y| Point2::new(x, y);
    /// assert_eq!(
    ///     Polyline::new(&[p(0.0, 0.0), p(1.0, 0.0), p(1.0, 0.0)], false).unwrap_err(),
    ///     ShapeError::DuplicateVertex { index: 2 },
    /// );
    /// assert_eq!(
    ///     Polyline::new(&[p(0.0, 0.0), p(1.0, 0.0)], true).unwrap_err(),
    ///     ShapeError::TooFewVertices { count: 2, min: 3 },
    /// );
    /// ```
    pub fn new(points: &[Point2<T>], closed: bool) -> Result<Self, ShapeError> {
        check_vertices(points, if closed { 3 } else { 2 })?;
        let n = points.len();
        if u32::try_from(n).is_err() {
            return Err(ShapeError::TooLarge {
                field: "point count",
                value: n as f64,
            });
        }
        for i in 1..n {
            if points[i] == points[i - 1] {
                return Err(ShapeError::DuplicateVertex { index: i });
            }
        }
        if closed && points[0] == points[n - 1] {
            return Err(ShapeError::DuplicateVertex { index: 0 });
        }
        let edges = if closed { n } else { n - 1 };
        let segments = (0..edges)
            .map(|i| Segment::new(points[i], points[(i + 1) % n]))
            .collect::<Result<Vec<_>, _>>()?;
        let fronts = (0..edges)
            .map(|i| Unit::new_unchecked(outward_normal(&points[i], &points[(i + 1) % n])))
            .collect();
        let boxes: Vec<BoundingBox2<T>> = segments
            .iter()
            .map(|s| BoundingBox2::new(s.a().inf(&s.b()), s.a().sup(&s.b())))
            .collect();
        let tree = PartTree::new(&boxes);
        let local_bounds = boxes[1..].iter().fold(boxes[0], |b, c| b.merged(c));
        let hull = super::hull_points(points);
        let mut chain = Self {
            points: points.to_vec(),
            segments,
            fronts,
            closed,
            one_sided: false,
            arcs: Vec::new(),
            ranges: Vec::new(),
            tree,
            local_bounds,
            hull,
        };
        chain.compute_arcs();
        Ok(chain)
    }

    /// The chain made one-sided (`true`: it collides on its front, the right
    /// side of the direction of travel, only) or two-sided (`false`).
    #[must_use]
    pub fn with_one_sided(mut self, one_sided: bool) -> Self {
        self.one_sided = one_sided;
        self.compute_arcs();
        self
    }

    /// The points, as given.
    #[must_use]
    pub fn points(&self) -> &[Point2<T>] {
        &self.points
    }

    /// The segments (parts), in id order.
    #[must_use]
    pub fn segments(&self) -> &[Segment<T>] {
        &self.segments
    }

    /// Whether the last point joins back to the first.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Whether the chain collides on its front only.
    #[must_use]
    pub fn is_one_sided(&self) -> bool {
        self.one_sided
    }

    /// The earliest hit of `ray` on the chain placed at `pose`, and the id
    /// of the segment hit (module notes; `solid` does not matter).
    #[must_use]
    pub fn cast_ray_part(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<(u32, RayHit<T>)> {
        let one_sided = self.one_sided;
        cast_ray_parts(
            &self.tree,
            |id| self.part(id),
            |part, local| {
                one_sided
                    && part
                        .front
                        .is_some_and(|(_, n)| local.dir.dot(&n) >= T::zero())
            },
            pose,
            ray,
            max_toi,
            solid,
        )
    }

    /// The arcs of every segment (module notes), into `self.arcs`.
    fn compute_arcs(&mut self) {
        let n = self.points.len();
        let edges = self.segments.len();
        let closed = self.closed;
        let p64: Vec<Point2<f64>> = self
            .points
            .iter()
            .map(|p| Point2::new(p.x.as_f64(), p.y.as_f64()))
            .collect();
        // The turn at point k (between the edge into it and the edge out of
        // it): positive left, negative right, zero straight or none.
        let turn = |k: usize| -> f64 {
            let has_both = closed || (k > 0 && k + 1 < n);
            if !has_both {
                return 0.0;
            }
            orient(&p64[(k + n - 1) % n], &p64[k], &p64[(k + 1) % n])
        };
        let right = |i: usize| self.fronts[i % edges];
        let left = |i: usize| -self.fronts[i % edges];
        let mut arcs = Vec::with_capacity(2 * edges);
        let mut ranges = Vec::with_capacity(edges);
        for i in 0..edges {
            let (start, end) = (i, (i + 1) % n);
            let open_start = !closed && i == 0;
            let open_end = !closed && i + 1 == edges;
            let (t0, t1) = (turn(start), turn(end));
            let prev = (i + edges - 1) % edges;
            let next = (i + 1) % edges;
            let d = Unit::new_unchecked(unit_vector(&(self.points[end] - self.points[start])));
            // Right side: from the start vertex to the end vertex.
            let r_from = if t0 > 0.0 { right(prev) } else { right(i) };
            let r_to = if t1 > 0.0 { right(next) } else { right(i) };
            // Left side: from the end vertex to the start vertex.
            let l_from = if t1 < 0.0 { left(next) } else { left(i) };
            let l_to = if t0 < 0.0 { left(prev) } else { left(i) };
            let first = arcs.len() as u32;
            if self.one_sided {
                let from = if open_start { -d } else { r_from };
                let to = if open_end { d } else { r_to };
                arcs.push(NormalArc::new(from, to));
            } else if open_start && open_end {
                ranges.push(Arcs::All);
                continue;
            } else if open_start {
                // Left arc, the start cap (l → −d → r), the right arc.
                arcs.push(NormalArc::new(l_from, r_to));
            } else if open_end {
                // Right arc, the end cap (r → d → l), the left arc.
                arcs.push(NormalArc::new(r_from, l_to));
            } else {
                arcs.push(NormalArc::new(r_from, r_to));
                arcs.push(NormalArc::new(l_from, l_to));
            }
            ranges.push(Arcs::Some {
                start: first,
                len: arcs.len() as u32 - first,
            });
        }
        self.arcs = arcs;
        self.ranges = ranges;
    }
}

impl<T: Real> Composite<T> for Polyline<T> {
    /// The inherent [`cast_ray_part`](Self::cast_ray_part), through the
    /// composite's own index.
    fn cast_ray_part(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<(u32, RayHit<T>)> {
        Self::cast_ray_part(self, pose, ray, max_toi, solid)
    }

    fn part_count(&self) -> usize {
        self.segments.len()
    }

    fn part(&self, id: u32) -> Option<Part<'_, T>> {
        let i = id as usize;
        let segment = self.segments.get(i)?;
        let normals = self.ranges.get(i)?.slice(&self.arcs);
        Some(Part {
            id,
            shape: ShapeRef::Segment(segment),
            pose: Isometry2::identity(),
            normals,
            front: self.one_sided.then(|| (self.points[i], self.fronts[i])),
        })
    }

    fn visit_parts(
        &self,
        region: &BoundingBox2<T>,
        visit: &mut dyn FnMut(Part<'_, T>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        super::visit_tree(&self.tree, region, |id| self.part(id), visit)
    }

    fn visit_parts_near(
        &self,
        region: &BoundingBox2<T>,
        bound: &Cell<T>,
        visit: &mut dyn FnMut(Part<'_, T>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        super::visit_tree_near(&self.tree, region, bound, |id| self.part(id), visit)
    }

    fn local_bounds(&self) -> BoundingBox2<T> {
        self.local_bounds
    }
}

impl<T: Real> Polyline<T> {
    /// The tight bounding box at `pose` ([`Shape::bounding_box`]).
    pub(crate) fn world_bounds(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        super::hull_bounds(&self.local_bounds, &self.hull, pose)
    }
}

impl<T: Real> PointQuery<T> for Polyline<T> {
    /// The nearest point of the segments; `is_inside` when `p` lies on the
    /// chain (module notes).
    fn project_point(&self, pose: &Isometry2<T>, p: &Point2<T>, solid: bool) -> PointProjection<T> {
        project_parts(&self.tree, |id| self.part(id), pose, p, solid).map_or(
            PointProjection {
                point: *p,
                is_inside: false,
            },
            |(_, proj)| proj,
        )
    }
}

super::composite_shape!(Polyline, POLYLINE);
