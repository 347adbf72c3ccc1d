//! What a decoder holds: a done page and a finished chunk's dictionary are let go before the
//! next is read, and a batch's values take exactly the memory of its slots.

use pqcodec_core::PhysicalType;
use pqcodec_encodings::dictionary::{DictionaryEncoder, DictionaryLimits};

use super::*;

/// A page that is done is let go before the next is fetched (its buffer is freed then, not
/// held while the next is decompressed), whether the column borrows its values (PLAIN
/// required ints) or copies them (optional ints, spread over their nulls).
#[test]
fn a_done_page_is_released_before_the_next_is_fetched() {
    for optional in [false, true] {
        let values: Vec<i32> = (0..100).collect();
        let page = |values: &[i32]| {
            v1(PageSpec {
                // Levels are written only for the optional column; their count is the page's.
                def: &vec![1; values.len()],
                rep: &[],
                max_def: u16::from(optional),
                max_rep: 0,
                values: plain_i32(values),
                encoding: Encoding::Plain,
            })
        };
        let (first, second) = (page(&values), page(&values));
        let Page::DataV1(p) = &first else {
            unreachable!()
        };
        // The test's own handle on the first page's buffer, checked when the second is asked
        // for: unique then if the reader let go of it.
        let mut held = Some(p.data.clone());
        let released = Arc::new(std::sync::Mutex::new(None));
        let seen = Arc::clone(&released);
        let mut queue = vec![second, first];
        let source = std::iter::from_fn(move || {
            if queue.len() == 1 {
                let unique = held.take().map(|b| b.into_mutable().is_ok());
                *seen.lock().unwrap() = unique;
            }
            queue.pop().map(Ok::<_, std::io::Error>)
        });
        let desc = ColumnDesc::flat("a", ColumnType::Int32, optional);
        let field = Arc::new(Field::new("a", DataType::Int32, optional));
        let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, source)]).unwrap();
        // The whole first page, its batch dropped, then one row of the second.
        assert_eq!(decoder.read(100).unwrap().len(), 100);
        assert_eq!(decoder.read(1).unwrap().len(), 1);
        assert_eq!(
            *released.lock().unwrap(),
            Some(true),
            "optional: {optional}"
        );
    }
}

/// What a builder keeps of a column chunk's dictionary page (Decimal128 values looked up in
/// it) is let go when the next chunk starts, before that chunk's first page is read.
#[test]
fn a_dictionary_is_released_before_the_next_chunk_is_read() {
    use pqcodec_core::FixedLenByteArrayType;
    let decimals: Vec<[u8; 7]> = (0..20_000i64)
        .map(|v| v.to_be_bytes()[1..].try_into().unwrap())
        .collect();
    let values: Vec<&[u8]> = decimals.iter().map(|v| &v[..]).collect();
    let data_type = DataType::Decimal128(16, 2);
    let chunk = || {
        let mut e = DictionaryEncoder::<FixedLenByteArrayType>::new(
            FixedLenByteArrayType::new(7).unwrap(),
            DictionaryLimits::default(),
        );
        e.put(values.iter().copied()).unwrap();
        let (dictionary, indices) = (e.dictionary_page().unwrap(), e.flush().unwrap());
        let dictionary = Buffer::from_vec(dictionary);
        let pages_ = dictionary_chunk(dictionary.clone(), values.len(), indices, values.len());
        (pages_, dictionary)
    };
    let (first, dictionary) = chunk();
    let desc = ColumnDesc::flat(
        "v",
        ColumnType::new(PhysicalType::FixedLenByteArray, 7).unwrap(),
        false,
    );
    let field = Arc::new(Field::new("v", data_type.clone(), false));
    let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, pages(first))]).unwrap();
    assert_eq!(decoder.read(values.len()).unwrap().len(), values.len());
    // The test's own handle on the first dictionary page, checked when the next chunk's
    // first page is asked for: unique then if the reader let go of it.
    let mut held = Some(dictionary);
    let released = Arc::new(std::sync::Mutex::new(None));
    let seen = Arc::clone(&released);
    let mut queue = chunk().0;
    queue.reverse();
    let source = std::iter::from_fn(move || {
        if let Some(buffer) = held.take() {
            *seen.lock().unwrap() = Some(buffer.into_mutable().is_ok());
        }
        queue.pop().map(Ok::<_, std::io::Error>)
    });
    decoder.set_pages(vec![Box::new(source)]).unwrap();
    assert_eq!(decoder.read(1).unwrap().len(), 1);
    assert_eq!(*released.lock().unwrap(), Some(true));
}

/// A batch's values take the memory of its slots and no more, also when it crosses pages and
/// nulls are spread among its values.
#[test]
fn batch_values_are_allocated_exactly() {
    let values: Vec<Option<i32>> = (0..1000).map(|i| (i % 3 != 0).then_some(i)).collect();
    let cuts: Vec<usize> = (100..1000).step_by(100).collect();
    for version2 in [false, true] {
        let mut decoder = int_decoder(flat_pages(&values, &cuts, version2));
        for array in drain(&mut decoder, 64, 0) {
            let data = array.to_data();
            assert_eq!(data.buffers()[0].capacity(), array.len() * 4, "{version2}");
        }
    }
}
