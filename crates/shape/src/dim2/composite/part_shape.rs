//! An owned built-in convex shape: what a [`Compound`](super::Compound)
//! stores for each part.

use crate::{
    Aabb, Capsule, Circle, ConvexPolygon, Ellipse, Obb, Point, Real, RoundedPolygon, Segment,
    ShapeRef, Triangle,
};

/// One built-in convex 2D shape, owned: a part of a
/// [`Compound`](super::Compound). Every built-in shape converts into it with
/// `.into()`.
///
/// ```
/// use nalgebra::Vector2;
/// use shape::prelude::*;
/// use shape::dim2::composite::ConvexPart;
/// let part: ConvexPart<f64> = Circle::new(1.0).unwrap().into();
/// assert_eq!(part.as_ref().kind(), ShapeKind::CIRCLE);
/// let part: ConvexPart<f64> = Obb::new(Vector2::new(1.0, 2.0)).unwrap().into();
/// assert!(matches!(part, ConvexPart::Obb(_)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ConvexPart<T: Real> {
    /// A [`Point`].
    Point(Point<T>),
    /// A [`Segment`].
    Segment(Segment<T>),
    /// A [`Circle`].
    Circle(Circle<T>),
    /// An [`Aabb`]: it stays axis-aligned in the world whatever the poses
    /// (its own and the compound's rotations are ignored).
    Aabb(Aabb<T>),
    /// An [`Obb`].
    Obb(Obb<T>),
    /// A [`Triangle`].
    Triangle(Triangle<T>),
    /// A [`ConvexPolygon`].
    Polygon(ConvexPolygon<T>),
    /// A [`Capsule`].
    Capsule(Capsule<T>),
    /// An [`Ellipse`].
    Ellipse(Ellipse<T>),
    /// A [`RoundedPolygon`].
    RoundedPolygon(RoundedPolygon<T>),
}

impl<T: Real> ConvexPart<T> {
    /// The shape, borrowed as the narrow phase matches on it.
    #[must_use]
    pub fn as_ref(&self) -> ShapeRef<'_, T> {
        match self {
            Self::Point(s) => ShapeRef::Point(s),
            Self::Segment(s) => ShapeRef::Segment(s),
            Self::Circle(s) => ShapeRef::Circle(s),
            Self::Aabb(s) => ShapeRef::Aabb(s),
            Self::Obb(s) => ShapeRef::Obb(s),
            Self::Triangle(s) => ShapeRef::Triangle(s),
            Self::Polygon(s) => ShapeRef::Polygon(s),
            Self::Capsule(s) => ShapeRef::Capsule(s),
            Self::Ellipse(s) => ShapeRef::Ellipse(s),
            Self::RoundedPolygon(s) => ShapeRef::RoundedPolygon(s),
        }
    }
}

macro_rules! from_shape {
    ($($ty:ident => $variant:ident),* $(,)?) => {
        $(
            impl<T: Real> From<$ty<T>> for ConvexPart<T> {
                fn from(s: $ty<T>) -> Self {
                    Self::$variant(s)
                }
            }
        )*
    };
}

from_shape!(
    Point => Point,
    Segment => Segment,
    Circle => Circle,
    Aabb => Aabb,
    Obb => Obb,
    Triangle => Triangle,
    ConvexPolygon => Polygon,
    Capsule => Capsule,
    Ellipse => Ellipse,
    RoundedPolygon => RoundedPolygon,
);
