//! The two traits every 2D collidable thing implements: [`Shape`] (what the
//! framework needs of any shape) and [`SupportSeparatingAxes`] (what the
//! separating-axis test needs), plus [`Convex`] for support-map algorithms.

use core::any::Any;
use core::fmt::Debug;

use nalgebra::{Isometry2, Point2, Vector2};

use crate::{BoundingBox2, PointQuery, RayCast, Real, ShapeKind, ShapeRef};

/// What every 2D collidable thing provides to the framework.
///
/// A pose (`Isometry2`: a rotation then a translation) places the shape's local
/// frame in the world. The dispatch table of the narrow phase looks at
/// [`kind`](Shape::kind) to pick a kernel and at [`as_any`](Shape::as_any) to
/// reach the concrete data the kernel works on.
///
/// # Implementing it for a game entity
///
/// An entity can *be* a built-in shape for collision purposes: report the
/// built-in kind and hand out the built-in shape from `as_any`, and every
/// specialised kernel applies. Or it can be a new kind of its own (see
/// [`ShapeKind::custom`]) and reach the generic algorithms through
/// [`as_convex`](Shape::as_convex) and
/// [`as_separating_axes`](Shape::as_separating_axes).
///
/// ```
/// use core::any::Any;
/// use nalgebra::{Isometry2, Vector2};
/// use shape::prelude::*;
///
/// /// A player whose hit box is a rotated rectangle.
/// #[derive(Debug)]
/// struct Player {
///     name: String,
///     hit_box: Obb<f32>,
/// }
///
/// impl Shape<f32> for Player {
///     fn kind(&self) -> ShapeKind { ShapeKind::OBB }
///     fn as_any(&self) -> &dyn Any { &self.hit_box }
///     fn bounding_box(&self, pose: &Isometry2<f32>) -> BoundingBox2<f32> {
///         self.hit_box.bounding_box(pose)
///     }
///     fn as_convex(&self) -> Option<&dyn Convex<f32>> { Some(&self.hit_box) }
///     fn as_separating_axes(&self) -> Option<&dyn SupportSeparatingAxes<f32>> {
///         Some(&self.hit_box)
///     }
/// }
///
/// let p = Player { name: "ayaka".into(), hit_box: Obb::new(Vector2::new(0.5, 1.0)).unwrap() };
/// let pose = Isometry2::new(Vector2::new(10.0, 0.0), 0.0);
/// let b = p.bounding_box(&pose);
/// assert_eq!((b.min.x, b.max.y), (9.5, 1.0));
/// assert!(p.as_any().downcast_ref::<Obb<f32>>().is_some());
/// ```
pub trait Shape<T: Real>: Any + Debug + Send + Sync {
    /// The kind the dispatch table keys on.
    fn kind(&self) -> ShapeKind;

    /// The concrete data for the kernels of [`kind`](Shape::kind): for a built-in
    /// kind, the built-in shape (`Circle<T>`, `Obb<T>`, ...); for a custom kind,
    /// whatever type the user's kernels downcast to (usually `self`).
    fn as_any(&self) -> &dyn Any;

    /// [`kind`](Self::kind) and [`as_any`](Self::as_any) in one call: what the
    /// dispatch table reads of every shape, fetched through the vtable once.
    /// Provided; there is no reason to override it.
    #[inline]
    fn kind_and_data(&self) -> (ShapeKind, &dyn Any) {
        (self.kind(), self.as_any())
    }

    /// The tightest axis-aligned box around the shape placed at `pose`.
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T>;

    /// The pose the shape's geometry is actually placed with. Shapes that ignore
    /// rotation (the [`Aabb`](crate::Aabb)) drop it here; everything else returns
    /// `pose` unchanged. Kernels receive relative poses built from this.
    fn effective_pose(&self, pose: &Isometry2<T>) -> Isometry2<T> {
        *pose
    }

    /// Support function and containment, for convex shapes (GJK fallbacks, point
    /// queries). `None` for shapes that are not convex.
    fn as_convex(&self) -> Option<&dyn Convex<T>> {
        None
    }

    /// The separating-axis view, for shapes that offer one.
    fn as_separating_axes(&self) -> Option<&dyn SupportSeparatingAxes<T>> {
        None
    }

