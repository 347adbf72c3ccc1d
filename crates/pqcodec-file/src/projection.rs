//! Which columns to read: [`Projection`], by leaf column, by top-level field or by dotted
//! path, and the Arrow schema it leaves (parents of a nested leaf kept, holding only what was
//! chosen).

use std::sync::Arc;

use arrow_schema::{DataType, Field, FieldRef, Fields, Schema, SchemaRef};
use pqcodec_arrow::{ColumnDesc, leaf_count};

use crate::error::{Error, Result};

/// The columns a reader decodes. Columns come out in the file's order, whatever the order
/// they were named in. A map is read whole if any of its columns is chosen (Arrow's maps have
/// both keys and values).
///
/// ```
/// use pqcodec_file::Projection;
///
/// let by_path = Projection::paths(["a.b.c", "d"]);
/// let first_two_fields = Projection::roots([0, 1]);
/// let third_leaf = Projection::leaves([2]);
/// # let _ = (by_path, first_two_fields, third_leaf);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Projection(Choice);

#[derive(Debug, Clone, Default, PartialEq, Eq)]
enum Choice {
    #[default]
    All,
    Leaves(Vec<usize>),
    Roots(Vec<usize>),
    Paths(Vec<String>),
}

impl Projection {
    /// Every column.
    pub fn all() -> Self {
        Projection(Choice::All)
    }

    /// The leaf columns of these indices (in the Parquet schema's depth-first order).
    pub fn leaves(indices: impl IntoIterator<Item = usize>) -> Self {
        Projection(Choice::Leaves(indices.into_iter().collect()))
    }

    /// The top-level fields of these indices, with every column below them.
    pub fn roots(indices: impl IntoIterator<Item = usize>) -> Self {
        Projection(Choice::Roots(indices.into_iter().collect()))
    }

    /// The columns at these dotted paths (`a.b.c`), or below them (`a` chooses every column
    /// of `a`).
    pub fn paths<S: Into<String>>(paths: impl IntoIterator<Item = S>) -> Self {
        Projection(Choice::Paths(paths.into_iter().map(Into::into).collect()))
    }

    /// Which of `columns` are chosen, under the Arrow `schema` of the whole file.
    fn mask(&self, columns: &[ColumnDesc], schema: &Schema) -> Result<Vec<bool>> {
        let n = columns.len();
        let mut mask = vec![matches!(self.0, Choice::All); n];
        match &self.0 {
            Choice::All => {}
            Choice::Leaves(indices) => {
                for &i in indices {
                    *mask.get_mut(i).ok_or_else(|| {
                        Error::Request(format!("no leaf column {i}: the file has {n}"))
                    })? = true;
                }
            }
            Choice::Roots(indices) => {
                let mut starts = Vec::with_capacity(schema.fields().len() + 1);
                let mut at = 0;
                for field in schema.fields() {
                    starts.push(at);
                    at += leaf_count(field);
                }
                starts.push(at);
                for &i in indices {
                    let (Some(&start), Some(&end)) = (starts.get(i), starts.get(i + 1)) else {
                        return Err(Error::Request(format!(
                            "no top-level field {i}: the file has {}",
                            schema.fields().len()
                        )));
                    };
                    mask.get_mut(start..end)
                        .ok_or_else(|| {
                            Error::Request(format!(
                                "the Arrow schema's fields have more columns than the file's {n}"
                            ))
                        })?
                        .fill(true);
                }
            }
            Choice::Paths(paths) => {
                for path in paths {
                    let prefix = format!("{path}.");
                    let mut found = false;
                    for (i, c) in columns.iter().enumerate() {
                        if c.path == *path || c.path.starts_with(&prefix) {
                            mask[i] = true;
                            found = true;
                        }
                    }
                    if !found {
                        return Err(Error::Request(format!("no column {path:?} in the file")));
                    }
                }
            }
        }
        Ok(mask)
    }

    /// The Arrow schema of the chosen columns (from `schema`, the whole file's) and the
    /// indices of the leaf columns to decode, in order.
    pub(crate) fn apply(
        &self,
        columns: &[ColumnDesc],
        schema: &Schema,
    ) -> Result<(SchemaRef, Vec<usize>)> {
        let mut mask = self.mask(columns, schema)?;
        let mut next = 0;
        let fields: Vec<FieldRef> = schema
            .fields()
            .iter()
            .filter_map(|f| prune(f, &mut next, &mut mask))
            .collect();
        if next != columns.len() {
            return Err(Error::Request(format!(
                "the Arrow schema's fields have {next} columns, the file {}",
                columns.len()
            )));
        }
        let leaves = (0..mask.len()).filter(|&i| mask[i]).collect();
        let schema = Schema::new_with_metadata(fields, schema.metadata().clone());
        Ok((Arc::new(schema), leaves))
    }
}

/// `field` holding only its chosen leaves (`mask`, from leaf `*next` on), or `None` if it
/// holds none; a map with any leaf chosen is kept whole, its leaves marked chosen.
fn prune(field: &FieldRef, next: &mut usize, mask: &mut [bool]) -> Option<FieldRef> {
    let with = |data_type: DataType| Some(Arc::new(Field::clone(field).with_data_type(data_type)));
    match field.data_type() {
        DataType::Struct(children) => {
            let kept: Fields = children
                .iter()
                .filter_map(|c| prune(c, next, mask))
                .collect();
            (!kept.is_empty()).then_some(())?;
            with(DataType::Struct(kept))
        }
        DataType::List(child) => with(DataType::List(prune(child, next, mask)?)),
        DataType::LargeList(child) => with(DataType::LargeList(prune(child, next, mask)?)),
        DataType::Map(..) => {
            let leaves = *next..*next + leaf_count(field);
            *next = leaves.end;
            let chosen = mask.get_mut(leaves)?;
            chosen.contains(&true).then_some(())?;
            chosen.fill(true);
            Some(Arc::clone(field))
        }
        _ => {
            let i = *next;
            *next += 1;
            mask.get(i)
                .copied()
                .unwrap_or(false)
                .then(|| Arc::clone(field))
        }
    }
}
