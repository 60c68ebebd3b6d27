"""The packed count modulo some primes with each step's states in shards by ranges of the
state hash (:mod:`gorules.impl.counting.sharded`), each shard of each step a task on a Dask
cluster.

A shard's task takes the rows the shards of the step before sent it and returns the rows it
sends to each shard, one piece a shard; the cluster moves each piece to the worker of the
task that takes it, so a worker holds the tables of the shards it computes and the pieces in
transit, not every state of the step.  The tasks of all the steps are submitted at once, each
step's pieces released once the next step has taken them, and the totals of the shards
after the last step are added here.

A worker lost part way loses the pieces it held, which the steps before, released, can no
longer make again, and no step is kept on disk: the count of that modulus fails with the
cluster's error (``gorules count --shards`` then reports the modulus missing, and a rerun
computes it again from the start).
"""

from __future__ import annotations

import operator

import numpy as np

from gorules.errors import UsageError
from gorules.impl.counting.packed import PackedCounter, fits
from gorules.impl.counting.sharded import sent, shard_step, shard_total
from gorules.spec.graph import Graph


def shard_steps(client, graph: Graph, primes: np.ndarray, bits: int) -> tuple[list, list]:
    """Submit every step of the count of ``graph``: the futures of the pieces sent to each
    shard after the last step (one list a shard), and those of the number of states each
    shard held at each step."""
    rows, columns = graph.shape
    width, length = min(rows, columns), max(rows, columns)
    start = PackedCounter(width, tuple(int(p) for p in primes)).start()
    inbound = [[client.scatter(piece)] for piece in sent(start, bits)]
    held = []
    for row in range(length):
        for column in range(width):
            made = [
                client.submit(shard_step, pieces, width, column, row > 0, primes, bits, pure=False)
                for pieces in inbound
            ]
            pieces_of = [client.submit(operator.itemgetter(0), task, pure=False) for task in made]
            held += [client.submit(operator.itemgetter(1), task, pure=False) for task in made]
            inbound = [
                [client.submit(operator.itemgetter(shard), pieces, pure=False) for pieces in pieces_of]
                for shard in range(1 << bits)
            ]
    return inbound, held


def sharded_residues(graph: Graph, primes: tuple[int, ...], bits: int, address: str) -> tuple[list[int], int]:
    """The number of legal positions of a grid modulo each of ``primes``, its states in
    2^``bits`` shards computed on the Dask cluster at ``address``; with the most states one
    shard held."""
    from distributed import Client

    if not fits(graph):
        raise UsageError(f"{graph.name}: the packed count takes undirected grids of at most 13 columns")
    try:
        client = Client(address, timeout=20)
    except Exception as error:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {error}") from error
    try:
        moduli = np.array(primes, dtype=np.uint64)
        width = min(graph.shape)
        inbound, held = shard_steps(client, graph, moduli, bits)
        totals = client.gather([client.submit(shard_total, pieces, width, moduli) for pieces in inbound])
        largest = max([*client.gather(held), *(states for _, states in totals)])
    finally:
        client.close()
    residues = np.zeros(moduli.shape[0], np.uint64)
    for settled, _ in totals:
        residues = (residues + settled) % moduli
    return [int(r) for r in residues], largest


__all__ = ["shard_steps", "sharded_residues"]
