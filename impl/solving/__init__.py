"""Search and solving over the ruleset interface: the generic alpha-beta, the Tromp–Taylor
solver's threshold tests, budgets, splitting a test over processes, certificates and their check."""
