//! The binary's heap: mimalloc (as datafusion-cli's), wrapped to count the bytes live and their
//! high-water mark once [`count`] is called, so `scan` can report each reader's peak heap
//! (exact, unlike the peak RSS, which also counts the pages of code the run touched). Commands
//! that do not report it (`sql`) do not count: two atomic updates of shared counters on every
//! allocation would cost more the more threads allocate.
//!
//! Why not glibc's `malloc`: it gives the top of its heaps back to the system as soon as they are
//! freed, so a scan faults its batches' memory in again batch after batch. TPC-H SF1 on 16
//! partitions (BENCHMARKS.md): 40,000 page faults a query against mimalloc's 2,000 (tpchgen's
//! tables), and 0-13 % more CPU on the tables of all four writers.
//!
//! mimalloc is built not to ask the kernel for transparent huge pages (its `no_thp` feature):
//! each such page is zeroed whole on its first touch, and compacted for when memory is
//! fragmented. TPC-H SF 10's q03 on 16 partitions spent 0.7-1.9 s of system time with them
//! against 0.3-0.4 s without and peak memory 719 against 500 MiB, for 1-4 % more user time.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

use mimalloc::MiMalloc as Inner;

/// mimalloc, its live bytes counted.
pub struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
/// Bytes allocated less bytes freed since counting began (blocks from before it may be freed
/// after: it can go below zero).
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

/// Counts the heap from now on.
pub fn count() {
    COUNTING.store(true, Ordering::Relaxed);
}

/// The most heap bytes live at once since [`count`].
pub fn peak() -> usize {
    usize::try_from(PEAK.load(Ordering::Relaxed)).unwrap_or(0)
}

fn grown(bytes: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        let bytes = isize::try_from(bytes).unwrap_or(isize::MAX);
        let live = LIVE
            .fetch_add(bytes, Ordering::Relaxed)
            .saturating_add(bytes);
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
}

fn shrunk(bytes: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        let bytes = isize::try_from(bytes).unwrap_or(isize::MAX);
        LIVE.fetch_sub(bytes, Ordering::Relaxed);
    }
}

// SAFETY: every call goes to mimalloc with the caller's arguments unchanged; the counters only
// observe the sizes of the blocks it hands out and takes back.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is `Inner.alloc`'s.
        let block = unsafe { Inner.alloc(layout) };
        if !block.is_null() {
            grown(layout.size());
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc_zeroed` is `Inner.alloc_zeroed`'s.
        let block = unsafe { Inner.alloc_zeroed(layout) };
        if !block.is_null() {
            grown(layout.size());
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` came from this allocator, so from mimalloc, with `layout`.
        unsafe { Inner.dealloc(block, layout) };
        shrunk(layout.size());
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `block` came from mimalloc with `layout`; the rest is the caller's contract.
        let moved = unsafe { Inner.realloc(block, layout, new_size) };
        if !moved.is_null() {
            match new_size.checked_sub(layout.size()) {
                Some(more) => grown(more),
                None => shrunk(layout.size() - new_size),
            }
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Other tests allocate on other threads meanwhile: only lower bounds hold.
    #[test]
    fn the_peak_covers_blocks_allocated_and_grown() {
        count();
        let fresh = vec![1u8; peak() + (1 << 20)];
        assert!(peak() >= fresh.len());
        let target = peak() + (1 << 20);
        let mut grown = Vec::<u8>::with_capacity(1);
        grown.resize(target, 2);
        assert!(peak() >= fresh.len() + grown.len());
        drop(fresh);
        assert!(peak() >= target, "the peak stays when blocks are freed");
    }
}
