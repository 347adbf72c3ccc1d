//! Columns and schema: what a leaf column is ([`ColumnDesc`]), and how the nodes of an Arrow
//! field (structs, lists, maps, leaves) sit on Parquet's definition and repetition levels.
//!
//! The mapping is the one Parquet's schema conversion makes: every nullable node adds one
//! definition level (the node is present from it on); every list or map adds one definition
//! level (the list is non-empty from it on) and one repetition level. A node's *slots* (the
//! entries of its Arrow array) exist at the levels that reach its parent: a list's elements
//! exist where the list is non-empty, a struct's fields wherever the struct has a slot.
//!
//! One exception, as in arrow-rs: a map's key is never nullable in Arrow, but Presto, Trino
//! and Athena have written it OPTIONAL. Such a key sits one definition level deeper than its
//! field says; a level between is a null key, refused when read.

use arrow_schema::{DataType, FieldRef};
use pqcodec_core::{ColumnType, PhysicalType};

use crate::error::{Error, Result, collect_exact};

/// A leaf column of a Parquet schema: what its pages hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnDesc {
    /// The column's dotted path, for error messages.
    pub path: String,
    /// The type of its values: the physical type, and FIXED_LEN_BYTE_ARRAY's width.
    pub column_type: ColumnType,
    /// The maximum definition level: 0 for a required column outside optional groups.
    pub max_def_level: u16,
    /// The maximum repetition level: 0 outside lists and maps.
    pub max_rep_level: u16,
}

impl ColumnDesc {
    /// A column of a flat schema: required (`max_def_level` 0) or optional (1), not repeated.
    pub fn flat(path: impl Into<String>, column_type: ColumnType, optional: bool) -> Self {
        ColumnDesc {
            path: path.into(),
            column_type,
            max_def_level: u16::from(optional),
            max_rep_level: 0,
        }
    }

    /// The physical type of its values, without FIXED_LEN_BYTE_ARRAY's width.
    pub fn physical(&self) -> PhysicalType {
        self.column_type.physical()
    }
}

/// What a node of the Arrow schema is.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// A leaf column, by index among the field's leaves.
    Leaf { leaf: usize },
    /// A struct and its fields.
    Struct { children: Vec<Node> },
    /// A list (`large`: LargeList) and its element; `nonempty_def` is the definition level
    /// from which it has at least one element.
    List {
        large: bool,
        nonempty_def: u16,
        child: Box<Node>,
    },
    /// A map and its entries struct; `nonempty_def` as for lists. `optional_key` is the
    /// path of the key's first column if Parquet declares the key optional.
    Map {
        nonempty_def: u16,
        entries: Box<Node>,
        optional_key: Option<String>,
    },
}

/// A node of an Arrow field, placed on the levels.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// The Arrow field.
    pub field: FieldRef,
    /// Definition level from which the node has a slot.
    pub slot_def: u16,
    /// Definition level from which the node is present (not null).
    pub def: u16,
    /// Repetition level of the node's slots: the number of lists above it.
    pub rep: u16,
    /// Index of the first leaf under the node, whose levels describe the node.
    pub first_leaf: usize,
    /// What the node is.
    pub kind: Kind,
}

impl Node {
    /// Places `field` and its descendants on the levels of `columns`, its leaves in order.
    pub(crate) fn build(field: &FieldRef, columns: &[ColumnDesc]) -> Result<Node> {
        let mut next = 0;
        let node = build(field, 0, 0, 0, columns, &mut next)?;
        if next != columns.len() {
            return Err(Error::Schema(format!(
                "field {:?} has {next} leaf columns but {} were given",
                field.name(),
                columns.len()
            )));
        }
        Ok(node)
    }

    /// Whether the node's array needs a validity bitmap: it can be absent at one of its slots.
    pub(crate) fn has_validity(&self) -> bool {
        self.def > self.slot_def
    }

