// Filled in by the delta work.
