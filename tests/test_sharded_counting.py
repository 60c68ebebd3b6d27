"""The packed count with each step's states split into shards by ranges of a hash of the
state: the same residues as the one-table program, whatever the number of shards, and each
shard holding a share of the states."""

from __future__ import annotations

import pytest

from gorules.impl.counting.packed import PackedCounter, word_primes
from gorules.impl.counting.sharded import ShardedCounter, sent, shard_of
from tests.test_packed_counting import A094777


@pytest.mark.parametrize("bits", [0, 1, 3])
@pytest.mark.parametrize(("rows", "columns"), [(1, 1), (2, 3), (5, 5), (4, 7), (7, 7)])
def test_sharded_count_has_the_residues_of_the_one_table_count(rows, columns, bits):
    primes = word_primes(2)
    width, length = min(rows, columns), max(rows, columns)
    whole = PackedCounter(width, primes)
    sharded = ShardedCounter(width, primes, bits)
    assert sharded.run(length) == whole.run(length)
    assert sharded.largest == whole.largest


@pytest.mark.parametrize("bits", [0, 2])
def test_sharded_count_without_the_colour_exchange_has_the_same_residues_and_more_states(bits):
    primes = word_primes(2)
    merged, every = ShardedCounter(6, primes, bits), ShardedCounter(6, primes, bits, colour_symmetry=False)
    assert merged.run(6) == every.run(6) == [A094777[5] % p for p in primes]
    whole = PackedCounter(6, primes, colour_symmetry=False)
    whole.run(6)
    assert every.largest == whole.largest
    assert merged.largest == (every.largest + 1) // 2  # the all-empty border is its own exchange


def test_sharded_count_gives_the_published_seven_by_seven():
    primes = word_primes(2)
    assert ShardedCounter(7, primes, 2).run(7) == [A094777[6] % p for p in primes]


def test_each_of_four_shards_holds_well_under_half_the_states():
    counter = ShardedCounter(8, word_primes(1), 2)
    counter.run(8)
    assert counter.largest_shard < 0.35 * counter.largest


def test_rows_are_sent_to_the_shard_of_their_key_and_none_is_lost():
    from gorules.impl.kernels.frontier import advance

    counter = PackedCounter(6, word_primes(1))
    table, _ = advance(counter.start(), 6, 0, False, False, counter.primes, 16, True)
    pieces = sent(table, 2)
    assert sum(piece.shape[0] for piece in pieces) == int((table[:, 0] != 2**64 - 1).sum())
    for shard, piece in enumerate(pieces):
        assert (shard_of(piece[:, 0], 2) == shard).all()


def test_shard_bits_out_of_range_are_refused():
    with pytest.raises(ValueError):
        ShardedCounter(5, word_primes(1), 17)
    with pytest.raises(ValueError):
        ShardedCounter(14, word_primes(1), 2)


@pytest.mark.slow
def test_shards_as_tasks_on_a_real_dask_cluster_give_the_published_count():
    """Seven by seven modulo two primes, four shards a step, each shard of each step a task on
    a local Dask cluster of two worker processes: A094777's residues."""
    distributed = pytest.importorskip("distributed")
    from gorules.impl.counting.packed import chinese_remainder
    from gorules.shard_tasks import sharded_residues
    from gorules.spec.graph import parse_graph

    primes = word_primes(2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        residues, largest_shard = sharded_residues(parse_graph("grid:7x7"), primes, 2, cluster.scheduler_address)
    assert residues == [A094777[6] % p for p in primes]
    assert chinese_remainder(residues, primes) == A094777[6]
    whole = PackedCounter(7, primes)
    whole.run(7)
    assert 0 < largest_shard < 0.5 * whole.largest
