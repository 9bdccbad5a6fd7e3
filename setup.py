"""The build's one addition to pyproject.toml: with ``CARDCLI_COMPILE=1`` in the environment,
the search's whole-playout loops (every game folder's ``playout.py``) are compiled to C
extension modules by mypyc, from the same typed Python source: the loops run about twice as
fast, and a search on a time budget searches 1.2 to 2 times as many iterations
(docs/performance.md, "Compiled playouts").

Off by default: a plain ``pip install .`` stays a few seconds and needs no C compiler, and a
checkout installed for editing holds no compiled copy that an edit of the source would leave
stale (a compiled module comes before its source on import).
Asked for and impossible (no mypy, no compiler, no Python headers), the build fails loudly
rather than quietly installing the slower loops.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
MYPY = "mypy>=1.10"


def compiled_modules() -> list[str]:
    """Each game's loop, found by its place, so that a new game's loop compiles too (and is
    held to its engine compiled by tests/test_compiled.py)."""
    return sorted(str(path.relative_to(HERE)) for path in HERE.glob("cardcli/plugins/*/playout.py"))


def compile_asked() -> bool:
    value = os.environ.get("CARDCLI_COMPILE", "0")
    if value not in ("0", "1"):
        sys.exit(f"CARDCLI_COMPILE must be 0 or 1, not {value!r}")
    return value == "1"


if not compile_asked():
    setup()
else:
    try:
        from mypyc.build import mypycify
    except ImportError:
        if "egg_info" not in sys.argv:
            sys.exit(f"CARDCLI_COMPILE=1 needs mypyc: pip install '{MYPY}' (or build with build isolation)")
        # pip's first pass asks what the build needs, before it has installed it
        setup(setup_requires=[MYPY])
    else:
        # only the loops are checked here, so the configuration's other sections go unused
        modules = mypycify(["--no-warn-unused-configs", *compiled_modules()], opt_level="3", group_name="cardcli")
        setup(setup_requires=[MYPY], ext_modules=modules)
