//! Every pair of built-in 3D shapes through [`DispatchTable3`], f32 and f64:
//! known values (seed 003's grid, spheres at 3-4-5 and 1-2-2-3 distances, an
//! `Aabb3` ignoring its pose's rotation), then property tests: exact symmetry,
//! `contact.is_some() == intersects`, agreement with a slow reference in f64
//! (the minimum support overlap over 576 directions plus every box's face
//! normals and edge cross products; closed forms for spheres), contact
//! validity (moving B by depth ± ε separates / does not), invariance under a
//! rigid motion of both shapes, and no NaN; far from the origin, the same
//! answers as near it.

use crate::support;

use core::any::Any;

use nalgebra::{Isometry3, Point3, Translation3, Vector3};
use narrowphase::dim3::{Contact3, DispatchTable3};
use narrowphase::{DispatchError, Route};
use proptest::prelude::*;
use shape::prelude::*;
use support::{
    Spec3 as Spec, build3 as build, iso3 as iso, motion3 as motion, pose3 as pose, spec3 as spec,
};

fn v<T: Real>(x: f64, y: f64, z: f64) -> Vector3<T> {
    Vector3::new(T::lit(x), T::lit(y), T::lit(z))
}

fn at<T: Real>(x: f64, y: f64, z: f64) -> Isometry3<T> {
    Isometry3::translation(T::lit(x), T::lit(y), T::lit(z))
}

fn tol<T: Real>(scale: f64) -> T {
    shape::testing::test_tolerance(T::lit(scale))
}

// ---------------------------------------------------------------- known values

fn spheres_through_the_table<T: Real>() {
    let t = DispatchTable3::<T>::new();
    let s = Sphere::new(T::one()).unwrap();
    let (o, p) = (at::<T>(0.0, 0.0, 0.0), at::<T>(1.5, 0.0, 0.0));
    let c = t.contact(&s, &o, &s, &p).unwrap().unwrap();
    assert_eq!((c.depth, c.normal.into_inner()), (T::half(), Vector3::x()));
    let r = t.contact(&s, &p, &s, &o).unwrap().unwrap();
    assert_eq!(r, c.flipped());
    // Same pose, same sphere twice: a deterministic normal, no NaN.
    let c = t.contact(&s, &o, &s, &o).unwrap().unwrap();
    assert_eq!((c.depth, c.normal.into_inner()), (T::two(), Vector3::x()));
}
shape::for_each_precision!(spheres, spheres_through_the_table);

/// Unit cubes of seed 003's grid, as cuboids and as `Aabb3`s, at exactly
/// representable coordinates: touching collides, a hair apart does not.
fn grid_through_the_table<T: Real>() {
    let t = DispatchTable3::<T>::new();
    let cube = Cuboid::new(Vector3::repeat(T::half())).unwrap();
    let cell = Aabb3::new(Point3::origin(), Point3::new(T::one(), T::one(), T::one())).unwrap();
    let hair = T::epsilon() * T::lit(8.0);
    let shapes: [(&dyn Shape3<T>, Vector3<T>); 2] = [
        (&cube, Vector3::zeros()),
        (&cell, Vector3::repeat(-T::half())),
    ];
    for (a, oa) in shapes {
        for (b, ob) in shapes {
            for o in [
                [1.0, 0.0, 0.0],
                [0.0, 1.0, -1.0],
                [-1.0, -1.0, 1.0],
                [0.0, 0.0, 2.0],
            ] {
                let d = v::<T>(o[0], o[1], o[2]);
                let touching = o != [0.0, 0.0, 2.0];
                let (pa, pb) = (
                    Isometry3::from(Translation3::from(oa)),
                    Isometry3::from(Translation3::from(d + ob)),
                );
                assert_eq!(
                    t.intersects(a, &pa, b, &pb).unwrap(),
                    touching,
                    "{a:?} {b:?} {o:?}"
                );
                let c = t.contact(a, &pa, b, &pb).unwrap();
                assert_eq!(c.is_some(), touching);
                if let Some(c) = c {
                    assert!(c.depth <= tol::<T>(2.0));
                }
                let apart = Isometry3::from(Translation3::from(d * (T::one() + hair) + ob));
                assert!(
                    !t.intersects(a, &pa, b, &apart).unwrap(),
                    "{a:?} {b:?} {o:?}"
                );
            }
        }
    }
}
shape::for_each_precision!(grid, grid_through_the_table);

