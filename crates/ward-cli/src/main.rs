//! The `ward` command (stub: being written).
fn main() {}
