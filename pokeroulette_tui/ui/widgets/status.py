"""The one-line status bar: hand, phase, who is to act, whose eyes the table is seen with."""

from __future__ import annotations

import asyncio
import re

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.renderables import styled
from pokeroulette_tui.ui.widgets.present import phase_text


def fairness_badge(summary: str) -> Text:
    """A short mark for the deck check of network play ("" for a local table).

    >>> str(fairness_badge("deck check ✓ hand 3: all 12 cards you were shown match ..."))
    'deck ✓ 12'
    >>> str(fairness_badge("deck check FAILED (hand 2): card 7 does not match"))
    'deck ✗ FAILED'

    The summary is in the player's language: a failure says FAILED or ✗, a pass ✓ and
    then the hand and the count of cards checked, in that order in every language.

    >>> str(fairness_badge("pakan tarkistus ✓ jako 1: kaikki sinulle näytetyt kortit (14) ..."))
    'deck ✓ 14'
    """
    if not summary:
        return Text()
    if "FAILED" in summary or "✗" in summary:
        return Text(_("deck ✗ FAILED"), style="bold reverse")
    if "✓" in summary:
        numbers = re.findall(r"\d+", summary)
        return Text(_("deck ✓ {n}").format(n=numbers[1]) if len(numbers) > 1 else _("deck ✓"),
                    style="bold")
    return Text(_("deck ?"), style="italic")


def status_text(view: SeatView, hot_seat: bool, seconds_left: int | None = None,
                fairness: str = "", armed: str = "", width: int | None = None,
                unsaved: bool = False) -> Text:
    """One line: hand, phase, who is to act (and how long is left), whose eyes, in network
    play the deck check, and what is ``armed`` (a pre-action, skipping to your turn); first,
    while the game is ``unsaved`` (saving fails), a mark that says so.

    With ``width``, parts the rest of the screen also says are left out whole, one after
    another, until the line fits: the phase, then the hand (the centre shows both). Who is
    to act, the time left, the deck check, what is armed and the unsaved mark always stay,
    and so does whose eyes the table is seen with (``seen by Ana``, ``[public view]``):
    in hot-seat, who may look now is the one thing the line must never lose. Should even
    that not fit (long names), whose eyes moves to the front, where nothing cuts it.

    >>> from pokeroulette_tui.engine.rules import RuleSet
    >>> from pokeroulette_tui.engine.game import new_game
    >>> from pokeroulette_tui.engine.view import view_for
    >>> v = view_for(new_game(RuleSet(), ["Ann", "Bo", "Cy"], seed=1), 0)
    >>> str(status_text(v, False, unsaved=True, width=20))
    '⚠ not saved'

    Hot-seat, the game not saved, 40 columns: the phase and the hand go, whose eyes stays.

    >>> from dataclasses import replace
    >>> v = replace(v, hand_no=3, to_act=0, dealer_step=False)
    >>> str(status_text(v, True, unsaved=True, width=40))
    '⚠ not saved  Ann to act  seen by Ann'
    """
    hand = Text(_("Hand {n}").format(n=view.hand_no), style="bold") if view.hand_no else None
    phase = Text(phase_text(view))
    turn = None
    if view.to_act is not None and not view.dealer_step and not view.game_over:
        turn = styled(_("{name} to act"), name=Text(view.players[view.to_act].name, style="bold"))
        if seconds_left is not None:
            turn.append(" " + _("({n}s left)").format(n=seconds_left), style="bold")
    eyes = None
    if view.seat is None:
        eyes = Text(_("[public view]") if hot_seat else _("[watching]"), style="italic")
    elif hot_seat:  # one player at this terminal: whose eyes goes without saying
        eyes = styled(_("seen by {name}"), name=Text(view.players[view.seat].name, style="bold"))
    badge = fairness_badge(fairness) or None
    mark = Text(f"▶ {armed}", style="bold reverse") if armed else None
    not_saved = Text("⚠ " + _("not saved"), style="bold reverse") if unsaved else None

    def line(*, show_phase: bool = True, show_hand: bool = True,
             eyes_first: bool = False) -> Text:
        out = Text()
        head = [t for t, shown in ((hand, show_hand), (phase, show_phase), (turn, True))
                if t is not None and shown]
        turn_part = Text(" · ").join(head) if head else None
        parts = ((not_saved, eyes, turn_part, badge, mark) if eyes_first
                 else (not_saved, turn_part, eyes, badge, mark))
        for t in parts:
            if t is not None:
                if out.cell_len:
                    out.append("  ")
                out.append_text(t)
        return out

    out = line()
    if not width or out.cell_len <= width:
        return out
    for less in ({"show_phase": False}, {"show_phase": False, "show_hand": False},
                 {"show_phase": False, "show_hand": False, "eyes_first": True}):
        out = line(**less)
        if out.cell_len <= width:
            break
    return out


class StatusLine(Widget):
    """Hand number, phase and turn; says when the table shows only public cards."""

    DEFAULT_CSS = """
    StatusLine { height: 1; }
    """

    view: reactive[SeatView | None] = reactive(None)
    hot_seat: reactive[bool] = reactive(False)
    deadline: reactive[float | None] = reactive(None)
    """Event-loop time when the current turn times out (network play), or None."""
    fairness: reactive[str] = reactive("")
    """The deck check's summary in network play (RemoteSession.fairness), "" locally."""
    armed: reactive[str] = reactive("")
    """A pre-action armed, or skipping to a turn, in words ("" for none)."""
    unsaved: reactive[bool] = reactive(False)
    """The game is not being saved (its saving failed): a mark says so until it works again."""

    def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        if self.deadline is not None:
            self.refresh()

    def render(self) -> Text:
        if self.view is None:
            return Text(_("Poker Roulette"))
        left = None
        if self.deadline is not None:
            left = max(0, round(self.deadline - asyncio.get_running_loop().time()))
        return status_text(self.view, self.hot_seat, left, self.fairness, self.armed,
                           width=self.content_size.width or None, unsaved=self.unsaved)
