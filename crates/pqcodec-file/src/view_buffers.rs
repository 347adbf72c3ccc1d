//! The buffers of view arrays (Utf8View, BinaryView) as batches move through a scan: joined
//! without repeats, and copied out where a few rows hold a large buffer alive.
//!
//! A row group's batches of a dictionary-encoded column all view the one dictionary page.
//! Arrow's `concat` lists that page once per batch joined, so a slice of the result looks
//! sparse (its buffers many times the bytes its views use), and Arrow's `BatchCoalescer` then
//! copies its strings, into blocks it grows to 1 MiB and gives away mostly empty, one per
//! output batch. Joined here, the page is listed once, and the batches keep viewing it, as
//! arrow-rs's reader's batches do.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{BinaryViewType, ByteViewType, StringViewType};
use arrow_array::{Array, ArrayRef, GenericByteViewArray, RecordBatch, RecordBatchOptions};
use arrow_buffer::{Buffer, NullBufferBuilder, ScalarBuffer};
use arrow_data::{ByteView, MAX_INLINE_VIEW_LEN};
use arrow_schema::DataType;

use crate::error::{Error, Result};

/// `arrays`, of one type, joined into one array; view arrays list each buffer they share
/// once.
pub(crate) fn concat(arrays: &[ArrayRef]) -> Result<ArrayRef> {
    match arrays.first().map(|a| a.data_type()) {
        Some(DataType::Utf8View) => concat_views::<StringViewType>(arrays),
        Some(DataType::BinaryView) => concat_views::<BinaryViewType>(arrays),
        _ => {
            let parts: Vec<&dyn Array> = arrays.iter().map(|a| a.as_ref()).collect();
            Ok(arrow_select::concat::concat(&parts)?)
        }
    }
}

fn concat_views<T: ByteViewType>(arrays: &[ArrayRef]) -> Result<ArrayRef> {
    let len = arrays.iter().map(|a| a.len()).sum();
    let mut views = Vec::with_capacity(len);
    let mut nulls = NullBufferBuilder::new(len);
    let mut buffers: Vec<Buffer> = Vec::new();
    // Each buffer's place in `buffers`, by its address and length.
    let mut places: HashMap<(usize, usize), u32> = HashMap::new();
    for array in arrays {
        let array = array.as_byte_view_opt::<T>().ok_or_else(|| {
            Error::Request(format!("{} joined with view arrays", array.data_type()))
        })?;
        let mut place = Vec::with_capacity(array.data_buffers().len());
        for buffer in array.data_buffers() {
            let key = (buffer.as_ptr() as usize, buffer.len());
            let at = match places.get(&key) {
                Some(&at) => at,
                None => {
                    let at = u32::try_from(buffers.len())
                        .map_err(|_| Error::Request("over 2^32 view buffers".into()))?;
                    buffers.push(buffer.clone());
                    places.insert(key, at);
                    at
                }
            };
            place.push(at);
        }
        for &view in array.views() {
            if (view as u32) <= MAX_INLINE_VIEW_LEN {
                views.push(view);
                continue;
            }
            let mut view = ByteView::from(view);
            view.buffer_index = *place.get(view.buffer_index as usize).ok_or_else(|| {
                Error::Request(format!(
                    "a view of buffer {} of {}",
                    view.buffer_index,
                    place.len()
                ))
            })?;
            views.push(view.as_u128());
        }
        match array.nulls() {
            Some(n) => nulls.append_buffer(n),
            None => nulls.append_n_non_nulls(array.len()),
        }
    }
    // SAFETY: each view is one of a valid array's, its buffer index moved to a buffer that is
    // the same bytes (the same address and length) as the one it named; so each still lies
    // within its buffer and holds what it held (UTF-8 for strings), and the nulls are the
    // arrays' own. (`try_new` would check every string's UTF-8 again, on every take.)
    let array = unsafe {
        GenericByteViewArray::<T>::new_unchecked(ScalarBuffer::from(views), buffers, nulls.finish())
    };
    Ok(Arc::new(array))
}

