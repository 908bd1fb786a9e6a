//! The built-in 2D shapes, one file each.

mod aabb;
mod capsule;
mod circle;
pub mod composite;
mod convex_polygon;
pub mod decompose;
mod ellipse;
pub mod ellipse_distance;
mod obb;
mod point;
pub(crate) mod polygonal;
mod rounded_polygon;
mod segment;
mod triangle;

pub use aabb::Aabb;
pub use capsule::Capsule;
pub use circle::Circle;
pub use composite::{Compound, ConcavePolygon, ConvexPart, Polyline, TileMap};
pub use convex_polygon::ConvexPolygon;
pub use decompose::convex_decomposition;
pub use ellipse::Ellipse;
pub use obb::Obb;
pub use point::Point;
pub use rounded_polygon::RoundedPolygon;
pub use segment::Segment;
pub use triangle::Triangle;

use nalgebra::{Point2, Vector2};

/// The point of the closed segment `[a, b]` closest to `p` (`a` when the
/// segment is a single point).
///
/// ```
/// use nalgebra::Point2;
/// let q = shape::dim2::closest_point_on_segment(&Point2::new(0.0, 0.0), &Point2::new(2.0, 0.0), &Point2::new(1.5, 3.0));
/// assert_eq!(q, Point2::new(1.5, 0.0));
/// ```
#[must_use]
#[inline]
pub fn closest_point_on_segment<T: Real>(a: &Point2<T>, b: &Point2<T>, p: &Point2<T>) -> Point2<T> {
    polygonal::closest_on_segment(a, b, p)
}

use crate::{Real, ShapeError};

/// Checks that a number is finite.
pub(crate) fn check_finite<T: Real>(v: T, field: &'static str) -> Result<(), ShapeError> {
    if num_traits::Float::is_finite(v) {
        Ok(())
    } else {
        Err(ShapeError::NonFinite { field })
    }
}

/// Checks that a finite number is within [`max_size`](crate::tolerance::max_size)
/// in magnitude.
pub(crate) fn check_size<T: Real>(v: T, field: &'static str) -> Result<(), ShapeError> {
    if num_traits::Float::abs(v) <= crate::tolerance::max_size::<T>() {
        Ok(())
    } else {
        Err(ShapeError::TooLarge {
            field,
            value: v.as_f64(),
        })
    }
}

/// Checks that a size is finite, strictly positive and not too large.
pub(crate) fn check_positive<T: Real>(v: T, field: &'static str) -> Result<(), ShapeError> {
    check_positive_width(v, field)?;
    check_size(v, field)
}

/// Checks that a width (the difference of two coordinates that were checked
/// themselves, so at most twice the size limit) is finite and strictly positive.
pub(crate) fn check_positive_width<T: Real>(v: T, field: &'static str) -> Result<(), ShapeError> {
    check_finite(v, field)?;
    if v > T::zero() {
        Ok(())
    } else {
        Err(ShapeError::NonPositiveSize {
            field,
            value: v.as_f64(),
        })
    }
}

/// Checks that both coordinates of a (local) point are finite and not too large.
pub(crate) fn check_finite_point<T: Real>(
    p: &Point2<T>,
    field: &'static str,
) -> Result<(), ShapeError> {
    check_finite(p.x, field)?;
    check_finite(p.y, field)?;
    check_size(p.x, field)?;
    check_size(p.y, field)
}

/// Checks that both coordinates of a vector are finite and positive.
pub(crate) fn check_positive_vector<T: Real>(
    v: &Vector2<T>,
    field_x: &'static str,
    field_y: &'static str,
) -> Result<(), ShapeError> {
    check_positive(v.x, field_x)?;
    check_positive(v.y, field_y)
}

/// `dir` scaled to unit length, or `None` for a zero or non-finite direction.
/// Directly when `|dir|²` is a normal float (`crate::query::unit_vector`);
/// otherwise divides by the largest component first so that tiny or huge
/// directions neither underflow nor overflow.
#[inline]
pub(crate) fn unit_direction<T: Real>(dir: &Vector2<T>) -> Option<Vector2<T>> {
    let dd = dir.norm_squared();
    // NaN fails both comparisons; an infinite component makes `dd` infinite.
    if dd >= T::min_positive_value() && dd <= <T as num_traits::Float>::max_value() {
        return Some(dir / num_traits::Float::sqrt(dd));
    }
    unit_direction_scaled(dir)
}

/// The slow path of [`unit_direction`].
#[cold]
fn unit_direction_scaled<T: Real>(dir: &Vector2<T>) -> Option<Vector2<T>> {
    let m = dir.amax();
    // `amax` skips a NaN component: test both components too.
    let finite = num_traits::Float::is_finite(dir.x) && num_traits::Float::is_finite(dir.y);
    if !(finite && m > T::zero() && num_traits::Float::is_finite(m)) {
        return None;
    }
    let d = dir / m;
    Some(d / d.norm())
}

/// The length of `v`, computed as `m · |v / m|` with `m` its largest absolute
/// component, so that it neither overflows (components above `√MAX`) nor
/// underflows (subnormal squares) while the length itself is representable.
pub(crate) fn scaled_norm<T: Real>(v: &Vector2<T>) -> T {
    let m = v.amax();
    if !(m > T::zero() && num_traits::Float::is_finite(m)) {
        return m;
    }
    (v / m).norm() * m
}

/// Checks that the difference of two finite points is finite: a shape whose
/// size overflows the precision is rejected (its queries would compute `∞ − ∞`).
pub(crate) fn check_finite_extent<T: Real>(
    a: &Point2<T>,
    b: &Point2<T>,
    field: &'static str,
) -> Result<(), ShapeError> {
    let d = b - a;
    check_finite(d.x, field)?;
    check_finite(d.y, field)
}
