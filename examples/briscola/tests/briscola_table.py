"""A match played through the engine with every seat told its own protocol lines, for the
tests of the parts that follow a match from a seat's lines (the heuristic, the search view).

It deals as the referee deals (:func:`cardcli.games.dealing.shuffled` from the seed and the
deal's index), sends each seat the header the referee sends (:func:`cardcli.protocol.match_header`)
and then the lines of the events its seat may see, and lets a test look at the engine's state
at each decision: what the seat's view must agree with, without ever having been told it.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator, Protocol, Sequence

from cardcli import protocol
from cardcli.games import options as opt
from cardcli.games.dealing import shuffled

from briscola_scripts import new_match
from cardcli_briscola import SPEC, BriscolaMatch


class Follower(Protocol):
    def notify(self, lines: Sequence[str]) -> None: ...


def header(match: BriscolaMatch, seat: int, seed: int) -> list[str]:
    """The lines that open the match for ``seat``, as the referee writes them."""
    n = match.num_players
    return protocol.match_header(
        "briscola", "standard", n, seat, opt.to_wire(match.options), [f"p{s}" for s in range(n)],
        SPEC.play_order(match.options), SPEC.teams(n), rng=seed,
    )


def decisions(
    players: int, seed: int, followers: Sequence[Follower], choose: Callable[[BriscolaMatch, int], str] | None = None,
    **options: Any,
) -> Iterator[tuple[BriscolaMatch, int]]:
    """Play a whole match, telling ``followers[s]`` seat ``s``'s lines; yield the match and the
    seat to play before every move. Moves are ``choose(match, seat)``, random by default."""
    match = new_match(players, dealer=seed % players, **options)
    rng = random.Random(seed)
    for seat, follower in enumerate(followers):
        follower.notify(header(match, seat, seed))
    while not match.is_over():
        if match.needs_deal():
            events = match.deal(shuffled(seed, match.deal_number, SPEC.deck()))
        else:
            seat = match.current_player()
            yield match, seat
            move = choose(match, seat) if choose is not None else rng.choice(match.decisions()[0].moves)
            events = match.apply(seat, move)
        for s, follower in enumerate(followers):
            follower.notify([e.line() for e in events if e.visible_to(s)])
