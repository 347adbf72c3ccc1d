//! The runner: each case through every path that reads it (reads, skips, the Arrow adapter), under a time limit.

use super::*;

/// Runs `f` on its own thread with panics caught and a time limit.
pub(super) fn guarded(
    what: &str,
    f: impl FnOnce() -> Result<(), String> + Send + 'static,
) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::Builder::new()
        .name(what.to_owned())
        .spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown payload".into());
                Err(format!("PANIC: {msg}"))
            });
            let _ = tx.send(result);
        })
        .map_err(|e| format!("spawning: {e}"))?;
    match rx.recv_timeout(TIME_LIMIT) {
        Ok(result) => result,
        Err(_) => Err(format!(
            "HANG: no answer after {:?} (still running)",
            start.elapsed()
        )),
    }
}

/// The decoded dictionary of a case, as [`dynamic::decode`] decodes it.
pub(super) fn dictionary_of<T: DynamicType>(
    case: &Case,
    ty: T,
) -> Result<Option<T::Buffer>, Error> {
    match &case.dictionary {
        Some(bytes) => {
            let count = plain_value_count(ty.column_type(), bytes)?;
            Ok(Some(decode_plain_page(bytes, count, ty)?))
        }
        None => Ok(None),
    }
}

/// Reads (or skips) every value of the case's page in batches; `Ok` means no error came.
pub(super) fn drain<T: DynamicType>(case: &Case, ty: T, skip: bool) -> Result<usize, Error> {
    let dictionary = dictionary_of(case, ty)?;
    let mut decoder = T::decoder(
        case.encoding,
        Bytes::copy_from_slice(&case.bytes),
        case.num_values,
        ty,
        dictionary.map(Arc::new),
    )?;
    let mut out = T::Buffer::default();
    let mut total = 0usize;
    loop {
        let n = if skip {
            decoder.skip(BATCH)?
        } else {
            out.clear();
            let n = decoder.read(&mut out, BATCH)?;
            assert_eq!(n, out.len(), "read returned {n} but appended {}", out.len());
            n
        };
        if n == 0 {
            return Ok(total);
        }
        total += n;
        if total >= VALUE_LIMIT {
            return Ok(total);
        }
    }
}

/// The codec paths of a values case: reads, skips, and [`dynamic::decode`].
pub(super) fn run_values<T: DynamicType>(case: &Case, ty: T) -> Result<(), String> {
    let read = drain(case, ty, false);
    let expect_read = |r: Result<usize, Error>, path: &str| match r {
        Ok(n) => Err(format!(
            "{path}: no error ({n} of {} values decoded)",
            case.num_values
        )),
        Err(e) => case.expect.check(&e).map_err(|m| format!("{path}: {m}")),
    };
    expect_read(read, "read")?;
    let skipped = drain(case, ty, true);
    match &case.skip {
        SkipExpect::Same => expect_read(skipped, "skip")?,
        SkipExpect::Undetected => {
            if let Err(e) = skipped {
                case.expect.check(&e).map_err(|m| format!("skip: {m}"))?;
            }
        }
    }
    // The one-shot decode allocates for `num_values` only as the bytes allow.
    let whole = dynamic::decode(
        case.encoding,
        ty.column_type(),
        Bytes::copy_from_slice(&case.bytes),
        case.num_values,
        case.dictionary.as_deref(),
    );
    match whole {
        Ok(values) => Err(format!(
            "dynamic::decode: no error ({} values)",
            values.len()
        )),
        Err(e) => case
            .expect
            .check(&e)
            .map_err(|m| format!("dynamic::decode: {m}")),
    }
}

/// A levels case: reads, then skips, in batches.
pub(super) fn run_levels(case: &Case) -> Result<(), String> {
    let paths: [(&str, bool); 2] = [("read", false), ("skip", true)];
    for (path, skip) in paths {
        let result: Result<usize, Error> = (|| {
            let mut out: Vec<u32> = Vec::new();
            let mut total = 0;
            match case.target {
                Target::RleLevels(width) => {
                    let mut d = RleDecoder::new(
                        Bytes::copy_from_slice(&case.bytes),
                        case.num_values,
                        width,
                    )?;
                    loop {
                        out.clear();
                        let n = if skip {
                            d.skip(BATCH)?
                        } else {
                            d.read(&mut out, BATCH)?
                        };
                        if n == 0 {
                            return Ok(total);
                        }
                        total += n;
                        if total >= VALUE_LIMIT {
                            return Ok(total);
                        }
                    }
                }
                Target::BitPackedLevels(width) => {
                    let mut d = BitPackedDecoder::new(
                        Bytes::copy_from_slice(&case.bytes),
                        case.num_values,
                        width,
                    )?;
                    loop {
                        out.clear();
                        let n = if skip {
                            d.skip(BATCH)?
                        } else {
                            d.read(&mut out, BATCH)?
                        };
                        if n == 0 {
                            return Ok(total);
                        }
                        total += n;
                        if total >= VALUE_LIMIT {
                            return Ok(total);
                        }
                    }
                }
                Target::Values => unreachable!(),
            }
        })();
        match result {
            Ok(n) => return Err(format!("{path}: no error ({n} levels)")),
            Err(e) => case.expect.check(&e).map_err(|m| format!("{path}: {m}"))?,
        }
    }
    Ok(())
}

