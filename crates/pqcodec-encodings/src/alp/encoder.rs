//! The ALP encoder: parameters chosen from samples, as the spec's informative part describes.

use pqcodec_core::{Encoder, Encoding, Error, Result};

use super::{AlpFloat, AlpType, DEFAULT_LOG_VECTOR_SIZE, MAX_LOG_VECTOR_SIZE, MIN_LOG_VECTOR_SIZE};
use crate::kernels::bitpack::{bit_width, packed_len};
use crate::kernels::pack8x64_for;
use crate::kernels::simd::{Isa, with_avx2};

/// Vectors sampled, spread over the first page, to choose the candidate parameters.
const SAMPLE_VECTORS: usize = 8;
/// Values sampled from each of those vectors.
const PRESET_SAMPLE: usize = 256;
/// Candidate (exponent, factor) pairs kept for the column chunk.
const MAX_CANDIDATES: usize = 5;
/// Values sampled from each vector to choose among the candidates.
const VECTOR_SAMPLE: usize = 64;

/// An (exponent, factor) pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Params {
    pub(super) exponent: u8,
    pub(super) factor: u8,
}

/// Buffers kept from vector to vector.
#[derive(Debug, Clone, Default)]
pub(super) struct Scratch<F> {
    /// The vector's encoded integers, then (exceptions replaced) their deltas.
    encoded: Vec<i64>,
    /// 1 where the value is an exception.
    flags: Vec<u8>,
    positions: Vec<u16>,
    sample: Vec<F>,
}

/// An ALP encoder of FLOAT or DOUBLE values.
///
/// Values are kept as put and encoded when the page is flushed, a vector at a time. As the
/// spec's informative part describes, up to five candidate (exponent, factor) pairs are chosen
/// once for the column chunk (the encoder's life), from samples of up to eight vectors of the
/// first page that has values, each searched exhaustively; each vector then takes the
/// candidate that a sample of it says encodes smallest. Values that do not decode back to
/// their exact bits (NaN, infinities, -0.0, subnormals, values that are not decimals at that
/// scale) are stored as exceptions.
#[derive(Debug, Clone)]
pub struct AlpEncoder<T: AlpType> {
    values: Vec<T::Float>,
    log_vector_size: u8,
    candidates: Option<Vec<Params>>,
    scratch: Scratch<T::Float>,
}

impl<T: AlpType> AlpEncoder<T> {
    /// An encoder writing vectors of 1024 values, the spec's recommendation.
    pub fn new() -> Self {
        AlpEncoder {
            values: Vec::new(),
            log_vector_size: DEFAULT_LOG_VECTOR_SIZE,
            candidates: None,
            scratch: Scratch::default(),
        }
    }

    /// An encoder writing vectors of `2^log_vector_size` values (3 to 15, else
    /// [`Error::Invalid`]).
    pub fn with_log_vector_size(log_vector_size: u8) -> Result<Self> {
        if !(MIN_LOG_VECTOR_SIZE..=MAX_LOG_VECTOR_SIZE).contains(&log_vector_size) {
            return Err(Error::invalid(
                Encoding::Alp,
                "log_vector_size",
                format!(
                    "expected {MIN_LOG_VECTOR_SIZE} to {MAX_LOG_VECTOR_SIZE}, found \
                     {log_vector_size}"
                ),
            ));
        }
        Ok(AlpEncoder {
            log_vector_size,
            ..Self::new()
        })
    }
}

impl<T: AlpType> Default for AlpEncoder<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// What `p` costs on `sample`, in bits: the bit width of the values that decode back times
/// the sample's size, plus each exception's value and position. `None` if `strict` and fewer
/// than two values decode back (a frame of one value says nothing).
#[inline(always)]
fn estimate<F: AlpFloat>(sample: &[F], p: Params, strict: bool) -> Option<u64> {
    let mut exceptions = 0u64;
    let (mut min, mut max) = (i64::MAX, i64::MIN);
    for &v in sample {
        let (e, ok) = v.encode(p.exponent, p.factor);
        exceptions += u64::from(!ok);
        min = if ok { min.min(e) } else { min };
        max = if ok { max.max(e) } else { max };
    }
    let n = sample.len() as u64;
    if strict && n - exceptions < 2 {
        return None;
    }
    let width = if min > max {
        0
    } else {
        bit_width(max.wrapping_sub(min) as u64)
    };
    Some(n * u64::from(width) + exceptions * u64::from(F::BITS + 16))
}

