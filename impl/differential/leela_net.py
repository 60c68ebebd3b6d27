"""A tiny Leela Zero network file, so that Leela Zero starts and its rules can be fuzzed.

Leela Zero does not start without a network; its rules (what ``play`` accepts, the board,
``final_score``) do not depend on the network's weights.  The file written here is in Leela
Zero's text format, version 1: a first line ``1``, then one line of numbers per weight row:

- the input convolution (18 input planes, 3×3, ``filters`` outputs): weights, biases, then
  its batch normalisation: means, variances;
- each residual block: two such convolutions (``filters`` inputs), each with its batch
  normalisation (8 rows);
- the policy head: a 1×1 convolution to 2 planes, its batch normalisation, and a fully
  connected layer from 2·361 inputs to 362 moves (weights, biases);
- the value head: a 1×1 convolution to 1 plane, its batch normalisation, a fully connected
  layer from 361 inputs to 256, and one from 256 to 1.

Leela Zero reads the number of filters from the length of the second row and the number of
blocks from the number of rows (1 + 4 + 8·blocks + 14).  Weights and means are zeros and
variances ones: every move equally likely, every position even.

``python -m gorules.impl.differential.leela_net FILE`` writes one.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gorules.impl.formats.files import write_text_atomically

INPUT_PLANES = 18
POINTS = 19 * 19
VALUE_HIDDEN = 256


def rows(filters: int = 8, blocks: int = 1) -> list[tuple[int, str]]:
    """The weight rows in order, each as (how many numbers, the number repeated)."""

    def convolution(inputs: int, outputs: int, side: int) -> list[tuple[int, str]]:
        return [(inputs * outputs * side * side, "0"), (outputs, "0"), (outputs, "0"), (outputs, "1")]

    layout = convolution(INPUT_PLANES, filters, 3)
    for _ in range(blocks):
        layout += convolution(filters, filters, 3) + convolution(filters, filters, 3)
    layout += convolution(filters, 2, 1) + [(2 * POINTS * (POINTS + 1), "0"), (POINTS + 1, "0")]
    layout += convolution(filters, 1, 1) + [(POINTS * VALUE_HIDDEN, "0"), (VALUE_HIDDEN, "0")]
    layout += [(VALUE_HIDDEN, "0"), (1, "0")]
    return layout


def network_text(filters: int = 8, blocks: int = 1) -> str:
    """The network file's text."""
    return "1\n" + "".join(" ".join([value] * count) + "\n" for count, value in rows(filters, blocks))


def write_network(path: Path, filters: int = 8, blocks: int = 1) -> Path:
    """Write the network to ``path`` (whole or not at all); the path."""
    return write_text_atomically(Path(path), network_text(filters, blocks))


def main(argv: list[str] | None = None) -> int:
    """Write a network to the file named by the first argument."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m gorules.impl.differential.leela_net FILE", file=sys.stderr)
        return 2
    write_network(Path(args[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
