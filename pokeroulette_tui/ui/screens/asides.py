"""The table's side screens and leaving it: discards, history, rules, the last result, help.

A mixin of :class:`~pokeroulette_tui.ui.screens.table.TableScreen` (it uses the screen's
``view``, ``session``, ``seating`` and ``last_result``). Each side screen is imported when
first opened, so the table comes up sooner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokeroulette_tui.engine.actions import IllegalAction, Leave
from pokeroulette_tui.engine.i18n import _

if TYPE_CHECKING:
    from pokeroulette_tui.engine.view import SeatView
    from pokeroulette_tui.session import Session
    from pokeroulette_tui.ui.screens.seating import Seating
    from pokeroulette_tui.ui.screens.showdown import HandResult


class TableAsides:
    """Keys d, h, u, s, m, ? and l of the table screen."""

    view: SeatView | None
    session: Session
    seating: Seating
    last_result: HandResult | None

    def action_discards(self) -> None:
        from pokeroulette_tui.ui.screens.discards import DiscardsScreen

        if self.view is not None:
            self.app.push_screen(DiscardsScreen(self.view.discards, four_color=self._four()))

    def action_history(self) -> None:
        from pokeroulette_tui.ui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen(self.session.history(), me=self.session.log_viewer,
                                           session=self.session))

    def action_rules(self) -> None:
        from pokeroulette_tui.ui.screens.rules import RulesScreen

        suit_order = self.view.suit_order if self.view is not None else None
        self.app.push_screen(RulesScreen(self.session.rules, suit_order))

    def action_last_hand(self) -> None:
        from pokeroulette_tui.ui.screens.showdown import ShowdownScreen

        if self.last_result is not None:
            self.app.push_screen(ShowdownScreen(self.last_result, four_color=self._four()),
                                 self._showdown_closed)

    def action_chat(self) -> None:
        """Network play: a line of chat to everyone at the table (shown as plain text)."""
        from pokeroulette_tui.ui.screens.chat import ChatScreen

        if not self.session.can_chat:
            return

        async def sent(text: str | None) -> None:
            if text:
                await self.session.chat(text)

        # the messages so far, as the client keeps them (a session without them has none)
        self.app.push_screen(ChatScreen(self.session.chat_lines), sent)

    def action_help(self) -> None:
        from pokeroulette_tui.ui.screens.help import HelpScreen

        # one help screen for the whole run: drawn once, it opens at once the next time
        if not self.app.is_screen_installed("help"):
            self.app.install_screen(HelpScreen(), "help")
        self.app.push_screen("help")

    # -- leaving --------------------------------------------------------------
    def _leaver(self) -> int | None:
        """The seat the leave key is for: the local player whose cards are shown, if any."""
        v = self.view
        if v is None or v.seat is None or v.game_over or v.seat not in self.seating.humans:
            return None
        return None if v.players[v.seat].status == "left" else v.seat

    def action_leave(self) -> None:
        seat = self._leaver()
        if seat is None or self.view is None:
            return
        from pokeroulette_tui.ui.screens.leave import LeaveScreen

        name = self.view.players[seat].name

        async def done(leave: bool | None) -> None:
            if leave:
                await self.leave(seat)

        self.app.push_screen(LeaveScreen(name), done)

    async def leave(self, seat: int) -> None:
        """``seat`` leaves the table; the game goes on with the other players.

        With no other local player left this terminal watches (public cards only).
        """
        name = self.session.view(None).players[seat].name
        try:
            await self.session.act(Leave(seat=seat))
        except IllegalAction as exc:
            self.notify(str(exc), title=_("Not allowed"), severity="warning", markup=False)
            return
        self.seating.leave(seat)
        if not self.session.view(None).game_over:
            said = (_("{name} left the table. The game goes on.") if self.seating.humans
                    else _("{name} left the table. The others play on: watch, or press q to quit."))
            self.notify(said.format(name=name), title=_("Table"), markup=False)
        self.refresh_view()
