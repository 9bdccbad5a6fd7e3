"""``arena finals``: the season's last word. The versions the standings rank highest are
frozen, play a duplicate round robin with enough deal sets for the paired intervals, and the
final table (with the groups the paired results do not separate) follows from the finals'
seed: the same seed and the same finalists play the same deals in the same seats.

Its units are ordinary units of their own kind (``finals/N``), so they are stored, claimed,
resumed after a crash and exported as the ladder's are; the ladder neither schedules nor
rates them.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import attrs

from ..errors import UsageError
from ..games import registry
from ..tournament.schedule import deal_set_seed, plan
from .service import DEFAULT_POLICY, Policy, Remote, Service, rotations
from .table import standings
from .store import Store
from .workers import Workers


@attrs.frozen
class Finals:
    kind: str
    seed: int
    deal_sets: int
    finalists: tuple[tuple[str, str], ...]
    """(entrant, version) of each finalist, in the ladder's order."""


def prepare(store: Store, top: int, deal_sets: int, seed: int) -> Finals:
    """Freeze the top ``top`` enabled entrants' current versions (by the ladder's standings)
    and make the finals' units: the tournament's schedule of ``deal_sets`` deal sets among
    them, each deal set one unit from the finals' seed."""
    table = standings(store)
    latest = store.latest_versions()
    entrants = {row.name: row for row in store.entrants()}
    chosen: list[dict[str, Any]] = []
    for row in table["rows"]:
        entrant = entrants[row["entrant"]]
        if entrant.enabled and latest.get(entrant.id) == row["version_id"] and len(chosen) < top:
            chosen.append(row)
    if len(chosen) < 2:
        raise UsageError(f"the finals need at least two enabled entrants with rated games; the standings have "
                         f"{len(chosen)}")
    number = 1 + sum(1 for kind in store.unit_kinds() if kind.startswith("finals/"))
    kind = f"finals/{number}"
    cfg = store.config
    teams = registry.get(cfg.game).teams(cfg.players)
    groups: dict[int, tuple[int, ...]] = {}
    for match in plan(len(chosen), cfg.players, teams, deal_sets, seed):
        groups.setdefault(match.deal_set, tuple(dict.fromkeys(match.seating)))
    for deal_set, group in sorted(groups.items()):
        lineup = [entrants[chosen[i]["entrant"]].id for i in group]
        versions = [chosen[i]["version_id"] for i in group]
        store.add_unit(kind, lineup, versions, rotations(store, len(group)), seed=deal_set_seed(seed, deal_set))
    return Finals(kind, seed, deal_sets, tuple((row["entrant"], row["version"]) for row in chosen))


def play(store: Store, finals: Finals, workers: Workers, jobs: int, report: Callable[[str], None] | None = None,
         policy: Policy = DEFAULT_POLICY, remote: Remote | None = None, hidden: Sequence[str] = ()
         ) -> dict[str, Any]:
    """Play the finals' units (any left by an interrupted run included) and give the final
    table; ``hidden`` as for :class:`Service`."""
    service = Service(store, workers, policy, jobs=jobs, remote=remote, report=report, kind=finals.kind,
                      hidden=hidden)
    service.run(until=lambda: store.open_units(finals.kind) == 0)
    table = standings(store, finals.kind)
    return {"finals": finals.kind, "seed": finals.seed, "deal_sets": finals.deal_sets,
            "finalists": [{"entrant": e, "version": v} for e, v in finals.finalists], **table}
