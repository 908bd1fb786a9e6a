//! The built-in 3D shapes and the 3D traits.
//!
//! The 3D game of seed 003 moves cubes on a grid, rotating them about all three
//! axes, among spheres. Its shapes are:
//!
//! - [`Sphere`]: a ball centred on its local origin;
//! - [`Cuboid`]: a box centred on its local origin that turns with its pose (the
//!   rotated cube);
//! - [`Aabb3`]: a box that stays axis-aligned whatever the pose's rotation (only
//!   the translation moves it).
//!
//! Each implements [`Shape3`] (what the framework needs) and [`Convex3`] (support
//! function and containment), and offers an inherent `project` onto an axis for
//! separating-axis kernels. Poses are `nalgebra::Isometry3`: a rotation (a unit
//! quaternion), then a translation.

mod aabb3;
mod cuboid;
mod sphere;
mod traits;

pub use aabb3::Aabb3;
pub use cuboid::Cuboid;
pub use sphere::Sphere;
pub use traits::{Convex3, Shape3};

use nalgebra::{Point3, Vector3};

use crate::dim2::{check_finite, check_positive, check_size};
use crate::{Real, ShapeError};

/// Checks that the three coordinates of a (local) point are finite and not
/// too large.
fn check_finite_point3<T: Real>(p: &Point3<T>, field: &'static str) -> Result<(), ShapeError> {
    for v in [p.x, p.y, p.z] {
        check_finite(v, field)?;
    }
    for v in [p.x, p.y, p.z] {
        check_size(v, field)?;
    }
    Ok(())
}