    /// The leaves under the node: (leaf index, the leaf node).
    pub(crate) fn leaves(&self) -> Vec<&Node> {
        let mut out = Vec::new();
        fn walk<'n>(n: &'n Node, out: &mut Vec<&'n Node>) {
            match &n.kind {
                Kind::Leaf { .. } => out.push(n),
                Kind::Struct { children } => children.iter().for_each(|c| walk(c, out)),
                Kind::List { child, .. } => walk(child, out),
                Kind::Map { entries, .. } => walk(entries, out),
            }
        }
        walk(self, &mut out);
        out
    }
}

/// Places `field`, under a parent present from `parent_def` on, and its descendants.
fn build(
    field: &FieldRef,
    parent_def: u16,
    rep: u16,
    slot_def: u16,
    columns: &[ColumnDesc],
    next: &mut usize,
) -> Result<Node> {
    let def = parent_def
        .checked_add(u16::from(field.is_nullable()))
        .ok_or_else(|| nested_too_deep(field))?;
    place(field, def, rep, slot_def, columns, next)
}

fn nested_too_deep(field: &FieldRef) -> Error {
    Error::Schema(format!("field {:?} is nested too deeply", field.name()))
}

/// Places a map's key, whose slots are the entries': at the entries' level, or one level
/// deeper if Parquet declares it optional (Arrow's key is never nullable). Which is read off
/// the key's last column, whose path down the last fields crosses no other key: trying both
/// placements would take exponential time on keys nested in keys. The key's other columns
/// must then agree.
fn build_key(
    field: &FieldRef,
    entries_def: u16,
    rep: u16,
    columns: &[ColumnDesc],
    next: &mut usize,
) -> Result<(Node, Option<String>)> {
    let last = leaf_count(field)
        .checked_sub(1)
        .and_then(|n| next.checked_add(n))
        .and_then(|i| columns.get(i));
    let optional = !field.is_nullable()
        && last.is_some_and(|column| {
            last_leaf_def(field, entries_def).and_then(|d| d.checked_add(1))
                == Some(column.max_def_level)
        });
    if !optional {
        let node = build(field, entries_def, rep, entries_def, columns, next)?;
        return Ok((node, None));
    }
    let path = columns
        .get(*next)
        .map(|c| c.path.clone())
        .unwrap_or_default();
    let def = entries_def
        .checked_add(1)
        .ok_or_else(|| nested_too_deep(field))?;
    let node = place(field, def, rep, entries_def, columns, next)?;
    Ok((node, Some(path)))
}

/// The definition level of the last column under `field`, placed under a parent present from
/// `parent_def` on: down the last fields, a map's value, never a key.
fn last_leaf_def(field: &FieldRef, parent_def: u16) -> Option<u16> {
    let mut field = field;
    let mut def = parent_def.checked_add(u16::from(field.is_nullable()))?;
    loop {
        let child = match field.data_type() {
            DataType::Struct(fields) => fields.last()?,
            DataType::List(child) | DataType::LargeList(child) => {
                def = def.checked_add(1)?;
                child
            }
            DataType::Map(entries, _) => {
                def = def.checked_add(1)?;
                match entries.data_type() {
                    DataType::Struct(kv) => kv.last()?,
                    _ => return None,
                }
            }
            _ => return Some(def),
        };
        def = def.checked_add(u16::from(child.is_nullable()))?;
        field = child;
    }
}

/// The number of Parquet leaf columns under `field` (the columns a decoder of it takes).
pub fn leaf_count(field: &FieldRef) -> usize {
    match field.data_type() {
        DataType::Struct(fields) => fields.iter().map(leaf_count).sum(),
        DataType::List(f) | DataType::LargeList(f) | DataType::Map(f, _) => leaf_count(f),
        _ => 1,
    }
}

