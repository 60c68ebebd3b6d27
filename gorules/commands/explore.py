"""``gorules explore FILE [--out PAGE.html | --serve [--port N]]``: a page to look at a proof.

FILE is an artefact gorules wrote: a solve certificate, or the JSON of ``solve``,
``prove``, ``verify``, ``conjectures`` or ``sweep`` (:mod:`gorules.explore` recognises
its kind by its fields; anything else is one line, exit 2).  ``--out PAGE.html`` writes one
self-contained HTML page (:mod:`gorules.explore_page`), whole or not at all; ``--serve``
serves it on 127.0.0.1 only, printing the address, until Ctrl-C (exit 130).  Served, a
certificate's positions are given one at a time from ``/position/ID`` as the reader walks to
them, each checked then by the spec's checker; written, the page embeds at most
``--positions`` of them.  Without either, the command says what the page would hold.
``--ruleset-file`` registers rulesets of one's own first, so that a solve of such a ruleset
is shown with the boards of its line.
"""

from __future__ import annotations

import re
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

from gorules import flags, rulesets
from gorules.commands.check_certificate import read
from gorules.errors import UsageError, json_text, shown
from gorules.explore import EMBEDDED_POSITIONS, certificate_page, kind_of, page_data
from gorules.explore_certificate import Walk
from gorules.explore_page import html
from gorules.impl.formats.files import write_text_atomically
from gorules.impl.solving.certificate_check import CertificateError

HOST = "127.0.0.1"
"""The only address ``--serve`` listens on: the page is for this machine's browser."""
POSITION = re.compile(r"^/position/(\d{1,12})$")


def register(subparsers) -> None:
    """Add the ``explore`` subcommand."""
    parser = subparsers.add_parser(
        "explore",
        help="a page to look at a certificate, a solve, a proof or a table: written as one self-contained HTML "
        "file, or served on 127.0.0.1",
    )
    parser.add_argument(
        "file", help="a certificate (solve --certificate) or the JSON of solve, prove, verify, conjectures or sweep"
    )
    where = parser.add_mutually_exclusive_group()
    flags.add_output_path(where, "--out", "write the page (HTML) to FILE, whole or not at all", default=None)
    where.add_argument("--serve", action="store_true", help=f"serve the page on {HOST} until Ctrl-C")
    parser.add_argument(
        "--port", type=int, default=None, metavar="N", help="with --serve: the port (default: a free one)"
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=EMBEDDED_POSITIONS,
        metavar="N",
        help=flags.with_default(
            "the most positions of a certificate a written page embeds", EMBEDDED_POSITIONS, "--serve shows all"
        ),
    )
    parser.add_argument("--json", action="store_true", help="print what the page holds as one JSON document")
    flags.add_ruleset_file(parser)
    parser.set_defaults(func=run)


def read_artefact(path: str):
    """The strict JSON of the file (UsageError, one line, if it cannot be read): a regular
    file, or a pipe or FIFO a writer holds open, as ``check-certificate`` reads them; a FIFO
    with no writer, a device or a directory is refused."""
    try:
        return read(Path(path))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise UsageError(f"cannot read {shown(path)}: {error}") from None


def summary(data: dict, out: str | None) -> dict:
    """What the page holds, for the command's output."""
    found = {"kind": data["kind"], "title": data["title"], "out": out}
    if data["kind"] == "certificate":
        views = data["nodes"].values()
        found.update(
            claim=data["claim"],
            positions=data["positions"],
            embedded=data["embedded"],
            limit=data["limit"],
            failing=sum(not view["verdict"]["ok"] for view in views),
        )
    return found


def summary_text(found: dict) -> str:
    """The summary's line."""
    where = f"written to {found['out']}" if found["out"] else "not written (give --out PAGE.html or --serve)"
    if found["kind"] != "certificate":
        return f"{found['title']}: page {where}"
    return (
        f"{found['claim']}: page {where}; it embeds {found['embedded']:,} of {found['positions']:,} positions "
        f"(at most {found['limit']:,}), {found['failing']} failing the spec's checker"
    )


def checked(args) -> None:
    """UsageError for flags that do not go together or numbers out of range."""
    if args.port is not None and not args.serve:
        raise UsageError("--port is for --serve")
    if args.port is not None and not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port is 0..65535")
    if args.positions < 1:
        raise UsageError(f"--positions {args.positions}: at least 1")


def run(args) -> int:
    """Write, serve or describe the page of the artefact; 0 once done."""
    checked(args)
    if args.ruleset_file:
        rulesets.load_ruleset_file(args.ruleset_file)
    artefact = read_artefact(args.file)
    if args.serve:
        return serve(artefact, args.port or 0, args.json)
    data = page_data(artefact, args.positions)
    if args.out is not None:
        write_text_atomically(args.out, html(data))
    found = summary(data, args.out)
    print(json_text(found) if args.json else summary_text(found))
    return 0


class Site:
    """What the server gives: the page, and a certificate's positions one at a time."""

    def __init__(self, artefact):
        """The page of ``artefact``; for a certificate, a lazy page and the walk behind it."""
        self.walk: Walk | None = None
        if kind_of(artefact) == "certificate":
            try:
                self.walk = Walk(artefact)
            except CertificateError as error:
                raise UsageError(f"not a readable certificate: {error}") from None
            self.page = html(certificate_page(self.walk, 0, lazy=True))
        else:
            self.page = html(page_data(artefact))

    def answer(self, path: str) -> tuple[int, str, str]:
        """Status, content type and body for a request's path."""
        if path in ("/", "/index.html"):
            return 200, "text/html; charset=utf-8", self.page
        found = POSITION.match(path)
        if found is None or self.walk is None:
            return 404, "application/json", json_text({"error": f"nothing at {path[:100]}"})
        number = int(found.group(1))
        if number not in self.walk.nodes:
            return 404, "application/json", json_text({"error": f"the certificate has no position {number}"})
        if number not in self.walk.reached:
            error = f"position {number} is not reached yet: walk to it from a root"
            return 404, "application/json", json_text({"error": error})
        return 200, "application/json", json_text(self.walk.view(number))


def handler(site: Site) -> type[BaseHTTPRequestHandler]:
    """The request handler serving ``site`` (GET only), logging nothing."""

    class Handler(BaseHTTPRequestHandler):
        """Answers GET from the site."""

        def do_GET(self) -> None:
            """Send the site's answer for the path."""
            status, kind, body = site.answer(self.path.split("?", 1)[0])
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format, *arguments) -> None:
            """Requests are not logged: stdout holds the address, stderr errors only."""

    return Handler


def serve(artefact, port: int, as_json: bool) -> int:
    """Serve the page on HOST until interrupted (Ctrl-C: KeyboardInterrupt, exit 130 by the CLI)."""
    site = Site(artefact)
    server = HTTPServer((HOST, port), handler(site))
    try:
        address = f"http://{HOST}:{server.server_address[1]}/"
        print(json_text({"serving": address}) if as_json else f"serving {address} (Ctrl-C to stop)", flush=True)
        server.serve_forever()
    finally:
        server.server_close()
    return 0
