"""A Session with nothing behind it, for UI tests (DESIGN.md 1: "plus a fake for UI tests").

``FakeSession`` serves the SeatViews a test gives it, records what the screen sends (actions,
chat, "the result has been seen"), and passes on the Updates a test pushes. No dealer, no
bots, no clock: the table stays exactly as the test set it, so a screen test reads the
screen's own behaviour and nothing else.

    session = FakeSession.of_table(table_until(rules, seats, seed, stop))
    app = app_for(session)
    ...
    session.push(Update(note="hello"), views=FakeSession.views_of(table))

The views are usually taken from a ``Table`` a helper played to the moment a test needs
(``ui_pilot.table_until``), or built by hand; either way the session only hands them out.
"""

from __future__ import annotations

import asyncio
from typing import AsyncIterator, Iterable, Mapping, Sequence

from pokeroulette_tui.engine.actions import Action, IllegalAction
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.session import Session, Update, queued_updates


class FakeSession(Session):
    """Scripted views and updates; records everything the UI asks of it.

    ``views`` maps a seat (None for the public view) to what that seat sees; a seat with no
    view of its own is shown the public one. ``refuse`` makes :meth:`act` raise
    IllegalAction with that reason (the screen shows it). ``chat`` turns the chat key on.
    """

    def __init__(self, views: Mapping[int | None, SeatView], *,
                 local_seats: Sequence[int] = (0,), history: Iterable[Sequence[Event]] = (),
                 fairness: str = "", chat: bool = False, holds_results: bool = True,
                 has_lobby: bool = False, game_started: bool = True,
                 refuse: str = "") -> None:
        if None not in views:
            raise ValueError("a FakeSession needs the public view (key None)")
        self.views: dict[int | None, SeatView] = dict(views)
        self.rules: RuleSet = self.views[None].rules
        self.local_seats = tuple(local_seats)
        self.fairness = fairness
        self.holds_results = holds_results
        self.has_lobby = has_lobby
        self.game_started = game_started
        self.refuse = refuse
        self._chat = chat
        self._history = [list(hand) for hand in history]
        self._queue: asyncio.Queue[Update] = asyncio.Queue()
        # what the UI did
        self.acts: list[Action] = []
        self.chats: list[str] = []
        self.views_asked: list[int | None] = []
        self.results_seen = 0
        self.started = False
        self.closed = False

    # -- building one ---------------------------------------------------------------------
    @staticmethod
    def views_of(table, seats: Iterable[int] | None = None) -> dict[int | None, SeatView]:
        """The public view of a ``Table`` and those of ``seats`` (default: its human seats)."""
        seats = table.human_seats if seats is None else seats
        views: dict[int | None, SeatView] = {None: table.view(None)}
        views.update({seat: table.view(seat) for seat in seats})
        return views

    @classmethod
    def of_table(cls, table, **options) -> FakeSession:
        """A still picture of ``table``: its views, its human seats played here, and its
        history as those seats may see it."""
        from pokeroulette_tui.engine.events import redact_all

        seats = tuple(options.setdefault("local_seats", tuple(table.human_seats)))
        viewer = seats[0] if len(seats) == 1 else None
        options.setdefault("history", [redact_all(hand, viewer) for hand in table.history])
        return cls(cls.views_of(table, seats), **options)

    # -- what a test does -----------------------------------------------------------------
    def push(self, update: Update | None = None, *,
             views: Mapping[int | None, SeatView] | None = None) -> Update:
        """Change the views (if given), then hand ``update`` to the screen (an empty one if
        None): the screen reads the views again when it handles it."""
        if views is not None:
            self.views.update(views)
            self.rules = self.views[None].rules
        update = update if update is not None else Update()
        self._queue.put_nowait(update)
        return update

    def add_hand(self, events: Sequence[Event]) -> None:
        """One more hand in the history the screens read."""
        self._history.append(list(events))

    # -- the Session ----------------------------------------------------------------------
    @property
    def can_chat(self) -> bool:
        return self._chat

    async def chat(self, text: str) -> None:
        if not self._chat:
            await super().chat(text)  # refuses, as a table without chat does
        self.chats.append(text)

    def view(self, seat: int | None) -> SeatView:
        self.views_asked.append(seat)
        return self.views.get(seat, self.views[None])

    async def act(self, action: Action) -> None:
        if action.seat not in self.local_seats:
            raise IllegalAction("that seat is not played at this terminal")
        if self.refuse:
            raise IllegalAction(self.refuse)
        self.acts.append(action)

    def updates(self) -> AsyncIterator[Update]:
        return queued_updates(self._queue)

    def history(self) -> list[list[Event]]:
        return [list(hand) for hand in self._history]

    async def next_hand(self) -> None:
        self.results_seen += 1

    async def start(self) -> None:
        self.started = True

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(Update(closed=True))