/// `batch` with each view column whose buffers are over twice the bytes its views use copied
/// into a buffer of its own size. A few rows of a batch may view a buffer far larger than they
/// use (a PLAIN page, or the dictionary page for a handful of rows): `BatchCoalescer` would
/// copy them itself, into a block that grows to 1 MiB, and give it away mostly empty.
pub(crate) fn with_dense_views(batch: RecordBatch) -> Result<RecordBatch> {
    fn sparse<T: ByteViewType + ?Sized>(views: &GenericByteViewArray<T>) -> bool {
        let held: usize = views.data_buffers().iter().map(|b| b.capacity()).sum();
        held > 2 * views.total_buffer_bytes_used()
    }
    let dense = |column: &ArrayRef| -> ArrayRef {
        match column.data_type() {
            DataType::Utf8View if sparse(column.as_string_view()) => {
                Arc::new(column.as_string_view().gc())
            }
            DataType::BinaryView if sparse(column.as_binary_view()) => {
                Arc::new(column.as_binary_view().gc())
            }
            _ => column.clone(),
        }
    };
    let columns = batch.columns().iter().map(dense).collect();
    let options = RecordBatchOptions::new().with_row_count(Some(batch.num_rows()));
    RecordBatch::try_new_with_options(batch.schema(), columns, &options).map_err(Error::Arrow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::builder::StringViewBuilder;
    use arrow_array::{Array, Int32Array, StringViewArray};
    use arrow_schema::{Field, Schema};

    fn batch(strings: StringViewArray) -> RecordBatch {
        let n = strings.len() as i32;
        let schema = Schema::new(vec![
            Field::new("n", DataType::Int32, false),
            Field::new("s", DataType::Utf8View, false),
        ]);
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int32Array::from_iter_values(0..n)),
            Arc::new(strings),
        ];
        RecordBatch::try_new(Arc::new(schema), columns).unwrap()
    }

    fn buffers(batch: &RecordBatch) -> Vec<(*const u8, usize)> {
        let views = batch.column(1).as_string_view();
        views
            .data_buffers()
            .iter()
            .map(|b| (b.as_ptr(), b.capacity()))
            .collect()
    }

    #[test]
    fn a_few_rows_viewing_a_shared_buffer_get_a_buffer_of_their_own() {
        let long = |i: usize| format!("a string longer than twelve bytes, {i:05}");
        let shared = StringViewArray::from_iter_values((0..1000).map(long));
        // Three rows of the thousand, as a taken field's rows of a batch are.
        let few = batch(shared.slice(10, 3));
        let dense = with_dense_views(few.clone()).unwrap();
        assert_eq!(dense, few);
        let held: usize = buffers(&dense).iter().map(|(_, capacity)| capacity).sum();
        assert!(held <= 2 * dense.column(1).as_string_view().total_buffer_bytes_used());
        assert!(held < buffers(&few).iter().map(|(_, capacity)| capacity).sum());
        // Rows that use their buffer are given as they are.
        let all = batch(shared);
        assert_eq!(
            buffers(&with_dense_views(all.clone()).unwrap()),
            buffers(&all)
        );
    }

    #[test]
    fn views_of_one_buffer_joined_list_it_once() {
        let long = |i: usize| format!("a string longer than twelve bytes, {i:05}");
        // Several buffers of 1 KiB, so that views of a later one are moved in the join.
        let mut builder = StringViewBuilder::new().with_fixed_block_size(1024);
        for i in 0..100 {
            builder.append_option((i % 7 != 0).then(|| long(i)));
        }
        let shared = builder.finish();
        assert!(shared.data_buffers().len() > 2);
        let other = StringViewArray::from_iter_values((0..5).map(long));
        let parts: Vec<ArrayRef> = vec![
            Arc::new(other.clone()),
            Arc::new(shared.slice(0, 40)),
            Arc::new(shared.slice(60, 30)),
            Arc::new(shared.slice(40, 10)),
        ];
        let joined = concat(&parts).unwrap();
        joined.to_data().validate_full().unwrap();
        let refs: Vec<&dyn Array> = parts.iter().map(|a| a.as_ref()).collect();
        assert_eq!(&joined, &arrow_select::concat::concat(&refs).unwrap());
        // `other`'s buffers, then `shared`'s, each once.
        let held = joined.as_string_view().data_buffers().len();
        assert_eq!(
            held,
            shared.data_buffers().len() + other.data_buffers().len()
        );
        assert_eq!(
            joined.null_count(),
            shared.slice(0, 40).null_count() + 4 + 2
        );
        // Other types are joined as arrow joins them.
        let ints: Vec<ArrayRef> = vec![
            Arc::new(Int32Array::from(vec![1, 2])),
            Arc::new(Int32Array::from(vec![3])),
        ];
        assert_eq!(
            &concat(&ints).unwrap(),
            &(Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef)
        );
    }
}
