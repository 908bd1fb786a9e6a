//! Shape constructors: hostile numbers (raw bits of the precision — NaN, ±∞,
//! ±0, subnormals, ±MAX — small exact values and known troublemakers) fed to
//! every built-in constructor in f32 and f64: Point, Segment, Circle, Aabb
//! (`new` and `from_half_extents`), Obb, Triangle, ConvexPolygon (`new` and
//! `from_hull`), Capsule, Ellipse, Sphere, Cuboid, Aabb3. A refusal must be a
//! `ShapeError` (never a panic). A shape that is built must, at the identity
//! and at the fuzzed finite pose, give a bounding box, support points (for any
//! direction, zero, tiny, huge or NaN included), projections and nearest core
//! points with no NaN; when every input is within the safe range
//! (|x| ≤ √MAX / 16, so that no square overflows) they and the projections on
//! axes of length up to 1e3 must be finite and the support points must lie in
//! the bounding box. (Outside that range a projection may overflow; one that
//! adds an infinite centre term to an infinite radius term is NaN: a known
//! limit, not checked.) Polygons and triangles that
//! are accepted must really be convex and counter-clockwise (checked in f64
//! on each edge divided by its largest component), with unit edge normals.
#![no_main]

use arbitrary::Arbitrary;
use kasanari_fuzz::{Num, RawPose, RawPose3, RawShape, RawShape3, unit_tolerance};
use libfuzzer_sys::fuzz_target;
use nalgebra::{Isometry2, Isometry3, Point2, Vector2, Vector3};
use num_traits::Float;
use shape::{Aabb3, BoundingBox, ConvexPolygon, Cuboid, Ellipse, Real, Sphere, Triangle};

#[derive(Arbitrary, Debug)]
enum Input {
    D2(RawShape, RawPose, [Num; 2]),
    D3(RawShape3, RawPose3, [Num; 3]),
}

fn safe<T: Real>() -> T {
    Float::sqrt(<T as Float>::max_value()) / T::lit(16.0)
}

fn no_nan<T: Real>(v: &[T]) -> bool {
    v.iter().all(|x| !Float::is_nan(*x))
}

fn all_finite<T: Real>(v: &[T]) -> bool {
    v.iter().all(|x| Float::is_finite(*x))
}

/// The largest magnitude among the shape's own numbers (NaN counts as huge).
fn magnitude<T: Real>(nums: &[T]) -> T {
    nums.iter().fold(T::zero(), |m, x| {
        if Float::is_nan(*x) {
            <T as Float>::infinity()
        } else {
            Float::max(m, Float::abs(*x))
        }
    })
}

fn shape_numbers2<T: Real>(raw: &RawShape) -> Vec<T> {
    let p = |p: &[Num; 2]| vec![p[0].get::<T>(), p[1].get::<T>()];
    match raw {
        RawShape::Point(a) | RawShape::AabbHalf(a) | RawShape::Obb(a) | RawShape::Ellipse(a) => {
            p(a)
        }
        RawShape::Circle(r) => vec![r.get()],
        RawShape::Segment(a, b) | RawShape::Aabb(a, b) => [p(a), p(b)].concat(),
        RawShape::Capsule(a, b, r) => [p(a), p(b), vec![r.get()]].concat(),
        RawShape::Triangle(v) => v.iter().flat_map(p).collect(),
        RawShape::Polygon(v) | RawShape::Hull(v) => v.iter().take(64).flat_map(p).collect(),
    }
}

/// Checks that counter-clockwise vertices form a convex polygon that winds
/// once, in f64 on each edge divided by its largest component (scale-free: no
/// overflow of huge edges, no underflow of subnormal ones).
fn check_convex<T: Real>(v: &[Point2<T>], normals: &[Vector2<T>]) {
    let q: Vec<[f64; 2]> = v.iter().map(|p| [p.x.as_f64(), p.y.as_f64()]).collect();
    let n = q.len();
    let edge = |a: [f64; 2], b: [f64; 2]| {
        let e = [b[0] - a[0], b[1] - a[1]];
        let m = e[0].abs().max(e[1].abs());
        assert!(
            m > 0.0 && m.is_finite(),
            "accepted polygon with edge {e:?}: {v:?}"
        );
        [e[0] / m, e[1] / m]
    };
    let mut winding = 0.0;
    for i in 0..n {
        let (a, b, c) = (q[(i + n - 1) % n], q[i], q[(i + 1) % n]);
        let e1 = edge(a, b);
        let e2 = edge(b, c);
        let cross = e1[0] * e2[1] - e1[1] * e2[0];
        assert!(
            cross > 0.0,
            "accepted polygon turns right or straight at {i}: {v:?}"
        );
        winding += cross.atan2(e1[0] * e2[0] + e1[1] * e2[1]);
    }
    assert!(
        (winding - core::f64::consts::TAU).abs() < 1e-6,
        "accepted polygon winds {winding}: {v:?}"
    );
    assert_eq!(normals.len(), n);
    for (i, nm) in normals.iter().enumerate() {
        assert!(
            all_finite(&[nm.x, nm.y]) && Float::abs(nm.norm() - T::one()) <= unit_tolerance::<T>(),
            "edge normal {i} not unit: {nm:?} of {v:?}"
        );
    }
}