/// Reads `pages` of a one-column field through the Arrow adapter until an error or the end.
pub(super) fn arrow_read(
    desc: ColumnDesc,
    data_type: DataType,
    nullable: bool,
    pages: Vec<Page>,
) -> Result<usize, ArrowError> {
    let field = Arc::new(Field::new("c", data_type, nullable));
    let pages = pages.into_iter().map(Ok::<_, std::convert::Infallible>);
    let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, pages)])?;
    let mut rows = 0;
    loop {
        let array = decoder.read(ARROW_BATCH)?;
        if array.is_empty() {
            return Ok(rows);
        }
        rows += array.len();
        if rows >= VALUE_LIMIT {
            return Ok(rows);
        }
    }
}

/// Skips 1 row, then alternates skips and reads of 100 rows, through the Arrow adapter.
pub(super) fn arrow_skip_read<E: Into<pqcodec::arrow::SourceError> + Send + 'static>(
    desc: ColumnDesc,
    field: Field,
    pages: Vec<Result<Page, E>>,
) -> Result<usize, ArrowError> {
    let mut decoder =
        ArrayDecoder::try_new(Arc::new(field), vec![Column::new(desc, pages.into_iter())])?;
    let mut rows = decoder.skip(1)?;
    while rows < VALUE_LIMIT {
        let skipped = decoder.skip(100)?;
        let read = decoder.read(100)?.len();
        if skipped + read == 0 {
            break;
        }
        rows += skipped + read;
    }
    Ok(rows)
}

/// The skip path through the Arrow adapter: `Ok` (pages skipped whole by their header's count
/// are not decoded) or an error naming the column, never a panic or a hang.
pub(super) fn check_arrow_skip(
    what: &str,
    column: &str,
    result: Result<usize, ArrowError>,
) -> Result<(), String> {
    match result {
        Ok(_) => Ok(()),
        Err(e) if e.to_string().contains(&format!("column {column:?}")) => Ok(()),
        Err(e) => Err(format!(
            "{what} (skips): {e} does not name column {column:?}"
        )),
    }
}

/// A values case through the Arrow adapter: the page as the only data page of a required
/// column, after its dictionary page; read as the plain Arrow type and, for dictionary
/// encodings, as an Arrow dictionary too.
pub(super) fn run_arrow(case: &Case) -> Result<(), String> {
    let column_type = case
        .column_type()
        .map_err(|e| format!("column type: {e}"))?;
    let mut pages = Vec::new();
    if let Some(dict) = &case.dictionary {
        pages.push(Page::Dictionary(DictionaryPage {
            data: Buffer::from_vec(dict.clone()),
            num_values: dictionary_len(column_type, dict),
            encoding: Plain,
        }));
    }
    let page_index = pages.len();
    pages.push(Page::DataV1(DataPageV1 {
        data: Buffer::from_vec(case.bytes.clone()),
        num_values: case.num_values,
        encoding: case.encoding,
        def_level_encoding: Rle,
        rep_level_encoding: Rle,
    }));
    let value_type = arrow_type(column_type);
    let mut types = vec![value_type.clone()];
    if case.encoding.is_dictionary() {
        types.push(DataType::Dictionary(
            Box::new(DataType::Int32),
            Box::new(value_type),
        ));
    }
    for data_type in types {
        let desc = ColumnDesc::flat("c", column_type, false);
        let what = format!("arrow ({data_type})");
        let skip_pages = pages
            .iter()
            .cloned()
            .map(Ok::<_, std::convert::Infallible>)
            .collect();
        let field = Field::new("c", data_type.clone(), false);
        check_arrow_skip(&what, "c", arrow_skip_read(desc.clone(), field, skip_pages))?;
        match arrow_read(desc, data_type, false, pages.clone()) {
            Ok(rows) => return Err(format!("{what}: no error ({rows} rows)")),
            Err(ArrowError::Codec { at, source }) => {
                if at.column != "c" || at.page != Some(page_index) {
                    return Err(format!(
                        "{what}: error located at {at}, not page {page_index}"
                    ));
                }
                case.expect
                    .check(&source)
                    .map_err(|m| format!("{what}: {m}"))?;
                let text = ArrowError::Codec { at, source }.to_string();
                let place = format!("column \"c\", page {page_index}");
                if !text.contains(&place) {
                    return Err(format!("{what}: message {text:?} does not say {place}"));
                }
            }
            Err(other) => {
                return Err(format!(
                    "{what}: expected a codec error, got {other:?} ({other})"
                ));
            }
        }
    }
    Ok(())
}

/// Every path of one case; the first failure.
pub(super) fn run_case(case: &Case) -> Result<(), String> {
    let c = case.clone();
    guarded(&case.name, move || match c.target {
        // A type length no column can have is refused before any decoder is made.
        Target::Values => match c.column_type() {
            Ok(column_type) => with_physical!(column_type, ty: T => run_values(&c, ty)),
            Err(e) => c.expect.check(&e).map_err(|m| format!("column type: {m}")),
        },
        _ => run_levels(&c),
    })?;
    if case.arrow {
        let c = case.clone();
        guarded(&case.name, move || run_arrow(&c))?;
    }
    Ok(())
}
