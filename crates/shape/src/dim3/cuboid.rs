//! A box centred on its local origin that turns with its pose: the rotated cube
//! of seed 003.
//!
//! With `R` the pose's rotation matrix (its columns `R e_i` are the box's face
//! normals in the world), `c` its translation and `h` the half extents:
//!
//! 1. bounding box: half extent along world axis `k` is `Σ_i |R_ki| h_i`, i.e.
//!    `|R| h` with `|R|` taken entrywise (Ericson, *Real-Time Collision
//!    Detection*, §4.2.6): each local axis contributes its reach `h_i |R_ki|`;
//! 2. projection on `a`: `c·a ± Σ_i h_i |(R e_i)·a|`, the same sum with `a` for
//!    the world axis; `(R e_i)·a` is component `i` of the local direction `Rᵀa`;
//! 3. support point in `d`: the vertex `c + R s` with `s_i = ±h_i` by the sign of
//!    component `i` of `Rᵀd`, so that `(c + R s)·d = c·d + Σ_i h_i |(Rᵀd)_i|`,
//!    the upper end of (2);
//! 4. containment: `p` in local coordinates `Rᵀ(p − c)` has `|p_i| ≤ h_i`.
//!
//! 5. ray cast: the slab method in the local frame (Ericson §5.3.3; from
//!    outside the entry alone, `single::slab_entry`, else the whole span,
//!    `single::slab_span`), a ray through an edge or a vertex hitting it; point
//!    projection: the clamp to `[−h, h]`, or for a hollow query of a point
//!    inside, the nearest face (`single::box_projection`).
//!
//! Degenerate input: a zero component of the local direction (a direction along
//! a face, or a zero direction) picks `+h_i`, so the zero direction's support
//! point is the vertex `R h + c`. A NaN direction picks `+h_i` too: the support
//! point is always a vertex, never NaN.

use core::any::Any;

use nalgebra::{Isometry3, Point3, Unit, Vector3};
use num_traits::Float;

use super::{Convex3, Shape3, check_positive_vector3};
use crate::single::{ScaledRay, SlabEntry, box_projection, resolve, slab_entry, slab_span, within};
use crate::{
    BoundingBox3, Interval, PointProjection3, PointQuery3, Ray3, RayCast3, RayHit3, Real,
    ShapeError, ShapeKind,
};

/// A closed box `[-h, h]` (per axis) in its local frame, rotated and moved by
/// its pose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cuboid<T: Real> {
    half_extents: Vector3<T>,
}

impl<T: Real> Cuboid<T> {
    /// A cuboid with the given half extents (half its width, height and depth).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NonPositiveSize`] for a half
    /// extent that is not a finite positive number; the field is
    /// `"half_extents.x"`, `".y"` or `".z"`.
    ///
    /// ```
    /// use nalgebra::Vector3;
    /// use shape::{Cuboid, ShapeError};
    /// let c = Cuboid::new(Vector3::new(1.0, 2.0, 3.0)).unwrap();
    /// assert_eq!(c.half_extents(), Vector3::new(1.0, 2.0, 3.0));
    /// assert_eq!(
    ///     Cuboid::new(Vector3::new(1.0, 0.0, 3.0)).unwrap_err(),
    ///     ShapeError::NonPositiveSize { field: "half_extents.y", value: 0.0 },
    /// );
    /// assert!(matches!(
    ///     Cuboid::new(Vector3::new(1.0, 2.0, f64::NAN)),
    ///     Err(ShapeError::NonFinite { field: "half_extents.z" }),
    /// ));
    /// ```
    pub fn new(half_extents: Vector3<T>) -> Result<Self, ShapeError> {
        check_positive_vector3(
            &half_extents,
            ["half_extents.x", "half_extents.y", "half_extents.z"],
        )?;
        Ok(Self { half_extents })
    }

    /// The half extents, in the local frame.
    #[must_use]
    pub fn half_extents(&self) -> Vector3<T> {
        self.half_extents
    }

