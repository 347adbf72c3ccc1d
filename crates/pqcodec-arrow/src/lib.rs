//! Parquet pages into Arrow arrays (in progress).
