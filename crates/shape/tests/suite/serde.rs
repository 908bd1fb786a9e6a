//! Shapes save and load through serde (feature `serde`): a loaded shape equals
//! the saved one, and invalid records are refused with the constructor's error.
#![cfg(feature = "serde")]

use crate::common;

use common::*;
use proptest::prelude::*;
use shape::prelude::*;

fn round_trip<T: Real + serde::Serialize + serde::de::DeserializeOwned>(
    s: &Spec,
) -> Result<(), TestCaseError> {
    let shape = build::<T>(s);
    macro_rules! check {
        ($($ty:ident),*) => {$(
            if let Some(x) = shape.as_any().downcast_ref::<$ty<T>>() {
                let text = serde_json::to_string(x).unwrap();
                let back: $ty<T> = serde_json::from_str(&text).unwrap();
                prop_assert_eq!(&back, x, "{}", text);
                return Ok(());
            }
        )*};
    }
    check!(
        Point,
        Segment,
        Circle,
        Aabb,
        Obb,
        Triangle,
        ConvexPolygon,
        Capsule,
        Ellipse,
        RoundedPolygon
    );
    Err(TestCaseError::fail("unknown shape"))
}

proptest! {
    #[test]
    fn round_trip_f32(s in spec()) { round_trip::<f32>(&s)?; }
    #[test]
    fn round_trip_f64(s in spec()) { round_trip::<f64>(&s)?; }
}

#[test]
fn invalid_records_are_refused() {
    let err = |r: Result<ConvexPolygon<f64>, serde_json::Error>| r.unwrap_err().to_string();
    assert!(
        err(serde_json::from_str(
            r#"{"vertices": [[0,0],[2,0],[1,0.5],[1,2]]}"#
        ))
        .contains("not convex at vertex 2")
    );
    assert!(
        serde_json::from_str::<Obb<f32>>(r#"{"half_extents": [1, 0]}"#)
            .unwrap_err()
            .to_string()
            .contains("half_extents.y")
    );
    assert!(serde_json::from_str::<Circle<f32>>(r#"{"radius": 1, "colour": 2}"#).is_err());
    assert!(serde_json::from_str::<Segment<f64>>(r#"{"a": [1, 1], "b": [1, 1]}"#).is_err());
    let s: Sphere<f64> = serde_json::from_str(r#"{"radius": 2}"#).unwrap();
    assert_eq!(s.radius(), 2.0);
    let c: Cuboid<f32> = serde_json::from_str(r#"{"half_extents": [1, 2, 3]}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&c).unwrap(),
        r#"{"half_extents":[1.0,2.0,3.0]}"#
    );
    assert!(serde_json::from_str::<Aabb3<f32>>(r#"{"min": [0, 0, 0], "max": [1, 1, 0]}"#).is_err());
}