    /// The eight corners placed at `pose`.
    ///
    /// Corner `i` has local coordinate `+h_x` if bit 0 of `i` is set (`-h_x`
    /// otherwise), `±h_y` by bit 1 and `±h_z` by bit 2: corner 0 is `-h`, corner
    /// 7 is `+h`.
    ///
    /// ```
    /// use nalgebra::{Isometry3, Point3, Unit, Vector3};
    /// use shape::Cuboid;
    /// let c = Cuboid::new(Vector3::new(1.0, 2.0, 3.0)).unwrap();
    /// let v = c.vertices(&Isometry3::translation(10.0, 0.0, 0.0));
    /// assert_eq!(v[0], Point3::new(9.0, -2.0, -3.0));
    /// assert_eq!(v[1], Point3::new(11.0, -2.0, -3.0));
    /// assert_eq!(v[7], Point3::new(11.0, 2.0, 3.0));
    /// ```
    #[must_use]
    pub fn vertices(&self, pose: &Isometry3<T>) -> [Point3<T>; 8] {
        let h = self.half_extents;
        let pick = |bit: bool, v: T| if bit { v } else { -v };
        core::array::from_fn(|i| {
            pose * Point3::new(
                pick(i & 1 != 0, h.x),
                pick(i & 2 != 0, h.y),
                pick(i & 4 != 0, h.z),
            )
        })
    }

    /// The interval of `p · axis` over the cuboid placed at `pose`, in closed form:
    /// `c·axis ± Σ_i h_i |(R e_i)·axis|`.
    ///
    /// `axis` need not be unit; the interval then scales with its length.
    ///
    /// ```
    /// use nalgebra::{Isometry3, Vector3};
    /// use shape::Cuboid;
    /// let c = Cuboid::new(Vector3::new(1.0, 2.0, 3.0)).unwrap();
    /// let i = c.project(&Isometry3::translation(0.0, 0.0, 3.0), &Vector3::new(0.0, 0.0, 2.0));
    /// assert_eq!((i.min, i.max), (0.0, 12.0));
    /// ```
    #[must_use]
    pub fn project(&self, pose: &Isometry3<T>, axis: &Vector3<T>) -> Interval<T> {
        let c = pose.translation.vector.dot(axis);
        // (R e_i)·a = (Rᵀ a)_i: the axis in local coordinates.
        let local = pose.rotation.inverse_transform_vector(axis);
        let r = local.map(Float::abs).dot(&self.half_extents);
        Interval::new(c - r, c + r)
    }

    /// The unit face normals in the world, `R e_x`, `R e_y`, `R e_z`: the columns
    /// of the pose's rotation matrix.
    ///
    /// These are the cuboid's three candidate separating axes.
    ///
    /// ```
    /// use core::f64::consts::FRAC_PI_2;
    /// use nalgebra::{Isometry3, Vector3};
    /// use shape::Cuboid;
    /// let c = Cuboid::new(Vector3::new(1.0, 2.0, 3.0)).unwrap();
    /// // A quarter turn about z takes the local x axis to the world y axis.
    /// let [x, _, z] = c.axes(&Isometry3::rotation(Vector3::z() * FRAC_PI_2));
    /// assert!((x - Vector3::y()).norm() < 1e-12);
    /// assert!((z - Vector3::z()).norm() < 1e-12);
    /// ```
    #[must_use]
    pub fn axes(&self, pose: &Isometry3<T>) -> [Vector3<T>; 3] {
        let r = pose.rotation.to_rotation_matrix();
        let m = r.matrix();
        [
            m.column(0).into_owned(),
            m.column(1).into_owned(),
            m.column(2).into_owned(),
        ]
    }
}

impl<T: Real> Shape3<T> for Cuboid<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::CUBOID
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef3<'_, T>> {
        Some(crate::ShapeRef3::Cuboid(self))
    }
    /// `c ± |R| h`, with `|R|` the entrywise absolute rotation matrix.
    fn bounding_box(&self, pose: &Isometry3<T>) -> BoundingBox3<T> {
        let r = pose.rotation.to_rotation_matrix();
        let e = r.matrix().map(Float::abs) * self.half_extents;
        let c = Point3::from(pose.translation.vector);
        BoundingBox3::new(c - e, c + e)
    }
    fn as_convex(&self) -> Option<&dyn Convex3<T>> {
        Some(self)
    }
    fn as_ray_cast(&self) -> Option<&dyn RayCast3<T>> {
        Some(self)
    }
    fn as_point_query(&self) -> Option<&dyn PointQuery3<T>> {
        Some(self)
    }
}

