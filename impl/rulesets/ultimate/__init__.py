"""Ultimate and Fundamental Go (source 003): yes/no searches, their compiled core, the analysis
of sections IV–VI, the claims and the worked examples."""
