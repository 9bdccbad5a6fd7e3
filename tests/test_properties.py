"""Property-based tests: random and mutated input to the protocol parser, the framing, the
record reader and verify. Whatever the input, only the documented errors come out."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardcli.errors import CardcliError, RecordError, VerificationError
from cardcli.protocol import FramingError, LineBuffer, move_of, parse_bot_line
from cardcli.records.io import read
from cardcli.replay import verify
from harness import play
from mutation import mutate

KINDS = {"id", "option", "ready", "move", "info", "empty", "unknown"}


@given(st.text())
def test_any_text_parses_to_a_known_kind(line: str) -> None:
    parsed = parse_bot_line(line)
    assert parsed.kind in KINDS
    if parsed.kind == "move":
        assert parsed.text == parsed.text.strip()


@given(st.one_of(st.text(), st.text().map(lambda t: "move " + t)))
def test_the_quick_reading_of_an_answer_agrees_with_the_full_parse(line: str) -> None:
    parsed = parse_bot_line(line)
    assert move_of(line) == (parsed.text if parsed.kind == "move" else None)


@given(st.lists(st.binary(max_size=3000), max_size=20), st.integers(min_value=2, max_value=4096))
def test_framing_yields_lines_or_a_framing_error_and_stays_bounded(chunks: list[bytes], limit: int) -> None:
    buffer = LineBuffer(limit)
    try:
        for chunk in chunks:
            buffer.feed(chunk)
            while (line := buffer.pop()) is not None:
                assert "\n" not in line and len(line.encode()) < limit
    except FramingError as err:
        assert err.kind == "malformed"
    assert len(buffer.partial) < limit


def _honest_records() -> list[dict[str, Any]]:
    return [play(game, variant, seed=seed, num_players=n).result.record
            for game, variant, n, seed in (("peppa", "torino", 4, 1), ("pigugnin", "standard", 5, 2),
                                           ("seep", "standard", 2, 3), ("pepper", "standard", 3, 4))]


HONEST = _honest_records()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=3), st.randoms(use_true_random=False))
def test_verify_of_a_mutated_record_only_fails_with_a_verification_error(which: int, rng: random.Random) -> None:
    record = HONEST[which]
    mutated = mutate(record, rng)
    for _ in range(rng.randrange(3)):
        mutated = mutate(mutated, rng)
    try:
        verify(mutated)
    except VerificationError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000), st.booleans())
def test_the_record_reader_only_fails_with_a_record_error(data: bytes, with_honest_first: bool) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.jsonl"
        prefix = (json.dumps(HONEST[0]) + "\n").encode() if with_honest_first else b""
        path.write_bytes(prefix + data)
        try:
            for loaded in read(path):
                assert isinstance(loaded.record, dict)
        except RecordError:
            pass


def test_the_documented_errors_share_the_root() -> None:
    assert issubclass(RecordError, CardcliError) and issubclass(VerificationError, CardcliError)
