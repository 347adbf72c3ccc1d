use std::marker::PhantomData;

use bytes::Bytes;
use pqcodec_core::{
    Binary, Decoder, Encoding, Error, GROWN_SLACK, Int32Type, Lengths, Result, Sink,
};

use crate::delta_binary_packed::{CHUNK, DeltaBinaryPackedDecoder, Piece, reserve_bound};
use crate::delta_length_byte_array::DeltaLengthByteArrayDecoder;
use crate::kernels::shared_prefix;

// The kernel's wide stores fit in the room a sink leaves past values written in place.
const _: () = assert!(shared_prefix::SLACK <= GROWN_SLACK);

const ENCODING: Encoding = Encoding::DeltaByteArray;

/// Streaming DELTA_BYTE_ARRAY decoder of BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY values.
///
/// Values are built a chunk at a time, each from the one before, where the sink keeps them
/// ([`Sink::extend_in_place`]) or else in a buffer of the decoder's; the last is kept between
/// calls. Skipped values are rebuilt too (each value depends on the one before) and dropped;
/// a run whose prefix and suffix lengths both repeat passes at once. No allocation per value.
#[derive(Debug, Clone)]
pub struct DeltaByteArrayDecoder<T: Binary> {
    prefixes: DeltaBinaryPackedDecoder<Int32Type>,
    suffixes: DeltaLengthByteArrayDecoder,
    chain: Chain,
    /// Values not read or skipped yet.
    remaining: usize,
    _type: PhantomData<T>,
}

/// What the next value is built on and checked against.
#[derive(Debug, Clone)]
struct Chain {
    /// The last value decoded.
    previous: Vec<u8>,
    /// Values decoded so far (for error messages).
    index: usize,
    /// The length every value must have: FIXED_LEN_BYTE_ARRAY's width, `None` for BYTE_ARRAY.
    fixed_len: Option<usize>,
    /// Where values are built for a sink that does not let them be built in place.
    scratch: Vec<u8>,
}

