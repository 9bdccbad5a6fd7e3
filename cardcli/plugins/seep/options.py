"""Seep's house rules: :class:`SeepOptions`, every option with its default, the option sets
that cannot mean anything refused before a match starts, and the named variants
(:data:`VARIANTS`, sets of option defaults).

``docs/rules/seep.md`` gives the seed sentence or RULES.md item (S1..S31) each option follows.
"""

from __future__ import annotations

import attrs

from ...errors import OptionError
from ...games import options as opt
from ...games.base import Variant

OPENING_KINDS = ("build_bid_value", "capture_with_bid_card", "throw_bid_card")
"""What the bidder's opening play may be (S4), each allowed by default."""
SWEEP_DEFAULTS = (50, 25, 0)
"""``sweep``, ``sweep_first`` and ``sweep_last`` as the seed scores them (S18)."""
SCORINGS = ("standard100", "thirty", "casual_ten_two")
"""The ways of counting a deal's card points (S29, S31)."""


@attrs.frozen
class SeepOptions:
    """Every Seep house rule, with the defaults of RULES.md section 2 (S-numbers in the docs)."""

    first_dealer: str = opt.option(
        "random", "the first dealer: drawn from the seed, or a seat number", choices=("random", "0", "1", "2", "3")
    )
    reveal_floor_before_bid: bool = opt.option(False, "turn the floor up before the bid instead of after it (S2)")
    bid_requires_floor_feasibility: bool = opt.option(
        False, "with the floor revealed, a bid must allow an opening build or capture of its value (S2)"
    )
    redeal_reveals_hand: bool = opt.option(True, "a bidder who cannot bid shows the four cards to all (S3)")
    opening_allowed: tuple[str, ...] = opt.option(
        OPENING_KINDS, "what the bidder's opening play may be (S4)", choices=OPENING_KINDS
    )
    capture_must_be_maximal: bool = opt.option(
        True, "a capture takes groups until no group of the card's value is left (S6)"
    )
    throw_rule: str = opt.option(
        "card_cannot_capture",
        "a card may be thrown when it captures nothing, or only when no other move exists (S7)",
        choices=("card_cannot_capture", "no_other_action"),
    )
    owner_may_throw: bool = opt.option(True, "a house owner may throw (S8)")
    last_key_capture_only: bool = opt.option(
        True, "after every move each owner still holds a card of the house value (S8); off: only the mover, for a house the move makes or changes"
    )
    retention_scope: str = opt.option(
        "player", "whose cards keep a house: each owner's own, or the owner's team's (S9)", choices=("player", "team")
    )
    opponent_cement_makes_coowner: bool = opt.option(True, "an opponent who cements a house becomes its co-owner (S12)")
    break_partner_house: bool = opt.option(True, "a player may break the partner's ordinary house (S13)")
    break_own_house: bool = opt.option(False, "a player may break a house they own (S13)")
    cementing: bool = opt.option(True, "houses can be cemented; off = the no-cementing variant (S30)")
    max_houses: int = opt.option(0, "most houses on the floor at once; 0 = no limit (S31)", minimum=0)
    sweep: int = opt.option(SWEEP_DEFAULTS[0], "bonus for a seep (a capture that empties the floor) (S18)", minimum=0)
    sweep_first: int = opt.option(SWEEP_DEFAULTS[1], "seep bonus on the bidder's opening play (S18)", minimum=0)
    sweep_last: int = opt.option(SWEEP_DEFAULTS[2], "seep bonus on the last play of the deal (S18)", minimum=0)
    min_deal_points: int = opt.option(
        9, "a side scoring fewer points in a deal loses the baazi at once; 0 = off (S20)", minimum=0
    )
    min_includes_sweeps: bool = opt.option(True, "seep bonuses count towards the minimum (S20)")
    baazi_target: int = opt.option(100, "the lead that wins the baazi (S21)", minimum=1)
    dealer_rotation: str = opt.option(
        "ccw_each_hand",
        "the next dealer: the previous bidder, or pagat's rule (the dealer deals again while their side is not ahead) (S22)",
        choices=("ccw_each_hand", "pagat_score_based"),
    )
    scoring: str = opt.option(
        "standard100",
        "card points: 100 a deal; the 30-point version; or 10♦ = 2 with 4 for most cards (S29, S31)",
        choices=SCORINGS,
    )
    majority_basis: str = opt.option(
        "spades", "30-point majority bonus for most spades (7+) or most cards (27+) (S29)", choices=("spades", "cards")
    )
    two_player_halves: bool = opt.option(
        True, "2 players: two half-deals of 12 cards onto the same floor; off: 24 cards dealt at once (S27)"
    )
    deal_packet: int = opt.option(4, "cards per packet when the rest of the pack is dealt (S5)", minimum=1)

    def __attrs_post_init__(self) -> None:
        """Refuse the option sets that cannot mean anything, with the reason, before a match
        starts (every command builds its options first)."""
        if self.scoring == "thirty" and (self.sweep, self.sweep_first, self.sweep_last) != SWEEP_DEFAULTS:
            raise OptionError("scoring=thirty scores a seep at the sweeping card's value (0 on the last play): "
                              "sweep, sweep_first and sweep_last do not apply to it")
        if (self.reveal_floor_before_bid and self.bid_requires_floor_feasibility
                and set(self.opening_allowed) == {"throw_bid_card"}):
            raise OptionError("bid_requires_floor_feasibility needs an opening build or capture of the bid, and "
                              "opening_allowed=throw_bid_card allows neither: every deal would be void")

    def warnings(self) -> tuple[str, ...]:
        """Options that are set but change nothing, said when a match starts."""
        if self.bid_requires_floor_feasibility and not self.reveal_floor_before_bid:
            return ("bid_requires_floor_feasibility has no effect while the floor is face down at the bid "
                    "(set reveal_floor_before_bid=true too)",)
        return ()


VARIANTS = (
    Variant("standard", "spades, aces and 10♦ make 100 a deal; seep 50; baazi at a lead of 100"),
    Variant(
        "thirty",
        "30-point version: 10♦ 12, 9♠ 9, 2♠ 1, aces 1, 4 for most spades; seep = the card's value",
        {"scoring": "thirty", "min_deal_points": 0},
    ),
    Variant("no_cementing", "houses can never be cemented and are always breakable", {"cementing": False}),
)
