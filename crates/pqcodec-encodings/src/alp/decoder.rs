//! The ALP decoder.

use std::marker::PhantomData;

use bytes::Bytes;
use pqcodec_core::{Decoder, Encoding, Error, Result, Sink};

use super::{AlpFloat, AlpType, HEADER_LEN, MAX_LOG_VECTOR_SIZE, MIN_LOG_VECTOR_SIZE};
use crate::kernels::bitpack::packed_len;

/// Values decoded at a time into a buffer on the stack, for sinks that do not lend their
/// memory ([`Sink::grow_slots`]).
const TILE: usize = 512;

/// A streaming ALP decoder of one page's FLOAT or DOUBLE values.
///
/// The page header and the offset array are checked when the decoder is made; each vector's
/// header and exception positions when a read first reaches it. Reads decode straight into the
/// sink's memory where it lends it; [`Decoder::skip`] only moves the position, decoding (and
/// reading) nothing of the vectors it passes over.
#[derive(Debug, Clone)]
pub struct AlpDecoder<T: AlpType> {
    /// The page from the offset array on: what offsets count from.
    body: Bytes,
    /// Number of vectors, and of offsets.
    num_vectors: usize,
    log_vector_size: u32,
    /// Values the header says the page holds.
    num_elements: usize,
    /// Index of the next value.
    pos: usize,
    /// Values to decode: `pos..end`.
    end: usize,
    /// The vector a read last reached, parsed.
    current: Option<Vector>,
    _type: PhantomData<T>,
}

/// One vector's header, and where its sections are in the page's body, checked.
#[derive(Debug, Clone, Copy)]
struct Vector {
    index: usize,
    /// Number of values.
    len: usize,
    exponent: u8,
    factor: u8,
    /// The frame of reference, as the low bits of a `u64`.
    reference: u64,
    width: u32,
    /// Offset of the packed values.
    packed: usize,
    /// Offset of the exception positions, then of their values, and how many there are.
    positions: usize,
    exceptions: usize,
    num_exceptions: usize,
}

impl Vector {
    /// The vector's sections in `body`, the page's body it was parsed from, for values of
    /// `size` bytes.
    fn view<'d>(&self, body: &'d [u8], size: usize) -> VectorView<'d> {
        let section = |at: usize, len: usize| body.get(at..at + len).unwrap_or_default();
        VectorView {
            vector: *self,
            packed: body.get(self.packed..).unwrap_or_default(),
            positions: section(self.positions, self.num_exceptions * 2),
            exceptions: section(self.exceptions, self.num_exceptions * size),
        }
    }
}

/// A vector's sections.
struct VectorView<'d> {
    vector: Vector,
    /// The packed values, then the rest of the page: the kernels read whole windows of
    /// bytes, and the page's bytes past the vector's values spare them copying its end.
    packed: &'d [u8],
    positions: &'d [u8],
    exceptions: &'d [u8],
}

fn invalid(field: &'static str, reason: String) -> Error {
    Error::invalid(Encoding::Alp, field, reason)
}

fn truncated(field: &'static str, needed: usize, available: usize) -> Error {
    Error::truncated(Encoding::Alp, field, needed, available)
}

/// The little-endian `u32` at `at` in `bytes`, which holds it.
#[inline]
fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

