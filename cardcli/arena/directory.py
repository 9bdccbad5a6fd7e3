"""An arena's directory: ``arena.json`` says where its database is (``DIR/arena.db`` by
default); the rest of the arena lives in the database, so that several ``serve`` processes on
one PostgreSQL database share one season. The file holds the URL, and with it any password
the organiser put there: it is written readable by its owner only."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import UsageError
from ..small_files import read_small

POINTER = "arena.json"
DATABASE = "arena.db"
FORMAT = "cardcli-arena-directory"


def default_url(directory: Path) -> str:
    return f"sqlite:///{(directory / DATABASE).resolve()}"


def write(directory: Path, url: str) -> None:
    """Make ``directory`` an arena's, pointing at ``url``; an arena's directory is refused."""
    if (directory / POINTER).exists():
        raise UsageError(f"{directory} holds an arena already")
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / POINTER
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(json.dumps({"format": FORMAT, "db": url}, indent=2) + "\n")


def url_of(directory: Path) -> str:
    """The database URL of the arena in ``directory``."""
    path = directory / POINTER
    if not path.exists():
        raise UsageError(f"{directory} holds no arena ({POINTER} is missing; cardcli arena init makes one)")
    try:
        data = json.loads(read_small(path, 1 << 16, "an arena's directory file"))
        if data.get("format") != FORMAT or not isinstance(data.get("db"), str):
            raise ValueError("not an arena's directory file")
    except (ValueError, AttributeError) as err:
        raise UsageError(f"{path}: {err}") from None
    return str(data["db"])


def own_paths(directory: Path, url: str) -> tuple[str, ...]:
    """The paths of an arena that no bot may see: its directory (the database URL, SQLite's
    file by default, the finals' tables) and an SQLite database kept elsewhere."""
    paths = [str(directory.resolve())]
    if url.startswith("sqlite:///"):
        paths.append(str(Path(url[len("sqlite:///"):]).resolve().parent))
    return tuple(dict.fromkeys(paths))
