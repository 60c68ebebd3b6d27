"""Each ruleset's fast twin and the algorithms of its own: Tromp–Taylor on bitsets, topological
Go, source 000's directed game, Ultimate/Fundamental Go, Political Go."""