/// Places `field`, present from `def` on, and its descendants.
fn place(
    field: &FieldRef,
    def: u16,
    rep: u16,
    slot_def: u16,
    columns: &[ColumnDesc],
    next: &mut usize,
) -> Result<Node> {
    let too_deep = || nested_too_deep(field);
    let first_leaf = *next;
    let kind = match field.data_type() {
        DataType::Struct(fields) => {
            if fields.is_empty() {
                return Err(Error::Schema(format!(
                    "struct {:?} has no fields",
                    field.name()
                )));
            }
            let children = collect_exact(
                fields
                    .iter()
                    .map(|f| build(f, def, rep, slot_def, columns, next)),
            )?;
            Kind::Struct { children }
        }
        DataType::List(child) | DataType::LargeList(child) => {
            let nonempty_def = def.checked_add(1).ok_or_else(too_deep)?;
            let child_rep = rep.checked_add(1).ok_or_else(too_deep)?;
            let child = build(child, nonempty_def, child_rep, nonempty_def, columns, next)?;
            Kind::List {
                large: matches!(field.data_type(), DataType::LargeList(_)),
                nonempty_def,
                child: Box::new(child),
            }
        }
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                return Err(Error::Schema(format!(
                    "map {:?} entries are not a struct",
                    field.name()
                )));
            };
            if kv.len() != 2 || entries.is_nullable() {
                return Err(Error::Schema(format!(
                    "map {:?} entries must be a non-nullable struct of key and value",
                    field.name()
                )));
            }
            let nonempty_def = def.checked_add(1).ok_or_else(too_deep)?;
            let child_rep = rep.checked_add(1).ok_or_else(too_deep)?;
            // The entries struct is built here for its key's sake: non-nullable, its slots
            // and presence are the map's non-empty level.
            let (key, optional_key) = build_key(&kv[0], nonempty_def, child_rep, columns, next)?;
            let value = build(&kv[1], nonempty_def, child_rep, nonempty_def, columns, next)?;
            let entries = Node {
                field: entries.clone(),
                slot_def: nonempty_def,
                def: nonempty_def,
                rep: child_rep,
                first_leaf,
                kind: Kind::Struct {
                    children: vec![key, value],
                },
            };
            Kind::Map {
                nonempty_def,
                entries: Box::new(entries),
                optional_key,
            }
        }
        DataType::FixedSizeList(..)
        | DataType::ListView(_)
        | DataType::LargeListView(_)
        | DataType::Union(..)
        | DataType::RunEndEncoded(..) => {
            return Err(Error::Schema(format!(
                "field {:?}: {} is not read from Parquet",
                field.name(),
                field.data_type()
            )));
        }
        _ => {
            let Some(column) = columns.get(*next) else {
                return Err(Error::Schema(format!(
                    "leaf field {:?} has no column (only {} given)",
                    field.name(),
                    columns.len()
                )));
            };
            if column.max_def_level != def || column.max_rep_level != rep {
                return Err(Error::Schema(format!(
                    "column {:?} has levels (def {}, rep {}) but field {:?} sits at (def {def}, rep {rep})",
                    column.path,
                    column.max_def_level,
                    column.max_rep_level,
                    field.name()
                )));
            }
            *next += 1;
            Kind::Leaf { leaf: first_leaf }
        }
    };
    Ok(Node {
        field: field.clone(),
        slot_def,
        def,
        rep,
        first_leaf,
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::Field;
    use std::sync::Arc;

    fn col(path: &str, def: u16, rep: u16) -> ColumnDesc {
        ColumnDesc {
            path: path.into(),
            column_type: ColumnType::Int32,
            max_def_level: def,
            max_rep_level: rep,
        }
    }

    #[test]
    fn list_of_optional_items_in_optional_struct() {
        let item = Arc::new(Field::new("item", DataType::Int32, true));
        let list = Field::new("l", DataType::List(item), true);
        let x = Field::new("x", DataType::Int32, false);
        let s = Arc::new(Field::new(
            "s",
            DataType::Struct(vec![x, list].into()),
            true,
        ));
        let node = Node::build(&s, &[col("s.x", 1, 0), col("s.l.list.item", 4, 1)]).unwrap();
        assert_eq!((node.slot_def, node.def, node.rep), (0, 1, 0));
        let Kind::Struct { children } = &node.kind else {
            panic!()
        };
        let x = &children[0];
        assert_eq!((x.slot_def, x.def, x.first_leaf), (0, 1, 0));
        assert!(x.has_validity());
        let l = &children[1];
        assert_eq!((l.slot_def, l.def, l.rep, l.first_leaf), (0, 2, 0, 1));
        let Kind::List {
            nonempty_def,
            child,
            ..
        } = &l.kind
        else {
            panic!()
        };
        assert_eq!(*nonempty_def, 3);
        assert_eq!((child.slot_def, child.def, child.rep), (3, 4, 1));
        assert_eq!(node.leaves().len(), 2);
        // Wrong levels, wrong count.
        assert!(Node::build(&s, &[col("s.x", 1, 0), col("s.l", 3, 1)]).is_err());
        assert!(Node::build(&s, &[col("s.x", 1, 0)]).is_err());
        assert!(
            Node::build(
                &s,
                &[col("s.x", 1, 0), col("s.l.list.item", 4, 1), col("z", 0, 0)]
            )
            .is_err()
        );
    }

    #[test]
    fn map_levels() {
        let entries = Field::new(
            "key_value",
            DataType::Struct(
                vec![
                    Field::new("key", DataType::Utf8, false),
                    Field::new("value", DataType::Int32, true),
                ]
                .into(),
            ),
            false,
        );
        let m = Arc::new(Field::new(
            "m",
            DataType::Map(Arc::new(entries), false),
            true,
        ));
        let node = Node::build(&m, &[col("k", 2, 1), col("v", 3, 1)]).unwrap();
        assert!(node.has_validity());
        let Kind::Map { optional_key, .. } = &node.kind else {
            panic!()
        };
        assert_eq!(*optional_key, None);
    }

    /// A map of `key` to an optional Int32 value, the map itself optional.
    fn map_of(key: Field) -> FieldRef {
        let value = Field::new("value", DataType::Int32, true);
        let entries = Field::new(
            "key_value",
            DataType::Struct(vec![key, value].into()),
            false,
        );
        Arc::new(Field::new(
            "m",
            DataType::Map(Arc::new(entries), false),
            true,
        ))
    }

    /// The map's key node and its optional-key column.
    fn key_of(node: &Node) -> (&Node, Option<&str>) {
        let Kind::Map {
            entries,
            optional_key,
            ..
        } = &node.kind
        else {
            panic!()
        };
        let Kind::Struct { children } = &entries.kind else {
            panic!()
        };
        (&children[0], optional_key.as_deref())
    }

    /// Presto, Trino and Athena wrote map keys OPTIONAL; arrow-rs reads them as its
    /// non-nullable key, one definition level deeper.
    #[test]
    fn optional_map_key_sits_one_level_deeper() {
        let m = map_of(Field::new("key", DataType::Utf8, false));
        let node = Node::build(&m, &[col("m.key_value.key", 3, 1), col("v", 3, 1)]).unwrap();
        let (key, optional) = key_of(&node);
        assert_eq!((key.slot_def, key.def, key.rep), (2, 3, 1));
        assert_eq!(optional, Some("m.key_value.key"));

        // A struct key, OPTIONAL in Parquet, its one field required.
        let x = Field::new("x", DataType::Int32, false);
        let y = Field::new("y", DataType::Int32, true);
        let m = map_of(Field::new(
            "key",
            DataType::Struct(vec![x, y].into()),
            false,
        ));
        let node = Node::build(&m, &[col("kx", 3, 1), col("ky", 4, 1), col("v", 3, 1)]).unwrap();
        let (key, optional) = key_of(&node);
        assert_eq!((key.slot_def, key.def), (2, 3));
        assert_eq!(optional, Some("kx"));
        let node = Node::build(&m, &[col("kx", 2, 1), col("ky", 3, 1), col("v", 3, 1)]).unwrap();
        assert_eq!(key_of(&node).1, None);
    }

    /// Only a map's key may sit a level deeper, by one level, and every column of it must.
    #[test]
    fn mismatched_levels_are_still_refused() {
        let m = map_of(Field::new("key", DataType::Utf8, false));
        let refused = |columns: &[ColumnDesc]| match Node::build(&m, columns) {
            Err(Error::Schema(message)) => message,
            other => panic!("{other:?}"),
        };
        let message = refused(&[col("m.key_value.key", 4, 1), col("v", 3, 1)]);
        assert_eq!(
            message,
            "column \"m.key_value.key\" has levels (def 4, rep 1) but field \"key\" sits at \
             (def 2, rep 1)"
        );
        refused(&[col("k", 1, 1), col("v", 3, 1)]);
        refused(&[col("k", 3, 2), col("v", 3, 1)]);
        refused(&[col("k", 3, 0), col("v", 3, 1)]);
        // The value's levels follow its field: no level to spare.
        refused(&[col("k", 3, 1), col("v", 4, 1)]);
        refused(&[col("k", 2, 1), col("v", 2, 1)]);
        // A struct key's columns move together.
        let x = Field::new("x", DataType::Int32, false);
        let y = Field::new("y", DataType::Int32, true);
        let m = map_of(Field::new(
            "key",
            DataType::Struct(vec![x, y].into()),
            false,
        ));
        assert!(Node::build(&m, &[col("kx", 3, 1), col("ky", 3, 1), col("v", 3, 1)]).is_err());
        assert!(Node::build(&m, &[col("kx", 2, 1), col("ky", 4, 1), col("v", 3, 1)]).is_err());
        // Outside map keys a non-nullable field has no spare level.
        let x = Arc::new(Field::new("x", DataType::Int32, false));
        assert!(Node::build(&x, &[col("x", 1, 0)]).is_err());
        let s = Arc::new(Field::new(
            "s",
            DataType::Struct(vec![Field::new("x", DataType::Int32, false)].into()),
            false,
        ));
        assert!(Node::build(&s, &[col("s.x", 1, 0)]).is_err());
        let item = Arc::new(Field::new("item", DataType::Int32, false));
        let l = Arc::new(Field::new("l", DataType::List(item), false));
        assert!(Node::build(&l, &[col("l.list.item", 2, 1)]).is_err());
    }

    /// Maps keyed by maps, 200 deep: whether each key is optional is read off its first
    /// column, so levels that fit no placement are refused at once, not after trying 2^200.
    #[test]
    fn keys_nested_in_keys_are_placed_in_linear_time() {
        let mut key = Field::new("key", DataType::Int32, false);
        for _ in 0..200 {
            let entries = map_of(key).data_type().clone();
            key = Field::new("key", entries, false);
        }
        let m = map_of(key);
        let columns: Vec<ColumnDesc> = (0..202).map(|i| col(&format!("c{i}"), 5, 1)).collect();
        assert!(Node::build(&m, &columns).is_err());
        // Every key optional: each map adds a repetition level and two definition levels
        // (the outer map optional or the key optional, then non-empty). The columns: the
        // innermost key, then the maps' values from the innermost map out.
        let columns: Vec<ColumnDesc> = (0..202u16)
            .map(|i| {
                let maps = if i == 0 { 201 } else { 202 - i };
                col(&format!("c{i}"), 2 * maps + 1, maps)
            })
            .collect();
        let node = Node::build(&m, &columns).unwrap();
        assert_eq!(key_of(&node).1, Some("c0"));
    }
}
