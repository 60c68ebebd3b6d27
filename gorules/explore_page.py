"""The page of ``gorules explore``: one self-contained HTML document (inline CSS, script and
SVG; it loads nothing from the network) that shows the data of :mod:`gorules.explore`.

The data goes into the page as JSON inside a ``<script type="application/json">`` element,
with every ``<`` written ``\\u003c`` so that no text of the artefact can close the element;
the script puts the artefact's strings into the page as text only.  The pictures it inserts
as markup are the SVG that :mod:`gorules.pictures` draws from a parsed graph and board.

For a certificate the script walks the proof tree: the reader picks a strategy's root, each
move listed is a button that goes to the position it leads to, the path walked so far is
listed above (each step goes back to it), and the address's fragment (``#node=ID``) names
the position shown.  A page served by ``gorules explore --serve`` (``lazy``) fetches each
position from ``position/ID`` when the reader goes to it.  The elements the reader reads
carry ids (``node-id``, ``node-value``, ``node-moves``, ``node-leaf``, ``node-verdict``...)
that the browser test reads too.
"""

from __future__ import annotations

from html import escape

from gorules.errors import json_text

STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 70em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { border: 1px solid #bbb; padding: 0.25em 0.5em; vertical-align: top; text-align: left; }
.board svg { max-width: 260px; height: auto; }
td .board svg { max-width: 90px; }
.steps { display: flex; flex-wrap: wrap; gap: 0.8em; }
.step { border: 1px solid #ccc; padding: 0.4em; }
.step .board svg { max-width: 150px; }
.ok { color: #176117; font-weight: bold; } .bad { color: #a31515; font-weight: bold; }
.note { background: #fff6d5; border: 1px solid #e0c55c; padding: 0.4em 0.6em; }
button.move { margin: 0.15em; font-size: 1em; min-width: 3.2em; }
#path button { margin: 0.1em; }
dl.fields { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.fields dt { font-weight: bold; } dl.fields dd { margin: 0; }
code { background: #f2f2f2; padding: 0 0.2em; }
"""

SCRIPT = r"""
"use strict";
const DATA = JSON.parse(document.getElementById("page-data").textContent);
const SVG = "http://www.w3.org/2000/svg";

function el(tag, attributes, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined) continue;
    made.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return made;
}

function picture(svgText) {
  // SVG drawn by gorules.pictures from a parsed graph and board, never text of the artefact
  const box = el("div", {class: "board"});
  if (svgText) box.innerHTML = svgText;
  return box;
}

function fields(entries) {
  const list = el("dl", {class: "fields"});
  for (const [name, value] of entries) {
    list.append(el("dt", {}, String(name)), el("dd", {}, typeof value === "string" ? value : JSON.stringify(value)));
  }
  return list;
}

function steps(list) {
  const row = el("div", {class: "steps"});
  list.forEach((step, index) => {
    row.append(el("div", {class: "step", "data-index": String(index)},
      el("div", {}, step.label !== undefined ? step.label : `${index}. ${step.move}`),
      picture(step.svg)));
  });
  return row;
}

function counterexample(found) {
  const box = el("div", {class: "counterexample"});
  box.append(el("p", {}, `counterexample (${found.part}) on ${found.graph}: moves ${found.moves.join(" ")}`));
  box.append(steps(found.boards));
  return box;
}

// ------------------------------------------------------------------ certificates

const cache = Object.assign({}, DATA.nodes || {});
let walked = [];

function position(board, kept) {
  const frame = DATA.frame;
  const box = picture(frame.svg);
  box.id = "node-board";
  const svg = box.querySelector("svg");
  for (let v = 0; v < board.length; v++) {
    const [x, y] = frame.points[v];
    if (board[v] === "B" || board[v] === "W") {
      const stone = document.createElementNS(SVG, "circle");
      stone.setAttribute("cx", x); stone.setAttribute("cy", y); stone.setAttribute("r", frame.radius);
      stone.setAttribute("fill", board[v] === "B" ? "#111111" : "#f8f8f8");
      stone.setAttribute("stroke", board[v] === "B" ? "#000000" : "#333333");
      stone.setAttribute("class", "stone-" + board[v]);
      svg.append(stone);
      if (frame.labels) {
        const label = document.createElementNS(SVG, "text");
        label.setAttribute("x", x); label.setAttribute("y", y + 4); label.setAttribute("text-anchor", "middle");
        label.setAttribute("font-size", "12"); label.setAttribute("fill", board[v] === "B" ? "#ffffff" : "#000000");
        label.textContent = String(v);
        svg.append(label);
      }
    }
  }
  for (const v of kept) {
    const [x, y] = frame.points[v];
    const ring = document.createElementNS(SVG, "circle");
    ring.setAttribute("cx", x); ring.setAttribute("cy", y); ring.setAttribute("r", frame.radius * 0.65);
    ring.setAttribute("fill", "none"); ring.setAttribute("stroke", "#d62728"); ring.setAttribute("stroke-width", "3");
    ring.setAttribute("class", "kept");
    svg.append(ring);
  }
  return box;
}

async function fetched(id) {
  if (cache[id]) return cache[id];
  if (!DATA.lazy) {
    return {missing: `position ${id} is not on this page: it embeds ${DATA.embedded} of the certificate's ` +
      `${DATA.positions} positions (at most ${DATA.limit}); 'gorules explore FILE --serve' shows every one`};
  }
  const answer = await fetch("position/" + id);
  const found = await answer.json();
  if (!answer.ok) return {missing: found.error || `position ${id} could not be fetched`};
  cache[id] = found;
  return found;
}

function pathBar() {
  const bar = el("div", {id: "path"}, "path: ");
  walked.forEach((id, index) => {
    const root = Object.values(DATA.roots).includes(id);
    const step = el("button", {"data-node": String(id)}, root ? `root ${id}` : String(id));
    step.addEventListener("click", () => { walked = walked.slice(0, index); go(id); });
    bar.append(step);
  });
  return bar;
}

function nodePanel(node) {
  const panel = el("div", {id: "node"});
  panel.append(el("h2", {}, "position ", el("span", {id: "node-id"}, String(node.id))));
  panel.append(position(node.board, node.kept));
  const verdict = el("span", {id: "node-verdict", class: node.verdict.ok ? "ok" : "bad",
    "data-ok": String(node.verdict.ok)}, node.verdict.text);
  const moves = el("div", {id: "node-moves"});
  for (const entry of node.moves) {
    const button = el("button", {class: "move", "data-child": String(entry.child), "data-move": entry.move}, entry.move);
    button.addEventListener("click", () => go(entry.child));
    moves.append(button);
  }
  const refused = node.refused.map(r => `${r.move}: ${r.why}`).join("; ");
  panel.append(el("dl", {class: "fields"},
    el("dt", {}, "strategy"), el("dd", {id: "node-strategy"}, node.strategy),
    el("dt", {}, "bound kept"), el("dd", {id: "node-bound"}, node.bound),
    el("dt", {}, "value"), el("dd", {id: "node-value"}, node.value),
    el("dt", {}, "to move"), el("dd", {id: "node-to-move"}, `${node.to_move} (${node.passes} passes in a row)`),
    el("dt", {}, "kind"), el("dd", {id: "node-kind"}, node.kind),
    el("dt", {}, "leaf"), el("dd", {id: "node-leaf"}, node.leaf === null ? "not a leaf" : node.leaf),
    el("dt", {}, node.kind !== "inner" ? "moves" :
      node.to_move === (node.strategy === "lower" ? "B" : "W") ? "the strategy's move" : "every legal reply"),
    el("dd", {}, node.moves.length ? moves : el("span", {id: "node-moves"}, "none: a leaf")),
    el("dt", {}, "refused here"), el("dd", {id: "node-refused"}, refused || "none"),
    el("dt", {}, "history relied on"), el("dd", {id: "node-history"},
      `positions named (q): ${node.q}; of them present in the history (d): ${node.d.length ? node.d.join(", ") : "none"}`),
    el("dt", {}, "checker's verdict"), el("dd", {}, verdict)));
  return panel;
}

async function go(id) {
  const node = await fetched(id);
  const place = document.getElementById("explorer");
  walked.push(id);
  place.replaceChildren(pathBar());
  if (node.missing) {
    place.append(el("p", {id: "node-missing", class: "note"}, node.missing));
  } else {
    place.append(nodePanel(node));
  }
  history.replaceState(null, "", "#node=" + id);
}

function certificatePage(main) {
  main.append(el("p", {id: "claim"}, DATA.claim));
  main.append(el("p", {}, "each position's verdict comes from ", el("code", {id: "checker"}, DATA.checker),
    DATA.lazy ? ", run by the server when the position is asked for." : ", run when this page was written."));
  const note = DATA.lazy
    ? `served: each of the ${DATA.positions} positions is fetched when the walk reaches it`
    : `this page embeds ${DATA.embedded} of the certificate's ${DATA.positions} positions (at most ${DATA.limit}, ` +
      "breadth first from the roots)" + (DATA.embedded < DATA.positions ? "; 'gorules explore FILE --serve' shows every one" : "");
  main.append(el("p", {id: "embedded-note", class: "note"}, note));
  const roots = el("p", {}, "start from: ");
  for (const [name, id] of Object.entries(DATA.roots)) {
    const button = el("button", {id: "root-" + name}, name === "lower" ? "Black's strategy (lower bound)" : "White's strategy (upper bound)");
    button.addEventListener("click", () => { walked = []; go(id); });
    roots.append(button);
  }
  main.append(roots, el("div", {id: "explorer"}));
  const asked = /^#node=(\d+)$/.exec(location.hash);
  walked = [];
  go(asked && cache[asked[1]] ? Number(asked[1]) : DATA.roots.lower);
}

// ------------------------------------------------------------------ the other artefacts

function solvePage(main) {
  main.append(fields(Object.entries(DATA.summary)));
  main.append(el("h2", {}, "options"), fields(Object.entries(DATA.options)));
  main.append(el("h2", {}, "principal variation"), el("p", {id: "variation"}, DATA.variation.join(" ") || "(none)"));
  if (DATA.problem) main.append(el("p", {class: "note"}, DATA.problem));
  main.append(steps(DATA.steps));
}

function provePage(main) {
  for (const theorem of DATA.theorems) {
    main.append(el("h2", {}, `${theorem.theorem} on ${theorem.graph}: `,
      el("span", {class: theorem.status === "proved" ? "ok" : "bad"}, theorem.status)));
    if (theorem.scope) main.append(el("p", {}, theorem.scope));
    if (theorem.counterexample) main.append(counterexample(theorem.counterexample));
  }
}

function tableOf(headers, rows) {
  const table = el("table", {}, el("tr", {}, ...headers.map(h => el("th", {}, h))));
  for (const cells of rows) table.append(el("tr", {}, ...cells.map(c => el("td", {}, c))));
  return table;
}

function verifyPage(main) {
  main.append(tableOf(["check", "graph", "result", "passed", "picture"], DATA.rows.map(row => [
    row.check, row.graph, row.result,
    el("span", {class: row.passed ? "ok" : "bad"}, row.passed ? "ok" : "FAILED"),
    row.svg ? el("div", {}, picture(row.svg), row.explanation || "") : "",
  ])));
  for (const row of DATA.rows) {
    if (row.counterexample) main.append(el("h2", {}, row.check), counterexample(row.counterexample));
  }
}

function conjecturesPage(main) {
  for (const table of DATA.tables) {
    main.append(el("h2", {}, table.conjecture), el("p", {}, table.statement), fields(Object.entries(table.counts)));
    if (table.counterexample) {
      main.append(el("p", {}, `smallest counterexample: ${table.counterexample.graph}: ${table.counterexample.detail}`),
        picture(table.counterexample.svg));
    }
    main.append(tableOf(["graph", "status", "detail", "picture"],
      table.rows.map(row => [row.graph, row.status, row.detail, picture(row.svg)])));
  }
}

function sweepPage(main) {
  main.append(fields(Object.entries(DATA.summary)));
  main.append(tableOf(["graph", "holds", "figures", "picture"], DATA.rows.map(row => [
    row.graph, String(row.holds), JSON.stringify(row.figures), picture(row.svg)])));
}

const PAGES = {certificate: certificatePage, solve: solvePage, prove: provePage, verify: verifyPage,
  conjectures: conjecturesPage, sweep: sweepPage};
PAGES[DATA.kind](document.getElementById("main"));
"""


def embedded_json(data: dict) -> str:
    """The data as JSON that a ``<script>`` element holds whole: every ``<`` escaped."""
    return json_text(data, separators=(",", ":")).replace("<", "\\u003c")


def html(data: dict) -> str:
    """The whole page for the data of :func:`gorules.explore.page_data`."""
    title = escape(str(data.get("title", "gorules explore")))
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; connect-src 'self'\">"
        f"<title>{title}</title><style>{STYLE}</style></head>\n"
        f'<body><h1 id="title">{title}</h1><div id="main"></div>\n'
        f'<script type="application/json" id="page-data">{embedded_json(data)}</script>\n'
        f"<script>{SCRIPT}</script>\n</body></html>\n"
    )
