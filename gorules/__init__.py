"""gorules: the application layer (CLI, verification registry, sweeps, results store, pictures)."""
