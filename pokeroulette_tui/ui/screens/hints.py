"""Hints at the table: key i shows this seat's odds beside the table, key w the "what beats
what" card of this table's rules.

:class:`TableHints` is a mixin of :class:`~pokeroulette_tui.ui.screens.table.TableScreen`
(it uses the screen's ``view``, ``session`` and ``seating``). Hints are for the seat at this
terminal only, from its own view: in hot-seat only for the seat whose cards are on screen
(after its privacy screen, until its decision); never for a spectator; in network play only
when the host allows them (:attr:`Session.hints_allowed`); and never when the player turned
them off (the setting "Hints", :attr:`AppConfig.hints`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from rich.text import Text
from textual.binding import Binding
from textual.events import Resize

from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.ui.hints import beats_text
from pokeroulette_tui.ui.screens.rules import RulesScreen
from pokeroulette_tui.ui.widgets.hints import HintsPanel

if TYPE_CHECKING:
    from pokeroulette_tui.engine.view import SeatView
    from pokeroulette_tui.session import Session
    from pokeroulette_tui.ui.screens.seating import Seating

HINT_BINDINGS = [
    Binding("i", "hints", N_("Hints"), show=False),
    Binding("w", "beats", N_("What beats what"), show=False),
]

ROOMY = (120, 36)
"""From this size on (columns, rows) the hints sit above the log with the ranking card."""


class TableHints:
    """Keys i and w of the table screen, and the hints panel's attributes."""

    view: SeatView | None
    session: Session
    seating: Seating
    hints_for: frozenset[int] = frozenset()
    """The people at this terminal who turned their hints on (i): each person's own choice
    (at one keyboard, one player's hints do not open for the next)."""

    key_holder: Callable[[], int | None]  # (TablePace's: the screen has both)

    def hints_person(self) -> int | None:
        """Whose hints i turns on or off: the person whose cards are on screen; else the
        person who has the keyboard (hot-seat, between turns) or the one person here."""
        v = self.view
        if v is not None and v.seat is not None and v.seat in self.seating.humans:
            return v.seat
        return self.key_holder()

    @property
    def hints_shown(self) -> bool:
        """Whether that person turned their hints on."""
        person = self.hints_person()
        return person is not None and person in self.hints_for

    def hints_refusal(self) -> str | None:
        """Why hints cannot be shown at this terminal now, or None."""
        if not self.seating.humans:  # (before the host's word: there is no seat to help)
            return _("You are watching this table: hints are for a player's own seat.")
        if not self.session.hints_allowed:
            return _("The host does not allow hints at this table.")
        config = getattr(self.app, "config", None)  # type: ignore[attr-defined]
        if not getattr(config, "hints", True):  # the setting (an app without one: on)
            return _("Hints are turned off: turn them on in the table setup (Hints).")
        return None

    def hint_view(self) -> SeatView | None:
        """The view hints may be computed from: a local person's own seat, and in hot-seat
        only while that person's cards are on screen (else None: no numbers at all)."""
        v = self.view
        if v is None or v.seat is None or v.seat not in self.seating.humans:
            return None
        if self.seating.viewer != v.seat:
            return None
        return v

    def action_hints(self) -> None:
        refusal = self.hints_refusal()
        if refusal is not None and not self.hints_shown:
            self.notify(refusal, title=_("Hints"), markup=False)  # type: ignore[attr-defined]
            return
        person = self.hints_person()
        if person is None:
            return
        self.hints_for = self.hints_for ^ {person}
        if self.seating.hot_seat and self.hint_view() is None:  # (between turns: said)
            name = self.session.view(None).players[person].name
            self.notify((_("Hints on for {name}: they show on their turn.") if self.hints_shown
                         else _("Hints off for {name}.")).format(name=name),
                        title=_("Hints"), markup=False)  # type: ignore[attr-defined]
        self.update_hints()

    def action_beats(self) -> None:
        pub = self.session.view(None)
        self.app.push_screen(BeatsScreen(pub.rules, pub.suit_order))  # type: ignore[attr-defined]

    def on_resize(self, event: Resize) -> None:
        """(Runs after the table's own resize handler: Textual calls each class's.)"""
        self.update_hints()

    def update_hints(self) -> None:
        """Hand the panel what it may show now (called with every new look at the table)."""
        panel = self._one(HintsPanel)  # type: ignore[attr-defined]
        log = self._one("#log")  # type: ignore[attr-defined]
        on = self.hints_shown and self.hints_refusal() is None
        if self.seating.hot_seat and self.hint_view() is None:
            on = False  # (between turns at one keyboard: the log, not an empty panel)
        width, height = self.app.size  # type: ignore[attr-defined]
        roomy = width >= ROOMY[0] and height >= ROOMY[1]
        panel.display = on
        log.display = not on or roomy
        panel.styles.height = "auto" if roomy else "1fr"
        panel.wide = roomy
        panel.hot_seat = self.seating.hot_seat
        panel.allowed = on
        panel.public = self.session.view(None) if on else None
        panel.view = self.hint_view() if on else None


class BeatsScreen(RulesScreen):
    """What beats what at this table: the categories with its options, and ties."""

    BINDINGS = [Binding("escape,w,q", "close", N_("Close"))]
    HEADING = N_("What beats what at this table, best first")
    BOX = "beats-box"

    def body(self) -> Text:
        return beats_text(self.rules, self.suit_order)
