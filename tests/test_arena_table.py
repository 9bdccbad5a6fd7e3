"""The arena's standings stay flat in memory (cardcli.arena.table, PairedTally.seal): sealing a
complete deal set gives the paired results and matchpoints of keeping it, drops its cells, and
the table kept match by match equals the one folded from nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Sequence

import pytest

from cardcli.arena.config import ArenaConfig
from cardcli.arena.store import EntrantKind, NewMatch, Store
from cardcli.arena.table import SeasonTable, standings
from cardcli.records.io import without_moves
from cardcli.records.model import Record
from cardcli.referee import Settings
from cardcli.seats.limits import Limits
from cardcli.seats.policy import SandboxMode, SandboxPolicy
from cardcli.tournament.paired import PairedTally
from cardcli.tournament.results import Tally, render
from made_up import made_up

CONFIG = ArenaConfig("peppa", "torino", {}, 4, 42, Settings(move_time=2.0), Limits(memory_mb=256),
                     SandboxPolicy(mode=SandboxMode.OFF))
ROTATIONS = 4


def a_record(deal_set: int, rotation: int, seating: Sequence[int], rng: random.Random) -> Record:
    """A complete 4-seat Peppa record of a few deals with random points (13 a deal), its
    result's winners the two lowest totals, as the table reads them."""
    deals, totals = [], [0, 0, 0, 0]
    for _ in range(rng.randint(1, 4)):
        points = [0, 0, 0, 0]
        for _ in range(13):
            points[rng.randrange(4)] += 1
        totals = [t + p for t, p in zip(totals, points)]
        deals.append({"points": points, "totals": list(totals)})
    order = sorted(range(4), key=lambda s: (totals[s], s))
    return made_up({
        "seats": [{"kind": "builtin"} for _ in range(4)],
        "tournament": {"index": 0, "key": f"{deal_set}.{rotation}", "deal_set": deal_set, "rotation": rotation,
                       "seating": list(seating), "entrants": [f"e{e}" for e in seating]},
        "deals": deals,
        "result": {"scores": totals, "winners": order[:2], "losers": order[2:]},
    })


def rotated(lineup: Sequence[int], rotation: int) -> list[int]:
    return [lineup[(seat + rotation) % len(lineup)] for seat in range(4)]


def season(count: int, entrants: int, seed: int) -> list[tuple[int, list[Record]]]:
    """``count`` deal sets of ``ROTATIONS`` records each, 4 of ``entrants`` in each."""
    rng = random.Random(seed)
    out = []
    for deal_set in range(1, count + 1):
        lineup = rng.sample(range(entrants), 4)
        out.append((deal_set, [a_record(deal_set, r, rotated(lineup, r), rng) for r in range(ROTATIONS)]))
    return out


def test_sealing_gives_the_paired_results_and_matchpoints_of_keeping_and_drops_the_cells() -> None:
    names = tuple(f"e{i}" for i in range(6))
    kept, exact, sealed = PairedTally(names, True), PairedTally(names, True, exact=True), \
        PairedTally(names, True, exact=True)
    for deal_set, records in season(80, 6, 1):
        for record in records:
            for tally in (kept, exact, sealed):
                tally.add(record)
        sealed.seal(deal_set)
        assert not any(key[0] == deal_set for key in sealed.cells)
    assert not sealed.cells and sealed.sealed_sets == 80 and len(kept.cells) == 80 * 4 * 4
    # matchpoints are sums of halves: exact in any order
    assert sealed.matchpoints() == kept.matchpoints() == exact.matchpoints()
    # exact totals are the same whether or when deal sets are sealed, to the last bit
    assert sealed.results() == exact.results()
    # against Welford's running form (the tournament's) only the rounding of the mean and the
    # variance differs: the exact sums are rounded once, Welford's at every step
    for mine, theirs in zip(sealed.results(), kept.results()):
        assert (mine.a, mine.b, mine.n, mine.wins, mine.draws, mine.losses) == \
            (theirs.a, theirs.b, theirs.n, theirs.wins, theirs.draws, theirs.losses)
        assert mine.n > 10
        assert mine.mean == pytest.approx(theirs.mean, abs=1e-9)
        assert mine.half_width == pytest.approx(theirs.half_width, abs=1e-9)


def test_a_tournament_tally_does_not_seal() -> None:
    tally = PairedTally(("a", "b"), True)
    with pytest.raises(ValueError, match="exact"):
        tally.seal(1)


def test_the_season_s_tally_shows_the_tournament_s_table() -> None:
    """Running sums for the scores per deal and the crosstable print what the lists print."""
    names = [f"e{i}" for i in range(6)]
    listed, summed = Tally(names), Tally(names, times=False, season=True)
    for _, records in season(40, 6, 2):
        for record in records:
            listed.add(record)
            summed.add(record)
    assert render(summed.table(), names) == render(listed.table(), names)
    assert all(st.per_deal is None for st in summed.stats)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    made = Store.create(f"sqlite:///{tmp_path / 'arena.db'}", CONFIG, now=1000.0)
    yield made
    made.close()


