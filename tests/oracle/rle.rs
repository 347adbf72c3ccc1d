// Filled in by the rle work.
