"""Where a hand stands: the phases of the game, each equal to its name on the wire."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Phase(StrEnum):
    """Where a hand stands. Each phase equals (and is saved and sent as) its name.

    >>> Phase.BETTING == "betting", Phase("hand_over") is Phase.HAND_OVER, f"{Phase.CUT}"
    (True, True, 'cut')
    """

    WAITING = "waiting"                  # before the first hand
    DEALT = "dealt"                      # roulette: a round dealt, actives not yet turned
    MATCHED = "matched"                  # roulette: actives turned and matched
    BETTING = "betting"                  # a betting round
    STOCK_TO_ACTIVE = "stock_to_active"  # roulette: choosing a stock card to play as active
    FINAL = "final"                      # roulette: matching over, before the showdown
    CUT = "cut"                          # draw: the cut
    DRAW = "draw"                        # draw: exchanging cards
    HAND_OVER = "hand_over"              # between hands: the result stands
    GAME_OVER = "game_over"

    @classmethod
    def parse(cls, value: Any) -> "Phase":
        """The phase named ``value``; ValueError (saying so) for anything else."""
        try:
            return cls(value)
        except (ValueError, TypeError):
            raise ValueError(f"unknown phase {str(value)[:20]!r}") from None


BETWEEN_HANDS = (Phase.WAITING, Phase.HAND_OVER, Phase.GAME_OVER)
"""The phases with no hand in play."""
