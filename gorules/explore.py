"""What ``gorules explore`` shows of an artefact: the page's data, by the artefact's kind.

gorules writes several JSON artefacts; :func:`kind_of` recognises each by its fields:

- a solve certificate (``solve --certificate``): its ``format`` field;
- a solve's JSON (``solve --json``): ``principal_variation`` and ``status``;
- ``prove --json``: an object, or a list of objects, with ``theorem`` and ``status``;
- ``verify --json``: a list of rows with ``check``, ``passed`` and ``result``;
- a conjecture table (``conjectures --json``): ``source`` and ``conjectures``;
- a sweep's summary (``sweep --json``): ``conjecture``, ``family`` and ``rows``.

:func:`page_data` turns it into the data the page script reads (:mod:`gorules.explore_page`).
Boards are drawn from the project's pictures (:mod:`gorules.pictures`): a picture per board
for the few boards of a solve, a proof or a table; for a certificate, whose positions are
many, one empty board (:func:`frame`) on which the page places each position's stones.

A static page embeds at most :data:`EMBEDDED_POSITIONS` positions of a certificate, reached
breadth first from the roots, and says so; ``--serve`` serves each position when the
reader walks to it (:mod:`gorules.commands.explore`).  Everything read from the file is
data to the page: it is shown as text, never as markup.
"""

from __future__ import annotations

from typing import Any

from gorules import pictures, rulesets
from gorules.errors import UsageError, shown
from gorules.explore_certificate import CHECKER, Walk, breadth_first
from gorules.impl.solving import certificate_check as checker
from gorules.spec import api
from gorules.spec.graph import GraphError, graph_from_json, parse_graph
from gorules.spec.text import move_name

EMBEDDED_POSITIONS = 5_000
"""The most positions of a certificate a static page embeds (breadth first from the
roots): a 3×3 certificate fits whole, a 4×4 one (about a million positions) does not, and
the page says how many it holds; ``--serve`` shows every position, each when asked."""
TABLE_PICTURES = 500
"""The most rows of a table (sweep, conjectures, verify) drawn with a picture each; the
rows beyond are listed without one, and the page says so."""
KINDS = ("certificate", "solve", "prove", "verify", "conjectures", "sweep")


def kind_of(data: Any) -> str | None:
    """The kind of artefact ``data`` is (one of :data:`KINDS`), or None."""
    if isinstance(data, dict):
        if str(data.get("format", "")).startswith("gorules-certificate/"):
            return "certificate"
        if {"principal_variation", "status", "graph"} <= data.keys():
            return "solve"
        if {"theorem", "status"} <= data.keys():
            return "prove"
        if {"source", "conjectures"} <= data.keys() and isinstance(data["conjectures"], list):
            return "conjectures"
        if {"conjecture", "family", "rows"} <= data.keys() and isinstance(data["rows"], list):
            return "sweep"
        return None
    if isinstance(data, list) and data and all(isinstance(row, dict) for row in data):
        if all({"theorem", "status"} <= row.keys() for row in data):
            return "prove"
        if all({"check", "passed", "result"} <= row.keys() for row in data):
            return "verify"
    return None


def frame(graph) -> dict:
    """The empty board's SVG and where each point is drawn, with the stone radius: the page
    draws a position by placing stones on it (the same drawing as :mod:`gorules.pictures`)."""
    svg = pictures.board_svg(graph, "." * graph.order)
    if graph.is_grid:
        at = [(pictures.MARGIN + c * pictures.CELL, pictures.MARGIN + r * pictures.CELL) for r, c in graph.grid]
        radius, labels = pictures.CELL * 0.46, False
    else:
        place = pictures.graph_frame(graph, 0)[0]
        at = [place(v) for v in graph.points]
        radius, labels = pictures.NODE_RADIUS, True
    return {"svg": svg, "points": [[round(x, 1), round(y, 1)] for x, y in at], "radius": radius, "labels": labels}


def picture(graph, board, marks=()) -> str | None:
    """The SVG of a board, or None if the board is not one of the graph's."""
    try:
        return pictures.board_svg(graph, board, marks=[m for m in marks if m in graph.points])
    except (UsageError, TypeError, IndexError):
        return None


def certificate_data(data: dict, limit: int = EMBEDDED_POSITIONS, lazy: bool = False) -> dict:
    """A certificate's page: its claim, roots, the checker's name, and its positions (at most
    ``limit`` embedded, none if ``lazy``: the server gives each when asked)."""
    try:
        walk = Walk(data)
    except checker.CertificateError as error:
        raise UsageError(f"not a readable certificate: {error}") from None
    return certificate_page(walk, limit, lazy)


