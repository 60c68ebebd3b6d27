"""The one kind of error a user is shown: a line that names the problem, exit code 2."""


class UsageError(Exception):
    """Bad input from the user (a graph, a point, a move, a file): shown as one line, exit 2."""
