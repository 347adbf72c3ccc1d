//! Dremel shredding: an Arrow array's validity and offsets turned into each leaf column's
//! definition and repetition levels, and the positions of its non-null values in the leaf
//! array. The exact inverse of the reader's assembly ([`crate::levels`], [`crate::nested`]),
//! over the same [`Node`] placement.

use std::ops::Range;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, OffsetSizeTrait};
use arrow_schema::DataType;

use crate::error::{Error, Result};
use crate::schema::{Kind, Node};

/// Where a leaf's non-null values sit in its leaf array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Positions {
    /// Every entry of a range, in order (a column with no nulls above its values).
    Range(Range<usize>),
    /// These entries, in order.
    Indices(Vec<usize>),
}

impl Positions {
    /// How many values.
    pub(crate) fn len(&self) -> usize {
        match self {
            Positions::Range(r) => r.len(),
            Positions::Indices(i) => i.len(),
        }
    }

    /// The values `range` of these (by their order, not their index in the array).
    pub(crate) fn slice(&self, range: Range<usize>) -> PositionsRef<'_> {
        match self {
            Positions::Range(r) => PositionsRef::Range(r.start + range.start..r.start + range.end),
            Positions::Indices(i) => PositionsRef::Indices(&i[range]),
        }
    }
}

/// A borrowed run of [`Positions`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PositionsRef<'a> {
    /// Every entry of a range.
    Range(Range<usize>),
    /// These entries.
    Indices(&'a [usize]),
}

impl PositionsRef<'_> {
    /// How many values.
    pub(crate) fn len(&self) -> usize {
        match self {
            PositionsRef::Range(r) => r.len(),
            PositionsRef::Indices(i) => i.len(),
        }
    }

    /// Calls `f` with each position, in order.
    #[inline]
    pub(crate) fn for_each(&self, mut f: impl FnMut(usize)) {
        match self {
            PositionsRef::Range(r) => r.clone().for_each(f),
            PositionsRef::Indices(i) => i.iter().for_each(|&i| f(i)),
        }
    }
}

/// One leaf column's share of a batch: its levels and where its values are.
#[derive(Debug, Clone)]
pub(crate) struct Shredded {
    /// The leaf array the positions index.
    pub values: ArrayRef,
    /// Definition levels, one per level entry; empty when the column's maximum is 0.
    pub def: Vec<u16>,
    /// Repetition levels; empty when the column's maximum is 0.
    pub rep: Vec<u16>,
    /// The positions of the non-null values in `values`.
    pub positions: Positions,
    /// Number of level entries (values and nulls).
    pub levels: usize,
}

/// Shreds `array`, the rows of the field `node` places, into one [`Shredded`] per leaf, in
/// leaf order.
pub(crate) fn shred(node: &Node, array: &ArrayRef) -> Result<Vec<Shredded>> {
    let mut out = Vec::new();
    for leaf in node.leaves() {
        out.push(shred_leaf(node, leaf, array)?);
    }
    Ok(out)
}

/// The levels of `leaf` under `root` over every row of `array`.
fn shred_leaf(root: &Node, leaf: &Node, array: &ArrayRef) -> Result<Shredded> {
    let max_def = leaf.def;
    let max_rep = leaf.rep;
    // A flat column: its levels straight from the validity bitmap.
    if std::ptr::eq(root, leaf) {
        check_validity(root, array.as_ref())?;
        let len = array.len();
        let nulls = array.logical_nulls().filter(|_| root.has_validity());
        let (def, positions) = match nulls.filter(|n| n.null_count() > 0) {
            None => (
                if max_def > 0 {
                    vec![max_def; len]
                } else {
                    Vec::new()
                },
                Positions::Range(0..len),
            ),
            Some(nulls) => {
                let def = nulls
                    .iter()
                    .map(|valid| if valid { max_def } else { max_def - 1 })
                    .collect();
                (def, Positions::Indices(nulls.valid_indices().collect()))
            }
        };
        return Ok(Shredded {
            values: array.clone(),
            def,
            rep: Vec::new(),
            positions,
            levels: len,
        });
    }
    let mut walk = Walk {
        path: path_to(root, leaf),
        track_def: max_def > 0,
        track_rep: max_rep > 0,
        def: Vec::new(),
        rep: Vec::new(),
        indices: Vec::new(),
        values: None,
        levels: 0,
    };
    walk.visit(root, array, 0..array.len(), 0, 0)?;
    // No slot reached the leaf (every list empty or null): no values to take from it.
    let values = walk
        .values
        .unwrap_or_else(|| arrow_array::new_empty_array(leaf.field.data_type()));
    Ok(Shredded {
        values,
        def: walk.def,
        rep: walk.rep,
        positions: Positions::Indices(walk.indices),
        levels: walk.levels,
    })
}

/// A non-nullable field whose array has nulls cannot be written.
fn check_validity(node: &Node, array: &dyn Array) -> Result<()> {
    if !node.has_validity() && array.logical_null_count() > 0 {
        return Err(not_nullable(node));
    }
    Ok(())
}

fn not_nullable(node: &Node) -> Error {
    Error::Schema(format!(
        "field {:?} is not nullable but its array holds nulls",
        node.field.name()
    ))
}

/// The nodes from `root` down to `leaf`, both included.
fn path_to(root: &Node, leaf: &Node) -> Vec<*const Node> {
    fn walk(node: &Node, leaf: &Node, path: &mut Vec<*const Node>) -> bool {
        path.push(node);
        let found = std::ptr::eq(node, leaf)
            || match &node.kind {
                Kind::Leaf { .. } => false,
                Kind::Struct { children } => children.iter().any(|c| walk(c, leaf, path)),
                Kind::List { child, .. } => walk(child, leaf, path),
                Kind::Map { entries, .. } => walk(entries, leaf, path),
            };
        if !found {
            path.pop();
        }
        found
    }
    let mut path = Vec::new();
    walk(root, leaf, &mut path);
    path
}