/// A sphere of radius 3 against the face, an edge and the corner (1, 1, 1) of
/// the cube `[-1, 1]³` at exact distances, with the cube moved and turned, and
/// the same through an `Aabb3` (whose pose's rotation is ignored).
fn sphere_against_box_features<T: Real>() {
    let t = DispatchTable3::<T>::new();
    let cube = Cuboid::new(Vector3::repeat(T::one())).unwrap();
    let cell = Aabb3::from_half_extents(Vector3::repeat(T::one())).unwrap();
    let motion = Isometry3::new(v::<T>(1.0, -2.0, 0.5), v::<T>(0.3, 0.9, -0.4));
    let turned_only = Isometry3::new(Vector3::zeros(), v::<T>(0.3, 0.9, -0.4));
    for (r, c) in [
        (3.0, [4.0, 0.0, 0.0]),
        (5.0, [4.0, 5.0, 0.0]),
        (3.0, [2.0, 3.0, 3.0]),
        (3.0, [1.0 + 1.0, 1.0 + 2.0, 1.0 + 2.0]),
    ] {
        let s = Sphere::new(T::lit(r)).unwrap();
        let centre = v::<T>(c[0], c[1], c[2]);
        // Exactly touching, in the cube's frame.
        let ps = Isometry3::from(Translation3::from(centre));
        assert!(
            t.intersects(&s, &ps, &cube, &Isometry3::identity())
                .unwrap()
        );
        assert!(
            t.intersects(&cell, &turned_only, &s, &ps).unwrap(),
            "the Aabb3 must not turn"
        );
        // Moved and turned together: touching to within rounding.
        let k = t.contact(&s, &(motion * ps), &cube, &motion);
        if let Ok(Some(k)) = k {
            assert!(k.depth <= tol::<T>(8.0), "{k:?}");
        }
        // A hair farther: apart, for both boxes.
        let far = Isometry3::from(Translation3::from(centre * (T::one() + tol::<T>(8.0))));
        assert!(
            !t.intersects(&s, &far, &cube, &Isometry3::identity())
                .unwrap()
        );
        assert!(!t.intersects(&cell, &turned_only, &s, &far).unwrap());
    }
    // The Aabb3's contact does not depend on its pose's rotation, exactly.
    let s = Sphere::new(T::half()).unwrap();
    let ps = at::<T>(0.3, 1.2, -0.4);
    let turned = Isometry3::new(v::<T>(0.0, 0.25, 0.0), v::<T>(1.0, 2.0, 3.0));
    let still = Isometry3::new(v::<T>(0.0, 0.25, 0.0), Vector3::zeros());
    assert_eq!(
        t.contact(&s, &ps, &cell, &turned).unwrap(),
        t.contact(&s, &ps, &cell, &still).unwrap()
    );
    assert!(t.contact(&s, &ps, &cell, &turned).unwrap().is_some());
}
shape::for_each_precision!(sphere_box, sphere_against_box_features);

/// A unit cube turned 45° about z next to an axis-aligned one (as a cuboid and
/// as an `Aabb3`): contact from x = 1/2 + √2/2 inwards.
fn turned_cube_next_to_grid_cube<T: Real>() {
    let t = DispatchTable3::<T>::new();
    let cube = Cuboid::new(Vector3::repeat(T::half())).unwrap();
    let cell = Aabb3::from_half_extents(Vector3::repeat(T::half())).unwrap();
    let reach = T::half() + T::lit(core::f64::consts::FRAC_1_SQRT_2);
    let quarter = Vector3::z() * T::lit(core::f64::consts::FRAC_PI_4);
    for a in [&cube as &dyn Shape3<T>, &cell] {
        let e = tol::<T>(2.0);
        let o = Isometry3::identity();
        assert!(
            t.intersects(
                a,
                &o,
                &cube,
                &Isometry3::new(Vector3::x() * (reach - e), quarter)
            )
            .unwrap()
        );
        assert!(
            !t.intersects(
                a,
                &o,
                &cube,
                &Isometry3::new(Vector3::x() * (reach + e), quarter)
            )
            .unwrap()
        );
        let c = t
            .contact(&cube, &Isometry3::new(Vector3::x(), quarter), a, &o)
            .unwrap()
            .unwrap();
        assert!(
            num_traits::Float::abs(c.depth - (reach - T::one())) <= e,
            "{c:?}"
        );
        assert!((c.normal.into_inner() + Vector3::x()).norm() <= e);
    }
}
shape::for_each_precision!(turned_45, turned_cube_next_to_grid_cube);

