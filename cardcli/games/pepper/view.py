"""Pepper as one seat sees it: the trick games' view, counting tricks per side (what a side
scores is known when the deal ends) with the contract."""

from __future__ import annotations

from ..view import SeatView


class PepperView(SeatView):
    def new_deal(self) -> None:
        super().new_deal()
        self.contract: tuple[int, str] | None = None
        """The deal's contract: (declarer, bid)."""

    def on_event(self, kind: str, args: list[str]) -> None:
        if kind == "contract" and len(args) >= 2:
            self.contract = (int(args[0]), args[1])

    def deal_so_far(self) -> tuple[str, list[str]]:
        if not self.trick_number:
            return "", []
        entries = [f"{label} {count}" for label, count, _ in self.side_tally(self.tricks)]
        if self.contract is not None:
            entries[-1] += ";"
            entries.append(f"contract {self.contract[1]} by {self.who(self.contract[0])}")
        return "this deal, tricks:", entries
