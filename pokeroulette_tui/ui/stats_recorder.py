"""Recording statistics from what the table screen is shown: the seats played here only.

The table screen hands each session update to :meth:`StatsRecorder.on_update`. For every
seat played at this terminal (hot-seat: each person; a network client: its one seat; a
spectator: none) it looks at that seat's own view, so it sees that seat's cards and the
public table, never another seat's hidden cards. When a hand's result arrives it appends
one line per player to the statistics folder; when the game ends, one more. Nothing here
may stop the game: any trouble becomes one message for the screen to show.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Callable

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.result import HandResult
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.stats import (GameRecord, HandWatcher, PlayerStats, hand_record,
                                           preset_of, seat_sig, standing_place)
from pokeroulette_tui.engine.stats_store import StatsStore
from pokeroulette_tui.session import Session, Update

log = logging.getLogger(__name__)


def stats_store() -> StatsStore:
    """The statistics folder of this user: ``stats`` in the data folder."""
    from pokeroulette_tui.paths import data_home

    return StatsStore(data_home() / "stats")


def now_text() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


class StatsRecorder:
    """Turns one table's updates into statistics for the people playing it here."""

    def __init__(self, store: StatsStore | None = None, *,
                 clock: Callable[[], str] = now_text) -> None:
        self._store = store
        self.clock = clock
        self._books: dict[str, PlayerStats] = {}
        self._watchers: dict[int, HandWatcher] = {}
        self._presets: list[tuple[str, RuleSet]] | None = None
        self._ended = False
        self._complained = False

    @property
    def store(self) -> StatsStore:
        if self._store is None:
            self._store = stats_store()
        return self._store

    def on_update(self, session: Session, update: Update) -> str | None:
        """Record what ``update`` ends (a hand, the game); returns a message to show, if any."""
        if not session.local_seats or not (update.events or update.result is not None
                                            or update.note == "game over"):
            return None
        complaint = None
        try:
            self._on_update(session, update)
        except OSError as exc:
            complaint = self._complain(_("Statistics could not be saved ({reason}); the game goes "
                                         "on.").format(reason=exc.strerror or exc))
        except Exception as exc:  # never stop a game for its statistics
            log.exception("recording statistics failed")
            complaint = self._complain(_("Statistics could not be recorded ({reason}); the game "
                                         "goes on.").format(reason=type(exc).__name__))
        store = self._store
        problems = list(store.problems) if store is not None else []
        if store is not None:
            store.problems.clear()
        return "\n".join([*problems, *([complaint] if complaint else [])]) or None

    def _complain(self, message: str) -> str | None:
        if self._complained:  # once a table: a full disk does not toast every hand
            return None
        self._complained = True
        return message

    def _on_update(self, session: Session, update: Update) -> None:
        result = update.result
        started = any(e.kind == "hand_started" for e in update.events)
        for seat in session.local_seats:
            # (the view that came with these events: a network table may have dealt again)
            view = update.view if update.view is not None and update.view.seat == seat \
                else session.view(seat)
            me = view.players[seat] if 0 <= seat < len(view.players) else None
            if me is None or me.is_bot:
                continue
            watcher = self._watchers.setdefault(seat, HandWatcher())
            if view.hand_no == watcher.hand_no or result is None or view.hand_no == result.hand_no:
                # (not a view already of the next hand before its result)
                watcher.see(view, started=started)
            if result is not None and self._played(seat, result, watcher):
                book = self._book(me.name)
                rec = book.add_hand(hand_record(me.name, view, result, watcher, at=self.clock(),
                                                preset=preset_of(view.rules, self._saved())))
                if rec is not None:
                    self.store.append(me.name, [rec])
            watcher.see(view, started=started)
        pub = session.view(None)
        if pub.game_over and not self._ended:
            self._ended = True
            self._record_end(session)

    @staticmethod
    def _played(seat: int, result: HandResult, watcher: HandWatcher) -> bool:
        """``seat`` took part in the hand: it was dealt in, showed or won (a seat that
        has left, or sits out, plays no hand).

        Dealt in is what the seat's view says (``in_hand``, kept until the next deal), not
        whether cards were seen: a seat that folded before a quit holds none when the game
        is resumed (its cards went to the discards face down), yet it played that hand."""
        dealt = watcher.hand_no == result.hand_no and (watcher.dealt or bool(watcher.cards))
        return dealt or result.hand(seat) is not None or seat in result.winners

    def _record_end(self, session: Session) -> None:
        for seat in session.local_seats:
            view = session.view(seat)
            me = view.players[seat]
            if me.is_bot:
                continue
            book = self._book(me.name)
            game = book.open_game(seat_sig(view))
            if game is None:  # no hand of this game was recorded: nothing to close
                continue
            place, won = standing_place(view, seat)
            preset = preset_of(view.rules, self._saved())
            rec = book.add_game(GameRecord(player=me.name, at=self.clock(), game=game,
                                           variant=view.rules.variant, preset=preset,
                                           hands=view.hand_no, place=place, won=won,
                                           reason=view.game_over_reason))
            if rec is not None:
                self.store.append(me.name, [rec])

    def _book(self, player: str) -> PlayerStats:
        book = self._books.get(player)
        if book is None:
            book = self._books[player] = self.store.load(player)
        return book

    def _saved(self) -> list[tuple[str, RuleSet]]:
        """The presets saved at this terminal (read once a table)."""
        if self._presets is None:
            try:
                from pokeroulette_tui.paths import saved_presets

                self._presets = [(p.name, p.rules) for p in saved_presets().scan()[0]
                                 if not p.built_in]
            except Exception:  # a presets folder in trouble names no preset
                self._presets = []
        return self._presets