def certificate_page(walk: Walk, limit: int, lazy: bool) -> dict:
    """The page data of a certificate read into ``walk``."""
    data = walk.data
    total = len(walk.nodes)
    nodes = {} if lazy else breadth_first(walk, limit)
    return {
        "kind": "certificate",
        "title": f"certificate: {data['graph']}",
        "claim": checker.claim(data),
        "value": data.get("value"),
        "lower": data["lower"],
        "upper": data["upper"],
        "checker": CHECKER,
        "roots": walk.roots,
        "positions": total,
        "embedded": len(nodes),
        "limit": limit,
        "lazy": lazy,
        "frame": frame(walk.graph),
        "nodes": {str(number): view for number, view in nodes.items()},
    }


def ruleset_for(data: dict) -> tuple[api.Ruleset | None, str | None]:
    """The registered ruleset a solve names, with its preset and options (a list option, such
    as political's players, given back as words joined by commas); or None and why not."""
    options: dict = data["options"] if isinstance(data.get("options"), dict) else {}
    words = {name: ",".join(map(str, value)) if isinstance(value, list) else value for name, value in options.items()}
    preset = data.get("preset") if isinstance(data.get("preset"), str) else None
    try:
        return rulesets.make(str(data.get("ruleset")), preset=preset, options=words), None
    except (api.OptionError, KeyError, ValueError, TypeError, UsageError) as error:
        return None, f"the ruleset cannot be made ({error}): the moves are listed without boards"


def line_of(graph, ruleset: api.Ruleset, moves: list) -> tuple[list[dict], str | None]:
    """The boards of a line of moves from the empty board, played by ``ruleset``: each move's
    name, the board after it and its picture (the point played ringed); and the problem that
    stopped the line, if any."""
    steps: list[dict] = []
    situation = ruleset.initial(graph)
    steps.append({"move": "start", "board": "".join(situation.board), "svg": picture(graph, situation.board)})
    for text in moves:
        try:
            move = ruleset.parse_move(graph, str(text))
            situation = situation.play(move)
        except (api.IllegalMove, ValueError, GraphError) as error:
            return steps, f"move {shown(str(text))} cannot be played: {error}"
        marks = [move] if isinstance(move, int) else []
        steps.append(
            {"move": str(text), "board": "".join(situation.board), "svg": picture(graph, situation.board, marks)}
        )
    return steps, None


def graph_named(name: Any):
    """The graph a name names, UsageError if none."""
    try:
        return parse_graph(str(name))
    except GraphError as error:
        raise UsageError(f"the artefact's graph {shown(str(name))} is not a graph: {error}") from None


def solve_data(data: dict) -> dict:
    """A solve's page: the value or bounds, the options, and the principal variation move
    by move, played from the empty board by the ruleset the solve names."""
    graph = graph_named(data["graph"])
    variation = data["principal_variation"] if isinstance(data["principal_variation"], list) else []
    ruleset, problem = ruleset_for(data)
    steps: list[dict] = []
    if ruleset is not None:
        steps, problem = line_of(graph, ruleset, variation)
    fields = ("graph", "ruleset", "preset", "status", "value", "lower", "upper", "nodes", "method", "note")
    return {
        "kind": "solve",
        "title": f"solve: {data['graph']}",
        "summary": {name: data.get(name) for name in fields if data.get(name) is not None},
        "options": data.get("options") if isinstance(data.get("options"), dict) else {},
        "variation": [str(m) for m in variation],
        "steps": steps,
        "problem": problem,
    }


def move_named(graph, move: Any) -> str:
    """A counterexample's move as the commands name it (GTP's names on a grid), where the
    graph is known and the move is one of its points; else as written."""
    if graph is not None and isinstance(move, int) and not isinstance(move, bool) and 0 <= move < graph.order:
        return move_name(graph, move)
    return str(move)


def counterexample_steps(found: Any) -> dict | None:
    """A counterexample of ``prove`` as the page shows it: each board with its label and
    picture, the moves, the point of interest; None if there is none."""
    if not isinstance(found, dict) or not isinstance(found.get("boards"), list):
        return None
    try:
        graph = graph_from_json(found["graph"]) if isinstance(found.get("graph"), dict) else None
    except GraphError:
        graph = None
    boards = []
    for entry in found["boards"]:
        if not isinstance(entry, dict):
            continue
        board = str(entry.get("board", ""))
        marks = entry.get("marks") if isinstance(entry.get("marks"), list) else []
        svg = picture(graph, board, marks) if graph is not None else None
        boards.append({"label": str(entry.get("label", "")), "board": board, "svg": svg})
    return {
        "part": str(found.get("part", "")),
        "graph": graph.name if graph is not None else None,
        "moves": [move_named(graph, m) for m in found.get("moves", [])] if isinstance(found.get("moves"), list) else [],
        "player": found.get("player"),
        "point": found.get("point"),
        "boards": boards,
    }


def theorem_row(result: dict) -> dict:
    """One theorem's result: its name, graph, status, scope and counterexample."""
    return {
        "theorem": str(result.get("theorem")),
        "graph": str(result.get("graph")),
        "status": str(result.get("status")),
        "scope": str(result.get("scope", "")),
        "counterexample": counterexample_steps(result.get("counterexample")),
    }


