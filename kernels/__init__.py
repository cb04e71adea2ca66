"""cardlab's numba kernels.

Arrays and scalars in, arrays out. Kernels never read files, mutable globals or Python objects; the
analysis package compiles rules and strategies into small numpy arrays and passes them in.

The on-disk numba cache is keyed by the kernels' source: numba checks only the timestamp of the file that
defines a cached function, not of the modules it calls, so after an edit to (say) ``bits.py`` a cached
caller would keep running the old code. Compiled code therefore lives in ``.numba_cache/<digest of every
``*.py`` under kernels/, packages included>`` at the repository root (below ``$NUMBA_CACHE_DIR`` when that is set); an edit to any kernel
compiles everything afresh, and an unchanged tree reuses its cache. ``CARDLAB_NO_PDEP`` (see
:data:`kernels.bits.FAST_PDEP`) and a ``NUMBA_OPT`` other than numba's default 3 are in the digest too, as they
change what is compiled.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba


def _cache_dir() -> Path:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for src in sorted(here.rglob("*.py")):  # the whole tree: a package's modules call each other
        digest.update(src.relative_to(here).as_posix().encode())
        digest.update(src.read_bytes())
    digest.update(os.environ.get("CARDLAB_NO_PDEP", "").encode())  # a compile-time choice (bits.FAST_PDEP)
    if int(numba.config.OPT) != 3:  # LLVM's optimisation level (NUMBA_OPT; make test lowers it): kept apart from 3's
        digest.update(f"opt={int(numba.config.OPT)}".encode())
    root = Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR") else here.parent / ".numba_cache"
    return root / digest.hexdigest()[:16]


numba.config.CACHE_DIR = str(_cache_dir())