/// A user shape reporting the cuboid kind but carrying a sphere.
#[derive(Debug)]
struct Liar(Sphere<f64>);

impl Shape3<f64> for Liar {
    fn kind(&self) -> ShapeKind {
        ShapeKind::CUBOID
    }
    fn as_any(&self) -> &dyn Any {
        &self.0
    }
    fn bounding_box(&self, pose: &Isometry3<f64>) -> BoundingBox3<f64> {
        self.0.bounding_box(pose)
    }
}

/// A custom kind with no kernel.
#[derive(Debug)]
struct Blob;

impl Shape3<f64> for Blob {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(3)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry3<f64>) -> BoundingBox3<f64> {
        BoundingBox3::new(
            Point3::from(pose.translation.vector),
            Point3::from(pose.translation.vector),
        )
    }
}

#[test]
fn routes_and_errors() {
    let t = DispatchTable3::<f64>::new();
    let s = Sphere::new(1.0).unwrap();
    let c = Cuboid::new(Vector3::repeat(1.0)).unwrap();
    let b = Aabb3::from_half_extents(Vector3::repeat(1.0)).unwrap();
    let shapes: [&dyn Shape3<f64>; 3] = [&s, &c, &b];
    let names = [
        ["sphere_sphere", "sphere_cuboid", "sphere_aabb3"],
        ["sphere_cuboid", "cuboid_cuboid", "cuboid_aabb3"],
        ["sphere_aabb3", "cuboid_aabb3", "aabb3_aabb3"],
    ];
    for (i, x) in shapes.iter().enumerate() {
        for (j, y) in shapes.iter().enumerate() {
            assert_eq!(
                t.route(*x, *y),
                Ok(Route::Kernel {
                    name: names[i][j],
                    mirrored: i > j
                })
            );
        }
    }
    let o = Isometry3::identity();
    let unsupported = DispatchError::Unsupported {
        a: ShapeKind::custom(3),
        b: ShapeKind::SPHERE,
    };
    assert_eq!(t.intersects(&Blob, &o, &s, &o), Err(unsupported));
    assert_eq!(t.contact(&Blob, &o, &s, &o), Err(unsupported));
    assert_eq!(t.route(&Blob, &s), Err(unsupported));
    let mismatch = DispatchError::KindMismatch {
        kind: ShapeKind::CUBOID,
    };
    assert_eq!(t.intersects(&Liar(s), &o, &c, &o), Err(mismatch));
    // The shape at fault is named, in either order.
    assert_eq!(t.contact(&s, &o, &Liar(s), &o).map(|_| ()), Err(mismatch));
    assert!(DispatchTable3::<f64>::empty().route(&s, &s).is_err());
}

// ------------------------------------------------------------- property tests

/// The unit axes of a box in the world (f64), none for a sphere.
fn box_axes(s: &Spec, pose: &Isometry3<f64>) -> Vec<Vector3<f64>> {
    match s {
        Spec::Sphere(_) => vec![],
        Spec::Cuboid(_) => {
            let m = pose.rotation.to_rotation_matrix().into_inner();
            (0..3).map(|i| m.column(i).into_owned()).collect()
        }
        Spec::Aabb3(..) => vec![Vector3::x(), Vector3::y(), Vector3::z()],
    }
}

/// The shape's extent along `d` (f64, from the shape crate's support points).
fn overlap(
    a: &dyn Convex3<f64>,
    pa: &Isometry3<f64>,
    b: &dyn Convex3<f64>,
    pb: &Isometry3<f64>,
    d: &Vector3<f64>,
) -> f64 {
    let max_a = a.support_point(pa, d).coords.dot(d);
    let min_a = a.support_point(pa, &-d).coords.dot(d);
    let max_b = b.support_point(pb, d).coords.dot(d);
    let min_b = b.support_point(pb, &-d).coords.dot(d);
    (max_a - min_b).min(max_b - min_a)
}