/// Up to `max` values of `values`, evenly spread, into `out`.
fn sample<F: Copy>(values: &[F], max: usize, out: &mut Vec<F>) {
    out.clear();
    let step = values.len().div_ceil(max).max(1);
    out.extend(values.iter().step_by(step));
}

/// The pair that encodes `sample` smallest, of all of them; ties go to the larger exponent,
/// then the larger factor.
#[inline(always)]
fn best_of_all<F: AlpFloat>(sample: &[F]) -> Params {
    let mut best = Params {
        exponent: F::MAX_EXPONENT,
        factor: F::MAX_EXPONENT,
    };
    let mut best_bits = u64::MAX;
    for exponent in (0..=F::MAX_EXPONENT).rev() {
        for factor in (0..=exponent).rev() {
            let p = Params { exponent, factor };
            if let Some(bits) = estimate(sample, p, true)
                && bits < best_bits
            {
                best = p;
                best_bits = bits;
            }
        }
    }
    best
}

/// The candidates for a column chunk: the pairs best for most of the sampled vectors.
#[inline(always)]
fn candidates<F: AlpFloat>(values: &[F], vector_size: usize, scratch: &mut Vec<F>) -> Vec<Params> {
    let num_vectors = values.len().div_ceil(vector_size);
    let stride = num_vectors.div_ceil(SAMPLE_VECTORS).max(1);
    let mut tally: Vec<(Params, usize)> = Vec::new();
    for vector in values.chunks(vector_size).step_by(stride) {
        sample(vector, PRESET_SAMPLE, scratch);
        let best = best_of_all(scratch);
        match tally.iter_mut().find(|(p, _)| *p == best) {
            Some((_, n)) => *n += 1,
            None => tally.push((best, 1)),
        }
    }
    // Most often best first; then the larger exponent and factor.
    tally.sort_by_key(|&(p, n)| std::cmp::Reverse((n, p.exponent, p.factor)));
    tally.truncate(MAX_CANDIDATES);
    tally.into_iter().map(|(p, _)| p).collect()
}

/// The candidate that a sample of `vector` says encodes it smallest.
#[inline(always)]
fn choose<F: AlpFloat>(vector: &[F], candidates: &[Params], scratch: &mut Vec<F>) -> Params {
    let [first, rest @ ..] = candidates else {
        return Params {
            exponent: 0,
            factor: 0,
        };
    };
    if rest.is_empty() {
        return *first;
    }
    sample(vector, VECTOR_SAMPLE, scratch);
    let mut best = *first;
    let mut best_bits = u64::MAX;
    for &p in candidates {
        if let Some(bits) = estimate(scratch, p, false)
            && bits < best_bits
        {
            best = p;
            best_bits = bits;
        }
    }
    best
}

/// Each value's integer, and 1 in `flags` where it is an exception.
#[inline(always)]
fn encode_values<F: AlpFloat>(values: &[F], p: Params, encoded: &mut [i64], flags: &mut [u8]) {
    for ((v, e), x) in values.iter().zip(encoded.iter_mut()).zip(flags.iter_mut()) {
        let (encoded, ok) = v.encode(p.exponent, p.factor);
        *e = encoded;
        *x = u8::from(!ok);
    }
}