fn directions<T: Real>(fuzzed: Vector2<T>) -> Vec<Vector2<T>> {
    let l = T::lit;
    vec![
        Vector2::new(l(1.0), l(0.0)),
        Vector2::new(l(0.0), l(1.0)),
        Vector2::new(l(-1.0), l(-1.0)),
        Vector2::new(l(3.0), l(-4.0)),
        Vector2::new(l(1e-30), l(-1e-30)),
        Vector2::zeros(),
        fuzzed,
    ]
}

fn check2<T: Real>(raw: &RawShape, pose: &RawPose, dir: &[Num; 2]) {
    let s = match raw.build::<T>() {
        Ok(s) => s,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let fuzzed_pose = pose.get::<T>();
    let t = fuzzed_pose.translation.vector;
    let pose_finite = all_finite(&[t.x, t.y, fuzzed_pose.rotation.re, fuzzed_pose.rotation.im]);
    let mut poses = vec![(Isometry2::identity(), T::zero())];
    if pose_finite {
        poses.push((fuzzed_pose, magnitude(&[t.x, t.y])));
    }
    let size = magnitude(&shape_numbers2::<T>(raw));
    let fuzzed_dir = Vector2::new(dir[0].get::<T>(), dir[1].get::<T>());
    let any = s.as_any();
    if let Some(p) = any.downcast_ref::<ConvexPolygon<T>>() {
        check_convex(p.vertices(), p.normals());
    }
    if let Some(p) = any.downcast_ref::<Triangle<T>>() {
        check_convex(p.vertices(), p.normals());
    }
    for (pose, offset) in poses {
        let safe_range = size <= safe::<T>() && offset <= safe::<T>();
        let bb = s.bounding_box(&pose);
        let corners = [bb.min.x, bb.min.y, bb.max.x, bb.max.y];
        assert!(
            no_nan(&corners),
            "NaN bounding box {bb:?} of {s:?} at {pose:?}"
        );
        assert!(
            bb.min.x <= bb.max.x && bb.min.y <= bb.max.y,
            "inverted box {bb:?} of {s:?}"
        );
        if safe_range {
            assert!(
                all_finite(&corners),
                "infinite bounding box {bb:?} of {s:?} at {pose:?}"
            );
        }
        let tol = T::lit(64.0) * <T as Float>::epsilon() * (size + offset)
            + <T as Float>::min_positive_value();
        let loose = BoundingBox::new(bb.min - Vector2::repeat(tol), bb.max + Vector2::repeat(tol));
        let convex = s.as_convex().expect("built-in shapes are convex");
        let _ = convex.contains_point(&pose, &Point2::from(pose.translation.vector));
        for d in directions(fuzzed_dir) {
            let sp = convex.support_point(&pose, &d);
            assert!(
                no_nan(&[sp.x, sp.y]),
                "NaN support point {sp:?} of {s:?} along {d:?}"
            );
            if safe_range {
                assert!(
                    all_finite(&[sp.x, sp.y]),
                    "infinite support point of {s:?} along {d:?}"
                );
                assert!(
                    loose.contains_point(&sp),
                    "support point {sp:?} outside the box {bb:?} of {s:?} along {d:?}"
                );
            }
            let _ = convex.contains_point(&pose, &sp);
            // Projections on finite axes of moderate length.
            let axis_ok = all_finite(&[d.x, d.y]) && d.amax() <= T::lit(1e3);
            let interval = if let Some(sat) = s.as_separating_axes() {
                let near = sat.nearest_core_point(&pose, &Point2::from(d));
                if axis_ok {
                    assert!(
                        no_nan(&[near.x, near.y]),
                        "NaN core point of {s:?} near {d:?}"
                    );
                }
                let mut axes = 0usize;
                sat.candidate_axes(&pose, sat, &pose, &mut |a| {
                    axes += 1;
                    if safe_range {
                        assert!(all_finite(&[a.x, a.y]), "bad candidate axis {a:?} of {s:?}");
                    }
                });
                Some(sat.project(&pose, &d))
            } else {
                any.downcast_ref::<Ellipse<T>>()
                    .map(|e| e.project(&pose, &d))
            };
            // Outside the safe range a projection may overflow, to ±∞ or to
            // NaN (∞ − ∞ of the centre's and the radius' terms): it is only
            // checked inside it.
            if let (Some(i), true) = (interval, axis_ok && safe_range) {
                assert!(
                    all_finite(&[i.min, i.max]),
                    "bad projection {i:?} of {s:?} on {d:?}"
                );
                assert!(
                    i.min <= i.max,
                    "inverted projection {i:?} of {s:?} on {d:?}"
                );
            }
        }
    }
}

fn check3<T: Real>(raw: &RawShape3, pose: &RawPose3, dir: &[Num; 3]) {
    let s = match raw.build::<T>() {
        Ok(s) => s,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let fuzzed_pose = pose.get::<T>();
    let t = fuzzed_pose.translation.vector;
    let q = fuzzed_pose.rotation.quaternion();
    let pose_finite = all_finite(&[t.x, t.y, t.z, q.w, q.i, q.j, q.k]);
    let mut poses = vec![(Isometry3::identity(), T::zero())];
    if pose_finite {
        poses.push((fuzzed_pose, magnitude(&[t.x, t.y, t.z])));
    }
    let nums: Vec<T> = match raw {
        RawShape3::Sphere(r) => vec![r.get()],
        RawShape3::Cuboid(h) => h.iter().map(|x| x.get()).collect(),
        RawShape3::Aabb3(a, b) => a.iter().chain(b).map(|x| x.get()).collect(),
    };
    let size = magnitude(&nums);
    let l = T::lit;
    let dirs = [
        Vector3::new(l(1.0), l(0.0), l(0.0)),
        Vector3::new(l(-1.0), l(2.0), l(-3.0)),
        Vector3::zeros(),
        Vector3::new(dir[0].get(), dir[1].get(), dir[2].get()),
    ];
    for (pose, offset) in poses {
        let safe_range = size <= safe::<T>() && offset <= safe::<T>();
        let bb = s.bounding_box(&pose);
        let corners = [bb.min.x, bb.min.y, bb.min.z, bb.max.x, bb.max.y, bb.max.z];
        assert!(
            no_nan(&corners),
            "NaN bounding box {bb:?} of {s:?} at {pose:?}"
        );
        if safe_range {
            assert!(
                all_finite(&corners),
                "infinite bounding box {bb:?} of {s:?} at {pose:?}"
            );
        }
        let tol = T::lit(64.0) * <T as Float>::epsilon() * (size + offset)
            + <T as Float>::min_positive_value();
        let loose = BoundingBox::new(bb.min - Vector3::repeat(tol), bb.max + Vector3::repeat(tol));
        let convex = s.as_convex().expect("built-in 3D shapes are convex");
        for d in dirs {
            let sp = convex.support_point(&pose, &d);
            assert!(
                no_nan(&[sp.x, sp.y, sp.z]),
                "NaN support point {sp:?} of {s:?} along {d:?}"
            );
            if safe_range {
                assert!(
                    all_finite(&[sp.x, sp.y, sp.z]),
                    "infinite support point of {s:?}"
                );
                assert!(
                    loose.contains_point(&sp),
                    "support point {sp:?} outside {bb:?} of {s:?}"
                );
            }
            let _ = convex.contains_point(&pose, &sp);
            let axis_ok = all_finite(&[d.x, d.y, d.z]) && d.amax() <= T::lit(1e3);
            let any = s.as_any();
            let interval = any
                .downcast_ref::<Sphere<T>>()
                .map(|x| x.project(&pose, &d))
                .or_else(|| {
                    any.downcast_ref::<Cuboid<T>>()
                        .map(|x| x.project(&pose, &d))
                })
                .or_else(|| any.downcast_ref::<Aabb3<T>>().map(|x| x.project(&pose, &d)));
            if let (Some(i), true) = (interval, axis_ok && safe_range) {
                assert!(
                    all_finite(&[i.min, i.max]) && i.min <= i.max,
                    "bad projection {i:?} of {s:?}"
                );
            }
        }
    }
}

fuzz_target!(|input: Input| {
    match &input {
        Input::D2(s, p, d) => {
            check2::<f32>(s, p, d);
            check2::<f64>(s, p, d);
        }
        Input::D3(s, p, d) => {
            check3::<f32>(s, p, d);
            check3::<f64>(s, p, d);
        }
    }
});
