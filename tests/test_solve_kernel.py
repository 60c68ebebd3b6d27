"""The compiled core's storage (``impl/kernels/solve.py``): the arrays of its state (fresh,
and private to the process that made them), the way an answer's folded Q is kept in the
table (only its nonempty words, listed in the slot's last word), and the table once a split
shares it (one memory for all processes, each row reused only where its check word
confirms it).  Each property is a predicate, shown false on a broken example."""

from __future__ import annotations

import mmap
import multiprocessing

import numpy as np

from gorules.impl.kernels import solve as ks
from gorules.impl.solving.solve import Solver
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
    shape, the large one aligned to huge pages (for when it moves to them); a write lands
    where it is asked."""
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


def huge_kilobytes(array: np.ndarray) -> int:
    """The kilobytes of huge pages under the mapping that holds ``array`` (``/proc/self/smaps``)."""
    address, inside, huge = array.ctypes.data, False, 0
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            head = line.split()[0]
            if "-" in head and not head.endswith(":"):
                low, high = (int(x, 16) for x in head.split("-"))
                inside = low <= address < high
            elif inside and head == "AnonHugePages:":
                huge = int(line.split()[1])
    return huge


def system_grants_huge_pages() -> bool:
    """Whether the system gives huge pages to memory that asks for them (not ``never``)."""
    with open("/sys/kernel/mm/transparent_hugepage/enabled") as setting:
        return "[never]" not in setting.read()


def test_the_table_starts_on_small_pages_and_moves_to_huge_ones_when_asked():
    """A solver's table is written on small pages; ``huge_pages`` grants huge ones to every
    large private array (table, bounds' cache, numbering of keys) and gathers the pages the
    table already holds into them, where the system gives huge pages at all."""
    solver = Solver(parse_graph("path:10"), core="compiled", search="dfpn")
    A = solver.compiled_arrays()
    keys = A[18]
    keys[: 1 << 18] = 1
    assert huge_kilobytes(keys) == 0
    large = [a for a in A if isinstance(a, np.ndarray) and a.nbytes >= ks.HUGE_PAGE]
    assert {id(a) for a in large} >= {id(A[index]) for index in ks.TABLE}
    assert ks.huge_pages(A) == sum(a.nbytes for a in large)
    if system_grants_huge_pages():
        assert huge_kilobytes(keys) >= 4096
    else:
        assert huge_kilobytes(keys) == 0
    assert int(keys[(1 << 18) - 1, 2]) == 1 and int(keys[1 << 18, 0]) == 0


def test_huge_pages_leave_a_shared_table_alone():
    """Once the table is shared with other processes only the private arrays are asked
    for huge pages: the count granted drops by the table's bytes."""
    A = Solver(parse_graph("path:10"), core="compiled", search="dfpn").compiled_arrays()
    before = ks.huge_pages(A)
    shared = ks.share(A)
    assert ks.huge_pages(shared) == before - sum(A[index].nbytes for index in ks.TABLE)


def test_a_solve_moves_to_huge_pages_only_once_it_has_run_long():
    """1×11 (several slices) with the move due at once ends on huge pages; with the
    default delay, which it does not reach, it does not; the value is the same."""
    for after, moved in ((0.0, True), (Solver.huge_pages_after, False)):
        solver = Solver(parse_graph("path:11"), core="compiled", search="dfpn")
        solver.huge_pages_after = after
        assert solver.solve().value == 2
        assert solver.on_huge_pages is moved


def _overwrite(arrays: list) -> None:
    """Set every bit of every array (the forked process's work)."""
    for array in arrays:
        array.view(np.uint8).reshape(-1)[:] = 0xFF


def seen_after_a_fork(arrays: list) -> bool:
    """Whether a process forked from this one, overwriting every array of ``arrays``, changes
    any of them here: the split's workers are forked so (``impl/solving/split.py``)."""
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


def shared_solver() -> Solver:
    """A solver of 1×6 whose table was shared (as at a split's first fork) after its solve,
    its history emptied."""
    solver = Solver(parse_graph("path:6"), core="compiled", search="dfpn")
    assert solver.solve().value == 1
    solver.compiled_state = ks.share(solver.compiled_state)
    empty = np.zeros(0, np.uint64)
    ks._load_history(solver.compiled_state, empty, empty, np.zeros(0, np.int64))
    return solver


def an_answer_without_history(A) -> tuple:
    """A decided answer (slot, sub) that depends on no history key (|D| = 0, so its
    queries hold under the empty history) and lists some word of Q."""
    ti, tq = A[19], A[20]
    for slot, sub in zip(*np.nonzero(ti[:, :2, 0]), strict=True):
        if tq[slot, sub, ks.D_SIZE] == 0 and tq[slot, sub, ks.Q_WORDS_USED]:
            return int(slot), int(sub)
    raise AssertionError("no such answer")


def reused(A, slot: int, sub: int) -> bool:
    """Whether the kernel reuses the answer in (slot, sub) for its own state, as read now."""
    tk, ti = A[18], A[19]
    t, depth, move = ti[slot, sub, 1], ti[slot, sub, 2], ti[slot, sub, 3]
    return bool(ks._held(A, tk[slot, 0], tk[slot, 1], tk[slot, 2], slot, sub, t, depth, move, 1))


def test_a_shared_table_reuses_only_rows_its_check_word_confirms():
    """In a shared table an intact answer is reused; the same answer with one word of its Q
    changed (as when it is read while another process writes the row) is not, though the
    quick test passes (no history key lies in Q); and one read with another threshold is
    not either.  Without the check (``C_SHARED`` off, the mutant) the torn row is reused,
    and its wrong Q would have been recorded for the answers above it."""
    A = shared_solver().compiled_state
    slot, sub = an_answer_without_history(A)
    assert reused(A, slot, sub)
    word = int(ks._low(A[20][slot, sub, ks.Q_WORDS_USED]))
    A[20][slot, sub, word] ^= np.uint64(1 << 40)
    assert ks._reusable(A[8], A[9], A[2], A[20], slot, sub, A[29])
    assert not reused(A, slot, sub)
    A[2][ks.C_SHARED] = 0
    assert reused(A, slot, sub)
    A[2][ks.C_SHARED] = 1
    A[20][slot, sub, word] ^= np.uint64(1 << 40)
    assert reused(A, slot, sub)
    A[19][slot, sub, 1] += 1
    assert not reused(A, slot, sub)


def test_a_shared_table_is_one_memory_and_the_rest_stays_private():
    """After ``share`` a forked process's writes into the table of answers reach the
    solving process, while its writes into the other arrays (bounds' cache, numbering of
    keys, history, df-pn's numbers) do not; the numbering of keys is frozen (a new key gets
    the bit of its own hash, the same in every process)."""
    solver = shared_solver()
    A = solver.compiled_state
    table = [A[index] for index in ks.TABLE]
    private = [a for i, a in enumerate(A) if i not in ks.TABLE and isinstance(a, np.ndarray)]
    private += [a for a in solver.dfpn_state if isinstance(a, np.ndarray)]
    assert seen_after_a_fork(table)
    assert not seen_after_a_fork(private)
    key = np.uint64(0x9E3779B97F4A7C15)
    assert ks._qbit(A[26], A[27], A[10], key) == int(key) >> ks.QSHIFT
