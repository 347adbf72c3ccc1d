#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pqcodec_fuzz::harness::decode_byte_stream_split(data));
