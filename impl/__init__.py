"""The fast engine: the spec's API on bitsets, with rule options, counting, solving, SGF and GTP."""
