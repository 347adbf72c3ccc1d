// Filled in by the plain work.
