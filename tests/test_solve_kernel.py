"""The compiled core's storage (``impl/_numba_solve.py``): the arrays of its state (fresh,
and private to the process that made them) and the way an answer's folded Q is kept in the
table (only its nonempty words, listed in the
slot's last word).  Each property is a predicate, shown false on a broken example."""

from __future__ import annotations

import mmap
import multiprocessing

import numpy as np

from gorules.impl import _numba_solve as ks
from gorules.impl.solve import Solver
from gorules.spec.graph import parse_graph


def fresh(array: np.ndarray, shape: tuple, dtype) -> bool:
    """Whether ``array`` is a writable, contiguous array of zeros of ``shape`` and ``dtype``
    whose data starts on a huge-page boundary when it spans one."""
    large = array.nbytes >= ks.HUGE_PAGE
    return (
        array.shape == shape
        and array.dtype == np.dtype(dtype)
        and array.flags.writeable
        and array.flags.c_contiguous
        and not array.any()
        and (not large or array.ctypes.data % ks.HUGE_PAGE == 0)
    )


def test_state_arrays_are_fresh_zeros_large_or_small():
    """The table's arrays, of 13 MB and of 48 bytes, are writable zeros of the asked
    shape, the large one aligned to huge pages; a write lands where it is asked."""
    for shape, dtype in (((1 << 14, 3, ks.QWORDS + 1), np.uint64), ((4, 3), np.int32)):
        array = ks._zeros(shape, dtype)
        assert fresh(array, shape, dtype)
        array[(-1,) * array.ndim] = 7
        assert array.reshape(-1)[-1] == 7 and int(array.sum()) == 7


def test_the_freshness_check_refuses_a_used_or_shifted_array():
    """The check can fail: an array holding a nonzero word, and one starting 8 bytes past a
    huge-page boundary, are refused."""
    shape = (1 << 14, 3, ks.QWORDS + 1)
    used = ks._zeros(shape, np.uint64)
    used[5, 1, 2] = 1
    assert not fresh(used, shape, np.uint64)
    shifted = ks._zeros((1 << 14) * 3 * (ks.QWORDS + 1) + 1, np.uint64)[1:].reshape(shape)
    assert not fresh(shifted, shape, np.uint64)


def _overwrite(arrays: list) -> None:
    """Set every bit of every array (the forked process's work)."""
    for array in arrays:
        array.view(np.uint8).reshape(-1)[:] = 0xFF


def seen_after_a_fork(arrays: list) -> bool:
    """Whether a process forked from this one, overwriting every array of ``arrays``, changes
    any of them here: the split's workers are forked so (``impl/split.py``)."""
    before = [array.copy() for array in arrays]
    child = multiprocessing.get_context("fork").Process(target=_overwrite, args=(arrays,))
    child.start()
    child.join()
    assert child.exitcode == 0
    return any(not np.array_equal(a, b) for a, b in zip(arrays, before, strict=True))


def test_a_forked_worker_writes_only_its_own_copy_of_the_solver_state():
    """The compiled core's state (table, bounds' cache, numbering of keys, history) and the
    df-pn state of a solver that has searched are private to the solving process: a forked
    worker overwriting all of them leaves the solving process's unchanged.  (With ``mmap``'s
    default shared mapping the large arrays were one memory for all processes.)"""
    solver = Solver(parse_graph("grid:2x3"), search="dfpn", table_bits=16)
    solver.solve()
    arrays = [a for a in (*solver.compiled_state, *solver.dfpn_state) if isinstance(a, np.ndarray)]
    assert any(a.nbytes >= ks.HUGE_PAGE for a in arrays)
    assert not seen_after_a_fork(arrays)


def test_the_fork_check_sees_a_shared_mapping():
    """The check can fail: an array on a shared anonymous mapping is written by the forked
    process for both."""
    shared = np.frombuffer(mmap.mmap(-1, 1 << 16), np.uint64)
    assert seen_after_a_fork([shared])


def listed_words_nonempty(tq: np.ndarray, valid: np.ndarray) -> bool:
    """Whether every word that a stored answer lists as part of its Q is nonempty (words not
    listed may hold what an older answer left; they are never read)."""
    for slot, sub in zip(*np.nonzero(valid), strict=True):
        words = int(tq[slot, sub, ks.QWORDS])
        for w in range(ks.QWORDS):
            if words >> w & 1 and tq[slot, sub, w] == 0:
                return False
    return True


def test_stored_answers_list_only_nonempty_words_of_their_queries():
    """After solving 1×6 (value +1 under Tromp–Taylor's positional superko) with the compiled
    core, every stored answer lists only nonempty words of its Q, and some answer lists
    some word (the queries are kept at all)."""
    solver = Solver(parse_graph("path:6"), core="compiled")
    assert solver.solve().value == 1
    state = solver.compiled_state
    tq, valid = state[20], state[19][:, :, 0] == 1
    assert valid.any() and tq[:, :, ks.QWORDS][valid].any()
    assert listed_words_nonempty(tq, valid)


def test_the_word_list_check_refuses_a_listed_empty_word():
    """The check can fail: an answer listing a word of its Q that is empty is refused."""
    tq = np.zeros((2, 3, ks.QWORDS + 1), np.uint64)
    valid = np.zeros((2, 3), bool)
    valid[1, 2] = True
    tq[1, 2, ks.QWORDS] = np.uint64(0b101)
    tq[1, 2, 0] = np.uint64(9)
    assert not listed_words_nonempty(tq, valid)
    tq[1, 2, 2] = np.uint64(1)
    assert listed_words_nonempty(tq, valid)
