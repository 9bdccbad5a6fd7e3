"""Run by every Python process started with this directory on its ``PYTHONPATH`` (the test
suite puts it there for the processes it starts on this tree): when ``CARDCLI_TEST_RECORD_SPOOL``
names a directory, every record the process writes is copied there, and the suite checks it
against the published schema (``spool_records.py``, ``record_schema_check.py``). A
``sitecustomize`` this one hides on the path is run after it."""

import os
import sys


def _run_the_hidden_one() -> None:
    from importlib.machinery import PathFinder
    from importlib.util import module_from_spec

    here = os.path.dirname(os.path.abspath(__file__))
    rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = module_from_spec(spec)
        spec.loader.exec_module(module)


if os.environ.get("CARDCLI_TEST_RECORD_SPOOL"):
    import spool_records

    spool_records.install_on_import()
_run_the_hidden_one()