impl<T: Real> RayCast3<T> for Cuboid<T> {
    /// The first hit, by the slab method in the box's frame (module notes).
    ///
    /// ```
    /// use nalgebra::{Isometry3, Point3, Unit, Vector3};
    /// use shape::{Cuboid, Ray3, RayCast3};
    /// let cube = Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).unwrap();
    /// let ray = Ray3::new(Point3::new(0.0, 0.0, 5.0), Vector3::new(0.0, 0.0, -2.0));
    /// let hit = cube.cast_ray(&Isometry3::identity(), &ray, 10.0, true).unwrap();
    /// assert_eq!((hit.toi, hit.normal.into_inner()), (2.0, Vector3::z()));
    /// ```
    #[inline]
    fn cast_ray(
        &self,
        pose: &Isometry3<T>,
        ray: &Ray3<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit3<T>> {
        let o = pose.inverse_transform_point(&ray.origin);
        let d = pose.inverse_transform_vector(&ray.dir);
        let h = Point3::from(self.half_extents);
        match slab_entry(&o, &d, &-h, &h) {
            SlabEntry::At { t, axis, side } => {
                if !within(t, max_toi) {
                    return None;
                }
                let mut n = Vector3::zeros();
                n[axis] = side;
                Some(RayHit3 {
                    toi: t,
                    point: ray.origin + ray.dir * t,
                    normal: Unit::new_unchecked(pose.rotation * n),
                })
            }
            SlabEntry::Miss => None,
            SlabEntry::Careful => {
                let s = ScaledRay::new(ray).inverse_transformed(pose);
                let span = slab_span(&s.origin, &s.dir, &-h, &h);
                let inside = span.is_some_and(|sp| sp.holds_origin());
                resolve(ray, &s, span, inside, max_toi, solid, pose)
            }
        }
    }
}

impl<T: Real> PointQuery3<T> for Cuboid<T> {
    /// The nearest point of the box (of its boundary, hollow; the nearest
    /// face, ties to the lower axis and the `+` face).
    fn project_point(
        &self,
        pose: &Isometry3<T>,
        p: &Point3<T>,
        solid: bool,
    ) -> PointProjection3<T> {
        let q = pose.inverse_transform_point(p);
        let h = Point3::from(self.half_extents);
        let (point, is_inside) = box_projection(&q, &-h, &h, solid);
        PointProjection3 {
            point: if point == q { *p } else { pose * point },
            is_inside,
        }
    }
}

impl<T: Real> Convex3<T> for Cuboid<T> {
    /// The vertex picked by the signs of the local direction; a zero component
    /// picks `+h_i` (so the zero direction gives the vertex `R h + c`).
    fn support_point(&self, pose: &Isometry3<T>, dir: &Vector3<T>) -> Point3<T> {
        let local = pose.rotation.inverse_transform_vector(dir);
        let h = self.half_extents;
        // Tested as `d < 0`, so zero and NaN components both pick +h: the
        // support point is always a vertex, never NaN.
        let pick = |d: T, h: T| if d < T::zero() { -h } else { h };
        pose * Point3::new(pick(local.x, h.x), pick(local.y, h.y), pick(local.z, h.z))
    }
    fn contains_point(&self, pose: &Isometry3<T>, p: &Point3<T>) -> bool {
        let local = pose.inverse_transform_point(p);
        (0..3).all(|i| Float::abs(local[i]) <= self.half_extents[i])
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::UnitQuaternion;

    use super::*;
    use crate::for_each_precision;
    use crate::testing::test_tolerance;

    fn close<T: Real>(a: &Vector3<T>, b: &Vector3<T>, scale: f64) -> bool {
        (a - b).norm() <= test_tolerance(T::lit(scale))
    }

    fn cuboid<T: Real>() -> Cuboid<T> {
        Cuboid::new(Vector3::new(T::one(), T::two(), T::lit(3.0))).unwrap()
    }

    fn about_z<T: Real>(t: [f64; 3], angle: f64) -> Isometry3<T> {
        let t = Vector3::new(T::lit(t[0]), T::lit(t[1]), T::lit(t[2]));
        Isometry3::new(t, Vector3::z() * T::lit(angle))
    }

    fn bounding_boxes<T: Real>() {
        let c = cuboid::<T>();
        assert_eq!(c.kind(), ShapeKind::CUBOID);
        assert!(c.as_any().downcast_ref::<Cuboid<T>>().is_some());
        assert!(c.as_convex().is_some());
        // Unrotated: exactly c ± h.
        let b = c.bounding_box(&about_z([1.0, 2.0, 3.0], 0.0));
        assert_eq!(b.min, Point3::new(T::zero(), T::zero(), T::zero()));
        assert_eq!(b.max, Point3::new(T::two(), T::lit(4.0), T::lit(6.0)));
        // A quarter turn about z swaps the x and y half extents.
        let pose = about_z::<T>([1.0, 2.0, 3.0], core::f64::consts::FRAC_PI_2);
        assert_eq!(c.effective_pose(&pose), pose);
        let b = c.bounding_box(&pose);
        assert!(close(
            &b.half_extents(),
            &Vector3::new(T::two(), T::one(), T::lit(3.0)),
            3.0
        ));
        assert!(close(
            &b.center().coords,
            &Vector3::new(T::one(), T::two(), T::lit(3.0)),
            3.0
        ));
        // An eighth turn: the x and y half extents are both (1 + 2)/√2.
        let b = c.bounding_box(&about_z([0.0, 0.0, 0.0], core::f64::consts::FRAC_PI_4));
        let k = T::lit(3.0) / Float::sqrt(T::two());
        assert!(close(
            &b.half_extents(),
            &Vector3::new(k, k, T::lit(3.0)),
            3.0
        ));
        // A generic rotation: the box of the eight vertices.
        let pose = Isometry3::from_parts(
            Vector3::new(T::lit(-4.0), T::lit(0.5), T::lit(7.0)).into(),
            UnitQuaternion::from_euler_angles(T::lit(0.3), T::lit(-1.1), T::lit(2.5)),
        );
        let tight = BoundingBox3::from_points(&c.vertices(&pose)).unwrap();
        let b = c.bounding_box(&pose);
        assert!(close(&b.min.coords, &tight.min.coords, 10.0));
        assert!(close(&b.max.coords, &tight.max.coords, 10.0));
    }
    for_each_precision!(bounding, bounding_boxes);

    fn support_points<T: Real>() {
        let c = cuboid::<T>();
        let pose = about_z::<T>([10.0, 0.0, 0.0], 0.0);
        let s = c.support_point(&pose, &Vector3::new(T::one(), -T::lit(5.0), T::lit(0.5)));
        assert_eq!(s, Point3::new(T::lit(11.0), T::lit(-2.0), T::lit(3.0)));
        // Zero direction, and zero components: +h, deterministically.
        assert_eq!(
            c.support_point(&pose, &Vector3::zeros()),
            Point3::new(T::lit(11.0), T::two(), T::lit(3.0))
        );
        let s = c.support_point(&pose, &Vector3::new(-T::one(), T::zero(), T::zero()));
        assert_eq!(s, Point3::new(T::lit(9.0), T::two(), T::lit(3.0)));
        // A NaN component does not produce NaN: the rotation spreads it to every
        // local component, and NaN picks +h like zero.
        let s = c.support_point(&pose, &Vector3::new(T::nan(), -T::one(), T::zero()));
        assert_eq!(s, Point3::new(T::lit(11.0), T::two(), T::lit(3.0)));
        // A quarter turn about z: the local +y axis points along world -x, so the
        // support in world -x is at x = 10 - 2.
        let pose = about_z::<T>([10.0, 0.0, 0.0], core::f64::consts::FRAC_PI_2);
        let s = c.support_point(&pose, &Vector3::new(-T::one(), T::lit(0.1), T::lit(0.1)));
        assert!(close(
            &s.coords,
            &Vector3::new(T::lit(8.0), T::one(), T::lit(3.0)),
            10.0
        ));
        // Eighth turn: the support in world +x is a vertex at x = (1 + 2)/√2.
        let pose = about_z::<T>([0.0, 0.0, 0.0], core::f64::consts::FRAC_PI_4);
        let s = c.support_point(&pose, &Vector3::x());
        assert!(
            Float::abs(s.x - T::lit(3.0) / Float::sqrt(T::two())) <= test_tolerance(T::lit(3.0))
        );
    }
    for_each_precision!(support, support_points);

    fn projections_and_axes<T: Real>() {
        let c = cuboid::<T>();
        let pose = about_z::<T>([1.0, 2.0, 3.0], 0.0);
        let i = c.project(&pose, &Vector3::new(T::zero(), T::zero(), T::two()));
        assert_eq!((i.min, i.max), (T::zero(), T::lit(12.0)));
        // Diagonal axis (1,1,1): c·a = 6, reach 1 + 2 + 3.
        let i = c.project(&pose, &Vector3::repeat(T::one()));
        assert_eq!((i.min, i.max), (T::zero(), T::lit(12.0)));
        assert_eq!(
            c.project(&pose, &Vector3::zeros()),
            Interval::new(T::zero(), T::zero())
        );
        // Quarter turn about z: along world x the reach is h_y = 2.
        let pose = about_z::<T>([1.0, 2.0, 3.0], core::f64::consts::FRAC_PI_2);
        let i = c.project(&pose, &Vector3::x());
        let tol = test_tolerance(T::lit(3.0));
        assert!(Float::abs(i.min + T::one()) <= tol && Float::abs(i.max - T::lit(3.0)) <= tol);
        let [x, y, z] = c.axes(&pose);
        assert!(close(&x, &Vector3::y(), 1.0));
        assert!(close(&y, &-Vector3::x(), 1.0));
        assert!(close(&z, &Vector3::z(), 1.0));
        // The ends of the projection are attained by the support points.
        let pose = Isometry3::from_parts(
            Vector3::new(T::lit(-4.0), T::lit(0.5), T::lit(7.0)).into(),
            UnitQuaternion::from_euler_angles(T::lit(0.3), T::lit(-1.1), T::lit(2.5)),
        );
        let a = Vector3::new(T::lit(0.2), T::lit(-3.0), T::lit(1.5));
        let i = c.project(&pose, &a);
        let tol = test_tolerance(T::lit(40.0));
        assert!(Float::abs(i.max - c.support_point(&pose, &a).coords.dot(&a)) <= tol);
        assert!(Float::abs(i.min - c.support_point(&pose, &-a).coords.dot(&a)) <= tol);
        // The axes are the rotated unit vectors.
        let [x, y, z] = c.axes(&pose);
        assert!(close(&x, &(pose.rotation * Vector3::x()), 1.0));
        assert!(close(&y, &(pose.rotation * Vector3::y()), 1.0));
        assert!(close(&z, &(pose.rotation * Vector3::z()), 1.0));
    }
    for_each_precision!(project, projections_and_axes);

    fn containment<T: Real>() {
        let c = cuboid::<T>();
        let p = |x: f64, y: f64, z: f64| Point3::new(T::lit(x), T::lit(y), T::lit(z));
        // Exactly representable boundary: faces, edges and a corner count.
        let pose = about_z::<T>([10.0, 0.0, 0.0], 0.0);
        for q in [
            p(11.0, 0.0, 0.0),
            p(9.0, 2.0, 0.0),
            p(11.0, -2.0, 3.0),
            p(10.0, 0.0, -3.0),
        ] {
            assert!(c.contains_point(&pose, &q), "{q:?}");
        }
        let hair = test_tolerance(T::lit(11.0));
        assert!(!c.contains_point(
            &pose,
            &Point3::new(T::lit(11.0) + hair, T::zero(), T::zero())
        ));
        assert!(!c.contains_point(
            &pose,
            &Point3::new(T::lit(10.0), T::zero(), T::lit(3.0) + hair)
        ));
        // Rotated a quarter turn about z: world (x, y) = local (y, -x), so the
        // cube reaches 2 along world x and 1 along world y.
        let pose = about_z::<T>([10.0, 0.0, 0.0], core::f64::consts::FRAC_PI_2);
        assert!(c.contains_point(
            &pose,
            &Point3::new(T::lit(12.0) - hair, T::one() - hair, T::zero())
        ));
        assert!(!c.contains_point(
            &pose,
            &Point3::new(T::lit(12.0) + hair, T::zero(), T::zero())
        ));
        assert!(!c.contains_point(
            &pose,
            &Point3::new(T::lit(10.0), T::one() + hair, T::zero())
        ));
        // Eighth turn about z: world (x, y) = ((u - v)/√2, (u + v)/√2) for local
        // (u, v), so the vertex (1, 2) lands on (-1/√2, 3/√2). Just below it is
        // inside, just above is outside, and so is the world point (1.5, 1.5) of
        // the unrotated footprint (local (3/√2, 0)).
        let pose = about_z::<T>([0.0, 0.0, 0.0], core::f64::consts::FRAC_PI_4);
        let s2 = Float::sqrt(T::two());
        let tol = test_tolerance(T::lit(3.0));
        assert!(c.contains_point(
            &pose,
            &Point3::new(-T::one() / s2, T::lit(3.0) / s2 - tol, T::zero())
        ));
        assert!(!c.contains_point(
            &pose,
            &Point3::new(-T::one() / s2, T::lit(3.0) / s2 + tol, T::zero())
        ));
        assert!(!c.contains_point(&pose, &p(1.5, 1.5, 0.0)));
        assert!(c.contains_point(&pose, &p(0.0, 1.4, 0.0)));
    }
    for_each_precision!(contains, containment);

    fn rejects_bad_half_extents<T: Real>() {
        let make = |x: T, y: T, z: T| Cuboid::new(Vector3::new(x, y, z));
        let one = T::one();
        for (bad, field) in [
            (make(T::nan(), one, one), "half_extents.x"),
            (make(one, T::infinity(), one), "half_extents.y"),
            (make(one, one, T::neg_infinity()), "half_extents.z"),
        ] {
            assert_eq!(bad.unwrap_err(), ShapeError::NonFinite { field });
        }
        for (bad, field, value) in [
            (make(T::zero(), one, one), "half_extents.x", 0.0),
            (make(one, -T::two(), one), "half_extents.y", -2.0),
            (make(one, one, -T::zero()), "half_extents.z", 0.0),
        ] {
            assert_eq!(
                bad.unwrap_err(),
                ShapeError::NonPositiveSize { field, value }
            );
        }
        // The first bad field is reported.
        assert_eq!(
            make(-one, T::nan(), one).unwrap_err(),
            ShapeError::NonPositiveSize {
                field: "half_extents.x",
                value: -1.0
            }
        );
        let limit = crate::tolerance::max_size::<T>();
        assert!(make(T::min_positive_value(), one, limit).is_ok());
        assert_eq!(
            make(one, one, <T as Float>::max_value()).unwrap_err(),
            ShapeError::TooLarge {
                field: "half_extents.z",
                value: <T as Float>::max_value().as_f64()
            }
        );
    }
    for_each_precision!(rejects, rejects_bad_half_extents);

    fn rays_and_projections<T: Real>() {
        let p = |x: f64, y: f64, z: f64| Point3::new(T::lit(x), T::lit(y), T::lit(z));
        let v = |x: f64, y: f64, z: f64| Vector3::new(T::lit(x), T::lit(y), T::lit(z));
        let c = cuboid::<T>(); // half extents (1, 2, 3)
        let id = Isometry3::identity();
        let inf = T::infinity();
        let cast = |o: Point3<T>, d: Vector3<T>, solid: bool| {
            c.cast_ray(&id, &Ray3::new(o, d), inf, solid)
        };
        let h = cast(p(0.0, 0.0, 7.0), v(0.0, 0.0, -1.0), true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(4.0), p(0.0, 0.0, 3.0), v(0.0, 0.0, 1.0))
        );
        // Through the vertex (1, 2, 3) only.
        let h = cast(p(0.0, 1.0, 4.0), v(1.0, 1.0, -1.0), true).unwrap();
        assert_eq!((h.toi, h.point), (T::one(), p(1.0, 2.0, 3.0)));
        assert!(cast(p(0.0, 1.25, 4.0), v(1.0, 1.0, -1.0), true).is_none());
        // Along an edge's line (x = 1, y = 2): hits the corner (1, 2, −3).
        let h = cast(p(1.0, 2.0, -5.0), v(0.0, 0.0, 0.5), true).unwrap();
        assert_eq!((h.toi, h.point), (T::lit(4.0), p(1.0, 2.0, -3.0)));
        // Inside: solid 0, hollow leaves through the +y face.
        assert_eq!(
            cast(p(0.0, 0.0, 0.0), v(0.0, 1.0, 0.0), true).unwrap().toi,
            T::zero()
        );
        let h = cast(p(0.0, 0.0, 0.0), v(0.0, 1.0, 0.0), false).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::two(), p(0.0, 2.0, 0.0), v(0.0, -1.0, 0.0))
        );
        // Turned a quarter about z at (10, 0, 0): the box is 4 wide in x.
        let pose = about_z::<T>([10.0, 0.0, 0.0], core::f64::consts::FRAC_PI_2);
        let h = c
            .cast_ray(
                &pose,
                &Ray3::new(p(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0)),
                inf,
                true,
            )
            .unwrap();
        assert!(Float::abs(h.toi - T::lit(8.0)) < test_tolerance(T::lit(10.0)));
        assert!(close(&h.normal.into_inner(), &v(-1.0, 0.0, 0.0), 1.0));
        // Projections.
        let pr = c.project_point(&id, &p(5.0, 5.0, 0.5), true);
        assert_eq!((pr.point, pr.is_inside), (p(1.0, 2.0, 0.5), false));
        let pr = c.project_point(&id, &p(0.0, 1.5, 0.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(0.0, 2.0, 0.0), true));
        let pr = c.project_point(&id, &p(0.0, 0.0, 0.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(1.0, 0.0, 0.0), true));
    }
    for_each_precision!(rays, rays_and_projections);
}
