//! What the single-shape queries take and answer, in 2D and 3D: a [`Ray`], the
//! [`RayHit`] of a ray cast and the [`PointProjection`] of a point; and the
//! traits a user shape implements to answer them itself ([`RayCast`],
//! [`PointQuery`], and their 3D forms). The built-in shapes implement them in
//! their own files; the narrow phase's `cast_ray` and `project_point` validate
//! the input, pick the built-in implementation, the user's, or a support-map
//! fallback, and are what a program calls.
//!
//! The contracts (`docs/conventions.md`, "Ray casts" and "Point projection"):
//!
//! - a ray is `origin + t · dir` for `t ≥ 0`; `dir` need not be unit, and the
//!   time of impact `toi` is measured in units of `dir` (the hit point is
//!   `origin + toi · dir`);
//! - the hit is the **first** point of the closed shape on the ray with
//!   `toi ≤ max_toi`; a ray starting inside a *solid* shape hits at `toi = 0`,
//!   at its origin, with normal `−dir / |dir|`; with `solid = false` it hits
//!   where it leaves the shape;
//! - the normal is a unit vector **facing the ray's side**
//!   (`normal · dir ≤ 0`): the outward normal where the ray enters, the
//!   inward one where it leaves;
//! - a projection is the point of the closed shape nearest the query point;
//!   a point inside a *solid* shape projects to itself, inside a hollow one
//!   (`solid = false`) to the nearest boundary point, and `is_inside` says
//!   whether the query point lies in the closed shape.
//!
//! The cases at the edges of these rules, decided once for every shape:
//!
//! - **starting on the boundary** counts as starting inside (the sets are
//!   closed): a solid cast hits at time 0, a hollow one reports where the ray
//!   leaves the shape, which is time 0 itself when it points out;
//! - **grazing** counts: a ray along an edge's line hits where it first meets
//!   the edge, a ray through a single vertex or tangent to a curve hits there
//!   (the normal is then perpendicular to the ray, up to rounding on curves);
//!   at a vertex the normal is that of one of its two faces (the first in the
//!   shape's order);
//! - **shapes without interior** ([`Point`](crate::Point),
//!   [`Segment`](crate::Segment)): solid and hollow agree, the hit is the
//!   first point of the set on the ray (time 0 if the ray starts on it), its
//!   normal the segment's normal facing the ray, or `−dir/|dir|` for a ray
//!   along the segment or through the point; a projection is the nearest
//!   point of the set, and `is_inside` says whether the query point lies on
//!   it;
//! - a projection **ties** between several nearest boundary points (the
//!   centre of a circle, of a box) take the first in a documented order
//!   (the `+x` side first);
//! - a time of impact that **overflows** the float type (a direction far
//!   below unit length) is no hit.
//!
//! The built-in shapes answer within the float range for ray origins and
//! query points up to [`max_query_coordinate`](crate::tolerance::max_query_coordinate)
//! from the shape's position in every coordinate; the narrow phase reports
//! farther ones as an error rather than trust numbers that overflow.

use nalgebra::{
    AbstractRotation, Isometry, Isometry2, Isometry3, Point, Point2, Point3, SVector, Unit,
};

use crate::Real;

/// A half-line `origin + t · dir`, `t ≥ 0`, in `D` dimensions (2 by default).
///
/// `dir` need not be unit: times of impact are measured in units of `dir`.
/// The queries refuse a ray with a NaN or infinite number or a zero direction
/// (`narrowphase::DispatchError::InvalidRay`); [`Ray::is_valid`] tells.
///
/// ```
/// use nalgebra::{Point2, Vector2};
/// use shape::Ray;
/// let ray = Ray::new(Point2::new(1.0, 2.0), Vector2::new(2.0, 0.0));
/// assert_eq!(ray.point_at(1.5), Point2::new(4.0, 2.0));
/// assert!(ray.is_valid());
/// assert!(!Ray::new(Point2::new(0.0, 0.0), Vector2::new(0.0, 0.0)).is_valid());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray<T: Real, const D: usize = 2> {
    /// Where the ray starts.
    pub origin: Point<T, D>,
    /// Its direction (any non-zero length).
    pub dir: SVector<T, D>,
}

/// A 3D ray.
pub type Ray3<T> = Ray<T, 3>;

