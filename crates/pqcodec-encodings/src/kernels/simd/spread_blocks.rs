//! The walk the SIMD spreading kernels share ([`crate::kernels::spread`]): a partial last
//! block slot by slot, then from the last block of `B` slots back, each block's valid values
//! moved into their lanes, nulls zeroed, and the block stored, by the instruction set's
//! `block` (AVX-512 expand-loads 16 4-byte or 8 8-byte lanes; AVX2 loads the block's next `B`
//! values and permutes them by a table indexed by the block's validity bits).

/// Spreads blocks of `B` lanes (`B` dividing 64): the slots after the last whole block
/// one by one, then each block from the last back with `block(bits, src, dst)`, which
/// writes the `B` slots at `dst` from the values at `src`, bit `j` of `bits` saying
/// whether slot `j` is valid.
///
/// # Safety
/// `words` has a bit per slot of `values`, `dense` of them set; `block` may read the `B`
/// values from `src` and must write the `B` slots at `dst` and nothing else.
#[inline(always)]
pub(super) unsafe fn spread_blocks<const B: usize, T: Copy + Default>(
    values: &mut [T],
    dense: usize,
    words: &[u64],
    block: impl Fn(u64, *const T, *mut T),
) {
    let slots = values.len();
    let whole = slots / B * B;
    let valid = |slot: usize| (words[slot / 64] >> (slot % 64)) & 1 != 0;
    // The partial last block first, slot by slot; `k` ends as the valid slots before it.
    let mut k = dense;
    for slot in (whole..slots).rev() {
        let valid = valid(slot);
        k -= usize::from(valid);
        values[slot] = std::hint::select_unpredictable(valid, values[k], T::default());
    }
    let base = values.as_mut_ptr();
    let mut start = whole;
    while start > 0 {
        start -= B;
        if k == start + B {
            // Every slot up to here is valid: the values are in place.
            return;
        }
        let bits = (words[start / 64] >> (start % 64)) & (u64::MAX >> (64 - B));
        k -= bits.count_ones() as usize;
        // The block's values are the `k`-th on, and `k <= start`, so the `B` values from
        // `k` end at most at `start + B <= slots`, and the block's slots from `start` too.
        // Every value still to be read lies before `k <= start`, so none is overwritten.
        // SAFETY: both pointers stay within `values`, as said.
        let (src, dst) = unsafe { (base.add(k).cast_const(), base.add(start)) };
        block(bits, src, dst);
    }
}
