//! Flat and nested columns over pages cut anywhere, read in batches with skips between them,
//! against the values they were built from.

use arrow_array::builder::{Int32Builder, ListBuilder};
use arrow_array::{Array, Int32Array};
use proptest::prelude::*;

use super::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn flat_optional_ints(
        values in prop::collection::vec(prop::option::weighted(0.8, any::<i32>()), 0..300),
        cuts in prop::collection::vec(0usize..400, 0..4),
        version2 in any::<bool>(),
        batch in 1usize..140,
        skip in 0usize..20,
    ) {
        let mut decoder = int_decoder(flat_pages(&values, &cuts, version2));
        let got = drain(&mut decoder, batch, skip);
        let expect = kept(values.len(), batch, skip);
        prop_assert_eq!(got.len(), expect.len());
        for (array, range) in got.iter().zip(expect) {
            let want = Int32Array::from(values[range].to_vec());
            prop_assert_eq!(array.as_ref(), &want as &dyn Array);
        }
    }

    #[test]
    fn lists_of_optional_ints(
        rows in prop::collection::vec(
            prop::option::weighted(0.8, prop::collection::vec(prop::option::weighted(0.8, -5i32..5), 0..5)),
            0..120,
        ),
        cuts in prop::collection::vec(0usize..400, 0..4),
        version2 in any::<bool>(),
        batch in 1usize..50,
        skip in 0usize..5,
    ) {
        // Levels: 0 null list, 1 empty list, 2 null element, 3 element.
        let mut def = Vec::new();
        let mut rep = Vec::new();
        let mut dense = Vec::new();
        let mut row_start = Vec::new();
        for row in &rows {
            row_start.push(def.len());
            match row {
                None => { def.push(0); rep.push(0); }
                Some(items) if items.is_empty() => { def.push(1); rep.push(0); }
                Some(items) => for (i, item) in items.iter().enumerate() {
                    rep.push(u16::from(i > 0));
                    match item {
                        Some(v) => { def.push(3); dense.push(*v); }
                        None => def.push(2),
                    }
                },
            }
        }
        // v2 pages start at record boundaries; v1 pages may cut a record.
        let cut_points: Vec<usize> = if version2 {
            cuts.iter().filter_map(|c| row_start.get(c % (row_start.len() + 1)).copied()).collect()
        } else {
            cuts.clone()
        };
        let mut pages_ = Vec::new();
        let mut value_at = 0;
        for r in split(def.len(), &cut_points) {
            let n = def[r.clone()].iter().filter(|&&d| d == 3).count();
            let spec = PageSpec {
                def: &def[r.clone()],
                rep: &rep[r.clone()],
                max_def: 3,
                max_rep: 1,
                values: plain_i32(&dense[value_at..value_at + n]),
                encoding: Encoding::Plain,
            };
            value_at += n;
            pages_.push(if version2 { v2(spec) } else { v1(spec) });
        }
        let item = Arc::new(Field::new("element", DataType::Int32, true));
        let field = Arc::new(Field::new("l", DataType::List(item), true));
        let desc = ColumnDesc {
            path: "l.list.element".into(),
            column_type: ColumnType::Int32,
            max_def_level: 3,
            max_rep_level: 1,
        };
        let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, pages(pages_))]).unwrap();
        let got = drain(&mut decoder, batch, skip);
        let expect = kept(rows.len(), batch, skip);
        prop_assert_eq!(got.len(), expect.len());
        for (array, range) in got.iter().zip(expect) {
            let mut want = ListBuilder::new(Int32Builder::new())
                .with_field(Arc::new(Field::new("element", DataType::Int32, true)));
            for row in &rows[range] {
                match row {
                    None => want.append_null(),
                    Some(items) => {
                        for item in items {
                            want.values().append_option(*item);
                        }
                        want.append(true);
                    }
                }
            }
            let want = want.finish();
            prop_assert_eq!(array.as_ref(), &want as &dyn Array);
        }
    }
}

#[test]
fn skips_whole_pages_and_within_pages() {
    let values: Vec<Option<i32>> = (0..100).map(|i| (i % 3 != 0).then_some(i)).collect();
    let mut decoder = int_decoder(flat_pages(&values, &[10, 50, 70], false));
    assert_eq!(decoder.skip(55).unwrap(), 55);
    let a = decoder.read(5).unwrap();
    assert_eq!(
        a.as_ref(),
        &Int32Array::from(values[55..60].to_vec()) as &dyn Array
    );
    assert_eq!(decoder.skip(1000).unwrap(), 40);
    assert_eq!(decoder.read(5).unwrap().len(), 0);
}
