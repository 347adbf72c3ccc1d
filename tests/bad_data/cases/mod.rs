//! The registry: every malformed page of every encoding, with the error it must give.

mod delta;
mod dictionary;
mod levels;
mod plain;

use super::*;
use delta::*;
use dictionary::*;
use levels::*;
use plain::*;

pub(super) fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    plain_cases(&mut v);
    group_var_int_cases(&mut v);
    rle_cases(&mut v);
    bit_packed_cases(&mut v);
    dictionary_cases(&mut v);
    delta_binary_packed_cases(&mut v);
    delta_length_byte_array_cases(&mut v);
    delta_byte_array_cases(&mut v);
    byte_stream_split_cases(&mut v);
    alp_cases(&mut v);
    unsupported_cases(&mut v);
    v
}

/// Every (encoding, physical type) pair that does not apply: a typed error, never a panic.
pub(super) fn unsupported_cases(v: &mut Vec<Case>) {
    for e in Encoding::ALL {
        for p in ALL_TYPES {
            if applies(e, p) {
                continue;
            }
            v.push(case(
                format!(
                    "{}/{}/does not apply",
                    e.name().to_ascii_lowercase(),
                    lower(p)
                ),
                e,
                p,
                2,
                vec![0; 64],
                Expect::Unsupported(e, p),
            ));
        }
    }
}
