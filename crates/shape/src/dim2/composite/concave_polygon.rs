//! A concave polygon: a simple polygon, solid, cut into convex parts.
//!
//! **Parts**: [`convex_decomposition`](crate::dim2::convex_decomposition)
//! (exact predicates, Hertel–Mehlhorn merging) cuts the polygon into convex
//! polygons made of the input vertices. [`ConvexPolygon`] keeps its vertices
//! as given (it does not re-centre them), so every part is placed with the
//! identity pose and its vertices are the input numbers exactly: parts that
//! share a diagonal share its end points bit for bit.
//!
//! **Admissible normals**: a part's edge is on the polygon's boundary when
//! it joins two consecutive vertices of the polygon in counter-clockwise
//! order; its other edges are diagonals, inside the polygon. Each run of
//! consecutive boundary edges of a part is one arc, from the first edge's
//! outward normal counter-clockwise to the last's (the part is convex, so
//! its normals turn counter-clockwise along the run, and the normal cone of
//! each vertex inside the run lies between them). At a run's end vertex the
//! next boundary edge belongs to another part (the part leaves the boundary
//! along a diagonal): where the polygon is convex at that vertex (the exact
//! orientation of the vertex and its neighbours is a left turn), the
//! vertex's normal cone reaches that edge's normal, and the arc is extended
//! to it, so that a contact at the corner is admissible whichever part
//! reports it; at a reflex vertex the arc stops at the part's own edge. A
//! diagonal's normals are never admitted. A part with no boundary edge
//! admits nothing; a polygon that is already convex (one part) admits every
//! direction.
//!
//! **Ray cast**: solid, the earliest of the parts' own solid hits through the
//! part tree (an origin in a part hits at time 0; from outside, the first
//! part entered is where the ray enters the polygon). Hollow, the first
//! point of the boundary on the ray: the earliest of the boundary edges' own
//! segment hits (a loop over the edges), whose normal faces the ray (inward
//! when leaving); an origin on the boundary hits there at time 0.
//! **Projection**: solid, the nearest of the parts' projections (a point in
//! a part is inside and projects to itself); hollow, the nearest point of
//! the boundary edges (a loop), `is_inside` from the parts.

use alloc::vec::Vec;
use core::cell::Cell;
use core::ops::ControlFlow;

use nalgebra::{Isometry2, Point2, Unit};

use super::{Arcs, Composite, NormalArc, Part, PartTree, cast_ray_parts, project_parts};
use crate::dim2::convex_decomposition;
use crate::dim2::decompose::orient;
use crate::dim2::polygonal::{outward_normal, twice_signed_area};
use crate::{
    BoundingBox2, ConvexPolygon, PointProjection, PointQuery, Ray, RayCast, RayHit, Real, Segment,
    Shape, ShapeError, ShapeRef,
};

/// A simple polygon, concave or not, as one solid shape made of convex
/// parts (module notes).
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use shape::prelude::*;
/// use shape::dim2::composite::Composite;
/// // An L: one reflex corner at (1, 1).
/// let l = ConcavePolygon::new(&[
///     Point2::new(0.0, 0.0), Point2::new(2.0, 0.0), Point2::new(2.0, 1.0),
///     Point2::new(1.0, 1.0), Point2::new(1.0, 2.0), Point2::new(0.0, 2.0),
/// ]).unwrap();
/// assert_eq!(l.area(), 3.0);
/// assert_eq!(l.parts().len(), 2);
/// let id = Isometry2::identity();
/// assert!(l.contains_point(&id, &Point2::new(0.5, 1.5)));
/// assert!(!l.contains_point(&id, &Point2::new(1.5, 1.5)));
/// let ray = Ray::new(Point2::new(1.5, 3.0), Vector2::new(0.0, -1.0));
/// assert_eq!(l.cast_ray(&id, &ray, 10.0, true).unwrap().toi, 2.0);
/// ```
#[derive(Debug, Clone)]
pub struct ConcavePolygon<T: Real> {
    /// Counter-clockwise.
    vertices: Vec<Point2<T>>,
    /// The boundary edges as segments: edge `i` from vertex `i` to `i + 1`.
    edges: Vec<Segment<T>>,
    parts: Vec<ConvexPolygon<T>>,
    arcs: Vec<NormalArc<T>>,
    ranges: Vec<Arcs>,
    tree: PartTree<T>,
    local_bounds: BoundingBox2<T>,
    /// The hull of the points: the bounding box at a rotation reads these.
    hull: Vec<Point2<T>>,
}

