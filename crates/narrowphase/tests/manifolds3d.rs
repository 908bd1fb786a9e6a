//! 3D contact manifolds through [`DispatchTable3`] and the `*_manifold`
//! kernels, f32 and f64 from one generic body.

use nalgebra::{Isometry3, Point3, Vector3};
use narrowphase::dim3::{DispatchTable3, contact_manifold3, contact3};
use narrowphase::{DispatchError, Feature};
use shape::prelude::*;

fn at<T: Real>(x: f64, y: f64, z: f64) -> Isometry3<T> {
    Isometry3::translation(T::lit(x), T::lit(y), T::lit(z))
}

/// A sphere resting on a box: one point, the box's top face under the
/// sphere's vertex 0, separation `−depth` exactly.
fn sphere_on_box<T: Real>() {
    let slab = Cuboid::new(Vector3::new(T::lit(5.0), T::lit(5.0), T::half())).unwrap();
    let ball = Sphere::new(T::one()).unwrap();
    let (pa, pb) = (at::<T>(0.0, 0.0, 0.0), at::<T>(0.25, -0.5, 1.25));
    let m = contact_manifold3(&slab, &pa, &ball, &pb, T::zero())
        .unwrap()
        .unwrap();
    let c = contact3(&slab, &pa, &ball, &pb).unwrap().unwrap();
    assert_eq!(m.len(), 1);
    assert_eq!(m.normal(), c.normal);
    let p = m.points()[0];
    assert_eq!(p.separation, -c.depth);
    assert_eq!((p.id.a, p.id.b), (Feature::Face(5), Feature::Vertex(0)));
    // The same through a table, and swapped.
    let t = DispatchTable3::<T>::new();
    assert_eq!(
        t.contact_manifold(&slab, &pa, &ball, &pb, T::zero()),
        Ok(Some(m))
    );
    assert_eq!(
        t.contact_manifold(&ball, &pb, &slab, &pa, T::zero()),
        Ok(Some(m.flipped()))
    );
    // Apart by 0.25: within a prediction of 0.5, not of 0.125.
    let up = at::<T>(0.25, -0.5, 1.75);
    let m = contact_manifold3(&slab, &pa, &ball, &up, T::half())
        .unwrap()
        .unwrap();
    assert_eq!(m.points()[0].separation, T::lit(0.25));
    assert_eq!(
        contact_manifold3(&slab, &pa, &ball, &up, T::lit(0.125)),
        Ok(None)
    );
    let _ = Point3::<T>::origin();
}
shape::for_each_precision!(sphere_box, sphere_on_box);

/// NaN or negative predictions and NaN poses are typed errors.
fn bad_input<T: Real>() {
    let cube = Cuboid::new(Vector3::repeat(T::half())).unwrap();
    let o = at::<T>(0.0, 0.0, 0.0);
    for p in [T::nan(), -T::one(), T::neg_infinity()] {
        assert_eq!(
            contact_manifold3(&cube, &o, &cube, &o, p),
            Err(DispatchError::InvalidPrediction)
        );
    }
    assert!(contact_manifold3(&cube, &o, &cube, &o, T::infinity()).is_ok());
    let nan = at::<T>(f64::NAN, 0.0, 0.0);
    assert!(contact_manifold3(&cube, &o, &cube, &nan, T::one()).is_err());
}
shape::for_each_precision!(bad, bad_input);
