"""Bots: each sees only its seat's view and the legal actions, and picks one.

Levels: ``random`` (any legal action), ``simple`` (rules of thumb, :mod:`.simple`) and
``strong`` (Monte Carlo over the cards it cannot see, :mod:`.strong`). A bot may answer a
bet or raise with any amount inside ``view.options``, not only the listed min and max.

Importing this package is cheap: the level names are known at once, and a level's module
(and the engine with it) loads the first time a bot of that level is made.
"""

from __future__ import annotations

import importlib
import random
from typing import TYPE_CHECKING, Iterator, MutableMapping, Protocol

if TYPE_CHECKING:
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


class Levels(MutableMapping[str, type]):
    """Level name -> bot class, in order, weakest first. A class given as
    ``"module:Name"`` is imported the first time it is looked up.

    >>> levels = Levels({"random": RandomBot, "simple": "pokeroulette_tui.bots.simple:SimpleBot"})
    >>> list(levels), levels["simple"].__name__
    (['random', 'simple'], 'SimpleBot')
    """

    def __init__(self, classes: dict[str, type | str]) -> None:
        self._classes = dict(classes)

    def __getitem__(self, level: str) -> type:
        cls = self._classes[level]
        if isinstance(cls, str):
            module, _, name = cls.partition(":")
            cls = self._classes[level] = getattr(importlib.import_module(module), name)
        return cls

    def __setitem__(self, level: str, cls: type) -> None:
        self._classes[level] = cls

    def __delitem__(self, level: str) -> None:
        del self._classes[level]

    def __iter__(self) -> Iterator[str]:
        return iter(self._classes)

    def __len__(self) -> int:
        return len(self._classes)

    def __contains__(self, level: object) -> bool:
        return level in self._classes

    def __repr__(self) -> str:
        return f"Levels({list(self._classes)})"


LEVELS: MutableMapping[str, type] = Levels({
    "random": RandomBot,
    "simple": "pokeroulette_tui.bots.simple:SimpleBot",
    "strong": "pokeroulette_tui.bots.strong:StrongBot",
})
"""Bot levels, weakest first: random, simple (rules of thumb), strong (Monte Carlo)."""


def level_words(level: str) -> str:
    """A bot level's name in the player's language (a level with no words: its name).

    >>> level_words("simple"), level_words("some_new_level")
    ('simple', 'some_new_level')
    """
    from pokeroulette_tui.engine.i18n import pgettext

    words = {"random": pgettext("bot level", "random"),
             "simple": pgettext("bot level", "simple"),
             "strong": pgettext("bot level", "strong")}
    return words.get(level, level)


def make_bot(level: str, rng: random.Random | None = None) -> Bot:
    """A bot of the named level; unknown levels are a clear error."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r} (choose {', '.join(LEVELS)})") from None
    return cls(rng=rng)
