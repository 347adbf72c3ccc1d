// Filled in by the byte_stream_split work.