def prove_data(data: Any) -> dict:
    """The page of ``prove --json``: each theorem's status, a refuted one's counterexample
    move by move."""
    results = data if isinstance(data, list) else [data]
    return {"kind": "prove", "title": "prove", "theorems": [theorem_row(r) for r in results]}


def verify_row(row: dict, index: int) -> dict:
    """One row of ``verify``: check, graph, result, whether it passed, and what the row's
    detail holds to show (a counterexample, or a board)."""
    detail: dict = row["detail"] if isinstance(row.get("detail"), dict) else {}
    shown_row: dict = {
        "check": str(row.get("check")),
        "graph": str(row.get("graph")),
        "passed": bool(row.get("passed")),
        "result": str(row.get("result")),
        "counterexample": counterexample_steps(detail.get("counterexample")),
        "svg": None,
    }
    if index < TABLE_PICTURES and isinstance(detail.get("board"), str):
        graph = graph_or_none(detail.get("graph"))
        shown_row["svg"] = picture(graph, detail["board"]) if graph is not None else None
        shown_row["explanation"] = str(detail.get("explanation", ""))
    return shown_row


def verify_data(data: list) -> dict:
    """The page of ``verify --json``: the table of checks, a counterexample move by move
    where a row carries one."""
    rows = [verify_row(row, i) for i, row in enumerate(data)]
    return {"kind": "verify", "title": "verify", "rows": rows, "pictured": min(len(rows), TABLE_PICTURES)}


def graph_or_none(name: Any):
    """The graph a name names, or None."""
    try:
        return parse_graph(str(name))
    except GraphError:
        return None


def small_picture(name: Any, board: Any = None, index: int = 0) -> str | None:
    """A row's picture: the board (the empty board if none) of the graph the row names;
    None past :data:`TABLE_PICTURES` rows or for a name that is no graph."""
    graph = graph_or_none(name) if index < TABLE_PICTURES else None
    if graph is None:
        return None
    return picture(graph, board if isinstance(board, str) else "." * graph.order)


def conjectures_data(data: dict) -> dict:
    """The page of a conjecture table: each conjecture's counts and its verdict per graph,
    with a picture per row; the smallest counterexample drawn from its start board."""
    tables = []
    index = 0
    for conjecture in data["conjectures"]:
        if not isinstance(conjecture, dict):
            continue
        rows = []
        for verdict in conjecture.get("verdicts", []) if isinstance(conjecture.get("verdicts"), list) else []:
            if isinstance(verdict, dict):
                name = verdict.get("graph")
                rows.append(
                    {
                        "graph": str(name),
                        "status": str(verdict.get("status")),
                        "detail": str(verdict.get("detail", "")),
                        "svg": small_picture(name, index=index),
                    }
                )
                index += 1
        smallest = conjecture.get("smallest_counterexample")
        counter = None
        if isinstance(smallest, dict):
            counter = {
                "graph": str(smallest.get("graph")),
                "detail": str(smallest.get("detail", "")),
                "svg": small_picture(smallest.get("graph"), smallest.get("start")),
            }
        tables.append(
            {
                "conjecture": str(conjecture.get("conjecture")),
                "statement": str(conjecture.get("statement", "")),
                "counts": conjecture.get("counts") if isinstance(conjecture.get("counts"), dict) else {},
                "counterexample": counter,
                "rows": rows,
            }
        )
    return {"kind": "conjectures", "title": f"conjectures of source {data['source']}", "tables": tables}


def sweep_data(data: dict) -> dict:
    """The page of a sweep: each graph's verdict and figures, with a picture per row."""
    rows: list[dict] = []
    for index, row in enumerate(data["rows"]):
        if isinstance(row, dict):
            rows.append(
                {
                    "graph": str(row.get("graph")),
                    "holds": row.get("holds"),
                    "figures": row.get("figures") if isinstance(row.get("figures"), dict) else {},
                    "svg": small_picture(row.get("graph"), index=index),
                }
            )
    return {
        "kind": "sweep",
        "title": f"sweep: {data['conjecture']} over {data['family']}",
        "summary": {name: data.get(name) for name in ("conjecture", "ruleset", "family", "graphs", "holds")},
        "rows": rows,
        "pictured": min(len(rows), TABLE_PICTURES),
    }


BUILDERS = {
    "solve": solve_data,
    "prove": prove_data,
    "verify": verify_data,
    "conjectures": conjectures_data,
    "sweep": sweep_data,
}


def page_data(data: Any, limit: int = EMBEDDED_POSITIONS) -> dict:
    """The page's data for an artefact; UsageError (one line) if it is none gorules writes."""
    kind = kind_of(data)
    if kind is None:
        raise UsageError(
            "not an artefact gorules explore reads: expected a certificate (solve --certificate) or the JSON "
            "of solve, prove, verify, conjectures or sweep"
        )
    if kind == "certificate":
        return certificate_data(data, limit)
    return BUILDERS[kind](data)
