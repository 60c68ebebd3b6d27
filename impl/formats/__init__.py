"""Formats and protocols: SGF records, GTP client and server, OpenSpiel's board, files written whole."""