impl<T: Binary> DeltaByteArrayDecoder<T> {
    /// A decoder of the first `num_values` values of type `ty` in the page `data`.
    ///
    /// For FIXED_LEN_BYTE_ARRAY the width of `ty` is checked against every value's length
    /// ([`Error::Invalid`]). Fails if either length stream is malformed or holds fewer than
    /// `num_values` values ([`Error::CountTooLarge`]).
    pub fn new(data: Bytes, num_values: usize, ty: T) -> Result<Self> {
        let prefixes = DeltaBinaryPackedDecoder::nested(
            data.clone(),
            num_values,
            ENCODING,
            "prefix length count",
        )?;
        let start = prefixes.end_offset()?;
        if start > data.len() {
            return Err(Error::truncated(
                ENCODING,
                "prefix lengths",
                start,
                data.len(),
            ));
        }
        let rest = data.slice(start..);
        let suffixes =
            DeltaLengthByteArrayDecoder::nested(rest, num_values, ENCODING, "suffix count")?;
        Ok(DeltaByteArrayDecoder {
            prefixes,
            suffixes,
            chain: Chain {
                previous: Vec::new(),
                index: 0,
                fixed_len: ty.value_width(),
                scratch: Vec::new(),
            },
            remaining: num_values,
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
            return Err(fewer_lengths("prefix lengths"));
        }
        Ok(())
    }

    /// Decodes the next `n` (at most `remaining`) values into `out`, a chunk at a time: the
    /// prefix lengths checked here, the values built by [`Chain::append`].
    fn decode<S: Sink<[u8]> + ?Sized>(&mut self, n: usize, out: &mut S) -> Result<()> {
        let mut prefixes = [0i32; CHUNK];
        let mut lengths = [0u32; CHUNK];
        let mut checked = [0u32; CHUNK];
        let mut done = 0;
        while done < n {
            let k = (n - done).min(CHUNK);
            self.next_prefixes(k, &mut prefixes)?;
            let mut j = 0;
            while j < k {
                let (count, suffixes) = self.suffixes.next_chunk(k - j, &mut lengths)?;
                if count == 0 {
                    return Err(fewer_lengths("suffix lengths"));
                }
                let chunk_prefixes = prefixes.get(j..j + count).unwrap_or_default();
                let chunk_lengths = lengths.get(..count).unwrap_or_default();
                let (good, fault) = self
                    .chain
                    .check(chunk_prefixes, chunk_lengths, &mut checked);
                // The suffixes as the page's data from where they start, so that the kernel
                // may read around them.
                self.chain.append(
                    out,
                    checked.get(..good).unwrap_or_default(),
                    chunk_lengths.get(..good).unwrap_or_default(),
                    self.suffixes.values(),
                    suffixes.start,
                );
                self.chain.index += good;
                if let Some(fault) = fault {
                    return Err(fault);
                }
                j += count;
            }
            done += k;
            self.remaining -= k;
        }
        Ok(())
    }
}

impl Chain {
    /// Appends values whose prefix lengths (checked) are `prefixes` and whose suffixes are
    /// the next `lengths` bytes of `data` from `start`, built by the prefix-joining kernel
    /// where the sink keeps them, or in `scratch` and then copied; leaves the last in
    /// `previous`.
    fn append<S: Sink<[u8]> + ?Sized>(
        &mut self,
        out: &mut S,
        prefixes: &[u32],
        lengths: &[u32],
        data: &[u8],
        start: usize,
    ) {
        let n = prefixes.len().min(lengths.len());
        let Some(last) = n.checked_sub(1) else {
            return;
        };
        let mut full = [0u32; CHUNK];
        let mut total = 0usize;
        for ((slot, &prefix), &len) in full.iter_mut().zip(prefixes).zip(lengths) {
            *slot = prefix.saturating_add(len);
            total += *slot as usize;
        }
        let full = &full[..n];
        let last_start = total - full[last] as usize;
        let previous = &mut self.previous;
        let write = |values: &mut [u8]| {
            shared_prefix::join(previous, prefixes, lengths, data, start, values);
            let value = values.get(last_start..total).unwrap_or_default();
            previous.clear();
            previous.extend_from_slice(value);
        };
        if let Err(mut write) = out.extend_in_place(full, write) {
            let scratch = &mut self.scratch;
            scratch.clear();
            scratch.resize(total + GROWN_SLACK, 0);
            write(scratch);
            out.extend_back_to_back(scratch[..total].into(), Lengths::Each(full));
        }
    }

    /// Checks the next values' prefix lengths (each at most the length of the value before
    /// it) and, for FIXED_LEN_BYTE_ARRAY, their lengths, copying the prefix lengths to
    /// `checked`; returns how many values passed and the fault of the first that did not.
    fn check(
        &self,
        prefixes: &[i32],
        lengths: &[u32],
        checked: &mut [u32; CHUNK],
    ) -> (usize, Option<Error>) {
        // A branch-free pass over all of them, then one that stops at the first fault.
        let (mut len, mut bad) = (self.previous.len(), false);
        let values = prefixes.iter().zip(lengths).zip(checked.iter_mut());
        for ((&prefix, &suffix), slot) in values {
            bad |= (prefix < 0) | (prefix as u32 as usize > len);
            len = prefix as u32 as usize + suffix as usize;
            bad |= len != self.fixed_len.unwrap_or(len);
            *slot = prefix as u32;
        }
        if !bad {
            return (prefixes.len().min(lengths.len()), None);
        }
        let mut len = self.previous.len();
        for (i, (&prefix, &suffix)) in prefixes.iter().zip(lengths).enumerate() {
            let index = self.index + i;
            let Some(keep) = usize::try_from(prefix).ok().filter(|&p| p <= len) else {
                return (i, Some(bad_prefix(prefix, index, len)));
            };
            len = keep + suffix as usize;
            if let Some(width) = self.fixed_len
                && len != width
            {
                return (i, Some(bad_length(index, len, width)));
            }
        }
        (prefixes.len().min(lengths.len()), None)
    }

