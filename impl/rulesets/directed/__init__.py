"""Source 000's game on digraphs: the finite arena, its solver, the conjectures, the digraphs."""