impl<T: Real, const D: usize> Ray<T, D> {
    /// The ray from `origin` along `dir`.
    #[must_use]
    pub fn new(origin: Point<T, D>, dir: SVector<T, D>) -> Self {
        Self { origin, dir }
    }

    /// The point at time `t`: `origin + t · dir`.
    #[must_use]
    #[inline]
    pub fn point_at(&self, t: T) -> Point<T, D> {
        self.origin + self.dir * t
    }

    /// Whether every number is finite and the direction is not zero: what the
    /// queries accept.
    #[must_use]
    #[inline]
    pub fn is_valid(&self) -> bool {
        let finite = |v: &T| num_traits::Float::is_finite(*v);
        self.origin.iter().all(finite)
            && self.dir.iter().all(finite)
            && self.dir.iter().any(|v| *v != T::zero())
    }

    /// The ray seen from the frame that `pose` places: `pose⁻¹` applied to
    /// the origin and the direction.
    #[must_use]
    #[inline]
    pub fn inverse_transformed<R: AbstractRotation<T, D>>(&self, pose: &Isometry<T, R, D>) -> Self {
        Self {
            origin: pose.inverse_transform_point(&self.origin),
            dir: pose.inverse_transform_vector(&self.dir),
        }
    }
}

/// Where a ray first meets a shape: the time of impact (in units of the ray's
/// direction), the point, and the unit normal there, facing the ray's side
/// (`normal · dir ≤ 0`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit<T: Real, const D: usize = 2> {
    /// The time of impact: the hit point is `origin + toi · dir`.
    pub toi: T,
    /// The hit point.
    pub point: Point<T, D>,
    /// The unit normal at the hit, facing the ray's side.
    pub normal: Unit<SVector<T, D>>,
}

/// A 3D ray hit.
pub type RayHit3<T> = RayHit<T, 3>;

impl<T: Real, const D: usize> RayHit<T, D> {
    /// The hit mapped by `pose` (from a shape's local frame to the world); the
    /// time of impact is unchanged (a rigid motion keeps lengths).
    #[must_use]
    #[inline]
    pub fn transformed<R: AbstractRotation<T, D>>(&self, pose: &Isometry<T, R, D>) -> Self {
        Self {
            toi: self.toi,
            point: pose.transform_point(&self.point),
            normal: Unit::new_unchecked(pose.transform_vector(&self.normal)),
        }
    }
}

/// The point of a shape nearest a query point, and whether the query point
/// lies in the closed shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointProjection<T: Real, const D: usize = 2> {
    /// The nearest point of the shape (of its boundary, for a hollow query of
    /// a point inside).
    pub point: Point<T, D>,
    /// Whether the query point lies in the closed shape (the boundary counts).
    pub is_inside: bool,
}

/// A 3D point projection.
pub type PointProjection3<T> = PointProjection<T, 3>;

impl<T: Real, const D: usize> PointProjection<T, D> {
    /// The projection mapped by `pose` (from a shape's local frame to the world).
    #[must_use]
    #[inline]
    pub fn transformed<R: AbstractRotation<T, D>>(&self, pose: &Isometry<T, R, D>) -> Self {
        Self {
            point: pose.transform_point(&self.point),
            is_inside: self.is_inside,
        }
    }
}

