//! Shape kinds: the key of the narrow phase's dispatch table.

use core::fmt;

/// The kind of a shape, as the dispatch table sees it.
///
/// Built-in kinds are associated constants, listed in kasanari's canonical order
/// (pair kernels are named `<a>_<b>` in this order, e.g. `circle_polygon`).
/// User shapes take a kind from [`ShapeKind::custom`]. A kind is a small integer,
/// so a table indexed by two kinds answers in O(1).
///
/// ```
/// use shape::ShapeKind;
/// const HEXAGON: ShapeKind = ShapeKind::custom(0);
/// assert!(!HEXAGON.is_builtin());
/// assert_eq!(ShapeKind::CIRCLE.name(), "circle");
/// assert!(ShapeKind::POINT < ShapeKind::ELLIPSE);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShapeKind(u16);

impl ShapeKind {
    /// [`Point`](crate::Point).
    pub const POINT: Self = Self(0);
    /// [`Segment`](crate::Segment).
    pub const SEGMENT: Self = Self(1);
    /// [`Circle`](crate::Circle).
    pub const CIRCLE: Self = Self(2);
    /// [`Aabb`](crate::Aabb).
    pub const AABB: Self = Self(3);
    /// [`Obb`](crate::Obb).
    pub const OBB: Self = Self(4);
    /// [`Triangle`](crate::Triangle).
    pub const TRIANGLE: Self = Self(5);
    /// [`ConvexPolygon`](crate::ConvexPolygon).
    pub const CONVEX_POLYGON: Self = Self(6);
    /// [`Capsule`](crate::Capsule).
    pub const CAPSULE: Self = Self(7);
    /// [`Ellipse`](crate::Ellipse).
    pub const ELLIPSE: Self = Self(8);
    /// 3D [`Sphere`](crate::Sphere).
    pub const SPHERE: Self = Self(9);
    /// 3D [`Cuboid`](crate::Cuboid).
    pub const CUBOID: Self = Self(10);
    /// 3D [`Aabb3`](crate::Aabb3).
    pub const AABB3: Self = Self(11);
    /// [`RoundedPolygon`](crate::RoundedPolygon) (2D; its id comes after the
    /// 3D kinds because it was added later: canonical order is the id).
    pub const ROUNDED_POLYGON: Self = Self(12);
    /// [`Compound`](crate::Compound): convex parts with
    /// poses (a composite kind: queried part by part, no pair kernels).
    pub const COMPOUND: Self = Self(13);
    /// [`Polyline`](crate::Polyline): a chain of segments
    /// (composite).
    pub const POLYLINE: Self = Self(14);
    /// [`ConcavePolygon`](crate::ConcavePolygon): a simple
    /// polygon cut into convex parts (composite).
    pub const CONCAVE_POLYGON: Self = Self(15);
    /// [`TileMap`](crate::TileMap): a grid of solid tiles
    /// (composite).
    pub const TILE_MAP: Self = Self(16);

    /// The composite 2D kinds: shapes made of convex parts, which the narrow
    /// phase answers part by part (see [`crate::dim2::composite`]).
    pub const COMPOSITE_2D: [Self; 4] = [
        Self::COMPOUND,
        Self::POLYLINE,
        Self::CONCAVE_POLYGON,
        Self::TILE_MAP,
    ];

    /// The built-in 2D kinds, in canonical order.
    pub const BUILTIN_2D: [Self; 10] = [
        Self::POINT,
        Self::SEGMENT,
        Self::CIRCLE,
        Self::AABB,
        Self::OBB,
        Self::TRIANGLE,
        Self::CONVEX_POLYGON,
        Self::CAPSULE,
        Self::ELLIPSE,
        Self::ROUNDED_POLYGON,
    ];

    /// The built-in 3D kinds, in canonical order.
    pub const BUILTIN_3D: [Self; 3] = [Self::SPHERE, Self::CUBOID, Self::AABB3];

    /// First index used by [`ShapeKind::custom`]; indices below are reserved for
    /// built-in kinds.
    pub const FIRST_CUSTOM: u16 = 32;

    /// The kind of a user-defined shape. `n` is chosen by the user; two shape types
    /// must not share it.
    #[must_use]
    pub const fn custom(n: u8) -> Self {
        Self(Self::FIRST_CUSTOM + n as u16)
    }

    /// A dense index for tables: built-in kinds are `0..17`, custom kind `n` is
    /// `FIRST_CUSTOM + n`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is one of kasanari's own kinds.
    #[must_use]
    pub const fn is_builtin(self) -> bool {
        self.0 < Self::FIRST_CUSTOM
    }

    /// A short lower-case name (`"circle"`, `"convex_polygon"`, `"custom"`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self.0 {
            0 => "point",
            1 => "segment",
            2 => "circle",
            3 => "aabb",
            4 => "obb",
            5 => "triangle",
            6 => "convex_polygon",
            7 => "capsule",
            8 => "ellipse",
            9 => "sphere",
            10 => "cuboid",
            11 => "aabb3",
            12 => "rounded_polygon",
            13 => "compound",
            14 => "polyline",
            15 => "concave_polygon",
            16 => "tile_map",
            _ => "custom",
        }
    }
}

impl fmt::Debug for ShapeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_builtin() {
            write!(f, "ShapeKind::{}", self.name())
        } else {
            write!(f, "ShapeKind::custom({})", self.0 - Self::FIRST_CUSTOM)
        }
    }
}

impl fmt::Display for ShapeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_builtin() {
            f.write_str(self.name())
        } else {
            write!(f, "custom({})", self.0 - Self::FIRST_CUSTOM)
        }
    }
}
