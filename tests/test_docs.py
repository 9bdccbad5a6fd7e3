"""The Python examples of the documentation run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["docs/engines.md"]


def examples(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(), flags=re.S)


@pytest.mark.parametrize("page", PAGES)
def test_the_python_examples_run(page: str, capsys: pytest.CaptureFixture[str]) -> None:
    found = examples(page)
    assert found, f"{page} has no Python example"
    for code in found:
        exec(compile(code, page, "exec"), {})
        assert capsys.readouterr().out.strip(), "each example prints its result"
