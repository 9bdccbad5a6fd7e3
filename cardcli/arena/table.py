"""The arena's standings, folded record by record: the tournament's own table
(:class:`cardcli.tournament.results.Tally`: OpenSkill ratings with intervals, paired duplicate
results, the groups not separated), one row per version.

A server keeps one :class:`SeasonTable` and folds in only the matches stored since its last
look, by any server: refreshing the standings costs what was played since, not the season.
The moves are not read (the standings have no time per move, the costliest part of a fold):
the server shares the machine's cores with the workers that play.
The records are folded in the order of their ids, which is the order a full fold from
nothing (``arena standings --recompute``) uses too, so both give the same table. On PostgreSQL
a match may be committed after one with a higher id (two servers, one slower transaction):
the ids within :data:`LATE` of the newest folded are looked at again, and one that arrived
late is folded then.

**Memory.** A season has no end, so nothing is kept per match: the tally keeps running sums
(``Tally(season=True)``), and each unit's paired cells are sealed into per-pair totals
(:meth:`cardcli.tournament.paired.PairedTally.seal`) as soon as the unit is over: when every
one of its rotations has been folded, or when the store says it is done (all stored, some
unrated and so never folded) or dropped. The exact totals make the standings the same whatever
look sealed a unit, so the table kept match by match still equals the one folded from nothing.
What is kept grows with the versions and the units under way, not with the matches.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

import attrs

from ..records.io import without_moves
from ..records.model import Record
from ..tournament import results
from .store import LADDER, Store

OVER = ("done", "dropped")
"""The statuses of a unit that no match will be added to (by the ladder's rules)."""

LATE = 10_000
"""How far behind the newest match folded a match committed late is still looked for."""

Folded = tuple[int, int, Sequence[int], dict[str, Any]]
"""A match to fold: its id, its unit's, the version in each seat, its record without moves."""


class SeasonTable:
    """The standings of one kind of unit (the ladder's rated matches, or a finals' matches)."""

    def __init__(self, kind: str = LADDER):
        self.kind = kind
        self.tally = results.Tally([], times=False, season=True)
        self.index: dict[int, int] = {}
        """Version id → its place in the tally."""
        self.folded: set[int] = set()
        """The ids of the matches folded within :data:`LATE` of :attr:`last`."""
        self.last = 0
        self.matches = 0
        self.units: dict[int, list[int]] = {}
        """Unit id → [rotations, rotations folded], for the units of :attr:`kind` not yet
        sealed; a sealed unit leaves it."""
        self.last_unit = 0
        """The newest unit read from the store."""

    def catch_up(self, store: Store) -> int:
        """Fold in the matches stored since the last call; how many there were."""
        rated = self.kind == LADDER
        over = self._read_units(store)
        window = max(0, self.last - LATE)
        waiting = [i for i in store.match_ids(window, rated, self.kind) if i not in self.folded]
        count = self._fold_all(over, ((match.id, match.unit_id, match.seating, without_moves(json.loads(line)))
                                      for match, line in store.records(rated_only=rated, kind=self.kind, ids=waiting)))
        self.folded = {i for i in self.folded if i > self.last - LATE}
        return count

    def fold(self, store: Store, matches: Sequence[Folded]) -> None:
        """Fold in matches this server has just stored together, from their records without
        moves (:func:`without_moves`, which the worker sends beside the record): the server
        then reads back only what other servers store. When a unit is met for the first time,
        the units are read from the store first, as :meth:`catch_up` reads them, so that each
        unit is sealed at the same match as there."""
        fresh = any(unit_id > self.last_unit for _, unit_id, _, _ in matches)
        self._fold_all(self._read_units(store) if fresh else [], matches)

    def _fold_all(self, over: Sequence[int], matches: Iterable[Folded]) -> int:
        """Fold ``matches`` not folded yet, then seal the units of ``over`` (the store said
        they were over before the matches were read) with whatever of them was folded: a unit
        is sealed the moment its last rotation is folded, and one with an unrated match, or
        dropped, never gets there."""
        count = 0
        for match_id, unit_id, seating, record in matches:
            if match_id not in self.folded:
                self._fold(match_id, unit_id, seating, record)
                count += 1
        for unit_id in over:
            if unit_id in self.units:
                self._seal(unit_id)
        self.matches += count
        return count

    def _fold(self, match_id: int, unit_id: int, seating: Sequence[int], data: dict[str, Any]) -> None:
        record = Record.from_json(data)
        tag = record.tournament
        assert tag is not None
        places = tuple(self._place(version) for version in seating)
        self.tally.add(attrs.evolve(record, tournament=attrs.evolve(tag, seating=places)))
        self.folded.add(match_id)
        self.last = max(self.last, match_id)
        unit = self.units.get(unit_id)
        if unit is not None:
            unit[1] += 1
            if unit[1] >= unit[0]:
                self._seal(unit_id)
        elif unit_id <= self.last_unit and self.tally.paired is not None:
            # a unit sealed already (a dropped unit's match that was under way, or one
            # committed late): its record is sealed as a place of its own, not kept open
            self.tally.paired.seal(unit_id)

    def _read_units(self, store: Store) -> list[int]:
        """Learn the units made since the last look (their rotations), and which of those not
        yet sealed are over; re-reads from the oldest unsealed unit, which is close behind the
        newest while the season runs (units are played in about the order they are made)."""
        known = self.last_unit
        over = []
        for unit in store.units_after(min(self.units) - 1 if self.units else known):
            if unit.id > known:
                self.last_unit = unit.id
                if unit.kind == self.kind:
                    self.units[unit.id] = [unit.rotations, 0]
            if unit.status in OVER and unit.id in self.units:
                over.append(unit.id)
        return over

    def _seal(self, unit_id: int) -> None:
        del self.units[unit_id]
        if self.tally.paired is not None:
            self.tally.paired.seal(unit_id)

    def _place(self, version: int) -> int:
        place = self.index.get(version)
        if place is None:
            place = self.index[version] = self.tally.add_name(str(version))
        return place

    def snapshot(self, store: Store) -> dict[str, Any]:
        """The standings as the API and ``arena standings`` give them: each row with its
        entrant's name, the version's label, and the entrant's state. The ladder lists every
        version (one that has not played yet with the starting rating); a finals its
        finalists."""
        versions = {v["id"]: v for v in store.versions()}
        if self.kind == LADDER:
            for version in versions:
                self._place(version)
        table = self.tally.table()
        entrants = {row.name: row for row in store.entrants()}
        rows = []
        for row in table.rows:
            version = versions[int(row["entrant"])]
            entrant = entrants[version["name"]]
            row = {key: value for key, value in row.items() if key != "time_ms"}  # not folded: see the module
            rows.append({**row, "entrant": version["name"], "version": version["label"], "version_id": version["id"],
                         "enabled": entrant.enabled, "disabled_reason": entrant.disabled_reason,
                         "next": _renamed(row.get("next"), versions)})
        pairs = [_pair(pair.to_json()) for pair in table.pairs if pair.n]
        return {"matches": self.matches, "lower_is_better": table.lower_is_better, "rows": rows,
                "order": results.ORDER if table.paired else results.ORDER_WITHOUT_PAIRS, "pairs": pairs}


def standings(store: Store, kind: str = LADDER) -> dict[str, Any]:
    """The standings folded from nothing: every rated record of the ladder (or every record of
    a finals)."""
    table = SeasonTable(kind)
    table.catch_up(store)
    return table.snapshot(store)


def _renamed(comparison: dict[str, Any] | None, versions: dict[int, dict[str, Any]]) -> dict[str, Any] | None:
    """A row's comparison with the row below, naming the version by entrant and label."""
    if comparison is None:
        return None
    version = versions[int(comparison["entrant"])]
    return {**comparison, "entrant": version["name"], "version": version["label"], "version_id": version["id"]}


def _pair(data: dict[str, Any]) -> dict[str, Any]:
    """A paired duplicate result between two versions that met, by version id (``a``, ``b``,
    ``better``): an entrant's page shows its results against every other version from these,
    without folding anything."""
    return {"a": int(data["a"]), "b": int(data["b"]), "n": data["n"], "mean": data["mean"], "ci": data["ci"],
            "wins": data["wins"], "draws": data["draws"], "losses": data["losses"],
            "better": None if data["better"] is None else int(data["better"])}
