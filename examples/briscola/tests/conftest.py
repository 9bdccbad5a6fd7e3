"""Make cardcli's registry find Briscola while the package runs from this folder uninstalled.

The heuristic and the search player find a game's parts by its name (``game briscola ...``
in the match header) through cardcli's registry, which finds a game of another package only
through the ``cardcli.games`` entry points of the installed distributions. When this package
is not installed, a stand-in distribution (a ``.dist-info`` folder with the same entry point)
is put on ``sys.path`` for the session, before the registry first looks: the same discovery
an installed package goes through, with nothing installed. When the package is installed,
nothing is done.
"""

from __future__ import annotations

import importlib
import shutil
import sys
import tempfile
from importlib.metadata import entry_points
from pathlib import Path

STAND_IN = "cardcli-briscola-tests-stand-in"
"""The stand-in distribution's name, so that a test can tell it from the installed one."""


def _stand_in() -> Path | None:
    if any(point.name == "briscola" for point in entry_points(group="cardcli.games")):
        return None
    folder = Path(tempfile.mkdtemp(prefix="briscola-entry-point-"))
    info = folder / f"{STAND_IN.replace('-', '_')}-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {STAND_IN}\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[cardcli.games]\nbriscola = cardcli_briscola:SPEC\n")
    sys.path.insert(0, str(folder))
    importlib.invalidate_caches()
    return folder


_FOLDER = _stand_in()


def pytest_unconfigure() -> None:
    if _FOLDER is not None:
        shutil.rmtree(_FOLDER, ignore_errors=True)
