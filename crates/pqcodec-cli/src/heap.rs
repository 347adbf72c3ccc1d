//! The heap a command holds, counted: the binary's global allocator is the system's, wrapped to
//! keep the bytes live and their high-water mark, so `scan` can report each reader's peak heap
//! (exact, unlike the peak RSS, which also counts the pages of code the run touched).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, its live bytes counted.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The most heap bytes live at once so far.
pub fn peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}

fn grown(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn shrunk(bytes: usize) {
    LIVE.fetch_sub(bytes, Ordering::Relaxed);
}

// SAFETY: every call goes to `System` with the caller's arguments unchanged; the counters only
// observe the sizes of the blocks it hands out and takes back.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is `System.alloc`'s.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            grown(layout.size());
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc_zeroed` is `System.alloc_zeroed`'s.
        let block = unsafe { System.alloc_zeroed(layout) };
        if !block.is_null() {
            grown(layout.size());
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` came from this allocator, so from `System`, with `layout`.
        unsafe { System.dealloc(block, layout) };
        shrunk(layout.size());
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `block` came from `System` with `layout`; the rest is the caller's contract.
        let moved = unsafe { System.realloc(block, layout, new_size) };
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
