"""Bots: each sees only its seat's view and the legal actions, and picks one.

Levels: ``random`` (any legal action), ``simple`` (rules of thumb, :mod:`.simple`) and
``strong`` (Monte Carlo over the cards it cannot see, :mod:`.strong`). A bot may answer a
bet or raise with any amount inside ``view.options``, not only the listed min and max.
"""

from __future__ import annotations

import random
from typing import Protocol

from pokeroulette_tui.engine.actions import Action
from pokeroulette_tui.engine.view import SeatView


class Bot(Protocol):
    """A player program. ``choose`` gets exactly what a human in that seat would see."""

    level: str
    needs_view: bool

    def choose(self, view: SeatView | None, legal: list[Action]) -> Action: ...


class RandomBot:
    """Level 0: any legal action, uniformly at random."""

    level = "random"
    needs_view = False

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, view: SeatView | None, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


def _levels() -> dict[str, type]:
    # imported here: the level modules import helpers from this package
    from pokeroulette_tui.bots.simple import SimpleBot
    from pokeroulette_tui.bots.strong import StrongBot
    return {"random": RandomBot, "simple": SimpleBot, "strong": StrongBot}


LEVELS: dict[str, type] = _levels()
"""Bot levels, weakest first: random, simple (rules of thumb), strong (Monte Carlo)."""


def make_bot(level: str, rng: random.Random | None = None) -> Bot:
    """A bot of the named level; unknown levels are a clear error."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r} (choose {', '.join(LEVELS)})") from None
    return cls(rng=rng)
