//! Repetition and definition levels: splitting them off a data page and decoding them with the
//! codec core's RLE and BIT_PACKED decoders into sinks that keep runs as runs.
//!
//! Where the maximum definition level is 1, [`ValiditySink`] turns the levels straight into
//! validity bits (a run of nulls is one `append_n`); elsewhere [`LevelSink`] collects them as
//! `u16`, and [`CountSink`] counts the non-null ones without storing anything (skips, and the
//! number of values a v1 page holds).

use arrow_buffer::BooleanBufferBuilder;
use bytes::Bytes;
use pqcodec_core::{Encoding, Sink};
use pqcodec_encodings::bit_packed::BitPackedDecoder;
use pqcodec_encodings::bits::bit_width;
use pqcodec_encodings::rle::{RleDecoder, RunVisitor, split_length_prefix, unpack_packed};

use crate::error::Fault;

/// A decoder of one page's levels.
#[derive(Debug, Clone)]
pub(crate) enum LevelDecoder {
    /// RLE / bit-packing hybrid.
    Rle(RleDecoder),
    /// Deprecated MSB-first bit packing (data page v1 only).
    BitPacked(BitPackedDecoder),
}

/// Which levels, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LevelKind {
    Repetition,
    Definition,
}

impl LevelKind {
    fn field(self) -> &'static str {
        match self {
            LevelKind::Repetition => "repetition levels",
            LevelKind::Definition => "definition levels",
        }
    }

    /// The codec's error `source`, said to be about these levels.
    fn fault(self, source: pqcodec_core::Error) -> Fault {
        Fault::Levels {
            levels: self.field(),
            source,
        }
    }
}

impl LevelDecoder {
    /// The levels of a v1 page at the front of `data`, in `encoding`, and their length in
    /// bytes.
    pub(crate) fn split_v1(
        data: &Bytes,
        encoding: Encoding,
        max_level: u16,
        num_values: usize,
        kind: LevelKind,
    ) -> Result<(Self, usize), Fault> {
        let width = bit_width(u64::from(max_level));
        match encoding {
            Encoding::Rle => {
                let (encoded, rest) = split_length_prefix(data).map_err(|e| kind.fault(e))?;
                let len = data.len() - rest.len();
                let encoded = data.slice(len - encoded.len()..len);
                let decoder =
                    RleDecoder::new(encoded, num_values, width).map_err(|e| kind.fault(e))?;
                Ok((LevelDecoder::Rle(decoder), len))
            }
            Encoding::BitPacked => {
                let len = num_values
                    .checked_mul(width as usize)
                    .map(|bits| bits.div_ceil(8))
                    .ok_or_else(|| {
                        Fault::corrupt(encoding, kind.field(), "level count overflows")
                    })?;
                let decoder = BitPackedDecoder::new(data.clone(), num_values, width)
                    .map_err(|e| kind.fault(e))?;
                Ok((LevelDecoder::BitPacked(decoder), len.min(data.len())))
            }
            other => Err(Fault::corrupt(
                other,
                kind.field(),
                "levels must be RLE or BIT_PACKED encoded",
            )),
        }
    }

    /// The RLE levels of a v2 page (no length prefix).
    pub(crate) fn v2(
        data: Bytes,
        max_level: u16,
        num_values: usize,
        kind: LevelKind,
    ) -> Result<Self, Fault> {
        let width = bit_width(u64::from(max_level));
        let decoder = RleDecoder::new(data, num_values, width).map_err(|e| kind.fault(e))?;
        Ok(LevelDecoder::Rle(decoder))
    }

    /// The encoding, for error messages.
    pub(crate) fn encoding(&self) -> Encoding {
        match self {
            LevelDecoder::Rle(_) => Encoding::Rle,
            LevelDecoder::BitPacked(_) => Encoding::BitPacked,
        }
    }