/// 24² directions spread over the sphere (Fibonacci lattice).
fn directions() -> Vec<Vector3<f64>> {
    let n = 24 * 24;
    let golden = core::f64::consts::PI * (3.0 - 5.0_f64.sqrt());
    (0..n)
        .map(|k| {
            let z = 1.0 - 2.0 * (k as f64 + 0.5) / n as f64;
            let ring = (1.0 - z * z).sqrt();
            let phi = golden * k as f64;
            Vector3::new(ring * phi.cos(), ring * phi.sin(), z)
        })
        .collect()
}

/// The slow reference, in f64: (the minimum support overlap over the sampled
/// directions, the box axes and their cross products, the centre line and
/// `extra`; whether that minimum is exact, i.e. equal to the penetration
/// depth when positive and negative exactly when apart).
fn reference(
    sa: &Spec,
    pa: &Isometry3<f64>,
    sb: &Spec,
    pb: &Isometry3<f64>,
    extra: Option<Vector3<f64>>,
) -> (f64, bool) {
    let (a, b) = (build::<f64>(sa), build::<f64>(sb));
    let (ca, cb) = (a.as_convex().unwrap(), b.as_convex().unwrap());
    let mut dirs = directions();
    let (xa, xb) = (box_axes(sa, pa), box_axes(sb, pb));
    dirs.extend(xa.iter().chain(&xb));
    for u in &xa {
        for w in &xb {
            let c = u.cross(w);
            if c.norm() > 1e-9 {
                dirs.push(c.normalize());
            }
        }
    }
    let centres = pb.translation.vector - pa.translation.vector;
    if centres.norm() > 1e-12 {
        dirs.push(centres.normalize());
    }
    dirs.extend(extra);
    let sampled = dirs
        .iter()
        .map(|d| overlap(ca, pa, cb, pb, d))
        .fold(f64::INFINITY, f64::min);
    let sphere_box = |r: f64, centre: Point3<f64>, s: &Spec, pose: &Isometry3<f64>| {
        // Distance from the centre to the box by the per-axis clamp, in the box's frame.
        let (lo, hi, pose) = match *s {
            Spec::Cuboid(h) => (-Vector3::from(h), Vector3::from(h), *pose),
            Spec::Aabb3(m, e) => (
                Vector3::from(m),
                Vector3::from(m) + Vector3::from(e),
                Isometry3::from(pose.translation),
            ),
            Spec::Sphere(_) => unreachable!(),
        };
        let q = pose.inverse_transform_point(&centre).coords;
        let k = q.zip_zip_map(&lo, &hi, |x, l, h| x.clamp(l, h));
        r - (q - k).norm()
    };
    match (sa, sb) {
        (Spec::Sphere(ra), Spec::Sphere(rb)) => (ra + rb - centres.norm(), true),
        // For a sphere and a box the sign is exact (the clamp); the sampled
        // minimum only bounds the depth from above.
        (Spec::Sphere(r), _) => {
            let sep = sphere_box(*r, Point3::from(pa.translation.vector), sb, pb);
            (if sep < 0.0 { sep } else { sampled }, false)
        }
        (_, Spec::Sphere(r)) => {
            let sep = sphere_box(*r, Point3::from(pb.translation.vector), sa, pa);
            (if sep < 0.0 { sep } else { sampled }, false)
        }
        // Two boxes: the minimum over all face normals and edge cross products
        // is the penetration depth (the facets of the Minkowski difference).
        _ => (sampled, true),
    }
}

fn no_nan<T: Real>(c: &Contact3<T>) -> bool {
    let p = [
        c.normal.x,
        c.normal.y,
        c.normal.z,
        c.depth,
        c.point_a.x,
        c.point_a.y,
        c.point_a.z,
        c.point_b.x,
        c.point_b.y,
        c.point_b.z,
    ];
    p.iter().all(|x| !x.is_nan())
}

fn world(c: &Contact3<impl Real>) -> Vector3<f64> {
    Vector3::new(
        c.normal.x.as_f64(),
        c.normal.y.as_f64(),
        c.normal.z.as_f64(),
    )
}

/// Allowed disagreement between a kernel in `T` and the f64 reference: the
/// inputs themselves are rounded to `T` (scale ~10 here).
fn slack<T: Real>() -> f64 {
    T::epsilon().as_f64() * 4096.0 * 10.0
}

