#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pqcodec_fuzz::harness::decompress_snappy(data));