    /// Reads exactly `n` levels into `out`, RLE runs as runs and bit-packed runs still packed
    /// ([`RunVisitor::packed`]), or fails.
    pub(crate) fn visit_exact<S: Sink<u32> + RunVisitor>(
        &mut self,
        out: &mut S,
        n: usize,
        kind: LevelKind,
    ) -> Result<(), Fault> {
        let got = match self {
            LevelDecoder::Rle(d) => d.visit(out, n),
            LevelDecoder::BitPacked(d) => d.read(out, n),
        }
        .map_err(|e| kind.fault(e))?;
        if got != n {
            return Err(Fault::corrupt(
                self.encoding(),
                kind.field(),
                format!("{got} levels where the page header promises {n}"),
            ));
        }
        Ok(())
    }

    /// Appends exactly `n` levels to `out`, or fails.
    pub(crate) fn read_exact<S: Sink<u32> + ?Sized>(
        &mut self,
        out: &mut S,
        n: usize,
        kind: LevelKind,
    ) -> Result<(), Fault> {
        let got = match self {
            LevelDecoder::Rle(d) => d.read(out, n),
            LevelDecoder::BitPacked(d) => d.read(out, n),
        }
        .map_err(|e| kind.fault(e))?;
        if got != n {
            return Err(Fault::corrupt(
                self.encoding(),
                kind.field(),
                format!("{got} levels where the page header promises {n}"),
            ));
        }
        Ok(())
    }
}

/// Appends levels as `u16`, remembering any above the maximum.
pub(crate) struct LevelSink<'v> {
    pub(crate) out: &'v mut Vec<u16>,
    pub(crate) max: u16,
    pub(crate) bad: Option<u32>,
}

impl<'v> LevelSink<'v> {
    pub(crate) fn new(out: &'v mut Vec<u16>, max: u16) -> Self {
        LevelSink {
            out,
            max,
            bad: None,
        }
    }

    /// Fails if a level above the maximum was seen.
    pub(crate) fn check(&self, encoding: Encoding, kind: LevelKind) -> Result<(), Fault> {
        match self.bad {
            Some(level) => Err(over_max(encoding, kind, level, self.max)),
            None => Ok(()),
        }
    }

    #[inline]
    fn level(&mut self, v: u32) -> u16 {
        if v > u32::from(self.max) {
            self.bad = Some(v);
            0
        } else {
            v as u16
        }
    }
}

fn over_max(encoding: Encoding, kind: LevelKind, level: u32, max: u16) -> Fault {
    Fault::corrupt(
        encoding,
        kind.field(),
        format!("level {level} is over the column's maximum of {max}"),
    )
}

impl Sink<u32> for LevelSink<'_> {
    fn reserve(&mut self, additional: usize) {
        self.out.reserve(additional);
    }
    #[inline]
    fn push(&mut self, value: &u32) {
        let v = self.level(*value);
        self.out.push(v);
    }
    #[inline]
    fn push_repeated(&mut self, value: &u32, count: usize) {
        let v = self.level(*value);
        self.out.resize(self.out.len() + count, v);
    }
    fn extend_from_slice(&mut self, values: &[u32]) {
        let max = u32::from(self.max);
        if let Some(&bad) = values.iter().find(|&&v| v > max) {
            self.bad = Some(bad);
        }
        self.out.extend(values.iter().map(|&v| v.min(max) as u16));
    }
}

/// Definition levels of maximum 1 appended as validity bits; counts the set ones.
pub(crate) struct ValiditySink<'v> {
    pub(crate) bits: &'v mut BooleanBufferBuilder,
    pub(crate) ones: usize,
    pub(crate) bad: Option<u32>,
}

impl<'v> ValiditySink<'v> {
    pub(crate) fn new(bits: &'v mut BooleanBufferBuilder) -> Self {
        ValiditySink {
            bits,
            ones: 0,
            bad: None,
        }
    }

    /// Fails if a level above 1 was seen.
    pub(crate) fn check(&self, encoding: Encoding) -> Result<(), Fault> {
        match self.bad {
            Some(level) => Err(over_max(encoding, LevelKind::Definition, level, 1)),
            None => Ok(()),
        }
    }
}

