//! Shape queries: bounding boxes and support points (placeholder until written).
fn main() {}
