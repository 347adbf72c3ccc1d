//! Structs, lists and maps rebuilt from their leaves' levels (the Dremel encoding).
//!
//! Every node reads the levels of its first leaf. A level starts a new slot of the node if its
//! repetition level is at most the node's (`rep`: no list between the node and the record
//! repeats there) and its definition level reaches the node's slots (`slot_def`). The slot is
//! valid if the definition level reaches the node itself (`def`). For a list, a level is a new
//! element if its repetition level is at most the list's own plus one and its definition
//! level says the list is non-empty.

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, StructArray, make_array};
use arrow_buffer::{ArrowNativeType, BooleanBufferBuilder, Buffer, NullBuffer};
use arrow_data::ArrayDataBuilder;
use arrow_schema::DataType;
use pqcodec_core::Encoding;

use crate::error::{Error, Fault, Location, Result, collect_exact};
use crate::leaf::LeafBatch;
use crate::schema::{Kind, Node};

/// The levels of `leaf`, the repetition levels `None` for a column that is not repeated.
fn levels(leaf: &LeafBatch) -> (&[u16], Option<&[u16]>) {
    let rep = (!leaf.rep.is_empty()).then_some(leaf.rep.as_slice());
    (&leaf.def, rep)
}

fn mismatch(node: &Node, what: &str, expected: usize, found: usize) -> Error {
    Fault::corrupt(
        Encoding::Rle,
        "levels",
        format!("{what}: {expected} expected, {found} found"),
    )
    .at(Location {
        column: node.field.name().clone(),
        page: None,
    })
}

fn arrow(node: &Node, source: arrow_schema::ArrowError) -> Error {
    Error::Arrow {
        at: Location {
            column: node.field.name().clone(),
            page: None,
        },
        source,
    }
}

/// Validity of `node` at its slots, from the levels of its first leaf.
fn validity(node: &Node, leaves: &[LeafBatch]) -> Result<Option<NullBuffer>> {
    if !node.has_validity() {
        return Ok(None);
    }
    let leaf = leaves
        .get(node.first_leaf)
        .ok_or_else(|| mismatch(node, "leaves", node.first_leaf + 1, leaves.len()))?;
    let (def, rep) = levels(leaf);
    let mut bits = BooleanBufferBuilder::new(def.len());
    match rep {
        None => {
            for &d in def.iter().filter(|&&d| d >= node.slot_def) {
                bits.append(d >= node.def);
            }
        }
        Some(rep) => {
            for (&d, &r) in def.iter().zip(rep) {
                if r <= node.rep && d >= node.slot_def {
                    bits.append(d >= node.def);
                }
            }
        }
    }
    Ok(Some(NullBuffer::new(bits.finish())))
}

/// The offsets of list `node` (elements from `nonempty_def` on) and its validity.
fn list_offsets<O: ArrowNativeType>(
    node: &Node,
    nonempty_def: u16,
    leaves: &[LeafBatch],
) -> Result<(Vec<O>, Option<BooleanBufferBuilder>, usize)> {
    let leaf = leaves
        .get(node.first_leaf)
        .ok_or_else(|| mismatch(node, "leaves", node.first_leaf + 1, leaves.len()))?;
    let (def, rep) = (leaf.def.as_slice(), leaf.rep.as_slice());
    if rep.len() != def.len() {
        return Err(mismatch(node, "repetition levels", def.len(), rep.len()));
    }
    let mut offsets = Vec::with_capacity(def.len() + 1);
    let mut bits = node
        .has_validity()
        .then(|| BooleanBufferBuilder::new(def.len()));
    let overflow = || mismatch(node, "list offsets within the offset type", 0, 1);
    let mut count = 0usize;
    let element_rep = node.rep + 1;
    for (&d, &r) in def.iter().zip(rep) {
        if r <= node.rep && d >= node.slot_def {
            offsets.push(O::from_usize(count).ok_or_else(overflow)?);
            if let Some(bits) = bits.as_mut() {
                bits.append(d >= node.def);
            }
        }
        if r <= element_rep && d >= nonempty_def {
            count += 1;
        }
    }
    offsets.push(O::from_usize(count).ok_or_else(overflow)?);
    Ok((offsets, bits, count))
}

