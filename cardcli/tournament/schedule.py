"""The tournament schedule: which entrants sit where, for every match, from the seed alone.

A *deal set* is one match seed. Its group of entrants plays it once per rotation of the seats
(duplicate), so every entrant plays the same cards from every seat and the luck of the deal
cancels out, as in ACPC's duplicate poker. Groups cycle through every combination of entrants
when there are more entrants than places at the table, so each entrant plays as often as the
others and from every seat equally. In a partnership game an entrant fills both seats of a
side.

A *gauntlet* (:func:`gauntlet_groups`) keeps one entrant at the table in every match and shares
the other places among the rest instead.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from typing import Iterator, Sequence

import attrs


@attrs.frozen
class MatchPlan:
    """One match of the schedule."""

    index: int
    """Position in the schedule; also the order in which results are counted."""
    deal_set: int
    rotation: int
    seed: int
    seating: tuple[int, ...]
    """The entrant (index) in each seat."""

    @property
    def key(self) -> str:
        return f"{self.deal_set}.{self.rotation}"


def deal_set_seed(master: int, deal_set: int) -> int:
    return random.Random(f"cardcli/tournament/{master}/{deal_set}").getrandbits(63)


def places(num_players: int, teams: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The places at the table: a side in a partnership game, else a single seat."""
    return [tuple(t) for t in teams] if teams else [(s,) for s in range(num_players)]


def groups(entrants: int, table_places: int) -> list[tuple[int, ...]]:
    """The groups of entrants that play the deal sets, in their order: deal set *i* is played
    by group ``i % len(groups)``. Every combination of as many entrants as there are places
    (all the entrants when they are fewer), so a whole cycle of groups seats every entrant
    equally often; one list, so that :func:`plan` and :func:`balance` agree on the cycle."""
    return list(itertools.combinations(range(entrants), min(entrants, table_places)))


def gauntlet_groups(entrants: int, table_places: int, hero: int, deal_sets: int) -> list[tuple[int, ...]]:
    """The group of each deal set of a gauntlet: ``hero`` first, then the others chosen for it.

    Why this way: the hero is in every group, so each group has ``table_places - 1`` places for
    the ``entrants - 1`` others. Each deal set takes, one at a time, the other with the fewest
    deal sets so far; ties go to the one that has met the others already chosen for this deal
    set least often, then to the one that played least recently, then to the lowest index.
    Taking the fewest first keeps the others' deal-set counts within 1 of each other after
    every deal set (before a pick they are c or c + 1; the picks take every c before any
    c + 1), so they are all equal exactly when ``deal_sets * (table_places - 1)`` is a multiple
    of the number of others. The tie-breaks only vary who meets whom, so the others do not play
    in fixed blocks (with 6 others and 3 places, plain round-robin windows would never seat
    others 0 and 3 together). Nothing here is random: the schedule depends on the numbers
    alone, so a seed and ``--resume`` always rebuild it.

    With no more entrants than places everybody plays every deal set anyway: the one group of
    :func:`groups`, hero included, is used for every deal set."""
    others = [e for e in range(entrants) if e != hero]
    size = table_places - 1
    if len(others) <= size:
        return [groups(entrants, table_places)[0]] * deal_sets
    played = dict.fromkeys(others, 0)
    last = dict.fromkeys(others, -1)
    met: Counter[tuple[int, int]] = Counter()
    out = []
    for deal_set in range(deal_sets):
        chosen: list[int] = []
        for _ in range(size):
            pick = min((o for o in others if o not in chosen),
                       key=lambda o: (played[o], sum(met[(o, c)] for c in chosen), last[o], o))
            chosen.append(pick)
        for o in chosen:
            played[o] += 1
            last[o] = deal_set
            for c in chosen:
                if c != o:
                    met[(o, c)] += 1
        out.append((hero, *sorted(chosen)))
    return out


