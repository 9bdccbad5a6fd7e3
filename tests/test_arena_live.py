"""The live games' hub (cardcli.arena.live) in this process: every spectator of a match gets its
events in order, the list's spectators see matches start, deal and end, a late joiner gets the
current deal, what is kept is bounded, a spectator that does not read is dropped without
holding anyone up, the organiser's delay holds events back, and the leak rule: over real
matches of every game, variant and player count, no event a spectator is given before its
deal is over names a card that only a seat could know at that moment (as tests/test_no_leak.py
checks what each seat is told), while the same check finds the leak in the unfiltered events.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Sequence

import pytest

from cardcli.arena.live import LeakRule, LiveHub, Subscriber, messages_of
from cardcli.arena.workers import LISTED, QUIET, WATCHED, Wire
from cardcli.games import registry
from cardcli.games.base import Event
from cardcli.referee import Settings, play_match
from cardcli.seats.builtin import fallback_player
from harness import cards_named, every_game_variant_and_count

INFO = {"id": "1-0", "seats": ["a", "b"], "game": "peppa", "rotations": 1}
DEAL = [("deal 1 0", None), ("hand 2C 3C", (0,)), ("hand 4C 5C", (1,)), ("trick 1 0", None)]


def messages(sub: Subscriber | None, hub: LiveHub) -> list[dict[str, Any]]:
    assert sub is not None
    chunk, _ = hub.take(sub)
    return [json.loads(item) for item in messages_of(chunk)]


def lines(found: Sequence[dict[str, Any]]) -> list[str]:
    return [m["line"] for m in found if m["type"] == "event"]


def test_every_spectator_gets_the_public_events_in_order_and_the_end() -> None:
    hub = LiveHub()
    assert not hub.watched()
    first, _ = hub.subscribe("1-0")
    second, _ = hub.subscribe("1-0")
    listing, snapshot = hub.subscribe(None)
    assert json.loads(snapshot[0]) == {"type": "matches", "matches": []}
    assert hub.watched() and hub.subscribers == 3
    hub.publish("1-0", INFO, DEAL)
    hub.publish("1-0", INFO, [("play 0 2C", None)])
    hub.ended("1-0")
    for sub in (first, second):
        got = messages(sub, hub)
        assert got[0] == {"type": "start", "match": INFO}
        assert lines(got) == ["deal 1 0", "trick 1 0", "play 0 2C", "hand 2C 3C", "hand 4C 5C"]
        assert [m["n"] for m in got if m["type"] == "event"] == [1, 2, 3, 4, 5]
        assert got[-1] == {"type": "end"}
        assert hub.take(sub)[1] is True  # the stream is finished
    listed = messages(listing, hub)
    assert [m["type"] for m in listed] == ["match", "match", "gone"]
    assert listed[1]["match"]["deal"] == "1" and listed[1]["match"]["seats"] == ["a", "b"]
    assert hub.matches() == []
    assert hub.subscribers == 1  # the list's spectator stays; the match's are done


def test_a_match_s_worker_tells_everything_only_while_the_match_is_watched() -> None:
    hub = LiveHub()
    assert hub.level("1-0") == QUIET
    listing, _ = hub.subscribe(None)
    assert hub.level("1-0") == LISTED
    watching, _ = hub.subscribe("1-0")
    assert hub.level("1-0") == WATCHED and hub.level("2-0") == LISTED
    hub.summary("2-0", {**INFO, "id": "2-0"}, ["deal 3 1", "totals 5 7"])
    listed = messages(listing, hub)
    assert listed[-1]["match"]["deal"] == "3" and listed[-1]["match"]["totals"] == "5 7"
    assert watching is not None and hub.take(watching) == ("", False)  # another match
    assert listing is not None
    hub.unsubscribe(watching)
    hub.unsubscribe(listing)
    assert hub.level("1-0") == QUIET and not hub.watched()


def test_a_late_joiner_gets_the_current_deal_and_the_totals_and_a_finished_match_its_tail() -> None:
    hub = LiveHub(tail=6)
    watcher, _ = hub.subscribe(None)  # someone watches, so the match is forwarded
    hub.publish("2-0", INFO, DEAL + [("play 0 2C", None), ("score 1 1 0", None), ("totals 1 0", None)])
    hub.publish("2-0", INFO, [("deal 2 1", None), ("hand 6C", (0,)), ("play 1 7C", None)])
    late, snapshot = hub.subscribe("2-0")
    got = [json.loads(m) for m in snapshot]
    assert got[0]["type"] == "start"
    assert lines(got) == ["totals 1 0", "deal 2 1", "play 1 7C"]  # deal 2's hand is still hidden
    hub.publish("2-0", INFO, [("play 0 6C", None)] * 10)
    hub.ended("2-0")
    assert lines(messages(late, hub))[-1] == "hand 6C"
    after, tail = hub.subscribe("2-0")
    assert after is None  # nothing more will come
    kept = [json.loads(m) for m in tail]
    assert len(kept) == 6 and kept[0]["type"] == "start" and kept[-1] == {"type": "end"}
    assert watcher is not None


def test_finished_matches_kept_are_bounded_and_a_live_match_s_log_too() -> None:
    hub = LiveHub(tail_matches=3, log_limit=50)
    hub.subscribe(None)
    for unit in range(10):
        key = f"{unit}-0"
        hub.publish(key, {**INFO, "id": key}, DEAL + [("play 0 2C", None)] * 200)
        if unit < 9:
            hub.ended(key)
    assert [m["id"] for m in hub.matches()] == ["9-0"]
    assert len(hub._over) == 3 and list(hub._over) == ["6-0", "7-0", "8-0"]
    assert len(hub._live["9-0"].log) <= 50
    _, snapshot = hub.subscribe("9-0")
    assert json.loads(snapshot[0])["type"] == "start" and len(snapshot) <= 50
    assert hub.subscribe("0-0") == (hub._subs["0-0"][0], [])  # forgotten: a new spectator waits for it


def test_a_spectator_that_does_not_read_is_dropped_and_the_others_get_everything() -> None:
    hub = LiveHub(queue_size=20)
    slow, _ = hub.subscribe("3-0")
    fast, _ = hub.subscribe("3-0")
    got: list[dict[str, Any]] = []
    for k in range(100):
        hub.publish("3-0", INFO, [(f"play 0 {k}", None)])
        got += messages(fast, hub)
    assert [m["line"] for m in got if m["type"] == "event"] == [f"play 0 {k}" for k in range(100)]
    assert slow is not None and slow.dropped
    chunk, finished = hub.take(slow)
    assert chunk == "" and finished  # its stream ends; the browser reconnects and starts again
    assert hub.subscribers == 1
    # a whole match of fast bots may come as one batch: that is one entry, not a thousand
    hub.publish("3-0", INFO, [(f"play 1 {k}", None) for k in range(1000)])
    assert len(lines(messages(fast, hub))) == 1000 and fast is not None and not fast.dropped
    # and a spectator's queue is bounded in characters too, whatever the batches
    hub = LiveHub(queue_chars=10_000)
    slow, _ = hub.subscribe("3-0")
    hub.publish("3-0", INFO, [(f"play 0 {k}", None) for k in range(100)])  # some 6,000 characters
    assert slow is not None and not slow.dropped
    hub.publish("3-0", INFO, [(f"play 0 {k}", None) for k in range(100)])
    assert slow.dropped and hub.take(slow) == ("", True)


def test_the_spectators_are_bounded() -> None:
    hub = LiveHub(max_subscribers=2)
    assert hub.subscribe("1-0")[0] is not None and hub.subscribe(None)[0] is not None
    refused, snapshot = hub.subscribe(None)
    assert refused is None and snapshot  # the list as it is, and nothing more


def test_the_delay_holds_every_event_back_and_the_rule_still_applies() -> None:
    now = [100.0]
    hub = LiveHub(delay=30.0, clock=lambda: now[0])
    sub, _ = hub.subscribe("4-0")
    assert sub is not None
    hub.publish("4-0", INFO, DEAL + [("play 0 2C", None)])
    assert hub.take(sub) == ("", False)
    with hub._lock:
        now[0] += 31
        hub._timer.notify()
    waited = threading.Event()
    for _ in range(2000):  # the delay's thread shows them: wait for it, up to 10 s
        with hub._lock:
            if any("play 0 2C" in batch for batch in sub.items):
                break
        waited.wait(0.005)
    got = messages(sub, hub)
    assert got[0]["type"] == "start"
    assert lines(got) == ["deal 1 0", "trick 1 0", "play 0 2C"]  # the hands are still the seats' own
    hub.close()


def test_the_rule_holds_what_a_seat_alone_was_told_until_its_deal_is_over() -> None:
    rule = LeakRule()
    shown = rule.feed(DEAL + [("play 0 2C", None), ("passed 1 3C", (0,)), ("score 2 0 0", None)])
    assert [s.line for s in shown] == ["deal 1 0", "trick 1 0", "play 0 2C", "score 2 0 0"]  # not deal 1's score
    shown = rule.feed([("score 1 0 0", None), ("totals 0 0", None)])
    assert [(s.line, s.to) for s in shown] == [("score 1 0 0", None), ("hand 2C 3C", (0,)), ("hand 4C 5C", (1,)),
                                                ("passed 1 3C", (0,)), ("totals 0 0", None)]
    assert rule.feed([("deal 2 1", None), ("hand 9C", (1,))])[0].line == "deal 2 1"
    assert [s.line for s in rule.feed([("deal 3 0", None)])] == ["hand 9C", "deal 3 0"]  # a deal made void


# -- the leak rule over real matches -------------------------------------------------------------------


def _played(game: str, variant: str, players: int, seed: int) -> list[list[Wire]]:
    """The referee's events of a real match (built-in random players), batch by batch, as a
    worker sends them."""
    setup = registry.resolve(game, variant, {}, players, seed)
    seats = [fallback_player(seed, seat) for seat in range(setup.num_players)]
    batches: list[list[Wire]] = []

    def listen(events: Sequence[Event]) -> None:
        batches.append([(e.line(), None if e.audience is None else tuple(sorted(e.audience))) for e in events])

    play_match(setup, seats, Settings(move_time=5, max_deals=3), listener=listen)
    return batches


def leaks(batches: Sequence[Sequence[Wire]], spectator: Any) -> list[str]:
    """What ``spectator`` (a function from a batch to the lines shown, in order) shows of a deal
    in progress that names a card only a seat could know then: a card a seat was told of
    alone in this deal that no public event has named yet. A deal is in progress from its
    ``deal`` line to its ``score``."""
    found = []
    secret: set[str] = set()
    in_deal = False
    for batch in batches:
        # what the referee made known this batch, in its order
        shown = spectator(batch)
        for line, audience in batch:
            if audience is None:
                if line.startswith("deal "):
                    secret, in_deal = set(), True
                secret -= cards_named([line])
            else:
                secret |= cards_named([line])
        for line in shown:
            if in_deal and cards_named([line]) & secret:
                found.append(line)
            if line.startswith("score "):
                in_deal = False
    return found


@pytest.mark.parametrize("game,variant,players", every_game_variant_and_count())
def test_no_event_a_spectator_sees_during_a_deal_names_a_card_a_seat_alone_holds(
        game: str, variant: str, players: int) -> None:
    for seed in (1, 2):
        batches = _played(game, variant, players, seed)
        hub = LiveHub()
        sub, _ = hub.subscribe("9-0")

        seen: list[str] = []

        def spectator(batch: Sequence[Wire]) -> list[str]:
            hub.publish("9-0", INFO, batch)
            shown = lines(messages(sub, hub))
            seen.extend(shown)
            return shown

        assert leaks(batches, spectator) == []
        hub.ended("9-0")
        seen += lines(messages(sub, hub))
        # every event reached the spectator in the end, the hidden ones once their deal was over
        assert sorted(seen) == sorted(line for batch in batches for line, _ in batch)
        # the check is real: the events as the referee made them, unfiltered, do leak
        assert leaks(batches, lambda batch: [line for line, _ in batch]), f"{game} tells no seat a secret"


# -- the duplicate gate over real duplicate units --------------------------------------------------


def _rotation(game: str, variant: str, players: int, seed: int, rotation: int) -> list[list[Wire]]:
    """Rotation ``rotation`` of a duplicate unit: the same deals as every other rotation (the
    unit's seed), the entrants in other seats (here, bots of another seed each)."""
    setup = registry.resolve(game, variant, {}, players, seed)
    seats = [fallback_player(seed * 100 + rotation, (seat + rotation) % setup.num_players)
             for seat in range(setup.num_players)]
    batches: list[list[Wire]] = []

    def listen(events: Sequence[Event]) -> None:
        batches.append([(e.line(), None if e.audience is None else tuple(sorted(e.audience))) for e in events])

    play_match(setup, seats, Settings(move_time=5, max_deals=3), listener=listen)
    return batches


def _deals(batches: Sequence[Sequence[Wire]]) -> list[tuple[int, str, bool]]:
    """Each event's deal (0 before the first), line and whether it was told to some seats only."""
    out, deal = [], 0
    for batch in batches:
        for line, audience in batch:
            if audience is None and line.startswith("deal "):
                deal = int(line.split(" ")[1])
            out.append((deal, line, audience is not None))
    return out


def duplicate_leaks(rotations: Sequence[Sequence[Sequence[Wire]]], hub: LiveHub, unit: str,
                    gated: bool = True) -> tuple[list[str], list[list[str]]]:
    """Publish a unit's rotations to ``hub`` interleaved as workers would (batch by batch, the
    later rotations starting a few batches late, each ended when it is over), and return what
    a spectator of one rotation was shown that names a card still hidden in another rotation
    where that deal is not over (a card told to a seat alone in that deal, not yet named in
    public there), with everything each spectator saw. Not ``gated``: each rotation is
    published as a unit of its own, so only the leak rule applies (the check's own check)."""
    count = len(rotations)

    def key(r: int) -> str:
        return f"{unit}-{r}" if gated else f"{unit}{r}-0"

    info = {"rotations": count if gated else 1}
    every = [_deals(batches) for batches in rotations]
    private = [{k: cards_named([line for deal, line, hidden in events if deal == k and hidden])
                for k in {deal for deal, _, _ in events}} for events in every]
    subs = []
    for r in range(count):
        sub, _ = hub.subscribe(key(r))
        subs.append(sub)
    done = [0] * count  # batches published of each rotation
    named: list[dict[int, set[str]]] = [{} for _ in range(count)]  # public cards named so far, by deal
    current = [0] * count  # each rotation's deal, and whether it is over
    over = [False] * count
    ended = [False] * count
    shown_deal = [0] * count  # the deal each spectator is shown
    found: list[str] = []
    seen: list[list[str]] = [[] for _ in range(count)]

    def hidden(r: int, k: int) -> set[str]:
        """Cards of deal k still hidden in rotation r."""
        if ended[r] or current[r] > k or (current[r] == k and over[r]):
            return set()
        return private[r].get(k, set()) - named[r].get(k, set())

    step = 0
    while not all(ended):
        for r in range(count):
            if ended[r] or step < 3 * r:
                continue
            if done[r] == len(rotations[r]):
                ended[r] = True
                hub.ended(key(r))
            else:
                batch = rotations[r][done[r]]
                done[r] += 1
                hub.publish(key(r), {**info, "id": key(r)}, batch)
                for line, audience in batch:
                    if audience is None:
                        if line.startswith("deal "):
                            current[r], over[r] = int(line.split(" ")[1]), False
                        elif line.startswith("score ") and line.split(" ")[1] == str(current[r]):
                            over[r] = True
                        named[r].setdefault(current[r], set()).update(cards_named([line]))
            for s in range(count):
                for line in lines(messages(subs[s], hub)):
                    seen[s].append(line)
                    if line.startswith("deal "):
                        shown_deal[s] = int(line.split(" ")[1])
                    for other in range(count):
                        if other != s and cards_named([line]) & hidden(other, shown_deal[s]):
                            found.append(f"rotation {s} shown {line!r} in deal {shown_deal[s]}")
        step += 1
    return found, seen


@pytest.mark.parametrize("game,variant,players", every_game_variant_and_count())
def test_no_spectator_of_a_duplicate_rotation_sees_a_card_hidden_in_another_rotation(
        game: str, variant: str, players: int) -> None:
    count = max(2, players)
    rotations = [_rotation(game, variant, players, 3, r) for r in range(count)]
    # they are duplicates: each deal tells the seats the same cards in every rotation
    first = [{k for deal, line, hidden in _deals(b) if hidden and deal == 1
              for k in cards_named([line])} for b in rotations]
    assert first[0] and all(cards == first[0] for cards in first)
    found, seen = duplicate_leaks(rotations, LiveHub(), "7")
    assert found == []
    # and every event reached its spectators in the end
    for r in range(count):
        assert sorted(seen[r]) == sorted(line for batch in rotations[r] for line, _ in batch)
    # the check is real: with the leak rule alone (each rotation a unit of its own) it leaks
    assert duplicate_leaks(rotations, LiveHub(), "7", gated=False)[0]


def test_the_gate_shows_deal_k_once_every_other_rotation_finished_it_or_ended() -> None:
    hub = LiveHub()
    info = {"id": "5-0", "rotations": 3}
    watching, _ = hub.subscribe("5-0")
    listing, _ = hub.subscribe(None)
    assert hub.level("5-1") == LISTED and hub.level("6-1") == LISTED  # the list is open
    hub.unsubscribe(listing)
    assert hub.level("5-1") == LISTED and hub.level("6-1") == QUIET  # 5-0's gate needs 5-1's scores
    hub.publish("5-0", info, [("deal 1 0", None), ("hand 2C", (0,)), ("play 0 2C", None)])
    got = messages(watching, hub)
    assert [m["type"] for m in got] == ["start"] and lines(got) == []  # 5-1 and 5-2 have not played deal 1
    hub.summary("5-1", {**info, "id": "5-1"}, ["deal 1 1", "score 1 0 0", "totals 0 0"])
    assert lines(messages(watching, hub)) == []  # 5-2 has not started
    hub.publish("5-2", {**info, "id": "5-2"}, [("deal 1 2", None), ("play 1 3C", None)])
    hub.ended("5-2")  # stopped before the end of deal 1: ended counts as past every deal
    assert lines(messages(watching, hub)) == ["deal 1 0", "play 0 2C"]
    assert [m["deal"] for m in hub.matches() if m["id"] == "5-1"] == [None]  # 5-0 is still in deal 1
    hub.publish("5-0", info, [("score 1 0 0", None), ("deal 2 1", None), ("play 1 4C", None)])
    assert lines(messages(watching, hub)) == ["score 1 0 0", "hand 2C"]  # deal 2: 5-1 is still in it
    assert [(m["deal"], m["totals"]) for m in hub.matches() if m["id"] == "5-1"] == [("1", "0 0")]
    hub.summary("5-1", {**info, "id": "5-1"}, ["deal 3 1"])  # deal 2 made void, deal 3 begun
    assert lines(messages(watching, hub)) == ["deal 2 1", "play 1 4C"]
    hub.ended("5-0")
    assert [m["type"] for m in messages(watching, hub)] == ["end"]


def test_the_gate_counts_the_rotations_stored_before_as_over_and_holds_a_dropped_unit_bounded() -> None:
    hub = LiveHub()
    watching, _ = hub.subscribe("8-1")
    hub.publish("8-1", {"id": "8-1", "rotations": 2, "stored": [0]}, [("deal 1 0", None), ("play 0 2C", None)])
    assert lines(messages(watching, hub)) == ["deal 1 0", "play 0 2C"]
    # a rotation that ended while nobody watched its unit (its worker told nothing) is over too,
    # whether the unit was heard of before (9) or only after (10)
    hub = LiveHub(max_matches=3)
    info = {"id": "9-1", "rotations": 2}
    watching, _ = hub.subscribe("9-1")
    hub.publish("9-1", info, [("deal 1 0", None), ("play 0 2C", None)])
    assert lines(messages(watching, hub)) == []  # 9-0 is not known to have played deal 1
    hub.ended("9-0")
    assert lines(messages(watching, hub)) == ["deal 1 0", "play 0 2C"]
    hub.ended("10-0")
    watching, _ = hub.subscribe("10-1")
    hub.publish("10-1", {"id": "10-1", "rotations": 2}, [("deal 1 0", None), ("play 0 2C", None)])
    assert lines(messages(watching, hub)) == ["deal 1 0", "play 0 2C"]
    for unit in range(20, 30):  # what is kept of matches nobody watched is bounded
        hub.ended(f"{unit}-0")
    assert len(hub._ended_unheard) == 3
    # a dropped unit: its other rotations never start
    now = [0.0]
    hub = LiveHub(hold_limit=10, hold_seconds=60, clock=lambda: now[0])
    watching, _ = hub.subscribe("4-0")
    info = {"id": "4-0", "rotations": 2}
    hub.publish("4-0", info, [("deal 1 0", None)] + [("play 0 2C", None)] * 30)
    assert hub._live["4-0"].gated_count <= 10
    hub.ended("4-0")
    assert "4-0" in hub._live and lines(messages(watching, hub)) == []  # held, never shown early
    now[0] += 61
    hub.publish("5-0", {"id": "5-0", "rotations": 1}, [])  # any news sweeps the stale units
    assert "4-0" not in hub._live and "4" not in hub._units
    assert [m["type"] for m in messages(watching, hub)] == ["end"]  # without what was held


def test_news_for_a_web_process_that_falls_behind_is_dropped_never_waited_for() -> None:
    """The serving process hands the live games' news to its web process through a bounded
    queue: when the web process does not keep up, the oldest news goes and the service never
    waits (a spectator may miss events; none is shown early, the hub there applying the rule)."""
    from cardcli.arena import webproc

    site = webproc.WebProcess("sqlite:///unused.db", "127.0.0.1", 0)  # never started: nobody reads
    for k in range(webproc.QUEUE_MAX + 5):
        site.publish("1-0", INFO, [(f"play 0 {k}", None)])
    assert site.dropped == 5 and len(site._queue) == webproc.QUEUE_MAX
    assert site._queue[0][3] == [("play 0 5", None)]  # the oldest went
    assert site.level("1-0") == QUIET  # nobody watches yet: the workers tell nothing
