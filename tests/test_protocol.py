"""Protocol v1 lines and framing, as the spec in protocol/PROTOCOL.md defines them."""

from __future__ import annotations

import subprocess

import pytest

from cardcli import protocol
from cardcli.protocol import FramingError, LineBuffer, parse_bot_line
from conftest import ROOT


def lines_of(buffer: LineBuffer) -> list[str]:
    result = []
    while (line := buffer.pop()) is not None:
        result.append(line)
    return result


def test_framing_splits_on_newline_and_drops_a_carriage_return() -> None:
    buffer = LineBuffer()
    buffer.feed(b"id name A\r\nre")
    buffer.feed(b"ady\nmove QS")
    assert lines_of(buffer) == ["id name A", "ready"]
    assert buffer.partial == b"move QS"
    buffer.feed(b"\n")
    assert lines_of(buffer) == ["move QS"]


def test_a_line_over_the_limit_is_refused_without_waiting_for_its_end() -> None:
    buffer = LineBuffer(limit=16)
    with pytest.raises(FramingError, match="longer than 16 bytes"):
        buffer.feed(b"x" * 40)
    ok = LineBuffer(limit=16)
    ok.feed(b"y" * 15 + b"\n")
    assert lines_of(ok) == ["y" * 15]


def test_invalid_utf8_is_a_framing_error() -> None:
    buffer = LineBuffer()
    buffer.feed(b"move \xff\n")
    with pytest.raises(FramingError, match="invalid UTF-8"):
        buffer.pop()


@pytest.mark.parametrize(
    "line, kind, word, text",
    [
        ("move QS", "move", "", "QS"),
        ("  move   2C+3C+4C  ", "move", "", "2C+3C+4C"),
        ("move", "move", "", ""),
        ("id name My Bot 2", "id", "name", "My Bot 2"),
        ("option depth 3", "option", "depth", "3"),
        ("ready", "ready", "", ""),
        ("info searching 1000 nodes", "info", "", "searching 1000 nodes"),
        ("", "empty", "", ""),
        ("bestmove e2e4", "unknown", "bestmove", "e2e4"),
    ],
)
def test_bot_lines_parse_by_their_first_word(line: str, kind: str, word: str, text: str) -> None:
    parsed = parse_bot_line(line)
    assert (parsed.kind, parsed.word, parsed.text) == (kind, word, text)


def test_referee_lines() -> None:
    assert protocol.hello() == "cardcli 1"
    assert protocol.go("play", 500, ["2H", "QS"]) == "go play 500 2H QS"
    assert protocol.result(["win", "lose"]) == "result win lose"
    header = protocol.match_header("peppa", "torino", 4, 2, [("end_threshold", "100")], ["a", "b\tc", "", "d"], "cw")
    assert header == [
        "game peppa torino 4 2",
        "option end_threshold 100",
        "player 0 a",
        "player 1 b c",
        "player 2 -",
        "player 3 d",
        "order cw",
        "begin",
    ]


def test_the_example_transcript_in_the_spec_is_what_the_tool_produces() -> None:
    produced = subprocess.run(["bash", str(ROOT / "protocol/make_example.sh")], capture_output=True, text=True,
                              check=True, timeout=120).stdout
    committed = (ROOT / "protocol/example-peppa-seat0.txt").read_text()
    assert produced == committed
    assert committed.startswith("<< cardcli 1\n")
    assert "<< go pass" in committed and "<< result" in committed and committed.endswith("<< quit\n")


def test_the_excerpt_in_the_spec_is_taken_from_the_example_transcript() -> None:
    """Section 10 of PROTOCOL.md quotes the example file: every line it shows is the example's,
    in the example's order (long requests cut as transcripts cut them), so the excerpt cannot
    drift from what the tool sends."""
    from cardcli.transcript import shorten_request

    spec = (ROOT / "protocol/PROTOCOL.md").read_text()
    section = spec[spec.index("## 10. A complete example"):]
    excerpt = section[section.index("```\n") + 4:]
    excerpt = excerpt[:excerpt.index("```")]
    shown = [line for line in excerpt.splitlines() if not line.startswith("   ...")]
    example = (ROOT / "protocol/example-peppa-seat0.txt").read_text().splitlines()
    lines = iter(example)
    for line in shown:
        assert any(line in (full, full[:3] + shorten_request(full[3:], 3)) for full in lines), line
