"""The compiled kernels' disk cache, kept fresh across modules.

numba caches a compiled function on disk under a stamp of the source file that defines it
(its content hash), and loads it again while that file is unchanged.  A kernel also compiles
in what it takes from the other kernel modules (functions inlined, constants folded): when
``kernels/solve.py`` changes a constant, the df-pn kernels of ``kernels/dfpn.py``, whose own
file has not changed, would be loaded from the cache with the old value
(``tests/test_numba_cache.py`` shows numba's locators alone doing so).  Here every kernel
module's functions are stamped with the hash of *all* the kernel modules' sources
(``kernel_fingerprint``), so a change to any of them recompiles every kernel once.

The kernel modules take ``njit`` from here, which installs the locator before the first
decorator runs; numba's own locators still choose the folder (``__pycache__`` beside the
module, or the user-wide cache when that is not writable, or ``NUMBA_CACHE_DIR``)."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from numba import njit
from numba.core import caching

KERNELS = Path(__file__).resolve().parent
"""The folder of the kernel modules (every module of ``gorules.impl.kernels`` but this one)."""

CACHE_IMPL = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")  # noqa: B009
"""numba's class that chooses a cached function's locator (renamed in numba 0.6x)."""


def kernel_sources() -> list[Path]:
    """The kernel modules' source files, in the order of their names."""
    return sorted(path for path in KERNELS.glob("*.py") if path.name not in ("__init__.py", "cache.py"))


@functools.cache
def kernel_fingerprint() -> str:
    """The hash of every kernel module's source, in the order of their names."""
    digest = hashlib.sha256()
    for path in kernel_sources():
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class KernelSourcesLocator(caching._CacheLocator):
    """numba's locator for a kernel module's function, with the stamp of all kernel modules
    added to the stamp of its own file; functions defined elsewhere are left to numba."""

    def __init__(self, inner):
        """Wrap the locator numba would have chosen."""
        self.inner = inner
        self._py_file = inner._py_file
        self._lineno = getattr(inner, "_lineno", 0)

    def ensure_cache_path(self):
        """As numba's locator."""
        self.inner.ensure_cache_path()

    def get_cache_path(self):
        """As numba's locator."""
        return self.inner.get_cache_path()

    def get_source_stamp(self):
        """The function's own file's stamp and the kernels' fingerprint."""
        return (self.inner.get_source_stamp(), kernel_fingerprint())

    def get_disambiguator(self):
        """As numba's locator."""
        return self.inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func, py_file):
        """The wrapped locator of a function defined in a kernel module, else None."""
        if Path(py_file).resolve() not in kernel_sources():
            return None
        for other in CACHE_IMPL._locator_classes:
            if other is cls:
                continue
            inner = other.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner)
        return None


def install() -> None:
    """Put the locator first among numba's, once."""
    if KernelSourcesLocator not in CACHE_IMPL._locator_classes:
        CACHE_IMPL._locator_classes.insert(0, KernelSourcesLocator)


install()

__all__ = ["KernelSourcesLocator", "kernel_fingerprint", "njit"]
