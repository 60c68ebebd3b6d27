"""Z3 encodings of the spec and one module per theorem: proved, refuted with a counterexample, or unknown."""