impl<T: Real> ConcavePolygon<T> {
    /// The polygon with these vertices, in either winding (stored
    /// counter-clockwise, keeping the first vertex first).
    ///
    /// # Errors
    /// Every error of [`convex_decomposition`]: too few, non-finite or too
    /// large vertices, a vertex repeating the one before it
    /// ([`ShapeError::DuplicateVertex`]) or on the line through its
    /// neighbours ([`ShapeError::CollinearVertices`]), edges that touch or
    /// cross ([`ShapeError::EdgesCross`]), a sliver part
    /// ([`ShapeError::DegeneratePart`]); each names the input index.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::prelude::*;
    /// let p = |x, y| Point2::new(x, y);
    /// let bowtie = [p(0.0, 0.0), p(1.0, 1.0), p(1.0, 0.0), p(0.0, 1.0)];
    /// assert_eq!(
    ///     ConcavePolygon::new(&bowtie).unwrap_err(),
    ///     ShapeError::EdgesCross { edge: 0, other: 2 },
    /// );
    /// ```
    pub fn new(vertices: &[Point2<T>]) -> Result<Self, ShapeError> {
        let parts = convex_decomposition(vertices)?;
        let n = vertices.len();
        let vertices: Vec<Point2<T>> = if twice_signed_area(vertices) < T::zero() {
            (0..n).map(|i| vertices[(n - i) % n]).collect()
        } else {
            vertices.to_vec()
        };
        let edges = (0..n)
            .map(|i| Segment::new(vertices[i], vertices[(i + 1) % n]))
            .collect::<Result<Vec<_>, _>>()?;
        let boxes: Vec<BoundingBox2<T>> = parts
            .iter()
            .map(|p| p.bounding_box(&Isometry2::identity()))
            .collect();
        let tree = PartTree::new(&boxes);
        let local_bounds = crate::dim2::polygonal::bounds(&vertices, &Isometry2::identity());
        let hull = super::hull_points(&vertices);
        let mut polygon = Self {
            vertices,
            edges,
            parts,
            arcs: Vec::new(),
            ranges: Vec::new(),
            tree,
            local_bounds,
            hull,
        };
        polygon.compute_arcs();
        Ok(polygon)
    }

    /// The admissible arcs of every part (module notes).
    fn compute_arcs(&mut self) {
        let v = &self.vertices;
        let n = v.len();
        let p64: Vec<Point2<f64>> = v
            .iter()
            .map(|p| Point2::new(p.x.as_f64(), p.y.as_f64()))
            .collect();
        let convex = |i: usize| orient(&p64[(i + n - 1) % n], &p64[i], &p64[(i + 1) % n]) > 0.0;
        // Vertex → its counter-clockwise index (the vertices are distinct: the
        // polygon is simple).
        let mut lookup: Vec<(Point2<T>, usize)> = v.iter().copied().zip(0..n).collect();
        let key = |p: &Point2<T>| (p.x, p.y);
        lookup.sort_unstable_by(|a, b| {
            key(&a.0)
                .partial_cmp(&key(&b.0))
                .unwrap_or(core::cmp::Ordering::Equal)
        });
        let index_of = |p: &Point2<T>| -> usize {
            lookup
                .binary_search_by(|e| {
                    key(&e.0)
                        .partial_cmp(&key(p))
                        .unwrap_or(core::cmp::Ordering::Equal)
                })
                .map_or(0, |k| lookup[k].1)
        };
        let mut arcs = Vec::new();
        let mut ranges = Vec::with_capacity(self.parts.len());
        for part in &self.parts {
            let pv = part.vertices();
            let m = pv.len();
            let idx: Vec<usize> = pv.iter().map(index_of).collect();
            let on_boundary = |k: usize| idx[(k + 1) % m] == (idx[k % m] + 1) % n;
            if (0..m).all(on_boundary) {
                ranges.push(Arcs::All);
                continue;
            }
            let first = arcs.len() as u32;
            for k in 0..m {
                if !on_boundary(k) || on_boundary(k + m - 1) {
                    continue;
                }
                let mut end = k;
                while on_boundary(end + 1) {
                    end += 1;
                }
                let normal = |e: usize| Unit::new_unchecked(part.normals()[e % m]);
                // Start vertex: the polygon edge into it belongs to another
                // part; convex there, the cone reaches its normal.
                let i = idx[k];
                let from = if convex(i) {
                    Unit::new_unchecked(outward_normal(&v[(i + n - 1) % n], &v[i]))
                } else {
                    normal(k)
                };
                let j = idx[(end + 1) % m];
                let to = if convex(j) {
                    Unit::new_unchecked(outward_normal(&v[j], &v[(j + 1) % n]))
                } else {
                    normal(end)
                };
                arcs.push(NormalArc::new(from, to));
            }
            ranges.push(Arcs::Some {
                start: first,
                len: arcs.len() as u32 - first,
            });
        }
        self.arcs = arcs;
        self.ranges = ranges;
    }