    /// The built-in shape this is, by its type, when [`kind`](Self::kind) is a
    /// built-in kind and [`as_any`](Self::as_any) returns that kind's type:
    /// what the narrow phase matches on for built-in pairs. Provided (it
    /// downcasts `as_any()`); the built-in shapes answer directly. There is no
    /// reason to override it.
    #[inline]
    fn as_builtin(&self) -> Option<ShapeRef<'_, T>> {
        ShapeRef::from_kind(self.kind(), self.as_any())
    }

    /// The shape's own ray cast, for a user kind that has one; otherwise the
    /// narrow phase casts rays from [`as_convex`](Self::as_convex)'s support
    /// function. Built-in kinds need not answer: they are cast by their type.
    fn as_ray_cast(&self) -> Option<&dyn RayCast<T>> {
        None
    }

    /// The shape's own point projection, for a user kind that has one;
    /// otherwise the narrow phase projects with
    /// [`as_convex`](Self::as_convex)'s support function.
    fn as_point_query(&self) -> Option<&dyn PointQuery<T>> {
        None
    }

    /// The shape's convex parts, for a composite shape (a compound, a chain,
    /// a concave polygon, a tile map: see [`crate::dim2::composite`]); the
    /// narrow phase then answers every pair query part by part. `None` for a
    /// shape that is one convex piece.
    fn as_composite(&self) -> Option<&dyn crate::dim2::composite::Composite<T>> {
        None
    }
}

/// A closed convex set, described by its support function.
///
/// All points are in the frame that `pose` maps the shape's local frame into
/// (usually the world).
pub trait Convex<T: Real> {
    /// A point of the shape that maximises `p · dir`.
    ///
    /// `dir` need not be unit. For a zero direction every point is a maximiser and
    /// a deterministic one is returned (the shape's reference point).
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T>;

    /// Whether `p` lies in the closed shape (the boundary counts).
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool;
}

/// A closed interval `[min, max]` on a line: a shape's projection on an axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval<T: Real> {
    /// Lower end.
    pub min: T,
    /// Upper end.
    pub max: T,
}

impl<T: Real> Interval<T> {
    /// The interval `[min, max]`.
    #[must_use]
    pub fn new(min: T, max: T) -> Self {
        Self { min, max }
    }

    /// The smallest interval holding every value of a non-empty iterator, or
    /// `None` if it is empty.
    #[must_use]
    pub fn hull(values: impl IntoIterator<Item = T>) -> Option<Self> {
        let mut it = values.into_iter();
        let first = it.next()?;
        Some(it.fold(Self::new(first, first), |i, v| {
            Self::new(
                num_traits::Float::min(i.min, v),
                num_traits::Float::max(i.max, v),
            )
        }))
    }

    /// How far the two closed intervals overlap: negative when there is a gap
    /// (its length, negated), zero when they touch.
    #[must_use]
    #[inline]
    pub fn overlap(&self, other: &Self) -> T {
        num_traits::Float::min(self.max - other.min, other.max - self.min)
    }

    /// Whether `v` lies in the closed interval.
    #[must_use]
    #[inline]
    pub fn contains(&self, v: T) -> bool {
        self.min <= v && v <= self.max
    }
}

/// What a shape offers to the separating-axis test (SAT).
///
/// Two convex shapes are disjoint exactly when some axis separates their
/// projections. For polygons the edge normals of both are enough (seed 000). A
/// *rounded* shape (circle, capsule: a core grown by a radius) adds the axes from
/// its core's vertices to the nearest point of the other shape's core, which the
/// other shape reports through [`nearest_core_point`](Self::nearest_core_point).
/// With these axes the generic SAT ([`crate::sat`]) decides any pair and finds
/// the minimum translation exactly: the minimising direction of the penetration
/// depth is always one of them.
///
/// All points and axes are in the frame that `pose` maps the local frame into.
pub trait SupportSeparatingAxes<T: Real> {
    /// The interval of `p · axis` over the shape. `axis` need not be unit; the
    /// interval is then scaled by its length (both shapes alike).
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T>;

    /// Calls `axis` once for each candidate separating axis this shape contributes
    /// against `other` (edge normals; for rounded shapes also the directions from
    /// each core vertex to `other.nearest_core_point(..)`). Axes need not be unit;
    /// zero axes are ignored by the caller.
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        other: &dyn SupportSeparatingAxes<T>,
        other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    );

    /// The point of the shape's *core* closest to `p`: the core is the shape with
    /// its rounding radius removed (a circle's centre, a capsule's segment, a
    /// polygon itself). For a polygonal core, its vertex nearest to `p` is also an
    /// acceptable answer.
    fn nearest_core_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> Point2<T>;
}
