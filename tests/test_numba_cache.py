"""The compiled kernels' disk cache is stamped with every kernel module's source, so a
change to one module recompiles the kernels of the others that compiled in its functions
and constants (numba alone stamps a function with its own file only)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gorules.impl.kernels.cache import KernelSourcesLocator, kernel_fingerprint

RUN = """
import sys
from pathlib import Path
import gorules.impl.kernels.cache as kernels
kernels.KERNELS = Path(sys.argv[1]).resolve()
if sys.argv[2] == "numba-alone":
    kernels.CACHE_IMPL._locator_classes.remove(kernels.KernelSourcesLocator)
sys.path.insert(0, sys.argv[1])
import _numba_user
print(_numba_user.constant_seen())
"""


def kernel_modules(folder: Path, constant: int) -> None:
    """Two kernel modules: one defines a constant, the other compiles it into a cached kernel."""
    (folder / "_numba_constants.py").write_text(f"CONSTANT = {constant}\n")
    (folder / "_numba_user.py").write_text(
        textwrap.dedent(
            """
            from numba import njit
            from _numba_constants import CONSTANT

            @njit(cache=True)
            def constant_seen():
                return CONSTANT
            """
        )
    )


def constants_seen(folder: Path, locators: str) -> list[int]:
    """What the cached kernel returns before and after the constant's module changes."""
    seen = []
    for constant in (1, 2):
        kernel_modules(folder, constant)
        run = subprocess.run(
            [sys.executable, "-c", RUN, str(folder), locators], capture_output=True, text=True, check=True
        )
        seen.append(int(run.stdout.split()[-1]))
    return seen


@pytest.mark.slow
def test_a_changed_module_recompiles_the_kernels_that_use_it(tmp_path):
    """With the kernels' locator the second run sees the new constant; with numba's
    locators alone it loads the stale kernel (the mutant the check must refute)."""
    stamped, alone = tmp_path / "stamped", tmp_path / "alone"
    stamped.mkdir()
    alone.mkdir()
    assert constants_seen(stamped, "kernels") == [1, 2]
    assert constants_seen(alone, "numba-alone") == [1, 1]


def test_every_kernel_module_is_stamped_with_all_of_them():
    """The df-pn kernels (which compile in the solver kernels' functions) and the Ultimate
    df-pn kernels carry the fingerprint of every kernel module."""
    from gorules.impl.kernels import dfpn as _numba_dfpn
    from gorules.impl.kernels import ultimate_dfpn as _numba_ultimate_dfpn

    for kernel in (_numba_dfpn.begin, _numba_ultimate_dfpn.resume):
        locator = kernel._cache._impl.locator
        assert isinstance(locator, KernelSourcesLocator)
        assert locator.get_source_stamp()[1] == kernel_fingerprint()