/// The state of one leaf's walk down the arrays.
struct Walk {
    /// The nodes from the root to the leaf being shredded (compared by address).
    path: Vec<*const Node>,
    track_def: bool,
    track_rep: bool,
    def: Vec<u16>,
    rep: Vec<u16>,
    indices: Vec<usize>,
    values: Option<ArrayRef>,
    levels: usize,
}

impl Walk {
    #[inline]
    fn level(&mut self, def: u16, rep: u16) {
        if self.track_def {
            self.def.push(def);
        }
        if self.track_rep {
            self.rep.push(rep);
        }
        self.levels += 1;
    }

    /// Whether `node` is on the path to the leaf.
    fn on_path(&self, node: &Node) -> bool {
        self.path.contains(&(node as *const Node))
    }

    /// Emits the levels of `array[range]`, the slots of `node`: the first with repetition
    /// level `first_rep`, the others with `rest_rep`.
    fn visit(
        &mut self,
        node: &Node,
        array: &ArrayRef,
        range: Range<usize>,
        first_rep: u16,
        rest_rep: u16,
    ) -> Result<()> {
        // Nulls under an absent parent are never visited: a non-nullable field may hold them.
        let nulls = array.logical_nulls().filter(|n| n.null_count() > 0);
        if let Some(n) = &nulls
            && !node.has_validity()
            && range.clone().any(|i| n.is_null(i))
        {
            return Err(not_nullable(node));
        }
        let is_null = |i: usize| nulls.as_ref().is_some_and(|n| n.is_null(i));
        let null_def = node.def.saturating_sub(1);
        let mut rep = first_rep;
        match &node.kind {
            Kind::Leaf { .. } => {
                if self.values.is_none() {
                    self.values = Some(array.clone());
                }
                for i in range {
                    if is_null(i) {
                        self.level(null_def, rep);
                    } else {
                        self.level(node.def, rep);
                        self.indices.push(i);
                    }
                    rep = rest_rep;
                }
            }
            Kind::Struct { children } => {
                let child = children
                    .iter()
                    .position(|c| self.on_path(c))
                    .ok_or_else(|| Error::Schema("leaf not under its struct".into()))?;
                let column = struct_column(array, child, node)?;
                // Runs of present structs go down in one call.
                let mut run_start = range.start;
                for i in range.clone() {
                    if is_null(i) {
                        if run_start < i {
                            self.visit(&children[child], &column, run_start..i, rep, rest_rep)?;
                            rep = rest_rep;
                        }
                        self.level(null_def, rep);
                        rep = rest_rep;
                        run_start = i + 1;
                    }
                }
                if run_start < range.end {
                    self.visit(
                        &children[child],
                        &column,
                        run_start..range.end,
                        rep,
                        rest_rep,
                    )?;
                }
            }
            Kind::List { child, .. } => {
                let slots = (range, rep, rest_rep);
                if let Some(list) = array.as_list_opt::<i32>() {
                    let offsets = list.value_offsets();
                    self.list(node, child, offsets, list.values(), slots, &is_null)?
                } else if let Some(list) = array.as_list_opt::<i64>() {
                    let offsets = list.value_offsets();
                    self.list(node, child, offsets, list.values(), slots, &is_null)?
                } else {
                    return Err(mismatch(node, array.data_type()));
                }
            }
            Kind::Map { entries, .. } => {
                let Some(map) = array.as_map_opt() else {
                    return Err(mismatch(node, array.data_type()));
                };
                let entries_array: ArrayRef = std::sync::Arc::new(map.entries().clone());
                let slots = (range, rep, rest_rep);
                let offsets = map.value_offsets();
                self.list(node, entries, offsets, &entries_array, slots, &is_null)?
            }
        }
        Ok(())
    }

    /// The slots of a list (or map) `node` whose elements are `child` in `values`: `slots` is
    /// their range, the first one's repetition level and the others'.
    fn list<O: OffsetSizeTrait>(
        &mut self,
        node: &Node,
        child: &Node,
        offsets: &[O],
        values: &ArrayRef,
        slots: (Range<usize>, u16, u16),
        is_null: &dyn Fn(usize) -> bool,
    ) -> Result<()> {
        let (range, mut rep, rest_rep) = slots;
        for i in range {
            if is_null(i) {
                self.level(node.def.saturating_sub(1), rep);
            } else {
                let (start, end) = (offsets[i].as_usize(), offsets[i + 1].as_usize());
                if end < start || end > values.len() {
                    return Err(Error::Schema(format!(
                        "list {:?}: entry {i} spans offsets {start}..{end} of a child of {} entries",
                        node.field.name(),
                        values.len()
                    )));
                }
                if start == end {
                    self.level(node.def, rep);
                } else {
                    self.visit(child, values, start..end, rep, child.rep)?;
                }
            }
            rep = rest_rep;
        }
        Ok(())
    }
}

/// Child `index` of the struct array `array`.
fn struct_column(array: &ArrayRef, index: usize, node: &Node) -> Result<ArrayRef> {
    let Some(s) = array.as_struct_opt() else {
        return Err(mismatch(node, array.data_type()));
    };
    s.columns()
        .get(index)
        .cloned()
        .ok_or_else(|| mismatch(node, array.data_type()))
}

fn mismatch(node: &Node, found: &DataType) -> Error {
    Error::Schema(format!(
        "field {:?} is {} but its array is {found}",
        node.field.name(),
        node.field.data_type()
    ))
}
