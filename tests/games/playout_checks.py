"""What the four games' playout tests (tests/games/test_GAME_playout.py) check alike: driving
an engine at random to some point of a match, and the search finishing its playouts in the
game's loop while staying deterministic."""

from __future__ import annotations

import random
from typing import Any, Sequence

from cardcli.cards import Card
from cardcli.games import registry
from cardcli.games.dealing import shuffled
from cardcli.players.search.hooks import policy_for
from cardcli.players.search.ismcts import Budget, DealRewards, Result, search
from cardcli.players.search.playouts import WholePlayout


def advance(match: Any, seed: int, moves: int, rng: random.Random, deck: Sequence[Card],
            passing: float = 0.0) -> None:
    """Up to ``moves`` random text moves (dealing as the referee does); stops at the end.
    ``passing``: the chance of a pass wherever one is allowed (uniform bids rarely all pass)."""
    while moves > 0 and not match.is_over():
        if match.needs_deal():
            match.deal(shuffled(seed, match.deal_number, deck))
            continue
        decision = rng.choice(match.decisions())
        passes = passing and "pass" in decision.moves and rng.random() < passing
        match.apply(decision.seat, "pass" if passes else rng.choice(decision.moves))
        moves -= 1


def searched_twice(game: str, match: Any, players: int, rewards: DealRewards, iterations: int) -> Result:
    """The search of the match's next decision with the game's ``rule`` playouts, twice from
    one seed: every playout kind of the game comes as a whole playout, both searches agree,
    and the move is legal. The result, for the caller's own bound on what was simulated."""
    hooks = registry.get(game).search.load()  # type: ignore[union-attr]
    for kind in ("rule", "random", "card"):
        assert isinstance(policy_for(hooks, players, kind), WholePlayout)
    decision = match.decisions()[0]
    results = [search(lambda r: match.clone(), decision.seat, decision.moves, rewards, Budget(iterations=iterations),
                      random.Random(3), policy_for(hooks, players, "rule"))
               for _ in range(2)]
    assert results[0] == results[1]
    assert results[0].move in decision.moves
    return results[0]
