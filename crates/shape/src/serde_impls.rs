//! Serde support (feature `serde`): every built-in shape saves as its
//! parameters in its local frame and loads through its validated constructor,
//! so a file can never produce an invalid shape.
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use shape::{Circle, ConvexPolygon};
//! let c: Circle<f32> = serde_json::from_str(r#"{"radius": 2.5}"#).unwrap();
//! assert_eq!(c.radius(), 2.5);
//! // Validation runs on load: the error says what is wrong.
//! let bad = serde_json::from_str::<Circle<f32>>(r#"{"radius": -1}"#).unwrap_err();
//! assert!(bad.to_string().contains("radius must be positive"));
//! let p: ConvexPolygon<f64> = serde_json::from_str(r#"{"vertices": [[0,0],[0,1],[1,0]]}"#).unwrap();
//! assert_eq!(serde_json::to_string(&p).unwrap(), r#"{"vertices":[[0.0,0.0],[1.0,0.0],[0.0,1.0]]}"#);
//! # }
//! ```

use nalgebra::{Point2, Point3, Vector2, Vector3};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{
    Aabb, Aabb3, Capsule, Circle, ConvexPolygon, Cuboid, Ellipse, Obb, Point, Real, RoundedPolygon,
    Segment, Sphere, Triangle,
};

fn p2<T: Real>(p: Point2<T>) -> [T; 2] {
    [p.x, p.y]
}
fn v2<T: Real>(v: Vector2<T>) -> [T; 2] {
    [v.x, v.y]
}
fn p3<T: Real>(p: Point3<T>) -> [T; 3] {
    [p.x, p.y, p.z]
}

/// Implements Serialize through a plain record and Deserialize through the
/// record and the shape's validated constructor.
macro_rules! shape_serde {
    ($shape:ident, $raw:ident { $($field:ident: $fty:ty),* $(,)? }, |$this:ident| $to:expr, |$r:ident| $from:expr) => {
        #[derive(Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct $raw<T> {
            $($field: $fty),*
        }

        impl<T: Real + Serialize> Serialize for $shape<T> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let $this = self;
                let raw: $raw<T> = $to;
                raw.serialize(s)
            }
        }

        impl<'de, T: Real + Deserialize<'de>> Deserialize<'de> for $shape<T> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let $r = $raw::<T>::deserialize(d)?;
                $from.map_err(serde::de::Error::custom)
            }
        }
    };
}

shape_serde!(
    Point,
    PointRaw { p: [T; 2] },
    |s| PointRaw {
        p: p2(s.position())
    },
    |r| Point::new(Point2::from(r.p))
);
shape_serde!(
    Segment,
    SegmentRaw {
        a: [T; 2],
        b: [T; 2]
    },
    |s| SegmentRaw {
        a: p2(s.a()),
        b: p2(s.b())
    },
    |r| Segment::new(Point2::from(r.a), Point2::from(r.b))
);
shape_serde!(
    Circle,
    CircleRaw { radius: T },
    |s| CircleRaw { radius: s.radius() },
    |r| Circle::new(r.radius)
);
shape_serde!(
    Aabb,
    AabbRaw {
        min: [T; 2],
        max: [T; 2]
    },
    |s| AabbRaw {
        min: p2(s.min()),
        max: p2(s.max())
    },
    |r| Aabb::new(Point2::from(r.min), Point2::from(r.max))
);
shape_serde!(
    Obb,
    ObbRaw {
        half_extents: [T; 2]
    },
    |s| ObbRaw {
        half_extents: v2(s.half_extents())
    },
    |r| Obb::new(Vector2::from(r.half_extents))
);
shape_serde!(
    Triangle,
    TriangleRaw {
        vertices: [[T; 2]; 3]
    },
    |s| TriangleRaw {
        vertices: s.vertices().map(p2)
    },
    |r| Triangle::new(
        Point2::from(r.vertices[0]),
        Point2::from(r.vertices[1]),
        Point2::from(r.vertices[2])
    )
);
shape_serde!(
    ConvexPolygon,
    ConvexPolygonRaw { vertices: Vec<[T; 2]> },
    |s| ConvexPolygonRaw { vertices: s.vertices().iter().map(|p| p2(*p)).collect() },
    |r| ConvexPolygon::new(&r.vertices.iter().map(|p| Point2::from(*p)).collect::<Vec<_>>())
);
shape_serde!(
    Capsule,
    CapsuleRaw {
        a: [T; 2],
        b: [T; 2],
        radius: T
    },
    |s| CapsuleRaw {
        a: p2(s.a()),
        b: p2(s.b()),
        radius: s.radius()
    },
    |r| Capsule::new(Point2::from(r.a), Point2::from(r.b), r.radius)
);
shape_serde!(
    RoundedPolygon,
    RoundedPolygonRaw { vertices: Vec<[T; 2]>, radius: T },
    |s| RoundedPolygonRaw { vertices: s.vertices().iter().map(|p| p2(*p)).collect(), radius: s.radius() },
    |r| RoundedPolygon::new(&r.vertices.iter().map(|p| Point2::from(*p)).collect::<Vec<_>>(), r.radius)
);
shape_serde!(
    Ellipse,
    EllipseRaw { radii: [T; 2] },
    |s| EllipseRaw {
        radii: v2(s.radii())
    },
    |r| Ellipse::new(Vector2::from(r.radii))
);
shape_serde!(
    Sphere,
    SphereRaw { radius: T },
    |s| SphereRaw { radius: s.radius() },
    |r| Sphere::new(r.radius)
);
shape_serde!(
    Cuboid,
    CuboidRaw {
        half_extents: [T; 3]
    },
    |s| {
        let h = s.half_extents();
        CuboidRaw {
            half_extents: [h.x, h.y, h.z],
        }
    },
    |r| Cuboid::new(Vector3::from(r.half_extents))
);
shape_serde!(
    Aabb3,
    Aabb3Raw {
        min: [T; 3],
        max: [T; 3]
    },
    |s| Aabb3Raw {
        min: p3(s.min()),
        max: p3(s.max())
    },
    |r| Aabb3::new(Point3::from(r.min), Point3::from(r.max))
);