def plan(
    entrants: int,
    num_players: int,
    teams: Sequence[Sequence[int]],
    deal_sets: int,
    master_seed: int,
    duplicate: bool = True,
    permutations: bool = False,
    gauntlet: int | None = None,
) -> Iterator[MatchPlan]:
    """Every match of the tournament, in order. With ``gauntlet`` (an entrant's index), that
    entrant plays every match and the others share the other places (:func:`gauntlet_groups`);
    each deal set is then played by its group as any other: once per rotation with
    ``duplicate``, so the gauntlet's entrant sits each place once per deal set. With no more
    entrants than places the schedule is the ordinary one, where everybody plays every match."""
    table = places(num_players, teams)
    size = min(entrants, len(table))
    chosen = None
    if gauntlet is not None and entrants > len(table):
        chosen = gauntlet_groups(entrants, len(table), gauntlet, deal_sets)
    cycle = groups(entrants, len(table))
    index = 0
    for deal_set in range(deal_sets):
        if chosen is not None:
            # the gauntlet's groups never repeat as a cycle: without duplicate deals, its
            # entrant (first in the group) moves one place on at every deal set instead
            group, start, shift = chosen[deal_set], 0, deal_set
        else:
            group = cycle[deal_set % len(cycle)]
            # fewer entrants than places: cycle the group round the table, starting from a
            # different entrant on each pass through the groups, so over `size` passes all fill
            # equally
            start = (deal_set // len(cycle)) % size
            shift = deal_set // len(cycle)
        filled = [group[(start + i) % size] for i in range(len(table))]
        if not duplicate:
            arrangements = [filled[shift % len(table):] + filled[: shift % len(table)]]
        elif permutations:
            arrangements = [list(p) for p in sorted(set(itertools.permutations(filled)))]
        else:
            arrangements = [filled[r:] + filled[:r] for r in range(len(table))]
            # a group smaller than the table repeats itself: play each distinct seating once
            arrangements = [a for i, a in enumerate(arrangements) if a not in arrangements[:i]]
        seed = deal_set_seed(master_seed, deal_set)
        for rotation, arrangement in enumerate(arrangements):
            seating = [0] * num_players
            for place, entrant in zip(table, arrangement):
                for seat in place:
                    seating[seat] = entrant
            yield MatchPlan(index, deal_set, rotation, seed, tuple(seating))
            index += 1


@attrs.frozen
class Balance:
    """How evenly a schedule shares its matches among the entrants."""

    matches: tuple[int, ...]
    """The matches each entrant plays, by entrant index."""
    fewer: int | None
    """The largest number of deal sets below the schedule's with which every entrant plays
    equally often; None when there is none."""
    more: int
    """The smallest number of deal sets, the schedule's own or more, with which every entrant
    plays equally often."""
    gauntlet: int | None = None
    """The entrant that plays every match of a gauntlet: it is not compared with the others
    (it always plays more), and "every entrant" above means every other entrant."""

    @property
    def compared(self) -> tuple[int, ...]:
        """The entrants whose numbers of matches should be equal: all but a gauntlet's."""
        return tuple(e for e in range(len(self.matches)) if e != self.gauntlet)

    @property
    def even(self) -> bool:
        """Whether every entrant (but a gauntlet's) plays as many matches as every other."""
        return len({self.matches[e] for e in self.compared}) <= 1


def balance(
    entrants: int,
    num_players: int,
    teams: Sequence[Sequence[int]],
    deal_sets: int,
    duplicate: bool = True,
    permutations: bool = False,
    gauntlet: int | None = None,
) -> Balance:
    """How many matches each entrant plays in the schedule :func:`plan` makes, and the nearest
    numbers of deal sets with which they would all play equally often.

    Why: each deal set is played by one group of entrants, and the groups run through every
    combination in turn (:func:`groups`). A schedule that stops part-way through that cycle
    gives the entrants of the early groups more matches than the others (6 entrants at a
    4-seat table with 2 deal sets: three play 8 matches, one plays none), and its table then
    ranks entrants on samples of very different sizes. The organiser is told before anything
    is played, with a number of deal sets that would put it right.

    The matches are counted from :func:`plan` itself. The even numbers of deal sets are the
    whole cycles of groups, and only they. With at least as many entrants as places (n
    entrants, k places), every match of a deal set seats each entrant of its group once and no
    one else, and every deal set has as many matches as any other, so the entrants have played
    equally often after *d* deal sets exactly when each has been in as many of the first *d*
    groups. The groups come in lexicographic order: entrant 0 is in each of the first
    C(n-1, k-1) groups and in no later one. Within those, it has been in all *d* groups, which
    not everyone can be when a group holds k < n entrants; after them it stays at C(n-1, k-1),
    which everyone reaches only with n C(n-1, k-1) = k C(n, k) places filled: the whole
    cycle. With fewer entrants than places there is one group, everybody plays every match,
    and any number of deal sets is even. (The tests also count every prefix for small fields.)

    A gauntlet (:func:`gauntlet_groups`) with more entrants than places gives the n - 1 others
    k - 1 places a deal set, and keeps their deal-set counts within 1 of each other after every
    deal set: they are equal exactly when n - 1 divides d (k - 1), that is every
    (n - 1) / gcd(n - 1, k - 1) deal sets. Every deal set has as many matches as any other, so
    the matches follow.
    """
    played: Counter[int] = Counter()
    for match in plan(entrants, num_players, teams, deal_sets, 0, duplicate, permutations, gauntlet):
        played.update(set(match.seating))
    table = len(places(num_players, teams))
    if gauntlet is not None and entrants > table:
        cycle = (entrants - 1) // math.gcd(entrants - 1, table - 1)
    else:
        cycle = math.comb(entrants, min(entrants, table))  # len(groups(entrants, table)), without making them
    below = (deal_sets - 1) // cycle * cycle
    return Balance(tuple(played[e] for e in range(entrants)), below or None, below + cycle, gauntlet)
