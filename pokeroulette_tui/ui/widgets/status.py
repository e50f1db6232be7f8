"""The one-line status bar: hand, phase, who is to act, whose eyes the table is seen with."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.widgets.present import phase_text


def status_text(view: SeatView, hot_seat: bool, seconds_left: int | None = None) -> Text:
    """One line: hand, phase, who is to act (and how long is left), whose eyes."""
    out = Text()
    if view.hand_no:
        out.append(f"Hand {view.hand_no}", style="bold")
        out.append(" · ")
    out.append(phase_text(view))
    if view.to_act is not None and not view.dealer_step and not view.game_over:
        out.append(" · ")
        out.append(view.players[view.to_act].name, style="bold")
        out.append(" to act")
        if seconds_left is not None:
            out.append(f" ({seconds_left}s left)", style="bold")
    if view.seat is None:
        out.append("  [public view]" if hot_seat else "  [watching]", style="italic")
    elif hot_seat:  # one player at this terminal: whose eyes goes without saying
        out.append("  seen by ")
        out.append(view.players[view.seat].name, style="bold")
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

    def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        if self.deadline is not None:
            self.refresh()

    def render(self) -> Text:
        if self.view is None:
            return Text("Poker Roulette")
        left = None
        if self.deadline is not None:
            left = max(0, round(self.deadline - asyncio.get_running_loop().time()))
        return status_text(self.view, self.hot_seat, left)
