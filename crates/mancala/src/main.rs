//! The `mancala` binary (work in progress).
fn main() {}
