"""Political Go (source 004): best play for several players and the game record."""