impl Sink<u32> for ValiditySink<'_> {
    fn reserve(&mut self, additional: usize) {
        self.bits.reserve(additional);
    }
    #[inline]
    fn push(&mut self, value: &u32) {
        self.push_repeated(value, 1);
    }
    #[inline]
    fn push_repeated(&mut self, value: &u32, count: usize) {
        match *value {
            0 => self.bits.append_n(count, false),
            1 => {
                self.bits.append_n(count, true);
                self.ones += count;
            }
            v => {
                self.bad = Some(v);
                self.bits.append_n(count, false);
            }
        }
    }
    fn extend_from_slice(&mut self, values: &[u32]) {
        // Values arrive in groups of up to a few hundred: pack them 64 at a time.
        for chunk in values.chunks(64) {
            let mut word = 0u64;
            let mut or = 0u32;
            for (i, &v) in chunk.iter().enumerate() {
                word |= u64::from(v & 1) << i;
                or |= v;
            }
            if or > 1
                && let Some(&bad) = chunk.iter().find(|&&v| v > 1)
            {
                self.bad = Some(bad);
            }
            self.ones += word.count_ones() as usize;
            self.bits
                .append_packed_range(0..chunk.len(), &word.to_le_bytes());
        }
    }
}

impl RunVisitor for ValiditySink<'_> {
    #[inline]
    fn run(&mut self, value: u32, count: usize) -> pqcodec_core::Result<()> {
        self.push_repeated(&value, count);
        Ok(())
    }
    fn values(&mut self, values: &[u32]) -> pqcodec_core::Result<()> {
        self.extend_from_slice(values);
        Ok(())
    }
    /// Levels of width 1 are the validity bits already: one bit copy, and a popcount.
    fn packed(
        &mut self,
        packed: &[u8],
        bit_width: u32,
        start: usize,
        end: usize,
    ) -> pqcodec_core::Result<()> {
        if bit_width != 1 {
            return unpack_packed(self, packed, bit_width, start, end);
        }
        self.bits.append_packed_range(start..end, packed);
        self.ones += count_ones(packed, start, end);
        Ok(())
    }
}

/// The set bits among bits `start..end` of `packed` (LSB-first); bits past its end count 0.
pub(crate) fn count_ones(packed: &[u8], start: usize, end: usize) -> usize {
    let mut ones = 0;
    let mut bit = start;
    // Up to the next byte boundary.
    while bit < end && !bit.is_multiple_of(8) {
        ones += packed
            .get(bit / 8)
            .map_or(0, |&b| usize::from((b >> (bit % 8)) & 1));
        bit += 1;
    }
    let whole = (end - bit) / 8;
    let bytes = packed.get(bit / 8..).unwrap_or(&[]);
    let bytes = bytes.get(..whole).unwrap_or(bytes);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        ones += u64::from_le_bytes(w).count_ones() as usize;
    }
    ones += words
        .remainder()
        .iter()
        .map(|b| b.count_ones() as usize)
        .sum::<usize>();
    bit += whole * 8;
    if bit < end {
        let mask = (1u8 << (end - bit)) - 1;
        ones += packed
            .get(bit / 8)
            .map_or(0, |&b| (b & mask).count_ones() as usize);
    }
    ones
}

/// Counts the levels equal to `target` without storing them.
pub(crate) struct CountSink {
    pub(crate) target: u32,
    pub(crate) count: usize,
    pub(crate) max: u32,
    pub(crate) bad: Option<u32>,
}

impl CountSink {
    pub(crate) fn new(target: u16) -> Self {
        CountSink {
            target: u32::from(target),
            count: 0,
            max: u32::from(target),
            bad: None,
        }
    }

    /// Fails if a level above the maximum was seen.
    pub(crate) fn check(&self, encoding: Encoding) -> Result<(), Fault> {
        match self.bad {
            Some(level) => Err(over_max(
                encoding,
                LevelKind::Definition,
                level,
                self.max as u16,
            )),
            None => Ok(()),
        }
    }
}

impl Sink<u32> for CountSink {
    #[inline]
    fn push(&mut self, value: &u32) {
        self.push_repeated(value, 1);
    }
    #[inline]
    fn push_repeated(&mut self, value: &u32, count: usize) {
        if *value == self.target {
            self.count += count;
        } else if *value > self.max {
            self.bad = Some(*value);
        }
    }
    fn extend_from_slice(&mut self, values: &[u32]) {
        let target = self.target;
        self.count += values.iter().filter(|&&v| v == target).count();
        if let Some(&bad) = values.iter().find(|&&v| v > self.max) {
            self.bad = Some(bad);
        }
    }
}

