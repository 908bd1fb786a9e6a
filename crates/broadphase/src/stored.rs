//! How the [`World`](crate::World) stores a shape: a built-in shape by value,
//! a user's shape in a box.
//!
//! Why: the narrow phase reads both shapes of every candidate pair, and the
//! pairs come in an order unrelated to memory. A boxed shape lives wherever the
//! allocator put it, so each pair paid a cache miss for each shape on top of
//! the one for its slot (pose and filter). Stored in the slot beside the pose,
//! a built-in shape arrives with it. User shapes keep their own type (a user
//! type is never turned into the built-in shape it wraps: only a value whose
//! concrete type *is* a built-in shape is unboxed), so `get`, `remove` and
//! downcasts see exactly what was inserted.

use core::any::{Any, TypeId};
use core::fmt::Debug;

use shape::{
    Aabb, Aabb3, Capsule, Circle, ConvexPolygon, Cuboid, Ellipse, Obb, Point, Real, RoundedPolygon,
    Segment, Shape, Shape3, ShapeRef, ShapeRef3, Sphere, Triangle,
};

/// A shape as a world stores it (see the module note).
pub trait Storage<S: ?Sized>: Debug + Send + Sync + Sized {
    /// Unboxes a built-in shape, keeps any other in its box.
    fn store(shape: Box<S>) -> Self;
    /// The shape as a trait object.
    fn shape(&self) -> &S;
    /// The shape in a box (as inserted: a built-in shape in a new box).
    fn into_boxed(self) -> Box<S>;
}

/// Defines the storage enum of one dimension: a variant per built-in shape
/// type, matched to the `ShapeRef` variant that lends it, and `User`.
macro_rules! storage {
    ($(#[$doc:meta])* $name:ident, $dyn:ident, $shape_ref:ident, [$($variant:ident => $ref_variant:ident($ty:ident)),* $(,)?]) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub enum $name<T: Real> {
            $(
                #[doc = concat!("A [`", stringify!($ty), "`], by value.")]
                $variant($ty<T>),
            )*
            /// Any other shape, boxed.
            User(Box<dyn $dyn<T>>),
        }

        impl<T: Real> Storage<dyn $dyn<T>> for $name<T> {
            fn store(shape: Box<dyn $dyn<T>>) -> Self {
                // The concrete type of the boxed value (`Any` is a supertrait,
                // so this reads the box's own type, not `as_any`'s data).
                let concrete = Any::type_id(&*shape);
                let by_value = match shape.as_builtin() {
                    $(
                        Some($shape_ref::$ref_variant(s)) if concrete == TypeId::of::<$ty<T>>() => {
                            Some(Self::$variant(s.clone()))
                        }
                    )*
                    _ => None,
                };
                by_value.unwrap_or(Self::User(shape))
            }

            #[inline]
            fn shape(&self) -> &dyn $dyn<T> {
                match self {
                    $(Self::$variant(s) => s,)*
                    Self::User(s) => &**s,
                }
            }

            fn into_boxed(self) -> Box<dyn $dyn<T>> {
                match self {
                    $(Self::$variant(s) => Box::new(s),)*
                    Self::User(s) => s,
                }
            }
        }

        impl<T: Real> $name<T> {
            /// The built-in shape stored by value, by its type (what the
            /// narrow phase takes without asking the shape through its
            /// vtable); `None` for a user's shape.
            #[inline]
            pub fn builtin(&self) -> Option<$shape_ref<'_, T>> {
                match self {
                    $(Self::$variant(s) => Some($shape_ref::$ref_variant(s)),)*
                    Self::User(_) => None,
                }
            }
        }
    };
}

storage!(
    /// A 2D shape as a world stores it.
    Stored2,
    Shape,
    ShapeRef,
    [
        Point => Point(Point),
        Segment => Segment(Segment),
        Circle => Circle(Circle),
        Aabb => Aabb(Aabb),
        Obb => Obb(Obb),
        Triangle => Triangle(Triangle),
        Polygon => Polygon(ConvexPolygon),
        Capsule => Capsule(Capsule),
        Ellipse => Ellipse(Ellipse),
        RoundedPolygon => RoundedPolygon(RoundedPolygon),
    ]
);

storage!(
    /// A 3D shape as a world stores it.
    Stored3,
    Shape3,
    ShapeRef3,
    [
        Sphere => Sphere(Sphere),
        Cuboid => Cuboid(Cuboid),
        Aabb3 => Aabb3(Aabb3),
    ]
);

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Isometry2, Vector2};
    use shape::{BoundingBox2, ShapeKind};

    /// A user type that reports a built-in kind and lends its circle.
    #[derive(Debug)]
    struct Enemy {
        body: Circle<f64>,
    }

    impl Shape<f64> for Enemy {
        fn kind(&self) -> ShapeKind {
            ShapeKind::CIRCLE
        }
        fn as_any(&self) -> &dyn Any {
            &self.body
        }
        fn bounding_box(&self, pose: &Isometry2<f64>) -> BoundingBox2<f64> {
            self.body.bounding_box(pose)
        }
    }

    #[test]
    fn built_in_shapes_by_value_user_types_boxed() {
        let c = Stored2::store(Box::new(Circle::new(2.0).unwrap()) as Box<dyn Shape<f64>>);
        assert!(matches!(&c, Stored2::Circle(k) if k.radius() == 2.0));
        assert_eq!(c.shape().kind(), ShapeKind::CIRCLE);
        let back = c.into_boxed();
        assert!(back.as_any().downcast_ref::<Circle<f64>>().is_some());

        let o = Stored2::store(
            Box::new(Obb::new(Vector2::new(1.0, 2.0)).unwrap()) as Box<dyn Shape<f64>>
        );
        assert!(matches!(o, Stored2::Obb(_)));
        let r = Stored2::store(Box::new(
            shape::RoundedPolygon::rounded_box(Vector2::new(1.0, 2.0), 0.5).unwrap(),
        ) as Box<dyn Shape<f64>>);
        assert!(matches!(&r, Stored2::RoundedPolygon(k) if k.radius() == 0.5));
        assert_eq!(r.shape().kind(), ShapeKind::ROUNDED_POLYGON);

        let e = Stored2::store(Box::new(Enemy {
            body: Circle::new(1.0).unwrap(),
        }) as Box<dyn Shape<f64>>);
        assert!(matches!(e, Stored2::User(_)), "a user type keeps its type");
        let back = e.into_boxed();
        assert_eq!(Any::type_id(&*back), TypeId::of::<Enemy>());
        assert_eq!(back.kind(), ShapeKind::CIRCLE);

        let s = Stored3::store(Box::new(Sphere::new(1.0f32).unwrap()) as Box<dyn Shape3<f32>>);
        assert!(matches!(s, Stored3::Sphere(_)));
    }
}