def test_the_table_kept_match_by_match_equals_the_one_folded_from_nothing(store: Store) -> None:
    """A few hundred matches, units played interleaved, some matches unrated (so their unit
    never completes in the fold and is sealed when the store says it is done), one unit
    dropped half played, the standings looked at every few matches."""
    rng = random.Random(3)
    entrants = [store.add_entrant(f"bot{i}", EntrantKind.PROGRAM, "random") for i in range(7)]
    versions = {e: store.version_id(e, "1") for e in entrants}
    kept = SeasonTable()
    playing: list[tuple[int, list[int], list[int]]] = []  # unit, lineup, rotations left
    made = stored = 0
    dropped = None
    while stored < 320:
        while len(playing) < 3:
            lineup = rng.sample(entrants, 4)
            unit = store.add_unit("ladder", lineup, [versions[e] for e in lineup], ROTATIONS)
            playing.append((unit, lineup, list(range(ROTATIONS))))
            made += 1
        unit, lineup, left = playing[rng.randrange(len(playing))]
        rotation = left.pop(0)
        seating = rotated(lineup, rotation)
        record = a_record(unit, rotation, seating, rng)
        rated = rng.random() > 0.05
        store.store_match(unit, rotation, [versions[e] for e in seating], json.dumps(record.to_json()), rated, [])
        stored += 1
        if not left:
            playing.remove((unit, lineup, left))
        if dropped is None and made > 20 and len(left) == 2:
            store.drop(unit)
            playing.remove((unit, lineup, left))
            dropped = unit
        if rng.random() < 0.2:
            kept.catch_up(store)
    kept.catch_up(store)
    assert dropped is not None
    fresh = SeasonTable()
    fresh.catch_up(store)
    assert kept.snapshot(store) == fresh.snapshot(store) == standings(store)
    paired = kept.tally.paired
    assert paired is not None
    # only the units still under way are open: their cells, and nothing else, are kept
    assert set(kept.units) == {unit for unit, _, _ in playing}
    assert {key[0] for key in paired.cells} <= set(kept.units)
    assert paired.sealed_sets == made - len(playing)
    assert kept.tally.cross and all(isinstance(cell, list) and len(cell) == 2 for cell in kept.tally.cross.values())


def test_the_table_a_server_folds_commit_by_commit_equals_the_one_folded_from_nothing(store: Store) -> None:
    """A server commits what its workers finished together (Store.store_matches) and folds
    each commit's rated matches from the records in hand. Units run interleaved, so a commit
    can hold a unit's last rotations after the first match of a unit made later: each unit
    must still be sealed with all of its rotations, as a fold from nothing seals it."""
    rng = random.Random(5)
    entrants = [store.add_entrant(f"bot{i}", EntrantKind.PROGRAM, "random") for i in range(7)]
    versions = {e: store.version_id(e, "1") for e in entrants}
    served = SeasonTable()
    playing: list[tuple[int, list[int], list[int]]] = []
    stored = 0
    while stored < 320:
        while len(playing) < 4:
            lineup = rng.sample(entrants, 4)
            unit = store.add_unit("ladder", lineup, [versions[e] for e in lineup], ROTATIONS)
            playing.append((unit, lineup, list(range(ROTATIONS))))
        commit: list[NewMatch] = []
        records = []
        for _ in range(rng.randint(1, 6)):
            unit, lineup, left = playing[rng.randrange(len(playing))]
            rotation = left.pop(0)
            seating = rotated(lineup, rotation)
            record = a_record(unit, rotation, seating, rng).to_json()
            commit.append(NewMatch(unit, rotation, tuple(versions[e] for e in seating), json.dumps(record),
                                   rng.random() > 0.05, (), 1000.0 + stored))
            records.append(record)
            if not left:
                playing.remove((unit, lineup, left))
        ids = store.store_matches(commit)
        stored += len(commit)
        served.fold(store, [(match_id, new.unit_id, new.seating, without_moves(record))
                            for match_id, new, record in zip(ids, commit, records)
                            if match_id is not None and new.rated])
    served.catch_up(store)
    fresh = SeasonTable()
    fresh.catch_up(store)
    assert served.snapshot(store) == fresh.snapshot(store)
    paired = served.tally.paired
    assert paired is not None and paired.sealed_sets > 60
    assert set(served.units) == {unit for unit, _, _ in playing}


def test_a_commit_with_a_match_stored_already_keeps_the_others(store: Store) -> None:
    """Two servers, or a restart: a match stored before refuses the whole transaction, and
    the others of the commit are then stored one by one, that one alone given None."""
    entrants = [store.add_entrant(f"bot{i}", EntrantKind.PROGRAM, "random") for i in range(4)]
    versions = [store.version_id(e, "1") for e in entrants]
    unit = store.add_unit("ladder", entrants, versions, ROTATIONS)
    rng = random.Random(1)
    new = [NewMatch(unit, r, tuple(rotated(versions, r)),
                    json.dumps(a_record(unit, r, rotated(entrants, r), rng).to_json()), True, (), 1000.0)
           for r in range(ROTATIONS)]
    first = store.store_matches(new[1:2])
    assert first[0] is not None
    ids = store.store_matches(new)
    assert ids[1] is None and all(i is not None for i in ids[:1] + ids[2:])
    assert store.played_rotations(unit) == set(range(ROTATIONS)) and store.match_count() == ROTATIONS
    assert [u.status for u in store.units_after(0)] == ["done"]
