//! ALP pages into float arrays.

use super::*;

/// ALP pages (the encoder of `pqcodec-encodings`, levels RLE) read into Float64 and Float32
/// arrays with nulls, v1 and v2 pages, in batches with skips: the values come back bit for bit.
#[test]
fn alp_pages_into_float_arrays_with_nulls() {
    use arrow_array::{Float32Array, Float64Array};
    use pqcodec_core::{DoubleType, FloatType};
    use pqcodec_encodings::alp::AlpEncoder;

    let values: Vec<Option<f64>> = (0..3000u64)
        .map(|i| match i % 13 {
            0 | 5 => None,
            1 => Some(f64::from_bits(0x7FF8_0000_0000_0000 | i)),
            2 => Some(-0.0),
            _ => Some((i * 7919 % 100_000) as f64 / 100.0),
        })
        .collect();
    fn alp_pages<T: pqcodec_encodings::alp::AlpType>(
        values: &[Option<T::Float>],
        cuts: &[usize],
        version2: bool,
    ) -> Vec<Page> {
        split(values.len(), cuts)
            .into_iter()
            .map(|r| {
                let chunk = &values[r];
                let def: Vec<u16> = chunk.iter().map(|v| u16::from(v.is_some())).collect();
                let dense: Vec<T::Float> = chunk.iter().flatten().copied().collect();
                let mut e = AlpEncoder::<T>::new();
                e.put_slice(&dense).unwrap();
                let spec = PageSpec {
                    def: &def,
                    rep: &[],
                    max_def: 1,
                    max_rep: 0,
                    values: e.flush().unwrap(),
                    encoding: Encoding::Alp,
                };
                if version2 { v2(spec) } else { v1(spec) }
            })
            .collect()
    }
    let bits64 =
        |a: &Float64Array| -> Vec<Option<u64>> { a.iter().map(|v| v.map(f64::to_bits)).collect() };
    for version2 in [false, true] {
        let desc = ColumnDesc::flat("d", ColumnType::Double, true);
        let field = Arc::new(Field::new("d", DataType::Float64, true));
        let pages_ = alp_pages::<DoubleType>(&values, &[700, 2100], version2);
        let mut decoder =
            ArrayDecoder::try_new(field, vec![Column::new(desc, pages(pages_))]).unwrap();
        let (batch, skip) = (500, 123);
        let got = drain(&mut decoder, batch, skip);
        let expect = kept(values.len(), batch, skip);
        assert_eq!(got.len(), expect.len());
        for (array, range) in got.iter().zip(expect) {
            let array = array.as_any().downcast_ref::<Float64Array>().unwrap();
            let want: Vec<Option<u64>> =
                values[range].iter().map(|v| v.map(f64::to_bits)).collect();
            assert_eq!(bits64(array), want);
        }
    }

    let floats: Vec<Option<f32>> = values.iter().map(|v| v.map(|d| d as f32)).collect();
    let desc = ColumnDesc::flat("f", ColumnType::Float, true);
    let field = Arc::new(Field::new("f", DataType::Float32, true));
    let pages_ = alp_pages::<FloatType>(&floats, &[1024], true);
    let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, pages(pages_))]).unwrap();
    let got = decoder.read(floats.len()).unwrap();
    let got = got.as_any().downcast_ref::<Float32Array>().unwrap();
    let got: Vec<Option<u32>> = got.iter().map(|v| v.map(f32::to_bits)).collect();
    let want: Vec<Option<u32>> = floats.iter().map(|v| v.map(f32::to_bits)).collect();
    assert_eq!(got, want);
}