/// A 2D shape that casts rays itself. The built-in shapes implement it; a
/// user shape that does not (through [`Shape::as_ray_cast`](crate::Shape::as_ray_cast))
/// is ray cast from its support function by the narrow phase.
///
/// # Contract
///
/// The ray is `origin + t · dir`, `t ≥ 0`; `toi` is in units of `dir`. The
/// hit is the first point of the closed shape on the ray with
/// `toi ≤ max_toi`: from outside, where the ray enters (outward normal);
/// from inside (the boundary counts) a solid cast hits at `toi = 0` at the
/// origin with normal `−dir/|dir|`, a hollow one (`solid = false`) where the
/// ray leaves (inward normal). The normal is unit and faces the ray
/// (`normal · dir ≤ 0`). Grazing counts (closed sets). Shapes without
/// interior (points, segments) answer the first point of the set for both
/// `solid` values. The full contract, with every degenerate case, is in
/// `docs/conventions.md`, "Ray casts".
///
/// Implementations may assume a valid ray (finite, non-zero direction),
/// `max_toi ≥ 0` (possibly infinite), and an origin within
/// [`max_query_coordinate`](crate::tolerance::max_query_coordinate) of the
/// shape's position: the narrow phase checks all three.
pub trait RayCast<T: Real> {
    /// The first hit of `ray` on the shape placed at `pose`, with
    /// `toi ≤ max_toi`, or `None` (the contract above for `solid` and the
    /// normal).
    fn cast_ray(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>>;
}

/// A 2D shape that projects points itself (through
/// [`Shape::as_point_query`](crate::Shape::as_point_query)); otherwise the
/// narrow phase uses its support function.
///
/// # Contract
///
/// The projection is the point of the closed shape nearest `p`; `is_inside`
/// says whether `p` lies in the closed shape. Inside a solid shape `p`
/// projects to itself; inside a hollow one (`solid = false`) to the nearest
/// boundary point. The full contract, with the ties, is in
/// `docs/conventions.md`, "Point projection".
pub trait PointQuery<T: Real> {
    /// The point of the shape placed at `pose` nearest `p` (`p` itself when
    /// inside and `solid`), and whether `p` lies in the closed shape. `p` is
    /// finite (the narrow phase checks it).
    fn project_point(&self, pose: &Isometry2<T>, p: &Point2<T>, solid: bool) -> PointProjection<T>;
}

/// The 3D form of [`RayCast`].
pub trait RayCast3<T: Real> {
    /// As [`RayCast::cast_ray`].
    fn cast_ray(
        &self,
        pose: &Isometry3<T>,
        ray: &Ray3<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit3<T>>;
}

/// The 3D form of [`PointQuery`].
pub trait PointQuery3<T: Real> {
    /// As [`PointQuery::project_point`].
    fn project_point(&self, pose: &Isometry3<T>, p: &Point3<T>, solid: bool)
    -> PointProjection3<T>;
}

/// The hit of a ray that starts inside a solid shape: at its origin, time 0,
/// normal `−dir / |dir|` (the ray is valid, so the direction is not zero).
#[must_use]
pub fn hit_at_origin<T: Real, const D: usize>(ray: &Ray<T, D>) -> RayHit<T, D> {
    RayHit {
        toi: T::zero(),
        point: ray.origin,
        normal: Unit::new_unchecked(-unit_vector(&ray.dir)),
    }
}

/// `v / |v|` for a finite, non-zero `v`.
///
/// Directly (one square root, a division per component, correctly rounded
/// quotients) when `|v|²` is a normal float: then no square overflowed and
/// any square that underflowed is below `ε |v|²`, so the length is exact to
/// rounding. Otherwise `v` is first divided by its largest component
/// ([`unit_vector_scaled`]).
#[must_use]
#[inline]
pub(crate) fn unit_vector<T: Real, const D: usize>(v: &SVector<T, D>) -> SVector<T, D> {
    let vv = v.norm_squared();
    if vv >= T::min_positive_value() && vv <= <T as num_traits::Float>::max_value() {
        return v / num_traits::Float::sqrt(vv);
    }
    unit_vector_scaled(v)
}

/// The slow path of [`unit_vector`]: scaled by the largest component first
/// (no overflow or underflow of the squares).
#[cold]
#[must_use]
pub(crate) fn unit_vector_scaled<T: Real, const D: usize>(v: &SVector<T, D>) -> SVector<T, D> {
    let u = v / v.amax();
    u / u.norm()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector2;

    #[test]
    fn ray_validity_and_frames() {
        let r = Ray::new(Point2::new(1.0f32, 0.0), Vector2::new(0.0, f32::NAN));
        assert!(!r.is_valid());
        let r = Ray::new(Point2::new(f32::INFINITY, 0.0), Vector2::new(1.0, 0.0));
        assert!(!r.is_valid());
        let pose = Isometry2::new(Vector2::new(1.0f64, 2.0), core::f64::consts::FRAC_PI_2);
        let r = Ray::new(Point2::new(1.0, 3.0), Vector2::new(0.0, 2.0));
        let local = r.inverse_transformed(&pose);
        assert!((local.origin - Point2::new(1.0, 0.0)).norm() < 1e-12);
        assert!((local.dir - Vector2::new(2.0, 0.0)).norm() < 1e-12);
        let h = hit_at_origin(&r);
        assert_eq!((h.toi, h.point), (0.0, r.origin));
        assert_eq!(h.normal.into_inner(), Vector2::new(0.0, -1.0));
    }
}
