"""The results store of a sweep: one SQLite file, one row per (conjecture, ruleset, graph);
and of a count split by modulus, one row per (graph, prime) with the count's residue.

A sweep writes each graph's figures as soon as they are computed, in its own
transaction, so a sweep that is killed loses at most the graphs it was working on.
Started again on the same file it asks :meth:`Store.done` which graphs are finished
and computes only the others; the primary key makes a second row for the same graph
impossible (``INSERT OR IGNORE``), so nothing is duplicated either.

A count split by modulus (``gorules count --db``) stores the number of legal positions
of a graph modulo each prime as that task finishes, in the same way: a rerun computes only
the primes missing, and a second row for the same prime is impossible.

Figures are stored as JSON text with sorted keys, so two runs that computed the same
figures store byte-for-byte the same text.

A file is checked before anything is written to it: it must be a sound SQLite database
(``PRAGMA quick_check``) that is either empty or holds the results table with its
columns.  Anything else (a corrupted file, another program's database) is refused with a
one-line error and left exactly as it was.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from gorules import failpoints
from gorules.errors import UsageError

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    conjecture TEXT NOT NULL,
    ruleset    TEXT NOT NULL,
    graph      TEXT NOT NULL,
    family     TEXT NOT NULL,
    figures    TEXT NOT NULL,
    holds      INTEGER NOT NULL,
    seconds    REAL NOT NULL,
    PRIMARY KEY (conjecture, ruleset, graph)
);
CREATE TABLE IF NOT EXISTS residues (
    graph   TEXT NOT NULL,
    prime   INTEGER NOT NULL,
    residue INTEGER NOT NULL,
    seconds REAL NOT NULL,
    states  INTEGER NOT NULL,
    PRIMARY KEY (graph, prime)
);
"""


@dataclass(frozen=True)
class Row:
    """One finished graph of a sweep: its figures and whether the conjecture held on it."""

    conjecture: str
    ruleset: str
    graph: str
    family: str
    figures: dict
    holds: bool
    seconds: float


def encode_figures(figures: dict) -> str:
    """The canonical JSON text of a graph's figures (sorted keys, no spaces)."""
    return json.dumps(figures, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Residue:
    """One finished modulus of a count: the number of legal positions of ``graph`` modulo
    ``prime``, the seconds its task took and the most border states it held."""

    graph: str
    prime: int
    residue: int
    seconds: float
    states: int


COLUMNS = ["conjecture", "ruleset", "graph", "family", "figures", "holds", "seconds"]
RESIDUE_COLUMNS = ["graph", "prime", "residue", "seconds", "states"]
TABLES = {"results": COLUMNS, "residues": RESIDUE_COLUMNS}


def check_database(path: Path) -> None:
    """UsageError unless ``path`` is a sound SQLite file that is empty or holds only the
    results and residues tables with their columns; the file is opened read-only, so it is
    never changed."""
    problem = None
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30.0)
        try:
            verdict = connection.execute("PRAGMA quick_check").fetchone()
            if verdict is None or verdict[0] != "ok":
                problem = f"it fails SQLite's integrity check ({verdict[0] if verdict else 'no answer'})"
            else:
                problem = schema_problem(connection)
        finally:
            connection.close()
    except sqlite3.Error as error:
        problem = str(error)
    if problem:
        raise UsageError(f"results file {path} is not a usable sweep database: {problem}; it was left as it is")


def schema_problem(connection: sqlite3.Connection) -> str | None:
    """Why the tables of a sound database are not those of a results store, or None."""
    tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if tables - TABLES.keys():
        return f"it is another program's database (tables: {', '.join(sorted(tables))})"
    for table in sorted(tables):
        columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
        if columns != TABLES[table]:
            return f"its {table} table has the columns {', '.join(columns)}, not a sweep's"
    return None


class Store:
    """A SQLite file of sweep results; safe to reopen after a crash."""

    def __init__(self, path) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise UsageError(f"results file {self.path} is a directory")
        if self.path.exists():
            check_database(self.path)
        try:
            self.connection = sqlite3.connect(str(self.path), timeout=30.0)
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=NORMAL")
            self.connection.executescript(SCHEMA)
            self.connection.commit()
        except sqlite3.DatabaseError as error:
            raise UsageError(f"results file {self.path} is not a usable SQLite database: {error}") from error

    def close(self) -> None:
        """Close the file."""
        self.connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def done(self, conjecture: str, ruleset: str) -> set[str]:
        """The graphs already finished for this conjecture under this ruleset."""
        cursor = self.connection.execute(
            "SELECT graph FROM results WHERE conjecture = ? AND ruleset = ?",
            (conjecture, ruleset),
        )
        return {graph for (graph,) in cursor}

    def record(self, row: Row) -> bool:
        """Write one finished graph in its own transaction; False if it was already there."""
        with self.connection:
            cursor = self.connection.execute(
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    row.conjecture,
                    row.ruleset,
                    row.graph,
                    row.family,
                    encode_figures(row.figures),
                    int(bool(row.holds)),
                    float(row.seconds),
                ),
            )
            failpoints.reached("store-insert")
        failpoints.reached("store-commit")
        return cursor.rowcount == 1

    def rows(self, conjecture: str | None = None, ruleset: str | None = None) -> list[Row]:
        """The stored rows (optionally of one conjecture and ruleset), ordered by graph."""
        query = "SELECT conjecture, ruleset, graph, family, figures, holds, seconds FROM results"
        clauses, parameters = [], []
        if conjecture is not None:
            clauses.append("conjecture = ?")
            parameters.append(conjecture)
        if ruleset is not None:
            clauses.append("ruleset = ?")
            parameters.append(ruleset)
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        query += " ORDER BY conjecture, ruleset, graph"
        return [
            Row(c, r, g, f, json.loads(figures), bool(holds), seconds)
            for c, r, g, f, figures, holds, seconds in self.connection.execute(query, parameters)
        ]

    def residues(self, graph: str) -> dict[int, Residue]:
        """The residues of ``graph`` already stored, by prime."""
        cursor = self.connection.execute(
            "SELECT graph, prime, residue, seconds, states FROM residues WHERE graph = ?", (graph,)
        )
        return {int(p): Residue(g, int(p), int(r), seconds, states) for g, p, r, seconds, states in cursor}

    def record_residue(self, found: Residue) -> bool:
        """Write one finished modulus in its own transaction; False if it was already there."""
        with self.connection:
            cursor = self.connection.execute(
                "INSERT OR IGNORE INTO residues VALUES (?, ?, ?, ?, ?)",
                (found.graph, int(found.prime), int(found.residue), float(found.seconds), int(found.states)),
            )
        return cursor.rowcount == 1

    def count(self) -> int:
        """The number of stored rows."""
        return self.connection.execute("SELECT COUNT(*) FROM results").fetchone()[0]