    /// The vertices, counter-clockwise.
    #[must_use]
    pub fn vertices(&self) -> &[Point2<T>] {
        &self.vertices
    }

    /// The convex parts, in id order (identity poses).
    #[must_use]
    pub fn parts(&self) -> &[ConvexPolygon<T>] {
        &self.parts
    }

    /// The area (positive).
    #[must_use]
    pub fn area(&self) -> T {
        twice_signed_area(&self.vertices) * T::half()
    }

    /// Whether world point `p` lies in the closed polygon placed at `pose`:
    /// in one of its parts (closed).
    #[must_use]
    pub fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        let q = pose.inverse_transform_point(p);
        let here = BoundingBox2::new(q, q);
        self.tree
            .visit(&here, |id| {
                let held = self
                    .parts
                    .get(id as usize)
                    .is_some_and(|part| crate::Convex::contains_point(part, pose, p));
                if held {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .is_break()
    }

    /// The earliest hit of `ray` on the polygon placed at `pose`, with the
    /// part hit (solid) or the boundary edge hit (hollow; edge `i` runs from
    /// vertex `i` to `i + 1`): module notes.
    #[must_use]
    pub fn cast_ray_part(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<(u32, RayHit<T>)> {
        if solid {
            return cast_ray_parts(
                &self.tree,
                |id| self.part(id),
                |_, _| false,
                pose,
                ray,
                max_toi,
                true,
            );
        }
        let mut best: Option<(u32, RayHit<T>)> = None;
        for (i, e) in self.edges.iter().enumerate() {
            let limit = best.map_or(max_toi, |(_, h)| h.toi);
            if let Some(h) = e.cast_ray(pose, ray, limit, false) {
                if best.is_none_or(|(_, b)| h.toi < b.toi) {
                    best = Some((i as u32, h));
                }
            }
        }
        best
    }
}

impl<T: Real> Composite<T> for ConcavePolygon<T> {
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
        self.parts.len()
    }

    fn part(&self, id: u32) -> Option<Part<'_, T>> {
        let i = id as usize;
        Some(Part {
            id,
            shape: ShapeRef::Polygon(self.parts.get(i)?),
            pose: Isometry2::identity(),
            normals: self.ranges.get(i)?.slice(&self.arcs),
            front: None,
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

impl<T: Real> ConcavePolygon<T> {
    /// The tight bounding box at `pose` ([`Shape::bounding_box`]).
    pub(crate) fn world_bounds(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        super::hull_bounds(&self.local_bounds, &self.hull, pose)
    }
}

impl<T: Real> PointQuery<T> for ConcavePolygon<T> {
    /// Module notes: through the parts (solid) or the boundary (hollow).
    fn project_point(&self, pose: &Isometry2<T>, p: &Point2<T>, solid: bool) -> PointProjection<T> {
        if solid {
            return project_parts(&self.tree, |id| self.part(id), pose, p, true).map_or(
                PointProjection {
                    point: *p,
                    is_inside: false,
                },
                |(_, proj)| proj,
            );
        }
        let q = pose.inverse_transform_point(p);
        let mut best: Option<(T, Point2<T>)> = None;
        for e in &self.edges {
            let x = e.closest_point(&q);
            let d = (x - q).norm_squared();
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, x));
            }
        }
        PointProjection {
            point: best.map_or(*p, |(_, x)| pose * x),
            is_inside: self.contains_point(pose, p),
        }
    }
}

super::composite_shape!(ConcavePolygon, CONCAVE_POLYGON);