impl<T: AlpType> AlpDecoder<T> {
    /// A decoder of the first `num_values` values of the page `data`.
    ///
    /// Checks the header (compression mode and integer encoding 0, `log_vector_size` in
    /// 3..=15, a non-negative element count of at least `num_values`) and that the offsets
    /// start just past the offset array, never go backwards and stay within the page.
    pub fn new(data: Bytes, num_values: usize) -> Result<Self> {
        let header: &[u8; HEADER_LEN] = data
            .get(..HEADER_LEN)
            .and_then(|h| h.try_into().ok())
            .ok_or_else(|| truncated("page header", HEADER_LEN, data.len()))?;
        let [mode, integer_encoding, log, n0, n1, n2, n3] = *header;
        if mode != 0 {
            return Err(invalid(
                "compression_mode",
                format!("expected 0 (ALP), found {mode}"),
            ));
        }
        if integer_encoding != 0 {
            return Err(invalid(
                "integer_encoding",
                format!("expected 0 (FOR + bit packing), found {integer_encoding}"),
            ));
        }
        if !(MIN_LOG_VECTOR_SIZE..=MAX_LOG_VECTOR_SIZE).contains(&log) {
            return Err(invalid(
                "log_vector_size",
                format!("expected {MIN_LOG_VECTOR_SIZE} to {MAX_LOG_VECTOR_SIZE}, found {log}"),
            ));
        }
        let count = i32::from_le_bytes([n0, n1, n2, n3]);
        let num_elements = usize::try_from(count)
            .map_err(|_| invalid("num_elements", format!("expected 0 or more, found {count}")))?;
        if num_values > num_elements {
            return Err(Error::CountTooLarge {
                encoding: Encoding::Alp,
                field: "num_elements",
                count: num_values as u64,
                capacity: num_elements as u64,
            });
        }
        let log_vector_size = u32::from(log);
        let num_vectors = num_elements.div_ceil(1 << log_vector_size);
        let body = data.slice(HEADER_LEN..);
        // At most 2^31 / 8 vectors: no overflow.
        let offsets_len = num_vectors * 4;
        if body.len() < offsets_len {
            return Err(truncated("offset array", offsets_len, body.len()));
        }
        let mut previous = offsets_len;
        for i in 0..num_vectors {
            let offset = u32_at(&body, i * 4).unwrap_or_default() as usize;
            if i == 0 && offset != offsets_len {
                return Err(invalid(
                    "vector offset",
                    format!(
                        "vector 0 starts at {offset}, expected {offsets_len} (just past the \
                         offset array)"
                    ),
                ));
            }
            if offset < previous {
                return Err(invalid(
                    "vector offset",
                    format!(
                        "vector {i} starts at {offset}, before vector {} at {previous}",
                        i - 1
                    ),
                ));
            }
            if offset > body.len() {
                return Err(invalid(
                    "vector offset",
                    format!(
                        "vector {i} starts at {offset}, past the end of the page ({} bytes \
                         from the offset array)",
                        body.len()
                    ),
                ));
            }
            previous = offset;
        }
        Ok(AlpDecoder {
            body,
            num_vectors,
            log_vector_size,
            num_elements,
            pos: 0,
            end: num_values,
            current: None,
            _type: PhantomData,
        })
    }

    /// The number of values in each vector but the last (`2^log_vector_size`).
    pub fn vector_size(&self) -> usize {
        1 << self.log_vector_size
    }

    /// Vector `index`, parsed and checked (the last one parsed is kept).
    fn vector(&mut self, index: usize) -> Result<Vector> {
        if let Some(v) = self.current.filter(|v| v.index == index) {
            return Ok(v);
        }
        let v = self.parse_vector(index)?;
        self.current = Some(v);
        Ok(v)
    }

    fn parse_vector(&self, index: usize) -> Result<Vector> {
        let body = &self.body[..];
        // The offsets were checked in `new`: in order and within the body.
        let start = u32_at(body, index * 4).unwrap_or_default() as usize;
        let end = if index + 1 < self.num_vectors {
            u32_at(body, (index + 1) * 4).unwrap_or_default() as usize
        } else {
            body.len()
        };
        let bytes = body.get(start..end).unwrap_or_default();
        let first = index << self.log_vector_size;
        let len = (self.num_elements - first).min(self.vector_size());
        let width_bytes = (T::Float::BITS / 8) as usize;
        let header_len = 4 + width_bytes + 1;
        let Some(header) = bytes.get(..header_len) else {
            return Err(truncated("vector header", header_len, bytes.len()));
        };
        let (exponent, factor) = (header[0], header[1]);
        let num_exceptions = usize::from(u16::from_le_bytes([header[2], header[3]]));
        if exponent > T::Float::MAX_EXPONENT {
            return Err(invalid(
                "exponent",
                format!(
                    "vector {index}: expected at most {} for {}, found {exponent}",
                    T::Float::MAX_EXPONENT,
                    T::Float::NAME
                ),
            ));
        }
        if factor > exponent {
            return Err(invalid(
                "factor",
                format!("vector {index}: expected at most the exponent {exponent}, found {factor}"),
            ));
        }
        if num_exceptions > len {
            return Err(Error::CountTooLarge {
                encoding: Encoding::Alp,
                field: "num_exceptions",
                count: num_exceptions as u64,
                capacity: len as u64,
            });
        }
        let mut reference = [0u8; 8];
        reference[..width_bytes].copy_from_slice(&header[4..4 + width_bytes]);
        let reference = u64::from_le_bytes(reference);
        let width = u32::from(header[4 + width_bytes]);
        if width > T::Float::BITS {
            return Err(Error::BitWidth {
                encoding: Encoding::Alp,
                field: "bit_width",
                width,
                max: T::Float::BITS,
            });
        }
        let rest = &bytes[header_len..];
        let packed_bytes = packed_len(len, width);
        let packed = start + header_len;
        let Some((_, rest)) = rest.split_at_checked(packed_bytes) else {
            return Err(truncated("packed values", packed_bytes, rest.len()));
        };
        let Some((positions, rest)) = rest.split_at_checked(num_exceptions * 2) else {
            return Err(truncated(
                "exception positions",
                num_exceptions * 2,
                rest.len(),
            ));
        };
        let Some((_, rest)) = rest.split_at_checked(num_exceptions * width_bytes) else {
            return Err(truncated(
                "exception values",
                num_exceptions * width_bytes,
                rest.len(),
            ));
        };
        if !rest.is_empty() {
            return Err(invalid(
                "vector offset",
                format!(
                    "vector {index} ends {} bytes before the next vector (no padding is allowed)",
                    rest.len()
                ),
            ));
        }
        // The largest position first, a loop the compiler vectorizes; the first one out of
        // the vector only for the message.
        let (words, _) = positions.as_chunks::<2>();
        let largest = words
            .iter()
            .map(|&p| u16::from_le_bytes(p))
            .fold(0, u16::max);
        if !words.is_empty() && usize::from(largest) >= len {
            let p = words
                .iter()
                .map(|&p| usize::from(u16::from_le_bytes(p)))
                .find(|&p| p >= len)
                .unwrap_or_default();
            return Err(invalid(
                "exception position",
                format!("vector {index}: position {p} is outside the vector's {len} values"),
            ));
        }
        Ok(Vector {
            index,
            len,
            exponent,
            factor,
            reference,
            width,
            packed,
            positions: packed + packed_bytes,
            exceptions: packed + packed_bytes + positions.len(),
            num_exceptions,
        })
    }
}

