//! A compound: built-in convex parts, each with its own pose.
//!
//! The shape is the union of its parts; each part is placed by its pose in
//! the compound's frame, and the compound by its own pose in the world (a
//! part's world pose is `pose * part_pose`). Every direction is an
//! admissible normal of every part (`Part::normals` is `None`): the parts are
//! free-standing pieces of one body, and a contact with any of them is a
//! contact with the body.
//!
//! **Finding parts**: a static bounding-volume tree over the parts' boxes in
//! the compound's frame (`tree.rs`); with at most four parts it is a single
//! leaf, a plain loop. An [`Aabb`](crate::Aabb) part ignores rotations (its
//! own pose's and the compound's), so in the compound's frame it may lie
//! anywhere on the circle its box sweeps about the part's position: the tree
//! holds that circle's box for it, so the tree never misses it.
//!
//! **Bounding box**: the union of the parts' own bounding boxes at
//! `pose * part_pose` (exact and tight: each part's box is).
//!
//! **Ray cast**: the earliest of the parts' own hits (ties to the lower
//! part id), through the tree; `solid` is passed to each part, so a hollow
//! cast from inside a part reports where the ray leaves *that part* (or
//! first enters another one), not the union's boundary. **Projection**: the
//! nearest of the parts' own projections (ties to the lower id);
//! `is_inside` when some part holds the point; a hollow projection of a
//! point inside goes to the nearest boundary point of the parts (which may
//! lie inside another part where parts overlap).

use alloc::vec::Vec;
use core::cell::Cell;
use core::ops::ControlFlow;

use nalgebra::{Isometry2, Point2, Vector2};

use super::{Composite, ConvexPart, Part, PartTree, cast_ray_parts, project_parts};
use crate::{BoundingBox2, PointProjection, PointQuery, Ray, RayHit, Real, ShapeError};

/// Built-in convex shapes with poses, as one shape: a body made of boxes and
/// circles, a vehicle, a character with separate hit boxes.
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use shape::prelude::*;
/// // A dumbbell: two balls on a bar.
/// let dumbbell = Compound::new(vec![
///     (Isometry2::translation(-2.0, 0.0), Circle::new(1.0).unwrap().into()),
///     (Isometry2::translation(2.0, 0.0), Circle::new(1.0).unwrap().into()),
///     (Isometry2::identity(), Obb::new(Vector2::new(2.0, 0.25)).unwrap().into()),
/// ]).unwrap();
/// let b = dumbbell.bounding_box(&Isometry2::identity());
/// assert_eq!((b.min, b.max), (Point2::new(-3.0, -1.0), Point2::new(3.0, 1.0)));
/// let ray = Ray::new(Point2::new(-10.0, 0.0), Vector2::new(1.0, 0.0));
/// let (part, hit) = dumbbell.cast_ray_part(&Isometry2::identity(), &ray, 100.0, true).unwrap();
/// assert_eq!((part, hit.toi), (0, 7.0));
/// ```
#[derive(Debug, Clone)]
pub struct Compound<T: Real> {
    parts: Vec<(Isometry2<T>, ConvexPart<T>)>,
    tree: PartTree<T>,
    local_bounds: BoundingBox2<T>,
}