fn pair_props<T: Real>(
    sa: Spec,
    pa: [f64; 6],
    sb: Spec,
    pb: [f64; 6],
    motion: [f64; 6],
) -> Result<(), TestCaseError> {
    let table = DispatchTable3::<T>::shared();
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let (a, b) = (a.as_ref(), b.as_ref());
    let (ia, ib) = (iso::<T>(&pa), iso::<T>(&pb));
    let hit = table.intersects(a, &ia, b, &ib).unwrap();
    let hit_ba = table.intersects(b, &ib, a, &ia).unwrap();
    let c_ab = table.contact(a, &ia, b, &ib).unwrap();
    let c_ba = table.contact(b, &ib, a, &ia).unwrap();
    // Exact symmetry and consistency.
    prop_assert_eq!(hit, hit_ba);
    prop_assert_eq!(c_ab.is_some(), hit);
    prop_assert_eq!(c_ba.is_some(), hit);
    if let (Some(x), Some(y)) = (c_ab, c_ba) {
        prop_assert!(no_nan(&x), "{:?}", x);
        prop_assert_eq!(x, y.flipped());
        prop_assert!(x.depth >= T::zero());
        prop_assert!((x.normal.norm() - T::one()).as_f64().abs() <= slack::<T>());
    }
    // The slow reference, in f64, away from touching.
    let s = slack::<T>();
    let (fa, fb) = (iso::<f64>(&pa), iso::<f64>(&pb));
    let (r, exact) = reference(&sa, &fa, &sb, &fb, c_ab.as_ref().map(world));
    if r.abs() > s {
        prop_assert_eq!(hit, r > 0.0, "reference {}", r);
    }
    if let Some(c) = c_ab {
        let depth = c.depth.as_f64();
        let (a64, b64) = (build::<f64>(&sa), build::<f64>(&sb));
        let along = overlap(
            a64.as_convex().unwrap(),
            &fa,
            b64.as_convex().unwrap(),
            &fb,
            &world(&c),
        );
        prop_assert!(
            (along - depth).abs() <= s,
            "overlap along the normal {} vs depth {}",
            along,
            depth
        );
        prop_assert!(
            depth <= r.max(0.0) + s,
            "depth {} above the reference {}",
            depth,
            r
        );
        if exact {
            prop_assert!(
                (depth - r.max(0.0)).abs() <= s,
                "depth {} vs reference {}",
                depth,
                r
            );
        }
        // Moving B by (depth + ε)·n separates; by (depth − ε)·n does not.
        let n = c.normal.into_inner();
        let moved = |k: T| Translation3::from(n * k) * ib;
        let eps = T::lit(s);
        prop_assert!(
            !table.intersects(a, &ia, b, &moved(c.depth + eps)).unwrap(),
            "depth + eps still hits"
        );
        if c.depth > eps {
            prop_assert!(
                table.intersects(a, &ia, b, &moved(c.depth - eps)).unwrap(),
                "depth - eps separates"
            );
        }
        // Points: point_a − point_b along the normal is the depth.
        prop_assert!(((c.point_a - c.point_b).dot(&n) - c.depth).as_f64().abs() <= s);
    }
    // A rigid motion of both shapes (translation only when an Aabb3, which
    // ignores rotation, is involved) changes nothing but rounding.
    let has_aabb = matches!(sa, Spec::Aabb3(..)) || matches!(sb, Spec::Aabb3(..));
    let m = if has_aabb {
        iso::<T>(&[motion[0], motion[1], motion[2], 0.0, 0.0, 0.0])
    } else {
        iso::<T>(&motion)
    };
    if r.abs() > s {
        prop_assert_eq!(table.intersects(a, &(m * ia), b, &(m * ib)).unwrap(), hit);
        if let (Some(x), Some(y)) = (c_ab, table.contact(a, &(m * ia), b, &(m * ib)).unwrap()) {
            prop_assert!(
                (x.depth - y.depth).as_f64().abs() <= s,
                "{:?} vs {:?}",
                x,
                y
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(shape::testing::cases(256)))]

    #[test]
    fn pairs_f32(sa in spec(), pa in pose(), sb in spec(), pb in pose(), m in motion()) {
        pair_props::<f32>(sa, pa, sb, pb, m)?;
    }

    #[test]
    fn pairs_f64(sa in spec(), pa in pose(), sb in spec(), pb in pose(), m in motion()) {
        pair_props::<f64>(sa, pa, sb, pb, m)?;
    }

    /// Boxes only, closer together: the 15-axis SAT against the reference.
    #[test]
    fn boxes_f64(ha in prop::array::uniform3(0.2..1.5_f64), pa in pose(), hb in prop::array::uniform3(0.2..1.5_f64), pb in pose(), m in motion()) {
        pair_props::<f64>(Spec::Cuboid(ha), pa, Spec::Cuboid(hb), pb, m)?;
    }

    #[test]
    fn boxes_f32(ha in prop::array::uniform3(0.2..1.5_f64), pa in pose(), hb in prop::array::uniform3(0.2..1.5_f64), pb in pose(), m in motion()) {
        pair_props::<f32>(Spec::Cuboid(ha), pa, Spec::Cuboid(hb), pb, m)?;
    }
}

// ------------------------------------------------------- far from the origin

/// Both shapes moved by the same offset `O` (f32 up to 1e5, f64 up to 1e12),
/// with translations on the float grid at `O` so that the far poses are exact:
/// the relative pose is the same bit for bit, so the answer must be the same
/// (the bound of `docs/conventions.md`, "Far from the origin"), and contact
/// points move by `O` up to one spacing `h` of output rounding.
fn far_props<T: Real>(
    sa: Spec,
    pa: [f64; 6],
    sb: Spec,
    pb: [f64; 6],
    (u, dir): (f64, [f64; 3]),
) -> Result<(), TestCaseError> {
    let max: f64 = if T::epsilon().as_f64() > 1e-10 {
        1e5
    } else {
        1e12
    };
    let norm = (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]).sqrt();
    prop_assume!(norm > 1e-3);
    let m = max.powf(u);
    let h = 2f64.powf((2.0 * (m + 8.0_f64)).log2().floor()) * T::epsilon().as_f64();
    let snap = |x: f64| (x / h).round() * h;
    let o = dir.map(|d| snap(d / norm * m));
    let snapped = |p: [f64; 6]| [snap(p[0]), snap(p[1]), snap(p[2]), p[3], p[4], p[5]];
    let (pa, pb) = (snapped(pa), snapped(pb));
    let moved = |p: [f64; 6]| [p[0] + o[0], p[1] + o[1], p[2] + o[2], p[3], p[4], p[5]];
    let t = DispatchTable3::<T>::shared();
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let near = t
        .contact(a.as_ref(), &iso(&pa), b.as_ref(), &iso(&pb))
        .unwrap();
    let far = t
        .contact(a.as_ref(), &iso(&moved(pa)), b.as_ref(), &iso(&moved(pb)))
        .unwrap();
    prop_assert_eq!(near.is_some(), far.is_some(), "offset {:?}", o);
    prop_assert_eq!(
        t.intersects(a.as_ref(), &iso(&moved(pa)), b.as_ref(), &iso(&moved(pb)))
            .unwrap(),
        far.is_some()
    );
    if let (Some(x), Some(y)) = (near, far) {
        prop_assert!(no_nan(&y));
        let tol = tol::<T>(16.0).as_f64();
        prop_assert!((x.depth - y.depth).as_f64().abs() <= tol, "{x:?} vs {y:?}");
        prop_assert!((world(&x) - world(&y)).norm() <= tol, "{x:?} vs {y:?}");
        for (p, q) in [(x.point_a, y.point_a), (x.point_b, y.point_b)] {
            for i in 0..3 {
                let d = q[i].as_f64() - o[i] - p[i].as_f64();
                prop_assert!(d.abs() <= h + tol, "{p:?} near, {q:?} far, offset {o:?}");
            }
        }
    }
    Ok(())
}

fn offset() -> impl Strategy<Value = (f64, [f64; 3])> {
    (0.0..=1.0_f64, prop::array::uniform3(-1.0..1.0_f64))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(shape::testing::cases(256)))]

    #[test]
    fn far_f32(sa in spec(), pa in pose(), sb in spec(), pb in pose(), o in offset()) {
        far_props::<f32>(sa, pa, sb, pb, o)?;
    }

    #[test]
    fn far_f64(sa in spec(), pa in pose(), sb in spec(), pb in pose(), o in offset()) {
        far_props::<f64>(sa, pa, sb, pb, o)?;
    }
}
