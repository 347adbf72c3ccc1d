// Filled in by the dictionary work.