    /// Checks `prefixes` and `lengths` (at most [`CHUNK`] values, the suffixes' bytes
    /// `suffixes`) and builds the last of them in `previous`.
    fn pass(&mut self, prefixes: &[i32], lengths: &[u32], suffixes: &[u8]) -> Result<()> {
        let mut checked = [0u32; CHUNK];
        let (good, fault) = self.check(prefixes, lengths, &mut checked);
        let lengths = lengths.get(..good).unwrap_or_default();
        let prefixes = checked.get(..good).unwrap_or_default();
        rebuild(&mut self.previous, prefixes, lengths, suffixes);
        self.index += good;
        fault.map_or(Ok(()), Err)
    }

    /// Passes over values, as pieces of prefix lengths and suffix lengths of the same count
    /// and the suffixes' bytes: a piece of repeated lengths at once (its first value and its
    /// last), the others (at most [`CHUNK`] values) value by value.
    fn pass_over(
        &mut self,
        prefixes: Piece<'_, i32>,
        lengths: Piece<'_, i32>,
        suffixes: &[u8],
    ) -> Result<()> {
        if let (Piece::Repeat { count, value: p }, Piece::Repeat { value: len, .. }) =
            (prefixes, lengths)
        {
            // Each value after the first is at least `p` long and as long as the first, so the
            // first's checks hold for them all.
            let len = len as u32;
            self.pass(&[p], &[len], suffixes)?;
            if count > 1 {
                self.index += count - 2;
                let last = suffixes.len().saturating_sub(len as usize);
                self.pass(&[p], &[len], suffixes.get(last..).unwrap_or_default())?;
            }
            return Ok(());
        }
        let count = prefixes.len().min(lengths.len()).min(CHUNK);
        let (mut p, mut l) = ([0i32; CHUNK], [0u32; CHUNK]);
        for i in 0..count {
            p[i] = prefixes.get(i).unwrap_or_default();
            l[i] = lengths.get(i).unwrap_or_default() as u32;
        }
        self.pass(&p[..count], &l[..count], suffixes)
    }
}

/// Rebuilds in `previous` the values of `prefixes` and `lengths` (checked), each from the one
/// before and its suffix, the next bytes of `suffixes`: what skipped values cost.
fn rebuild(previous: &mut Vec<u8>, prefixes: &[u32], lengths: &[u32], suffixes: &[u8]) {
    let mut rest = suffixes;
    for (&prefix, &len) in prefixes.iter().zip(lengths) {
        let (suffix, tail) = rest.split_at_checked(len as usize).unwrap_or((rest, &[]));
        rest = tail;
        previous.truncate(prefix as usize);
        previous.extend_from_slice(suffix);
    }
}

fn fewer_lengths(field: &'static str) -> Error {
    Error::invalid(ENCODING, field, format!("fewer {field} than values"))
}

fn bad_length(index: usize, len: usize, width: usize) -> Error {
    Error::invalid(
        ENCODING,
        "value length",
        format!("value {index} is {len} bytes, not the column's {width}"),
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

impl<T: Binary> Decoder<T> for DeltaByteArrayDecoder<T> {
    fn remaining(&self) -> usize {
        self.remaining
    }

    fn read<S: Sink<[u8]> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        let want = max.min(self.remaining);
        out.reserve(want.min(reserve_bound(self.suffixes.bytes_left())));
        self.decode(want, out)?;
        Ok(want)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.remaining);
        let mut done = 0;
        while done < n {
            // Runs of repeated lengths pass at once: values that take no bytes cost no time.
            let prefixes = self.prefixes.next_piece(n - done)?;
            let k = prefixes.len();
            if k == 0 {
                return Err(fewer_lengths("prefix lengths"));
            }
            let mut at = 0;
            while at < k {
                let (lengths, suffixes) = self.suffixes.next_piece(k - at)?;
                let m = lengths.len();
                if m == 0 {
                    return Err(fewer_lengths("suffix lengths"));
                }
                self.chain
                    .pass_over(prefixes.slice(at, m), lengths, suffixes)?;
                at += m;
            }
            done += k;
            self.remaining -= k;
        }
        Ok(n)
    }
}
