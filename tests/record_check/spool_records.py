"""Copies of the record lines cardcli writes, for the test suite to check against the published
schema (``record_schema_check.py`` says how and why). Loaded by ``sitecustomize.py`` into every
Python process the suite starts on this tree, bots included, so it imports nothing at load time
that Python has not loaded already."""

import os
import sys

SPOOL_ENV = "CARDCLI_TEST_RECORD_SPOOL"
"""The directory where every record line written is copied; without it nothing is copied."""

_count = [0]


def spooling_dump(dump):
    """``cardcli.records.io.dump``, leaving a copy of every line it makes in the spool."""
    if getattr(dump, "spools_records", False):
        return dump

    def wrapper(record):
        line = dump(record)
        spool(line)
        return line

    wrapper.__name__, wrapper.__doc__, wrapper.__wrapped__ = dump.__name__, dump.__doc__, dump
    wrapper.spools_records = True
    return wrapper


def spool(line):
    """Copy one record line, with the process that wrote it, into the spool: whole or not at all
    (written aside, then renamed), so a process killed meanwhile leaves no half copy."""
    directory = os.environ.get(SPOOL_ENV)
    if not directory:
        return
    import json

    _count[0] += 1
    name = os.path.join(directory, f"{os.getpid()}-{_count[0]}")
    head = json.dumps({"pid": os.getpid(), "argv": sys.argv})
    with open(name + ".part", "w", encoding="utf-8") as f:
        f.write(f"{head}\n{line}\n")
    os.replace(name + ".part", name + ".record")


def install_on_import():
    """Wrap ``cardcli.records.io.dump`` the moment the module has been executed: before any module
    that imports the name (``cardcli.tournament.worker``) can hold the unwrapped function."""
    sys.meta_path.insert(0, _RecordsFinder())


class _RecordsFinder:
    """Finds nothing itself: asks the other finders for ``cardcli.records.io`` and wraps the
    loader they give, so ``dump`` is wrapped before the import returns."""

    def find_spec(self, name, path, target=None):
        if name != "cardcli.records.io":
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if finder is not self and find is not None else None
            if spec is not None:
                break
        else:
            return None
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            module.dump = spooling_dump(module.dump)

        spec.loader.exec_module = exec_module
        return spec
