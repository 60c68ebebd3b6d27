"""The numba kernels: a game step, whole playouts, the threshold tests and their df-pn, the
Ultimate/Fundamental questions; ``cache`` keeps their compiled code fresh on disk."""