impl<T: Real> Compound<T> {
    /// The compound of these parts, each with its pose in the compound's
    /// frame. Part ids are the indices in `parts`.
    ///
    /// # Errors
    /// [`ShapeError::NoParts`] for an empty list,
    /// [`ShapeError::InvalidPartPose`] (naming the part) for a pose with a
    /// NaN or infinite number or a translation beyond
    /// [`tolerance::max_size`](crate::tolerance::max_size). The parts
    /// themselves were validated by their own constructors.
    ///
    /// ```
    /// use nalgebra::Isometry2;
    /// use shape::prelude::*;
    /// use shape::dim2::composite::ConvexPart;
    /// assert_eq!(Compound::<f32>::new(vec![]).unwrap_err(), ShapeError::NoParts);
    /// let bad = Isometry2::translation(f32::NAN, 0.0);
    /// let part: ConvexPart<f32> = Circle::new(1.0).unwrap().into();
    /// assert_eq!(
    ///     Compound::new(vec![(Isometry2::identity(), part.clone()), (bad, part)]).unwrap_err(),
    ///     ShapeError::InvalidPartPose { index: 1 },
    /// );
    /// ```
    pub fn new(parts: Vec<(Isometry2<T>, ConvexPart<T>)>) -> Result<Self, ShapeError> {
        if parts.is_empty() {
            return Err(ShapeError::NoParts);
        }
        if u32::try_from(parts.len()).is_err() {
            return Err(ShapeError::TooLarge {
                field: "part count",
                value: parts.len() as f64,
            });
        }
        let limit = crate::tolerance::max_size::<T>();
        for (index, (pose, _)) in parts.iter().enumerate() {
            let t = pose.translation.vector;
            let r = pose.rotation.complex();
            let ok = [t.x, t.y, r.re, r.im]
                .iter()
                .all(|v| num_traits::Float::is_finite(*v))
                && num_traits::Float::abs(t.x) <= limit
                && num_traits::Float::abs(t.y) <= limit;
            if !ok {
                return Err(ShapeError::InvalidPartPose { index });
            }
        }
        let boxes: Vec<BoundingBox2<T>> = parts.iter().map(|(pose, s)| tree_box(pose, s)).collect();
        let tree = PartTree::new(&boxes);
        let local_bounds = bounds_of(&parts, &Isometry2::identity());
        Ok(Self {
            parts,
            tree,
            local_bounds,
        })
    }

    /// The parts with their poses, in id order.
    #[must_use]
    pub fn parts(&self) -> &[(Isometry2<T>, ConvexPart<T>)] {
        &self.parts
    }

    /// The number of parts.
    #[must_use]
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Always `false`: a compound has at least one part.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The earliest hit of `ray` on the compound placed at `pose`, and the
    /// id of the part hit (module notes: the least time over the parts, ties
    /// to the lower id).
    #[must_use]
    pub fn cast_ray_part(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<(u32, RayHit<T>)> {
        cast_ray_parts(
            &self.tree,
            |id| self.part(id),
            |_, _| false,
            pose,
            ray,
            max_toi,
            solid,
        )
    }
}

/// A part's box in the compound's frame as the tree holds it: its bounding
/// box at its pose; for an [`Aabb`](crate::Aabb), which turns with no pose,
/// the box of the circle its corners sweep about the part's position.
fn tree_box<T: Real>(pose: &Isometry2<T>, part: &ConvexPart<T>) -> BoundingBox2<T> {
    match part {
        ConvexPart::Aabb(a) => {
            let r = num_traits::Float::max(
                crate::dim2::scaled_norm(&a.min().coords),
                crate::dim2::scaled_norm(&a.max().coords),
            );
            // The corners' distances up to rounding: widen by a relative 4 ε.
            let r = r * (T::one() + T::epsilon() * T::lit(4.0));
            let c = Point2::from(pose.translation.vector);
            BoundingBox2::new(c - Vector2::repeat(r), c + Vector2::repeat(r))
        }
        _ => part.as_ref().as_shape().bounding_box(pose),
    }
}

/// The union of the parts' bounding boxes with the compound at `pose`.
fn bounds_of<T: Real>(
    parts: &[(Isometry2<T>, ConvexPart<T>)],
    pose: &Isometry2<T>,
) -> BoundingBox2<T> {
    let mut it = parts
        .iter()
        .map(|(p, s)| s.as_ref().as_shape().bounding_box(&(pose * p)));
    let first = it.next().unwrap_or(BoundingBox2::new(
        Point2::from(pose.translation.vector),
        Point2::from(pose.translation.vector),
    ));
    it.fold(first, |b, c| b.merged(&c))
}

impl<T: Real> Composite<T> for Compound<T> {
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
        self.parts.get(id as usize).map(|(pose, shape)| Part {
            id,
            shape: shape.as_ref(),
            pose: *pose,
            normals: None,
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

impl<T: Real> Compound<T> {
    /// The tight bounding box at `pose` ([`Shape::bounding_box`]).
    pub(crate) fn world_bounds(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        bounds_of(&self.parts, pose)
    }
}

impl<T: Real> PointQuery<T> for Compound<T> {
    /// The nearest of the parts' projections (module notes).
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

super::composite_shape!(Compound, COMPOUND);
