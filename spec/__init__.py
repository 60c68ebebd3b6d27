"""The formalizations of the rules of Go, executable: one module per ruleset, each mirrored by markdown."""