/// The array of `node` for the batch, from its leaves' batches.
pub(crate) fn assemble(node: &Node, leaves: &[LeafBatch]) -> Result<ArrayRef> {
    match &node.kind {
        Kind::Leaf { leaf } => leaves
            .get(*leaf)
            .map(|l| Arc::clone(&l.array))
            .ok_or_else(|| mismatch(node, "leaves", leaf + 1, leaves.len())),
        Kind::Struct { children } => {
            let DataType::Struct(fields) = node.field.data_type() else {
                return Err(mismatch(node, "struct type", 1, 0));
            };
            let arrays = collect_exact(children.iter().map(|c| assemble(c, leaves)))?;
            let len = arrays.first().map_or(0, |a| a.len());
            if let Some(bad) = arrays.iter().find(|a| a.len() != len) {
                return Err(mismatch(node, "struct field lengths", len, bad.len()));
            }
            let nulls = validity(node, leaves)?;
            if let Some(n) = &nulls
                && n.len() != len
            {
                return Err(mismatch(node, "struct slots", len, n.len()));
            }
            let nulls = nulls.filter(|n| n.null_count() > 0);
            let array =
                StructArray::try_new(fields.clone(), arrays, nulls).map_err(|e| arrow(node, e))?;
            Ok(Arc::new(array))
        }
        Kind::List {
            large,
            nonempty_def,
            child,
        } => {
            let values = assemble(child, leaves)?;
            if *large {
                list_array::<i64>(node, *nonempty_def, values, leaves)
            } else {
                list_array::<i32>(node, *nonempty_def, values, leaves)
            }
        }
        Kind::Map {
            nonempty_def,
            entries,
            optional_key,
        } => {
            if let Some(column) = optional_key {
                refuse_null_keys(entries, column, leaves)?;
            }
            let values = assemble(entries, leaves)?;
            list_array::<i32>(node, *nonempty_def, values, leaves)
        }
    }
}

/// Fails on the first null key of a map whose key Parquet declares optional: a level that
/// reaches the key's slot (an entry) but not the key.
fn refuse_null_keys(entries: &Node, column: &str, leaves: &[LeafBatch]) -> Result<()> {
    let Kind::Struct { children } = &entries.kind else {
        return Err(mismatch(entries, "map entries struct", 1, 0));
    };
    let key = children
        .first()
        .ok_or_else(|| mismatch(entries, "map key", 1, 0))?;
    let leaf = leaves
        .get(key.first_leaf)
        .ok_or_else(|| mismatch(key, "leaves", key.first_leaf + 1, leaves.len()))?;
    let (def, rep) = (leaf.def.as_slice(), leaf.rep.as_slice());
    if rep.len() != def.len() {
        return Err(mismatch(key, "repetition levels", def.len(), rep.len()));
    }
    let slots = def
        .iter()
        .zip(rep)
        .filter(|&(&d, &r)| r <= key.rep && d >= key.slot_def);
    match slots.map(|(&d, _)| d).position(|d| d < key.def) {
        None => Ok(()),
        Some(index) => Err(Error::NullMapKey {
            at: Location {
                column: column.to_owned(),
                page: None,
            },
            index,
        }),
    }
}

fn list_array<O: ArrowNativeType>(
    node: &Node,
    nonempty_def: u16,
    values: ArrayRef,
    leaves: &[LeafBatch],
) -> Result<ArrayRef> {
    let (offsets, bits, count) = list_offsets::<O>(node, nonempty_def, leaves)?;
    if count != values.len() {
        return Err(mismatch(node, "list elements", count, values.len()));
    }
    let len = offsets.len() - 1;
    let nulls = bits
        .map(|mut b| NullBuffer::new(b.finish()))
        .filter(|n| n.null_count() > 0);
    let data = ArrayDataBuilder::new(node.field.data_type().clone())
        .len(len)
        .add_buffer(Buffer::from_vec(offsets))
        .add_child_data(values.to_data())
        .nulls(nulls)
        .build()
        .map_err(|e| arrow(node, e))?;
    Ok(make_array(data))
}
