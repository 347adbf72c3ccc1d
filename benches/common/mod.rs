//! What the criterion benches share.

use std::time::Duration;

use criterion::Criterion;

/// Short runs: 0.5 s of warm-up, 2 s and 10 samples a function.
pub fn config() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .sample_size(10)
}