/// Checks that the three coordinates of a vector are finite and strictly
/// positive; `fields` names them in the errors (`["half_extents.x", ...]`).
fn check_positive_vector3<T: Real>(
    v: &Vector3<T>,
    fields: [&'static str; 3],
) -> Result<(), ShapeError> {
    check_positive(v.x, fields[0])?;
    check_positive(v.y, fields[1])?;
    check_positive(v.z, fields[2])
}

/// Property tests shared by the three shapes: the support point lies in the
/// bounding box and maximises `p · dir` over a dense sample of the boundary, and
/// `project` holds every sampled projection and is attained by the support
/// points in `±axis`.
#[cfg(test)]
mod proptests {
    use nalgebra::{Isometry3, Point3, Vector3};
    use proptest::prelude::*;
    use proptest::test_runner::TestCaseError;

    use super::{Aabb3, Convex3, Cuboid, Shape3, Sphere};
    use crate::testing::test_tolerance;
    use crate::{Interval, Real};

    /// A pose from a translation and a scaled rotation axis (angle = its length).
    fn pose<T: Real>(t: [f64; 3], r: [f64; 3]) -> Isometry3<T> {
        Isometry3::new(vec3(t), vec3(r))
    }

    fn vec3<T: Real>(v: [f64; 3]) -> Vector3<T> {
        Vector3::new(T::lit(v[0]), T::lit(v[1]), T::lit(v[2]))
    }

    /// `n²` points spread evenly over the unit sphere (a Fibonacci lattice).
    fn sphere_directions<T: Real>(n: usize) -> Vec<Vector3<T>> {
        let count = n * n;
        let golden = T::lit(core::f64::consts::PI * (3.0 - 5.0_f64.sqrt()));
        (0..count)
            .map(|k| {
                let kt = T::lit(k as f64);
                let z = T::one() - T::two() * (kt + T::half()) / T::lit(count as f64);
                let ring = num_traits::Float::sqrt(T::one() - z * z);
                let phi = golden * kt;
                Vector3::new(
                    ring * num_traits::Float::cos(phi),
                    ring * num_traits::Float::sin(phi),
                    z,
                )
            })
            .collect()
    }

    /// Local points on the surface of the box `[-h, h]`: an `n × n` grid on each
    /// of the six faces (corners included).
    fn box_surface<T: Real>(h: &Vector3<T>, n: usize) -> Vec<Point3<T>> {
        let mut out = Vec::with_capacity(6 * n * n);
        let step = |k: usize| T::two() * T::lit(k as f64) / T::lit((n - 1) as f64) - T::one();
        for axis in 0..3 {
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            for side in [-T::one(), T::one()] {
                for i in 0..n {
                    for j in 0..n {
                        let mut p = Point3::origin();
                        p[axis] = side * h[axis];
                        p[u] = step(i) * h[u];
                        p[v] = step(j) * h[v];
                        out.push(p);
                    }
                }
            }
        }
        out
    }

    /// The checks common to every shape, given its world-space boundary sample
    /// and its `project` function.
    fn check_support_and_project<T: Real>(
        shape: &dyn Shape3<T>,
        pose: &Isometry3<T>,
        dir: &Vector3<T>,
        boundary: &[Point3<T>],
        project: &dyn Fn(&Vector3<T>) -> Interval<T>,
        scale: T,
    ) -> Result<(), TestCaseError> {
        let convex = shape
            .as_convex()
            .ok_or_else(|| TestCaseError::fail("not convex"))?;
        let tol = test_tolerance(scale);
        let dir_tol = test_tolerance(scale * dir.norm());

        // The support point lies in the bounding box.
        let s = convex.support_point(pose, dir);
        let b = shape.bounding_box(pose);
        prop_assert!(b.loosened(tol).contains_point(&s), "{s:?} outside {b:?}");

        // It maximises p · dir over the boundary.
        let best = s.coords.dot(dir);
        for q in boundary {
            prop_assert!(q.coords.dot(dir) <= best + dir_tol, "{q:?} beats {s:?}");
        }

        // It belongs to the shape: pulled a hair towards the centre, it is inside.
        let c = Point3::from(shape.effective_pose(pose).translation.vector);
        let inside = s + (c - s) * T::lit(1e-2);
        prop_assert!(
            convex.contains_point(pose, &inside),
            "{inside:?} not contained"
        );

        // `project` holds every sampled projection and is attained by the support
        // points in ±dir.
        let i = project(dir);
        prop_assert!(i.min <= i.max);
        for q in boundary {
            let v = q.coords.dot(dir);
            prop_assert!(
                i.min - dir_tol <= v && v <= i.max + dir_tol,
                "{v:?} outside {i:?}"
            );
        }
        let lo = convex.support_point(pose, &-dir).coords.dot(dir);
        prop_assert!(
            num_traits::Float::abs(i.max - best) <= dir_tol,
            "{i:?} max vs {best:?}"
        );
        prop_assert!(
            num_traits::Float::abs(i.min - lo) <= dir_tol,
            "{i:?} min vs {lo:?}"
        );
        Ok(())
    }

    fn check_sphere<T: Real>(
        r: f64,
        t: [f64; 3],
        rot: [f64; 3],
        d: [f64; 3],
    ) -> Result<(), TestCaseError> {
        let sphere = Sphere::new(T::lit(r)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let pose = pose::<T>(t, rot);
        let dir = vec3::<T>(d);
        let c = Point3::from(pose.translation.vector);
        let boundary: Vec<_> = sphere_directions::<T>(16)
            .into_iter()
            .map(|u| c + u * sphere.radius())
            .collect();
        let scale = pose.translation.vector.norm() + sphere.radius();
        check_support_and_project(
            &sphere,
            &pose,
            &dir,
            &boundary,
            &|a| sphere.project(&pose, a),
            scale,
        )?;
        // The support point is on the sphere (the centre for a zero direction),
        // at the closed-form height.
        let s = sphere.support_point(&pose, &dir);
        if dir == Vector3::zeros() {
            prop_assert_eq!(s, c);
            return Ok(());
        }
        let tol = test_tolerance(scale);
        prop_assert!(num_traits::Float::abs((s - c).norm() - sphere.radius()) <= tol);
        let expected = c.coords.dot(&dir) + sphere.radius() * dir.norm();
        prop_assert!(
            num_traits::Float::abs(s.coords.dot(&dir) - expected)
                <= test_tolerance(scale * dir.norm())
        );
        Ok(())
    }

    fn check_cuboid<T: Real>(
        h: [f64; 3],
        t: [f64; 3],
        rot: [f64; 3],
        d: [f64; 3],
    ) -> Result<(), TestCaseError> {
        let cuboid = Cuboid::new(vec3::<T>(h)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let pose = pose::<T>(t, rot);
        let dir = vec3::<T>(d);
        let boundary: Vec<_> = box_surface(&cuboid.half_extents(), 5)
            .iter()
            .map(|p| pose * p)
            .collect();
        let scale = pose.translation.vector.norm() + cuboid.half_extents().norm();
        check_support_and_project(
            &cuboid,
            &pose,
            &dir,
            &boundary,
            &|a| cuboid.project(&pose, a),
            scale,
        )?;
        // The support point is a vertex, and the bounding box is the vertices' box.
        let s = cuboid.support_point(&pose, &dir);
        let tol = test_tolerance(scale);
        let vertices = cuboid.vertices(&pose);
        prop_assert!(
            vertices.iter().any(|v| (v - s).norm() <= tol),
            "{s:?} is not a vertex"
        );
        let tight = crate::BoundingBox3::from_points(&vertices)
            .ok_or_else(|| TestCaseError::fail("no vertices"))?;
        let b = cuboid.bounding_box(&pose);
        prop_assert!((b.min - tight.min).norm() <= tol && (b.max - tight.max).norm() <= tol);
        Ok(())
    }

    fn check_aabb3<T: Real>(
        h: [f64; 3],
        t: [f64; 3],
        rot: [f64; 3],
        d: [f64; 3],
    ) -> Result<(), TestCaseError> {
        // An off-centre box: min = -h, max = 2h.
        let hv = vec3::<T>(h);
        let aabb = Aabb3::new(Point3::from(-hv), Point3::from(hv * T::two()))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let pose = pose::<T>(t, rot);
        let dir = vec3::<T>(d);
        // The boundary ignores the rotation: only the translation moves the box.
        let shift = pose.translation.vector + aabb.center().coords;
        let boundary: Vec<_> = box_surface(&aabb.half_extents(), 5)
            .iter()
            .map(|p| p + shift)
            .collect();
        let scale = shift.norm() + aabb.half_extents().norm();
        check_support_and_project(
            &aabb,
            &pose,
            &dir,
            &boundary,
            &|a| aabb.project(&pose, a),
            scale,
        )?;
        // The rotation changes nothing.
        let unrotated =
            Isometry3::from_parts(pose.translation, nalgebra::UnitQuaternion::identity());
        prop_assert_eq!(aabb.bounding_box(&pose), aabb.bounding_box(&unrotated));
        prop_assert_eq!(
            aabb.support_point(&pose, &dir),
            aabb.support_point(&unrotated, &dir)
        );
        prop_assert_eq!(aabb.project(&pose, &dir), aabb.project(&unrotated, &dir));
        Ok(())
    }

    fn coord() -> impl Strategy<Value = [f64; 3]> {
        prop::array::uniform3(-100.0..100.0_f64)
    }
    fn rotation() -> impl Strategy<Value = [f64; 3]> {
        prop::array::uniform3(-4.0..4.0_f64)
    }
    fn size() -> impl Strategy<Value = [f64; 3]> {
        prop::array::uniform3(0.05..20.0_f64)
    }
    /// Directions, with a few exactly axis-aligned ones (ties between vertices).
    fn direction() -> impl Strategy<Value = [f64; 3]> {
        prop_oneof![
            4 => prop::array::uniform3(-10.0..10.0_f64),
            1 => prop::array::uniform3(prop_oneof![Just(0.0), Just(1.0), Just(-2.0)]),
        ]
    }

    proptest! {
        #[test]
        fn sphere_f32(r in 0.05..20.0_f64, t in coord(), rot in rotation(), d in direction()) {
            check_sphere::<f32>(r, t, rot, d)?;
        }
        #[test]
        fn sphere_f64(r in 0.05..20.0_f64, t in coord(), rot in rotation(), d in direction()) {
            check_sphere::<f64>(r, t, rot, d)?;
        }
        #[test]
        fn cuboid_f32(h in size(), t in coord(), rot in rotation(), d in direction()) {
            check_cuboid::<f32>(h, t, rot, d)?;
        }
        #[test]
        fn cuboid_f64(h in size(), t in coord(), rot in rotation(), d in direction()) {
            check_cuboid::<f64>(h, t, rot, d)?;
        }
        #[test]
        fn aabb3_f32(h in size(), t in coord(), rot in rotation(), d in direction()) {
            check_aabb3::<f32>(h, t, rot, d)?;
        }
        #[test]
        fn aabb3_f64(h in size(), t in coord(), rot in rotation(), d in direction()) {
            check_aabb3::<f64>(h, t, rot, d)?;
        }
    }
}