/// Appends one vector: `[AlpInfo][ForInfo][PackedValues][ExceptionPositions][ExceptionValues]`.
pub(super) fn encode_vector<F: AlpFloat>(
    values: &[F],
    p: Params,
    scratch: &mut Scratch<F>,
    out: &mut Vec<u8>,
) {
    let Scratch {
        encoded,
        flags,
        positions,
        ..
    } = scratch;
    let n = values.len();
    encoded.clear();
    encoded.resize(n, 0);
    flags.clear();
    flags.resize(n, 0);
    with_avx2(Isa::best(), || encode_values(values, p, encoded, flags));
    // The exceptions' positions, without a branch per value: each index is written, and kept
    // if it is an exception. A vector holds at most 2^15 values.
    positions.clear();
    positions.resize(n + 1, 0);
    let mut count = 0;
    for (i, &x) in flags.iter().enumerate() {
        positions[count] = i as u16;
        count += usize::from(x);
    }
    positions.truncate(count);
    if F::BITS == 64 {
        // The exceptions again, with the wider (scalar) rounding.
        positions.retain(|&at| {
            let (e, ok) = values[usize::from(at)].encode_wide(p.exponent, p.factor);
            if ok {
                encoded[usize::from(at)] = e;
            }
            !ok
        });
    }
    // Exceptions take the integer of the first value that is not one (or 0), so that they do
    // not widen the frame.
    let first_kept = positions
        .iter()
        .enumerate()
        .find(|&(i, &p)| usize::from(p) != i)
        .map_or(positions.len(), |(i, _)| i);
    let placeholder = encoded.get(first_kept).copied().unwrap_or(0);
    for &p in positions.iter() {
        encoded[usize::from(p)] = placeholder;
    }
    let mut min = encoded.iter().copied().min().unwrap_or(0);
    let max = encoded.iter().copied().max().unwrap_or(0);
    let mut width = bit_width(max.wrapping_sub(min) as u64);
    let size = (F::BITS / 8) as usize;
    let exception = 8 * size + 16;
    if n * width as usize + positions.len() * exception > n * exception {
        // Values so far apart that packing them costs more than keeping each as it is (random
        // bits): the whole vector is exceptions, packed at width 0.
        positions.clear();
        positions.extend(0..n as u16);
        (min, width) = (0, 0);
    }

    out.extend([p.exponent, p.factor]);
    out.extend((positions.len() as u16).to_le_bytes());
    out.extend(&min.to_le_bytes()[..size]);
    out.push(width as u8);
    if width > 0 {
        let start = out.len();
        let pack = pack8x64_for(width);
        let mut group = [0u64; 8];
        for chunk in encoded.chunks(8) {
            group.fill(0);
            for (g, &e) in group.iter_mut().zip(chunk) {
                *g = e.wrapping_sub(min) as u64;
            }
            pack(&group, out);
        }
        out.truncate(start + packed_len(values.len(), width));
    }
    for &p in positions.iter() {
        out.extend(p.to_le_bytes());
    }
    for &p in positions.iter() {
        out.extend(&values[usize::from(p)].to_bits64().to_le_bytes()[..size]);
    }
}

impl<T: AlpType> Encoder<T> for AlpEncoder<T> {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        self.values.extend(values);
        Ok(())
    }

    fn put_slice(&mut self, values: &[T::Value]) -> Result<()> {
        self.values.extend_from_slice(values);
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.values.len()
    }

    fn estimated_size(&self) -> usize {
        // Header, offsets and vector headers, and the values at most at full width.
        let vectors = self.values.len().div_ceil(1 << self.log_vector_size);
        let width = (T::Float::BITS / 8) as usize;
        super::HEADER_LEN + vectors * (4 + 5 + width) + self.values.len() * width
    }

    fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        let n = self.values.len();
        let count = i32::try_from(n).map_err(|_| {
            Error::invalid(
                Encoding::Alp,
                "num_elements",
                format!("{n} values, more than a page holds ({})", i32::MAX),
            )
        })?;
        let vector_size = 1usize << self.log_vector_size;
        let num_vectors = n.div_ceil(vector_size);
        // The sum of the vectors' sizes is checked as they are written.
        out.reserve(self.estimated_size());
        let page_start = out.len();
        let isa = Isa::best();
        out.extend([0, 0, self.log_vector_size]);
        out.extend(count.to_le_bytes());
        let offsets_at = out.len();
        out.resize(offsets_at + num_vectors * 4, 0);
        if n > 0 && self.candidates.is_none() {
            let (values, sample) = (&self.values, &mut self.scratch.sample);
            self.candidates = Some(with_avx2(isa, || candidates(values, vector_size, sample)));
        }
        let candidates = self.candidates.as_deref().unwrap_or_default();
        for (i, vector) in self.values.chunks(vector_size).enumerate() {
            let Ok(offset) = u32::try_from(out.len() - offsets_at) else {
                out.truncate(page_start);
                return Err(Error::invalid(
                    Encoding::Alp,
                    "vector offset",
                    format!("vector {i} starts past 4 GiB from the offset array"),
                ));
            };
            out[offsets_at + i * 4..offsets_at + i * 4 + 4].copy_from_slice(&offset.to_le_bytes());
            let sample = &mut self.scratch.sample;
            let p = with_avx2(isa, || choose(vector, candidates, sample));
            encode_vector(vector, p, &mut self.scratch, out);
        }
        self.values.clear();
        Ok(())
    }
}
