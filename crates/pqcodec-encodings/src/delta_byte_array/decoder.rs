use std::marker::PhantomData;

use pqcodec_core::{Binary, Decoder, Encoding, Error, Int32Type, PhysicalType, Result, Sink};

use crate::delta_binary_packed::{CHUNK, DeltaBinaryPackedDecoder, reserve_bound};
use crate::delta_length_byte_array::DeltaLengthByteArrayDecoder;

const ENCODING: Encoding = Encoding::DeltaByteArray;

/// Streaming DELTA_BYTE_ARRAY decoder of BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY values.
///
/// The previous value is rebuilt in one reusable buffer (its prefix kept, the suffix
/// appended), which is handed to the sink; no allocation per value. Skipped values are
/// rebuilt too (each value depends on the one before) but not handed over.
#[derive(Debug, Clone)]
pub struct DeltaByteArrayDecoder<'a, T: Binary> {
    prefixes: DeltaBinaryPackedDecoder<'a, Int32Type>,
    suffixes: DeltaLengthByteArrayDecoder<'a>,
    /// The last value decoded.
    previous: Vec<u8>,
    /// Values not read or skipped yet.
    remaining: usize,
    /// Values decoded so far (for error messages).
    index: usize,
    /// The length every value must have, or 0 for any.
    type_length: usize,
    _type: PhantomData<T>,
}

impl<'a, T: Binary> DeltaByteArrayDecoder<'a, T> {
    /// A decoder of the first `num_values` values of the page `data`.
    ///
    /// For FIXED_LEN_BYTE_ARRAY `type_length` (at least 1, else [`Error::Invalid`] naming
    /// `type_length`, as PLAIN and BYTE_STREAM_SPLIT) is checked against every value's length
    /// ([`Error::Invalid`]); it is ignored for BYTE_ARRAY. Fails if either length stream is
    /// malformed or holds fewer than `num_values` values ([`Error::CountTooLarge`]).
    pub fn new(data: &'a [u8], num_values: usize, type_length: usize) -> Result<Self> {
        if T::TYPE == PhysicalType::FixedLenByteArray && type_length == 0 {
            return Err(crate::plain::zero_type_length(ENCODING));
        }
        let prefixes =
            DeltaBinaryPackedDecoder::nested(data, num_values, ENCODING, "prefix length count")?;
        let start = prefixes.end_offset()?;
        let rest = data
            .get(start..)
            .ok_or_else(|| Error::truncated(ENCODING, "prefix lengths", start, data.len()))?;
        let suffixes =
            DeltaLengthByteArrayDecoder::nested(rest, num_values, ENCODING, "suffix count")?;
        let type_length = match T::TYPE {
            PhysicalType::FixedLenByteArray => type_length,
            _ => 0,
        };
        Ok(DeltaByteArrayDecoder {
            prefixes,
            suffixes,
            previous: Vec::new(),
            remaining: num_values,
            index: 0,
            type_length,
            _type: PhantomData,
        })
    }

    /// Fills `prefixes[..k]` with the next `k` (at most [`CHUNK`]) prefix lengths.
    fn next_prefixes(&mut self, k: usize, prefixes: &mut [i32; CHUNK]) -> Result<()> {
        let mut got = 0;
        while got < k {
            let slice = self.prefixes.next_slice(k - got)?;
            let Some(slots) = prefixes.get_mut(got..got + slice.len()) else {
                break;
            };
            if slice.is_empty() {
                break;
            }
            slots.copy_from_slice(slice);
            got += slice.len();
        }
        if got < k {
            return Err(Error::invalid(
                ENCODING,
                "prefix lengths",
                "fewer prefix lengths than values",
            ));
        }
        Ok(())
    }

    /// Decodes the next `n` (at most `remaining`) values, calling `f` on each.
    fn decode(&mut self, n: usize, mut f: impl FnMut(&[u8])) -> Result<()> {
        let mut prefixes = [0i32; CHUNK];
        let mut lengths = [0u32; CHUNK];
        let mut done = 0;
        while done < n {
            let k = (n - done).min(CHUNK);
            self.next_prefixes(k, &mut prefixes)?;
            let mut j = 0;
            while j < k {
                let (count, bytes) = self.suffixes.next_chunk(k - j, &mut lengths)?;
                if count == 0 {
                    return Err(Error::invalid(
                        ENCODING,
                        "suffix lengths",
                        "fewer suffix lengths than values",
                    ));
                }
                let chunk_prefixes = prefixes.get(j..j + count).unwrap_or_default();
                let chunk_lengths = lengths.get(..count).unwrap_or_default();
                let mut rest = bytes;
                for (&len, &prefix) in chunk_lengths.iter().zip(chunk_prefixes) {
                    // `next_chunk` checked that `bytes` holds every suffix.
                    let (suffix, tail) = rest.split_at_checked(len as usize).unwrap_or((rest, &[]));
                    rest = tail;
                    let previous = &mut self.previous;
                    let keep = usize::try_from(prefix)
                        .ok()
                        .filter(|&p| p <= previous.len())
                        .ok_or_else(|| bad_prefix(prefix, self.index, previous.len()))?;
                    previous.truncate(keep);
                    previous.extend_from_slice(suffix);
                    if self.type_length != 0 && previous.len() != self.type_length {
                        return Err(bad_length(self.index, previous.len(), self.type_length));
                    }
                    self.index += 1;
                    f(previous);
                }
                j += count;
            }
            done += k;
            self.remaining -= k;
        }
        Ok(())
    }
}

fn bad_length(index: usize, len: usize, type_length: usize) -> Error {
    Error::invalid(
        ENCODING,
        "value length",
        format!("value {index} is {len} bytes, not the column's {type_length}"),
    )
}

fn bad_prefix(prefix: i32, index: usize, previous: usize) -> Error {
    let reason = if prefix < 0 {
        format!("value {index} has negative prefix length {prefix}")
    } else if index == 0 {
        format!("the first value has prefix length {prefix}, not 0")
    } else {
        format!(
            "value {index} has prefix length {prefix}, longer than the previous value ({previous} bytes)"
        )
    };
    Error::invalid(ENCODING, "prefix length", reason)
}

impl<T: Binary> Decoder<T> for DeltaByteArrayDecoder<'_, T> {
    fn remaining(&self) -> usize {
        self.remaining
    }

    fn read<S: Sink<[u8]> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        let want = max.min(self.remaining);
        out.reserve(want.min(reserve_bound(self.suffixes.bytes_left())));
        self.decode(want, |value| out.push(value))?;
        Ok(want)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.remaining);
        self.decode(n, |_| {})?;
        Ok(n)
    }
}