impl RunVisitor for CountSink {
    #[inline]
    fn run(&mut self, value: u32, count: usize) -> pqcodec_core::Result<()> {
        self.push_repeated(&value, count);
        Ok(())
    }
    fn values(&mut self, values: &[u32]) -> pqcodec_core::Result<()> {
        self.extend_from_slice(values);
        Ok(())
    }
    /// Levels of width 1 counted with a popcount (the maximum level is then 1).
    fn packed(
        &mut self,
        packed: &[u8],
        bit_width: u32,
        start: usize,
        end: usize,
    ) -> pqcodec_core::Result<()> {
        if bit_width != 1 || self.target != 1 {
            return unpack_packed(self, packed, bit_width, start, end);
        }
        self.count += count_ones(packed, start, end);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqcodec_encodings::rle::RleEncoder;

    fn rle(levels: &[u32], width: u32) -> Vec<u8> {
        let mut e = RleEncoder::new(width);
        for &l in levels {
            e.put(l);
        }
        let mut out = Vec::new();
        e.flush_into(&mut out);
        out
    }

    fn v1(levels: &[u32], width: u32) -> Vec<u8> {
        let body = rle(levels, width);
        let mut out = (body.len() as u32).to_le_bytes().to_vec();
        out.extend_from_slice(&body);
        out.extend_from_slice(b"values");
        out
    }

    #[test]
    fn validity_sink_matches_levels() {
        let levels: Vec<u32> = (0..300).map(|i| u32::from(i % 7 != 0 && i < 250)).collect();
        let page = Bytes::from(v1(&levels, 1));
        let (mut dec, len) =
            LevelDecoder::split_v1(&page, Encoding::Rle, 1, 300, LevelKind::Definition).unwrap();
        assert_eq!(&page[len..], b"values");
        let mut bits = BooleanBufferBuilder::new(0);
        let mut sink = ValiditySink::new(&mut bits);
        dec.read_exact(&mut sink, 100, LevelKind::Definition)
            .unwrap();
        dec.read_exact(&mut sink, 200, LevelKind::Definition)
            .unwrap();
        sink.check(Encoding::Rle).unwrap();
        let ones = sink.ones;
        let bits = bits.finish();
        assert_eq!(ones, levels.iter().filter(|&&l| l == 1).count());
        let expect: Vec<bool> = levels.iter().map(|&l| l == 1).collect();
        assert_eq!(bits.iter().collect::<Vec<_>>(), expect);
    }

    #[test]
    fn count_ones_matches_a_bit_loop() {
        let packed: Vec<u8> = (0..40u32).map(|i| (i * 37 + 11) as u8).collect();
        let bit = |i: usize| packed.get(i / 8).is_some_and(|b| (b >> (i % 8)) & 1 == 1);
        for start in 0..80 {
            for end in start..330 {
                let expect = (start..end).filter(|&i| bit(i)).count();
                assert_eq!(count_ones(&packed, start, end), expect, "{start}..{end}");
            }
        }
    }

    #[test]
    fn validity_and_counts_from_packed_runs_match_levels() {
        // Mostly bit-packed (alternating-ish), with runs between, read in uneven steps.
        let levels: Vec<u32> = (0..5000u32)
            .map(|i| match (i / 700) % 3 {
                0 => u32::from(i.wrapping_mul(2_654_435_761) >> 31 == 1),
                1 => u32::from(i % 5 != 0),
                _ => u32::from(i < 4000),
            })
            .collect();
        let data = rle(&levels, 1);
        for steps in [&[5000usize][..], &[1, 7, 64, 3, 1000, 3925], &[333; 15]] {
            let mut dec =
                LevelDecoder::v2(Bytes::from(data.clone()), 1, 5000, LevelKind::Definition)
                    .unwrap();
            let mut bits = BooleanBufferBuilder::new(0);
            let mut sink = ValiditySink::new(&mut bits);
            let mut taken = 0;
            for &step in steps {
                let step = step.min(5000 - taken);
                dec.visit_exact(&mut sink, step, LevelKind::Definition)
                    .unwrap();
                taken += step;
            }
            let ones = sink.ones;
            let expect: Vec<bool> = levels[..taken].iter().map(|&l| l == 1).collect();
            assert_eq!(ones, expect.iter().filter(|&&b| b).count());
            assert_eq!(bits.finish().iter().collect::<Vec<_>>(), expect);

            let mut dec =
                LevelDecoder::v2(Bytes::from(data.clone()), 1, 5000, LevelKind::Definition)
                    .unwrap();
            let mut count = CountSink::new(1);
            let mut taken = 0;
            for &step in steps {
                let step = step.min(5000 - taken);
                dec.visit_exact(&mut count, step, LevelKind::Definition)
                    .unwrap();
                taken += step;
            }
            assert_eq!(
                count.count,
                levels[..taken].iter().filter(|&&l| l == 1).count()
            );
        }
        // Promising more levels than the bytes hold fails, with either sink.
        let mut dec =
            LevelDecoder::v2(Bytes::from(data.clone()), 1, 6000, LevelKind::Definition).unwrap();
        let mut bits = BooleanBufferBuilder::new(0);
        assert!(
            dec.visit_exact(
                &mut ValiditySink::new(&mut bits),
                6000,
                LevelKind::Definition
            )
            .is_err()
        );
    }

    #[test]
    fn level_sink_and_count_sink_agree() {
        let levels: Vec<u32> = (0..1000).map(|i| (i * 7 % 11) % 4).collect();
        let data = rle(&levels, 2);
        let mut dec =
            LevelDecoder::v2(Bytes::from(data.clone()), 3, 1000, LevelKind::Definition).unwrap();
        let mut out = Vec::new();
        let mut sink = LevelSink::new(&mut out, 3);
        dec.read_exact(&mut sink, 1000, LevelKind::Definition)
            .unwrap();
        sink.check(Encoding::Rle, LevelKind::Definition).unwrap();
        assert_eq!(out, levels.iter().map(|&l| l as u16).collect::<Vec<_>>());

        let mut dec =
            LevelDecoder::v2(Bytes::from(data.clone()), 3, 1000, LevelKind::Definition).unwrap();
        let mut count = CountSink::new(3);
        dec.read_exact(&mut count, 1000, LevelKind::Definition)
            .unwrap();
        assert_eq!(count.count, levels.iter().filter(|&&l| l == 3).count());
    }

    #[test]
    fn levels_over_the_maximum_are_errors() {
        let data = rle(&[0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3], 2);
        let mut dec =
            LevelDecoder::v2(Bytes::from(data.clone()), 2, 12, LevelKind::Definition).unwrap();
        let mut out = Vec::new();
        let mut sink = LevelSink::new(&mut out, 2);
        dec.read_exact(&mut sink, 12, LevelKind::Repetition)
            .unwrap();
        let err = sink
            .check(Encoding::Rle, LevelKind::Repetition)
            .unwrap_err();
        assert!(matches!(
            err,
            Fault::Corrupt {
                field: "repetition levels",
                ..
            }
        ));
        // A page promising more levels than its bytes hold.
        let mut dec =
            LevelDecoder::v2(Bytes::from(data.clone()), 2, 5000, LevelKind::Definition).unwrap();
        let mut out = Vec::new();
        let res = dec.read_exact(
            &mut LevelSink::new(&mut out, 3),
            5000,
            LevelKind::Definition,
        );
        assert!(res.is_err());
    }

    #[test]
    fn bit_packed_levels_split_off_their_bytes() {
        // 10 levels of width 2 take 3 bytes.
        let data = Bytes::from_static(&[0u8, 0, 0, 0xAA, 0xBB]);
        let (mut dec, len) =
            LevelDecoder::split_v1(&data, Encoding::BitPacked, 3, 10, LevelKind::Definition)
                .unwrap();
        assert_eq!(data[len..], [0xAA, 0xBB]);
        let mut count = CountSink::new(3);
        dec.read_exact(&mut count, 10, LevelKind::Definition)
            .unwrap();
        assert_eq!(count.count, 0);
        let err = LevelDecoder::split_v1(&data, Encoding::Plain, 1, 3, LevelKind::Definition)
            .unwrap_err();
        assert!(matches!(err, Fault::Corrupt { .. }));
    }
}
