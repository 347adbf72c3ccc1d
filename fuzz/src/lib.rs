//! pqcodec's fuzz targets. Each target in `fuzz_targets/` calls one function of [`harness`],
//! which the root package's `tests/fuzz_regressions.rs` also includes (with `#[path]`) to
//! replay the saved corpus and every crash found as regression tests.

pub mod harness;
