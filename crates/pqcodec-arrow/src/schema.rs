//! Columns and schema: what a leaf column is ([`ColumnDesc`]), and how the nodes of an Arrow
//! field (structs, lists, maps, leaves) sit on Parquet's definition and repetition levels.
//!
//! The mapping is the one Parquet's schema conversion makes: every nullable node adds one
//! definition level (the node is present from it on); every list or map adds one definition
//! level (the list is non-empty from it on) and one repetition level. A node's *slots* (the
//! entries of its Arrow array) exist at the levels that reach its parent: a list's elements
//! exist where the list is non-empty, a struct's fields wherever the struct has a slot.

use arrow_schema::{DataType, FieldRef};
use pqcodec_core::PhysicalType;

use crate::error::{Error, Result, collect_exact};

/// A leaf column of a Parquet schema: what its pages hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnDesc {
    /// The column's dotted path, for error messages.
    pub path: String,
    /// The physical type of its values.
    pub physical: PhysicalType,
    /// The length of a FIXED_LEN_BYTE_ARRAY value (0 for other types).
    pub type_length: usize,
    /// The maximum definition level: 0 for a required column outside optional groups.
    pub max_def_level: u16,
    /// The maximum repetition level: 0 outside lists and maps.
    pub max_rep_level: u16,
}

impl ColumnDesc {
    /// A column of a flat schema: required (`max_def_level` 0) or optional (1), not repeated.
    pub fn flat(
        path: impl Into<String>,
        physical: PhysicalType,
        type_length: usize,
        optional: bool,
    ) -> Self {
        ColumnDesc {
            path: path.into(),
            physical,
            type_length,
            max_def_level: u16::from(optional),
            max_rep_level: 0,
        }
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
    /// A map and its entries struct; `nonempty_def` as for lists.
    Map {
        nonempty_def: u16,
        entries: Box<Node>,
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

fn build(
    field: &FieldRef,
    parent_def: u16,
    rep: u16,
    slot_def: u16,
    columns: &[ColumnDesc],
    next: &mut usize,
) -> Result<Node> {
    let too_deep = || Error::Schema(format!("field {:?} is nested too deeply", field.name()));
    let def = parent_def
        .checked_add(u16::from(field.is_nullable()))
        .ok_or_else(too_deep)?;
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
            let entries = build(
                entries,
                nonempty_def,
                child_rep,
                nonempty_def,
                columns,
                next,
            )?;
            Kind::Map {
                nonempty_def,
                entries: Box::new(entries),
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
            physical: PhysicalType::Int32,
            type_length: 0,
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
    }
}
