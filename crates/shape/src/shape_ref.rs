//! The built-in shapes as one closed set: [`ShapeRef`] (2D) and [`ShapeRef3`]
//! (3D) borrow a built-in shape by its type, so the narrow phase can answer a
//! pair of built-in shapes with a `match` on two small enums instead of
//! downcasting through `Any`. User kinds are not in it: they go through the
//! dispatch table's registered kernels and the generic fallbacks.
//!
//! Every shape hands one out through [`Shape::as_builtin`] (one call through
//! the vtable); the built-in shapes answer directly, and a user type that
//! reports a built-in kind gets the right variant from the provided method,
//! which downcasts its [`as_any`](Shape::as_any) data.

use core::any::Any;

use crate::{
    Aabb, Aabb3, Capsule, Circle, ConvexPolygon, Cuboid, Ellipse, Obb, Point, Real, RoundedPolygon,
    Segment, Shape, Shape3, ShapeKind, Sphere, Triangle,
};

/// A built-in 2D shape, borrowed by its type.
///
/// ```
/// use nalgebra::Vector2;
/// use shape::prelude::*;
/// let b = Obb::<f32>::new(Vector2::new(1.0, 2.0)).unwrap();
/// let s: &dyn Shape<f32> = &b;
/// let r = s.as_builtin().unwrap();
/// assert_eq!(r.kind(), ShapeKind::OBB);
/// assert!(matches!(r, ShapeRef::Obb(o) if o.half_extents().y == 2.0));
/// ```
#[derive(Debug, Clone, Copy)]
pub enum ShapeRef<'a, T: Real> {
    /// A [`Point`].
    Point(&'a Point<T>),
    /// A [`Segment`].
    Segment(&'a Segment<T>),
    /// A [`Circle`].
    Circle(&'a Circle<T>),
    /// An [`Aabb`].
    Aabb(&'a Aabb<T>),
    /// An [`Obb`].
    Obb(&'a Obb<T>),
    /// A [`Triangle`].
    Triangle(&'a Triangle<T>),
    /// A [`ConvexPolygon`].
    Polygon(&'a ConvexPolygon<T>),
    /// A [`Capsule`].
    Capsule(&'a Capsule<T>),
    /// An [`Ellipse`].
    Ellipse(&'a Ellipse<T>),
    /// A [`RoundedPolygon`].
    RoundedPolygon(&'a RoundedPolygon<T>),
}

impl<'a, T: Real> ShapeRef<'a, T> {
    /// The built-in shape behind `data` when `kind` is a built-in 2D kind and
    /// `data` is of its type; `None` otherwise (a user kind, or data that does
    /// not match its kind).
    #[must_use]
    #[inline] // a user kind's default `as_builtin` then folds to `None`
    pub fn from_kind(kind: ShapeKind, data: &'a dyn Any) -> Option<Self> {
        Some(match kind {
            ShapeKind::POINT => Self::Point(data.downcast_ref()?),
            ShapeKind::SEGMENT => Self::Segment(data.downcast_ref()?),
            ShapeKind::CIRCLE => Self::Circle(data.downcast_ref()?),
            ShapeKind::AABB => Self::Aabb(data.downcast_ref()?),
            ShapeKind::OBB => Self::Obb(data.downcast_ref()?),
            ShapeKind::TRIANGLE => Self::Triangle(data.downcast_ref()?),
            ShapeKind::CONVEX_POLYGON => Self::Polygon(data.downcast_ref()?),
            ShapeKind::CAPSULE => Self::Capsule(data.downcast_ref()?),
            ShapeKind::ELLIPSE => Self::Ellipse(data.downcast_ref()?),
            ShapeKind::ROUNDED_POLYGON => Self::RoundedPolygon(data.downcast_ref()?),
            _ => return None,
        })
    }

    /// The shape's kind.
    #[must_use]
    #[inline]
    pub fn kind(self) -> ShapeKind {
        match self {
            Self::Point(_) => ShapeKind::POINT,
            Self::Segment(_) => ShapeKind::SEGMENT,
            Self::Circle(_) => ShapeKind::CIRCLE,
            Self::Aabb(_) => ShapeKind::AABB,
            Self::Obb(_) => ShapeKind::OBB,
            Self::Triangle(_) => ShapeKind::TRIANGLE,
            Self::Polygon(_) => ShapeKind::CONVEX_POLYGON,
            Self::Capsule(_) => ShapeKind::CAPSULE,
            Self::Ellipse(_) => ShapeKind::ELLIPSE,
            Self::RoundedPolygon(_) => ShapeKind::ROUNDED_POLYGON,
        }
    }

    /// The shape as a trait object.
    #[must_use]
    #[inline]
    pub fn as_shape(self) -> &'a dyn Shape<T> {
        match self {
            Self::Point(s) => s,
            Self::Segment(s) => s,
            Self::Circle(s) => s,
            Self::Aabb(s) => s,
            Self::Obb(s) => s,
            Self::Triangle(s) => s,
            Self::Polygon(s) => s,
            Self::Capsule(s) => s,
            Self::Ellipse(s) => s,
            Self::RoundedPolygon(s) => s,
        }
    }
}

/// A built-in 3D shape, borrowed by its type.
#[derive(Debug, Clone, Copy)]
pub enum ShapeRef3<'a, T: Real> {
    /// A [`Sphere`].
    Sphere(&'a Sphere<T>),
    /// A [`Cuboid`].
    Cuboid(&'a Cuboid<T>),
    /// An [`Aabb3`].
    Aabb3(&'a Aabb3<T>),
}

impl<'a, T: Real> ShapeRef3<'a, T> {
    /// The built-in shape behind `data` when `kind` is a built-in 3D kind and
    /// `data` is of its type; `None` otherwise.
    #[must_use]
    pub fn from_kind(kind: ShapeKind, data: &'a dyn Any) -> Option<Self> {
        Some(match kind {
            ShapeKind::SPHERE => Self::Sphere(data.downcast_ref()?),
            ShapeKind::CUBOID => Self::Cuboid(data.downcast_ref()?),
            ShapeKind::AABB3 => Self::Aabb3(data.downcast_ref()?),
            _ => return None,
        })
    }

    /// The shape's kind.
    #[must_use]
    #[inline]
    pub fn kind(self) -> ShapeKind {
        match self {
            Self::Sphere(_) => ShapeKind::SPHERE,
            Self::Cuboid(_) => ShapeKind::CUBOID,
            Self::Aabb3(_) => ShapeKind::AABB3,
        }
    }

    /// The shape as a trait object.
    #[must_use]
    #[inline]
    pub fn as_shape(self) -> &'a dyn Shape3<T> {
        match self {
            Self::Sphere(s) => s,
            Self::Cuboid(s) => s,
            Self::Aabb3(s) => s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point2, Vector2, Vector3};

    /// A user type reporting a built-in kind gets the built-in variant; one
    /// whose data does not match its kind, or a user kind, gets none.
    #[derive(Debug)]
    struct Wrapped {
        body: Circle<f64>,
        kind: ShapeKind,
    }

    impl Shape<f64> for Wrapped {
        fn kind(&self) -> ShapeKind {
            self.kind
        }
        fn as_any(&self) -> &dyn Any {
            &self.body
        }
        fn bounding_box(&self, pose: &nalgebra::Isometry2<f64>) -> crate::BoundingBox2<f64> {
            self.body.bounding_box(pose)
        }
    }

    #[test]
    fn built_in_views() {
        let body = Circle::new(2.0).unwrap();
        let w = Wrapped {
            body,
            kind: ShapeKind::CIRCLE,
        };
        assert!(matches!(w.as_builtin(), Some(ShapeRef::Circle(c)) if c.radius() == 2.0));
        let lying = Wrapped {
            body,
            kind: ShapeKind::OBB,
        };
        assert!(lying.as_builtin().is_none());
        let custom = Wrapped {
            body,
            kind: ShapeKind::custom(3),
        };
        assert!(custom.as_builtin().is_none());
        let shapes: [Box<dyn Shape<f64>>; 10] = [
            Box::new(Point::origin()),
            Box::new(Segment::new(Point2::origin(), Point2::new(1.0, 0.0)).unwrap()),
            Box::new(body),
            Box::new(Aabb::from_half_extents(Vector2::new(1.0, 1.0)).unwrap()),
            Box::new(Obb::new(Vector2::new(1.0, 1.0)).unwrap()),
            Box::new(
                Triangle::new(
                    Point2::origin(),
                    Point2::new(1.0, 0.0),
                    Point2::new(0.0, 1.0),
                )
                .unwrap(),
            ),
            Box::new(
                ConvexPolygon::new(&[
                    Point2::origin(),
                    Point2::new(1.0, 0.0),
                    Point2::new(0.0, 1.0),
                ])
                .unwrap(),
            ),
            Box::new(Capsule::vertical(1.0, 0.5).unwrap()),
            Box::new(Ellipse::new(Vector2::new(2.0, 1.0)).unwrap()),
            Box::new(RoundedPolygon::rounded_box(Vector2::new(2.0, 1.0), 0.25).unwrap()),
        ];
        for (s, k) in shapes.iter().zip(ShapeKind::BUILTIN_2D) {
            let r = s.as_builtin().unwrap();
            assert_eq!(r.kind(), k);
            assert_eq!(r.as_shape().kind(), k);
            let again = ShapeRef::<f64>::from_kind(k, s.as_any()).unwrap();
            assert_eq!(again.kind(), k);
        }
        let s3: [Box<dyn Shape3<f32>>; 3] = [
            Box::new(Sphere::new(1.0).unwrap()),
            Box::new(Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).unwrap()),
            Box::new(Aabb3::from_half_extents(Vector3::new(1.0, 1.0, 1.0)).unwrap()),
        ];
        for (s, k) in s3.iter().zip(ShapeKind::BUILTIN_3D) {
            let r = s.as_builtin().unwrap();
            assert_eq!(r.kind(), k);
            assert_eq!(r.as_shape().kind(), k);
        }
    }
}
