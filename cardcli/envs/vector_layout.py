"""Fixed-size observation vectors, laid out as named blocks.

Each game's observation is one flat ``float32`` vector made of blocks (the hand, the trick,
the totals...). A :class:`Layout` gives every block its place, its bounds and a sentence of
meaning, so that the observation space, the code that fills the vector and the table in
docs/rl.md are all read from one declaration and cannot drift apart.
"""

from __future__ import annotations

from typing import Iterable

import attrs
import numpy as np
from gymnasium import spaces


@attrs.frozen
class Block:
    """``size`` numbers of the vector, each between ``low`` and ``high``."""

    name: str
    size: int
    meaning: str
    low: float = 0.0
    high: float = 1.0


class Layout:
    """Blocks in order; ``layout.at(name)`` is where a block starts, ``layout.span(name)`` its
    slice."""

    def __init__(self, blocks: Iterable[Block]) -> None:
        self.blocks = tuple(blocks)
        self._start: dict[str, int] = {}
        self._spans: dict[str, slice] = {}
        self._blocks = {block.name: block for block in self.blocks}
        at = 0
        for block in self.blocks:
            if block.name in self._start:
                raise ValueError(f"two blocks named {block.name!r}")
            self._start[block.name] = at
            self._spans[block.name] = slice(at, at + block.size)
            at += block.size
        self.size = at

    def at(self, name: str) -> int:
        return self._start[name]

    def span(self, name: str) -> slice:
        return self._spans[name]

    def block(self, name: str) -> Block:
        return self._blocks[name]

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)

    def space(self) -> spaces.Box:
        """The observation's Box: each number within its block's bounds."""
        low = np.concatenate([np.full(b.size, b.low, dtype=np.float32) for b in self.blocks])
        high = np.concatenate([np.full(b.size, b.high, dtype=np.float32) for b in self.blocks])
        return spaces.Box(low=low, high=high, dtype=np.float32)

    def markdown(self) -> str:
        """The table docs/rl.md shows for this layout (a test keeps the two equal)."""
        rows = ["| numbers | block | size | meaning |", "|---|---|---|---|"]
        for block in self.blocks:
            start = self._start[block.name]
            rows.append(f"| {start}..{start + block.size - 1} | `{block.name}` | {block.size} | {block.meaning} |")
        rows.append(f"| | | **{self.size}** | |")
        return "\n".join(rows)