/// Decodes values `from .. from + out.len()` of the vector `v` into `out`.
fn decode_range<F: AlpFloat>(view: &VectorView, from: usize, out: &mut [F]) {
    let v = &view.vector;
    let width = v.width as usize;
    let mut at = from;
    let mut done = 0;
    // A start within a group of 8 (whose bits do not begin on a byte): the group, then the
    // rest from the next byte.
    if !at.is_multiple_of(8) {
        let group = at & !7;
        let mut buf = [F::default(); 8];
        let count = (group + 8).min(v.len) - group;
        let packed = view.packed.get(group / 8 * width..).unwrap_or_default();
        F::decode_packed(
            packed,
            v.width,
            v.reference,
            v.exponent,
            v.factor,
            &mut buf[..count],
        );
        let k = (count - (at - group)).min(out.len());
        out[..k].copy_from_slice(&buf[at - group..at - group + k]);
        at += k;
        done = k;
    }
    if done < out.len() {
        let packed = view.packed.get(at / 8 * width..).unwrap_or_default();
        F::decode_packed(
            packed,
            v.width,
            v.reference,
            v.exponent,
            v.factor,
            &mut out[done..],
        );
    }
    let size = (F::BITS / 8) as usize;
    for (p, value) in view
        .positions
        .chunks_exact(2)
        .zip(view.exceptions.chunks_exact(size))
    {
        let p = usize::from(u16::from_le_bytes([p[0], p[1]]));
        if let Some(slot) = p.checked_sub(from).and_then(|i| out.get_mut(i)) {
            let mut bits = [0u8; 8];
            bits[..size].copy_from_slice(value);
            *slot = F::from_bits64(u64::from_le_bytes(bits));
        }
    }
}

impl<T: AlpType> Decoder<T> for AlpDecoder<T> {
    fn remaining(&self) -> usize {
        self.end - self.pos
    }

    fn read<S: Sink<T::Value> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        let n = max.min(self.end - self.pos);
        let mut done = 0;
        while done < n {
            let index = self.pos >> self.log_vector_size;
            let v = self.vector(index)?;
            let view = v.view(&self.body, (T::Float::BITS / 8) as usize);
            let from = self.pos - (index << self.log_vector_size);
            let count = (v.len - from).min(n - done);
            out.reserve(count);
            if let Some(slots) = out.grow_slots(count) {
                decode_range(&view, from, slots);
            } else {
                let mut buf = [T::Float::default(); TILE];
                let mut at = 0;
                while at < count {
                    let k = (count - at).min(TILE);
                    decode_range(&view, from + at, &mut buf[..k]);
                    out.extend_from_slice(&buf[..k]);
                    at += k;
                }
            }
            self.pos += count;
            done += count;
        }
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.end - self.pos);
        self.pos += n;
        Ok(n)
    }
}
