"""Every record cardcli writes while the test suite runs is checked against
``docs/record.schema.json`` (up to 100 per test: see :meth:`Checker.refused`).

A record reaches a file through one function, :func:`cardcli.records.io.dump`: ``play --record``
appends what it returns (``records.append``), and a tournament's worker makes each line with it
(``Finished.of``, through the name ``cardcli.tournament.worker`` imported) before the parent appends the line
(``records.append_line``). So wrapping ``dump`` where it is defined, before any module holds it
under a name of its own, catches every record line cardcli writes, signature and tournament tag
included. The wrapper leaves a copy of the line in the directory ``CARDCLI_TEST_RECORD_SPOOL``
names, and the suite's own process checks the copies after each test (:class:`Checker`): the
schema is read and its validator built once for the whole run, and the cardcli processes do not
import ``jsonschema`` at all (50 ms of CPU time each).

- In the suite's own process, :func:`install_here` wraps ``dump``.
- In the Python processes the suite starts on this tree, ``sitecustomize.py`` (beside this file,
  on their ``PYTHONPATH``) calls ``spool_records.install_on_import``, which wraps ``dump`` as soon
  as ``cardcli.records.io`` has been executed: before ``cardcli.tournament.worker`` can bind its
  name. A process that never imports cardcli (a bot) loads one small module and no more.

Records the referee makes and nobody writes (``play --json``, the conformance suite's thousands
of in-process matches) are not checked: that would nearly double the conformance suite's time,
and ``tests/test_record_schema.py`` checks in-process records of every game, variant and player
count itself.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from . import spool_records

HERE = Path(__file__).resolve().parent
SPOOL_ENV = spool_records.SPOOL_ENV


def install_here() -> Callable[[], None]:
    """Spool the records written in this process: ``dump`` wherever a loaded module holds it.
    Returns what undoes it."""
    import cardcli.records.io
    import cardcli.tournament.worker

    original = cardcli.records.io.dump
    wrapped = spool_records.spooling_dump(original)
    holders = [m for m in list(sys.modules.values()) if getattr(m, "dump", None) is original]
    for module in holders:
        module.dump = wrapped  # type: ignore[attr-defined]

    def uninstall() -> None:
        for module in holders:
            module.dump = original  # type: ignore[attr-defined]

    return uninstall


def pythonpath(root: str) -> str:
    """``PYTHONPATH`` for a process that runs cardcli from ``root`` with its records spooled."""
    return os.pathsep.join((str(HERE), root))


def cover_subprocesses(root: str) -> Callable[[], None]:
    """Give every process this one starts with ``PYTHONPATH`` set to ``root`` (``run_cli``, and
    the tests that start ``python -m cardcli`` themselves the same way) this directory on its
    path as well, so its records are spooled. Returns what undoes it."""
    init = subprocess.Popen.__init__

    @functools.wraps(init)
    def covered(self: Any, *args: Any, **kwargs: Any) -> None:
        env = kwargs.get("env")
        if env is not None and env.get("PYTHONPATH") == root:
            kwargs["env"] = {**env, "PYTHONPATH": pythonpath(root)}
        init(self, *args, **kwargs)

    subprocess.Popen.__init__ = covered  # type: ignore[method-assign]
    return functools.partial(setattr, subprocess.Popen, "__init__", init)


CHECKED_PER_TEST = 100
"""Records checked against the schema per test, at most."""


class Checker:
    """The schema's validator, built once, and the check of the records in a spool."""

    def __init__(self, schema: Path, spool: Path | None = None):
        import jsonschema

        self.schema = schema
        self.spool = spool
        published = json.loads(schema.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(published)
        self.validator = jsonschema.Draft202012Validator(_without_annotations(published))

    def refusal(self, record: Any) -> str | None:
        """Where and why ``record`` does not match the schema, or None."""
        if self.validator.is_valid(record):
            return None
        from jsonschema.exceptions import best_match

        error = best_match(self.validator.iter_errors(record))
        shown = json.dumps(error.instance, ensure_ascii=False)
        shown = shown if len(shown) <= 200 else shown[:200] + "..."
        return f"at {error.json_path}: {error.message} (value: {shown})"

    def refused(self) -> list[str]:
        """What is wrong with each record in the spool that does not match the schema; the
        spool is emptied. Beyond :data:`CHECKED_PER_TEST` records, the first and the last half
        of that many are checked: one test's records come from one code path, and a long
        tournament's hundreds would otherwise cost half a minute of schema checks."""
        assert self.spool is not None, "a checker of records, not of a spool"
        found = []
        paths = sorted(self.spool.glob("*.record"))
        if len(paths) > CHECKED_PER_TEST:
            half = CHECKED_PER_TEST // 2
            for skipped in paths[half:-half]:
                skipped.unlink()
            paths = paths[:half] + paths[-half:]
        for path in paths:
            head, line = path.read_text(encoding="utf-8").split("\n", 1)
            path.unlink()
            try:
                record = json.loads(line, parse_constant=_not_json)
            except ValueError as err:
                problem: str | None = f"not JSON: {err}"
                record = None
            else:
                problem = self.refusal(record)
            if problem is not None:
                writer = json.loads(head)
                what = f"{record.get('game')!s:.40}, seed {record.get('seed')!s:.40}" if isinstance(record, dict) else "?"
                found.append(f"a record ({what}) written by process {writer['pid']} "
                             f"({' '.join(writer['argv'])[:300]}) does not match {self.schema.name}: {problem}")
        return found


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_ANNOTATIONS = frozenset({"title", "description", "examples", "$comment"})
"""Keywords that say what a field means and never decide whether a value matches: dropped from
the validator's copy of the schema, where each is one more keyword to step over at every value
(a quarter of the time of a record's check)."""


def _without_annotations(schema: Any, names: bool = False) -> Any:
    """A copy of ``schema`` without its annotation keywords; ``names``: ``schema`` maps names to
    schemas (``properties``, ``$defs``), so its own keys all stay. Values (``const``, ``enum``)
    are kept whole."""
    if isinstance(schema, list):
        return [_without_annotations(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    return {k: v if k in ("const", "enum", "default") and not names else
            _without_annotations(v, not names and k in ("properties", "$defs", "patternProperties", "dependentSchemas"))
            for k, v in schema.items() if names or k not in _ANNOTATIONS}
