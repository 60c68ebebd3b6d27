"""The differential campaign: the spec's answers (the oracle), test vectors, mutants and fuzzing."""
