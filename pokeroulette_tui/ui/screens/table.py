"""The table screen: routes the session's updates down to the widgets and the keys up to the session.

It owns no rules: what may be done comes from the viewer's :class:`SeatView`
(``options``, ``phase``, ``to_act``), and every action goes to ``Session.act``, which
answers with ``IllegalAction`` when the engine says no.
"""

from __future__ import annotations

from functools import partial
from time import monotonic
from typing import TYPE_CHECKING, Any, TypeVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key, Resize
from textual.screen import Screen
from textual.widgets import Static

from pokeroulette_tui.engine.actions import (Action, AllIn, Call, Check, Cut, Discard, Fold,
                                             IllegalAction, MoveStockToActive, PlaceBet, RaiseTo)
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.i18n import N_, _, ngettext
from pokeroulette_tui.engine.phase import BETWEEN_HANDS, Phase
from pokeroulette_tui.engine.result import HandResult as DecidedResult
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.session import Session, Update
from pokeroulette_tui.ui.screens.asides import TableAsides
from pokeroulette_tui.ui.screens.hints import HINT_BINDINGS, TableHints
from pokeroulette_tui.ui.screens.pace import PACE_ACTIONS, PACE_BINDINGS, TablePace
from pokeroulette_tui.ui.screens.seating import Seating
from pokeroulette_tui.ui.widgets.centre import CentreWidget
from pokeroulette_tui.ui.widgets.chat import ChatPanel, chat_notes
from pokeroulette_tui.ui.widgets.footer import TidyFooter
from pokeroulette_tui.ui.widgets.hand import HandPanel
from pokeroulette_tui.ui.widgets.hints import HintsPanel
from pokeroulette_tui.ui.widgets.log import EventLog
from pokeroulette_tui.ui.widgets.seat import SeatWidget, big_seats, seat_columns
from pokeroulette_tui.ui.widgets.status import StatusLine
from pokeroulette_tui.ui.widgets.toosmall import TooSmallNotice, too_small

if TYPE_CHECKING:
    from pokeroulette_tui.ui.screens.showdown import HandResult
    from pokeroulette_tui.ui.stats_recorder import StatsRecorder

# The side screens (help, amounts, showdown …) are imported when first opened: the table
# comes up sooner.

def _unpin_styles_caches() -> None:
    """Textual 8.2 memoizes ``StylesCache.get_inner_outer`` with ``lru_cache`` on the instance
    (textual issue #6665): the last 1,024 widgets' style caches, rendered lines and all, stay
    alive after the widgets are gone. A table makes and drops widgets every hand (the result
    dialog, the footer's keys), so a client grew by megabytes until the cache was full. The
    colours alone decide the answer: cache on them."""
    from functools import lru_cache

    from textual._styles_cache import StylesCache

    if not hasattr(StylesCache.get_inner_outer, "cache_clear"):  # fixed upstream, or patched
        return
    inner_outer = lru_cache(1024)(StylesCache.get_inner_outer.__wrapped__)
    StylesCache.get_inner_outer = (  # type: ignore[method-assign]
        lambda self, base_background, background: inner_outer(None, base_background, background))


_unpin_styles_caches()

BET_ACTIONS = ("check", "call", "bet", "raise", "all_in", "fold")
#: What a table screen offers only while its session is connected (network play): a turn's
#: actions, and what needs the host (leaving, chat).
NEEDS_HOST = (*BET_ACTIONS, "call_all_in", "choose", "keep", "toggle", "draw", "stand_pat",
              "cut", "cut_move", "cut_number", "leave", "chat")
WIDE = 120
HELD_NOTES = 6  # the newest notes that waited for a dialog shown (the chat keeps its lines)
HUGE = 190  # a wider side panel (centre, log, chat)
TALL = 36
WARNING_SECONDS = 20
"""How long a warning from the table (the game is not being saved) stays on screen."""
RESULT_GLANCE = 2.0
"""A hand's result dialog closed by the next deal sooner than this (seconds; a table with
no result pause) leaves a note of the result behind: it was on screen too briefly to read."""


def _digit(i: int) -> str:
    return str((i + 1) % 10)


def calls_all_in(view: SeatView) -> bool:
    """True when calling would cost the seat its whole stack: then ``c`` goes all in (the
    engine offers that call only as an all-in)."""
    o, me = view.options, view.me
    if o is None or me is None or o.check or o.call or not o.all_in:
        return False
    return view.current_bet - me.bet >= me.chips



W = TypeVar("W")


class LinkLine(Static):
    """Network play: a line that says, for as long as it lasts, that the table cannot be
    reached (reconnecting, or why it ended); hidden while connected."""

    DEFAULT_CSS = """
    LinkLine { height: auto; max-height: 3; padding: 0 1; text-style: bold reverse;
               display: none; }
    """


def link_problem(session: Session, view: SeatView | None) -> str:
    """What :class:`LinkLine` says: "" while the session is connected (a local session
    always is), or when the game is over (its end is on screen)."""
    if getattr(session, "connected", True) or (view is not None and view.game_over):
        return ""
    return "⚠ " + (getattr(session, "link_note", "") or _("Not connected to the table"))


def turn_ahead(view: SeatView, seat: int) -> bool:
    """True if ``seat`` will still be asked to decide something: in this hand, or (with
    chips left) in the next. A seat out of the game has no turn ahead, nor one all in with
    nothing left to do in this hand but wait for the showdown."""
    if not 0 <= seat < len(view.players):
        return False
    p = view.players[seat]
    r = view.rules
    if p.status in ("out", "left") or view.game_over:
        return False
    if not r.uses_chips:
        return True  # (no chips, never all in: every hand has turns)
    if view.phase in BETWEEN_HANDS or not p.in_hand or p.folded:
        return p.chips > 0  # the next hand
    if not p.all_in:
        return True
    # all in: only what is not betting is still theirs in this hand
    if r.variant == "draw":
        return (view.phase in (Phase.CUT, Phase.DEALT)
                or view.phase == Phase.BETTING and view.betting_round == "pre_draw"
                or view.phase == Phase.DRAW and seat in view.pending)
    return (r.stock_to_active and view.phase != Phase.FINAL
            and view.betting_round != "final")


class TableScreen(TableAsides, TablePace, TableHints, Screen[None]):
    """A game in progress, seen by the local seat whose turn it is (or publicly)."""

    ONLY_HAND = False
    """No hand follows the one being played (a tutorial's prepared hand)."""
    AUTO_FOCUS = None
    BINDINGS = [
        Binding("c", "check", N_("Check")),
        Binding("c", "call", N_("Call")),
        Binding("c", "call_all_in", N_("Call all in")),
        Binding("b", "bet", N_("Bet")),
        Binding("r", "raise", N_("Raise")),
        Binding("a", "all_in", N_("All in")),
        Binding("f", "fold", N_("Fold")),
        *[Binding(_digit(i), f"choose({i})", N_("Move card"), key_display="1-9", show=i == 0)
          for i in range(10)],
        Binding("k", "keep", N_("Keep stock")),
        *[Binding(str(i + 1), f"toggle({i})", N_("Select"), key_display="1-5", show=i == 0)
          for i in range(5)],
        Binding("enter", "draw", N_("Draw")),
        Binding("p", "stand_pat", N_("Stand pat")),
        Binding("enter", "cut", N_("Cut")),
        Binding("left", "cut_move(-1)", "−1", show=False),
        Binding("right", "cut_move(1)", "+1", show=False),
        Binding("down", "cut_move(-5)", "−5", show=False),
        Binding("up", "cut_move(5)", "+5", show=False),
        Binding("e", "cut_number", N_("Type cut")),
        Binding("enter", "next_hand", N_("Next hand")),
        Binding("enter,g", "standings", N_("Standings"), key_display="⏎/g"),
        Binding("n", "new_game", N_("New game")),
        *PACE_BINDINGS,  # v speed; c/f pre-actions, n skip (not your turn); o sort (draw)
        Binding("d", "discards", N_("Discards"), show=False),
        Binding("h", "history", N_("History"), show=False),
        Binding("u", "rules", N_("Rules"), show=False),
        Binding("s", "last_hand", N_("Last hand"), show=False),
        *HINT_BINDINGS,  # i hints (this seat's odds), w what beats what
        Binding("question_mark,f1", "help", N_("Help")),
        Binding("l,L", "leave", N_("Leave")),
        Binding("m", "chat", N_("Chat")),
        Binding("q", "app.quit", N_("Quit")),
    ]

    def __init__(self, session: Session, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.session = session
        self.seating = Seating(session.local_seats)
        self.view: SeatView | None = None
        self.selected: frozenset[int] = frozenset()
        self.cut_pos = 0
        self.last_result: HandResult | None = None
        self._cut_hand = -1
        self._found: dict[Any, Any] = {}  # widgets looked up once (_one)
        self._hand_events: list[Event] = []
        self._decided: DecidedResult | None = None  # the engine's result of the last hand over
        self._game_over_shown = False
        self._game_over_pending = False
        self._last_to_act: int | None = None
        self._refresh_pending = False
        self._emptying: tuple[int | None, int, int] | None = None  # warned: only stock card
        self._free_fold: tuple[int | None, int, int, str] | None = None  # warned: check is free
        self._not_now: Any = None  # the "Not now" toast up, if any (see _say_not_now)
        self._my_turn = False  # (the turn came to this terminal's viewer: see refresh_view)
        self._deck_toast_until = 0.0  # (monotonic) the last deck check toast is still shown
        self._result_at = 0.0  # (monotonic) when the last hand's result dialog opened
        self._held_notes: list[str] = []  # the table's notes while a dialog covers it
        self._link_said: tuple[str, bool] = ("", False)  # what the LinkLine shows
        # statistics of the seats played here: made at the first update (its modules load
        # then, not on the way to the table)
        self.stats_recorder: StatsRecorder | None = None

    # -- layout -------------------------------------------------------------
    def compose(self) -> ComposeResult:
        pub = self.session.view(None)
        seats = len(pub.players)
        # a resumed table: whoever left it before does not play it again, and a hot-seat
        # table stays one (those who left may still be looking at this terminal)
        local = self.session.local_seats
        self.seating = Seating([s for s in local if pub.players[s].status != "left"],
                               hot=len(local) > 1)
        yield StatusLine(id="status")
        yield LinkLine(id="link")
        with Horizontal(id="main"):
            with VerticalScroll(id="seats", can_focus=False):
                for i in range(seats):
                    yield SeatWidget(i, id=f"seat-{i}")
            with Vertical(id="side"):
                yield CentreWidget(id="centre")
                yield HintsPanel(id="hints")
                yield EventLog(id="log")
                if self.session.can_chat:
                    yield ChatPanel(id="chat")
        yield HandPanel(id="hand")
        yield TooSmallNotice(id="too-small", keys=TooSmallNotice.table_keys)
        yield TidyFooter()

    async def on_mount(self) -> None:
        # (a network table: without what is still on its way in the updates, which would
        # show those events twice)
        past = getattr(self.session, "history_before_updates", self.session.history)()
        if past:  # a resumed table: what happened so far this hand
            self._hand_events = list(past[-1])
            self._one(EventLog).add_events(past[-1], self.session.log_viewer)
            self._recall_last_hand(past)
        self.pump_updates()
        self.refresh_view()
        if self.session.result_pending():  # resumed while the last result waited to be seen
            self.show_hand_result()
        await self.session.start()

    async def on_unmount(self) -> None:
        """Leaving the table (or the app) stops the session; a local one saves first."""
        closer = getattr(self.app, "close_session", None)
        if closer is not None and getattr(self.app, "session", None) is self.session:
            await closer()

    def _one(self, query: type[W] | str) -> W:
        """The screen's one widget of this class (or selector), looked up once: Textual
        caches each query by the state of the screen's children at the time, so looking
        it up on every update filled that cache with entries never used again."""
        widget = self._found.get(query)
        if widget is None or not widget.is_attached:
            widget = self._found[query] = self.query_one(query)
        return widget  # type: ignore[return-value]

    def _seat_widgets(self) -> list[SeatWidget]:
        """The seats' widgets (looked up once, as :meth:`_one`)."""
        seats = self._found.get(SeatWidget)
        if seats is None or not all(w.is_attached for w in seats):
            seats = self._found[SeatWidget] = list(self.query(SeatWidget))
        return seats

    def on_key(self, event: Key) -> None:
        """A table key that does nothing now says why (never silence): a raise when the
        raises are used up, a digit beyond the stock, the last hand before any has ended.
        (The keys bound now come to this too, before their bindings: they are left alone.)
        A player the turn timer marked away comes back with any key on their turn."""
        if getattr(self.session, "away", False) and self._turn() is not None:
            self.run_worker(self.session.here(), group="here", exit_on_error=False)
        if event.key in self.active_bindings or self.has_class("-too-small") \
                or not getattr(self.session, "connected", True):
            return  # (a binding takes it; or the screen says already why nothing is done)
        from pokeroulette_tui.ui.refusals import refusal

        why = refusal(self.view, event.key, players_here=bool(self.seating.humans),
                      ended=self.last_result is not None, can_chat=self.session.can_chat,
                      can_pace=self.session.can_pace,
                      sorted_hand=self.hand_order() is not None,
                      instant=self.session.delay <= 0 and not self.session.skipping,
                      can_start_new=self._can_start_new())
        if why:
            self._say_not_now(why)

    def _say_not_now(self, why: str, title: str = "", severity: str = "information") -> None:
        """A "Not now" toast (or a question before a move), kept so that it goes when the
        player's turn comes, when they act, and when the keyboard passes (its words would be
        wrong then); a new one takes the place of the last (none pile up). Textual 8.2 has
        no public way to take one toast away: the notification is made here and removed
        with ``App._unnotify``."""
        from textual.notifications import Notification, Notify

        self._clear_not_now()
        note = Notification(why, title or _("Not now"), severity,  # type: ignore[arg-type]
                            4 if severity == "information" else 6, markup=False)
        self._not_now = note
        self.app.post_message(Notify(note))

    def _clear_not_now(self) -> None:
        """The "Not now" toast goes (if it is still up): see :meth:`_say_not_now`."""
        note, self._not_now = self._not_now, None
        if note is None:
            return
        if note in self.app._notifications:
            self.app._unnotify(note)
        else:  # (said a moment ago: its message is still on its way, and comes expired)
            note.timeout = 0

    def on_resize(self, event: Resize) -> None:
        """Lay the table out for the terminal: the seats in columns beside a wider side panel
        on wide screens, bigger cards on tall ones, and below 80×24 a notice in place of the
        table (it comes back when the terminal grows)."""
        width, height = event.size
        seats = len(self._seat_widgets())
        small = too_small(width, height)
        if small != self.has_class("-too-small"):
            self.set_class(small, "-too-small")
            self.refresh_bindings()  # no game keys while the table is away
        self._one(TooSmallNotice).size_now = (width, height)
        self.set_class(width >= WIDE, "-wide")
        self.set_class(width >= HUGE, "-huge")
        self.set_class(height >= TALL, "-tall")
        side = 60 if width >= HUGE else 48 if width >= WIDE else 32
        columns = seat_columns(width - side, seats) if width >= WIDE else 1
        for n in (2, 3):
            self.set_class(columns == n, f"-cols-{n}")
        self._one(HandPanel).big = height >= TALL and width >= WIDE
        big = width >= WIDE and big_seats(height, seats, columns)
        for seat in self._seat_widgets():
            seat.big = big

    # -- the session ----------------------------------------------------------
    @work(exclusive=True, group="session-updates")
    async def pump_updates(self) -> None:
        """The one consumer of the session's updates; ends when the screen goes."""
        async for update in self.session.updates():
            self.handle_update(update)
            if update.closed:
                break

    def handle_update(self, update: Update) -> None:
        """Log the events, look at the table again, show a hand's result or the game's end."""
        try:
            self._handle_update(update)
        except NoMatches:  # the screen is being taken down while the table plays on
            pass

    def _handle_update(self, update: Update) -> None:
        hand_over = game_over = False
        for event in update.events:
            if event.kind == "hand_started":
                self._hand_events = []
                self._decided = None
                self._close_stale_result()
            self._hand_events.append(event)
            hand_over |= event.kind == "hand_over"
            game_over |= event.kind == "game_over"
        if update.result is not None:
            self._decided = update.result
        if self.stats_recorder is None:
            from pokeroulette_tui.ui.stats_recorder import StatsRecorder
            self.stats_recorder = StatsRecorder()
        stats_note = self.stats_recorder.on_update(self.session, update)
        if stats_note:
            self.notify(stats_note, title=_("Statistics"), severity="warning", markup=False)
        if update.events:
            self._one(EventLog).add_events(update.events, self.session.log_viewer)
        if update.deadline is not None or update.events:
            self._one(StatusLine).deadline = update.deadline
        table_closed = update.closed and getattr(self.app, "session", None) is self.session \
            and getattr(self.session, "table_closed", True)
        # (not when this terminal closed it: leaving for the start screen, say; nor when
        # only this connection ended: replaced, dropped; the disconnect line says why)
        if update.note == "game over":
            game_over = True
        elif update.note and update.warning:  # (the game is not being saved: to be read)
            self.notify(update.note, title=_("Not saved"), severity="warning", markup=False,
                        timeout=WARNING_SECONDS)
        elif update.note and not table_closed:  # (the host's goodbye: said just below)
            self._toast_note(update.note, hand_over)
        if table_closed:
            self.notify(_("The table has closed."), title=_("Table"), markup=False)
        if game_over or hand_over or self.seating.due(self.session.view(None)):
            self.refresh_view()
        else:
            self._schedule_refresh()
        if hand_over:
            self.show_hand_result()
        if game_over:
            self.show_game_over()

    def _toast_note(self, note: str, hand_over: bool) -> None:
        """A note from the table as a toast. The deck check that comes with each hand's end
        is on the status line too: it is toasted at most once a toast's lifetime, so a fast
        table does not stack a toast per hand (each re-lays the screen, and what Textual
        draws for it fills its caches). Warnings and chat always show."""
        if hand_over and note == self.session.fairness:
            now = monotonic()
            if now < self._deck_toast_until:
                return
            self._deck_toast_until = now + self.app.NOTIFICATION_TIMEOUT
        self._held_notes.append(note)
        # (after this update's own dialogs, a hand's result say, are up: see _show_notes)
        self.call_later(self._show_notes)

    def _covered(self) -> bool:
        """A dialog (help, rules, a hand's result, the chat …) is open over the table."""
        try:
            return self.app.screen is not self
        except Exception:  # noqa: BLE001 - no screen stack (the app is going)
            return True

    def _show_notes(self) -> None:
        """The table's notes as a toast, unless a dialog is open over the table: a toast
        would cover its last lines (or the chat's input line), so they wait until it
        closes, then show as one toast (the newest ``HELD_NOTES``). The open chat shows new
        chat lines in its history at once: those are not toasted again. (Warnings do not
        wait: they are toasted where they are made.)"""
        from pokeroulette_tui.ui.screens.chat import ChatScreen

        if not self._held_notes:
            return
        if self._covered():
            top = self.app.screen
            if isinstance(top, ChatScreen):
                top.show_lines(self.session.chat_lines)
                said = chat_notes(self.session.chat_lines[-50:])
                self._held_notes = [n for n in self._held_notes if n not in said]
            return
        notes, self._held_notes = self._held_notes, []
        notes = list(dict.fromkeys(notes))  # (the same note twice is said once)
        if len(notes) > HELD_NOTES:
            notes = ["…"] + notes[-HELD_NOTES:]
        self.notify("\n".join(notes), title=_("Table"), markup=False)

    def on_screen_suspend(self) -> None:
        """A dialog opens over the table: a "Not now" note was about the table, not it.
        (Textual redraws the toasts of the screen on top only: the table's own, drawn under
        the dialog, are brought up to date here.)"""
        if self._not_now is None:
            return
        self._clear_not_now()
        from textual.widgets._toast import ToastRack

        try:
            self.get_child_by_type(ToastRack).show(self.app._notifications)
        except Exception:  # noqa: BLE001 - no rack (Textual changed): the dialog's own is right
            pass

    def on_screen_resume(self) -> None:
        """The table shows again: the notes that came meanwhile."""
        self._show_notes()

    def _recall_last_hand(self, past: list[list[Event]]) -> None:
        """A resumed table: ``s`` shows the last finished hand, told from its events (the
        engine's verdict on it was not kept, so its hands are shown unnamed)."""
        from pokeroulette_tui.ui.screens.showdown import HandResult

        finished = [hand for hand in past if any(e.kind == "hand_over" for e in hand)]
        if finished:
            self.last_result = HandResult.from_events(finished[-1], self.session.view(None), None)

    def _schedule_refresh(self) -> None:
        """Refresh once for a burst of updates (bots without pauses send many at once)."""
        if not self._refresh_pending:
            self._refresh_pending = True
            self.call_later(self.refresh_view)

    def _close_dialogs(self) -> None:
        """Before the keyboard is handed on, close what the last player opened over the table
        (help, rules, history …): the next one finds the table, not someone else's dialog. A
        hand's result and the game's end stay (everyone reads them)."""
        from pokeroulette_tui.ui.screens.gameover import GameOverScreen
        from pokeroulette_tui.ui.screens.showdown import ShowdownScreen

        self._clear_not_now()  # (the last player's "Not now" notes are not the next one's)
        stack = self.app.screen_stack
        if self not in stack:
            return
        for screen in reversed(stack[stack.index(self) + 1:]):
            if isinstance(screen, (ShowdownScreen, GameOverScreen)):
                return
            self.app.pop_screen()

    def refresh_view(self) -> None:
        """Look at the table again (as the right seat) and hand the view down."""
        self._refresh_pending = False
        pub = self.session.view(None)
        ask = self.seating.look(pub)
        if ask is not None:
            from pokeroulette_tui.ui.screens.privacy import PrivacyScreen

            self._close_dialogs()
            self.app.push_screen(PrivacyScreen(pub.players[ask].name),
                                 partial(self._privacy_passed, ask))
        viewer = self.seating.viewer
        if viewer is not None and viewer not in self.session.local_seats:
            self.seating.leave(viewer)  # (a network seat left: its connection watches now)
            viewer = self.seating.viewer
        view = pub if viewer is None else self.session.view(viewer)
        self.view = view
        view = self.displayed(view)  # (a sorted draw hand; self.view stays as dealt)
        if not (view.my_turn and view.phase == "draw"):
            self.selected = frozenset()
        if view.my_turn and view.phase == "cut" and self._cut_hand != view.hand_no:
            self._cut_hand = view.hand_no
            self.cut_pos = max(1, view.deck_count // 2)
        four = bool(getattr(self.app, "four_color", False))
        for seat in self._seat_widgets():
            seat.four_color = four
            seat.view = view
        centre = self._one(CentreWidget)
        centre.four_color = four
        centre.view = view
        status = self._one(StatusLine)
        status.hot_seat = self.seating.hot_seat
        status.fairness = self.session.fairness or ""
        status.armed = self.armed_text()
        status.unsaved = bool(self.session.save_problem)
        status.view = view
        problem = link_problem(self.session, view)
        if problem:
            status.deadline = None  # no countdown to a turn this terminal cannot play
        link = self._one(LinkLine)
        shown = bool(problem) and not self.has_class("-too-small")
        if (problem, shown) != self._link_said:  # (most refreshes: nothing to redraw)
            self._link_said = (problem, shown)
            link.update(problem)
            link.display = shown
        hand = self._one(HandPanel)
        hand.four_color = four
        hand.hot_seat = self.seating.hot_seat
        hand.selected = self.shown_selection()
        hand.cut = self.cut_pos
        hand.offline = bool(problem)
        hand.result_waits = self._result_waits()
        hand.only_hand = self.ONLY_HAND
        hand.view = view
        if self.session.can_chat:
            self._one(ChatPanel).lines = self.session.chat_lines
        to_act = view.to_act if not view.dealer_step else None
        if to_act is not None and to_act != self._last_to_act:
            self._one("#seats").scroll_to_widget(self._one(f"#seat-{to_act}"), animate=False)
        self._last_to_act = to_act
        my_turn = bool(view.my_turn)
        if my_turn and not self._my_turn:
            self._clear_not_now()
        self._my_turn = my_turn
        self.update_hints()  # after the viewer is settled: hints only ever for that seat
        self.refresh_bindings()  # the footer rebuilds only if its keys changed

    async def retranslate(self) -> None:
        """Say the table's words again in the language just chosen (``PokerApp.switch_language``):
        every widget draws itself again from the current view; a widget with words of its own
        (a border title) says them again. The log keeps the sentences as they were written."""
        self.refresh_view()
        for widget in self.query("*"):
            again = getattr(widget, "retranslate", None)
            if callable(again):
                result = again()
                if hasattr(result, "__await__"):
                    await result
            else:
                widget.refresh(layout=True)

    def _privacy_passed(self, seat: int, _ok: bool | None) -> None:
        self.seating.confirmed(seat, self.session.view(None))
        self.refresh_view()

    def show_hand_result(self) -> None:
        """The result of the hand just over, in a dialog (folds too). A local table deals
        the next hand when it is closed; a network table deals on its own pace."""
        from pokeroulette_tui.ui.screens.showdown import HandResult, ShowdownScreen

        pub = self.session.view(None)
        current = pub.result if pub.phase in ("hand_over", "game_over") else None
        # the result the update brought first: the table may have dealt again meanwhile
        result = HandResult.from_events(self._hand_events, pub, self._decided or current)
        self.last_result = result
        prompt = self._result_prompt(pub)
        deal_at = None if self.session.holds_results else self.session.next_deal
        if isinstance(self.app.screen, ShowdownScreen):
            self.app.screen.deal_at = deal_at
            self.app.screen.prompt = prompt
            self.app.screen.result = result
        else:
            self._result_at = monotonic()
            self.app.push_screen(ShowdownScreen(result, four_color=self._four(), prompt=prompt,
                                                deal_at=deal_at), self._showdown_closed)
        self.refresh_bindings()  # the footer rebuilds only if its keys changed

    def _result_prompt(self, pub: SeatView) -> str:
        """What Enter does on the result dialog, said truthfully (English: the dialog
        translates it)."""
        if pub.game_over:
            return N_("Enter: the final standings")
        if self.session.holds_results:
            return N_("Enter: deal the next hand")
        # TRANSLATORS: {in} becomes " in 5 s" or " now" (keep it as it is)
        return N_("Enter: close · the host deals the next hand{in}")

    def _close_stale_result(self) -> None:
        """A table that paces itself dealt the next hand: the result dialog goes (``s``
        shows it again), so the new hand, and any turn timer, is never behind it."""
        from pokeroulette_tui.ui.screens.showdown import ShowdownScreen

        if not self.session.holds_results and isinstance(self.app.screen, ShowdownScreen):
            self.app.screen.dismiss(None)
            result = self.last_result
            if result is not None and monotonic() - self._result_at < RESULT_GLANCE:
                self._held_notes.append(_("Hand {n}: {summary} · s shows the result again")
                                        .format(n=result.hand_no, summary=result.summary()))
                self.call_later(self._show_notes)

    async def _showdown_closed(self, choice: str | None) -> None:
        """Enter on the result (``"deal"``) deals the next hand on a table that waits for
        it; Esc (None) closes the dialog only: the table waits, and says Enter deals."""
        if choice == "deal" and self.session.result_pending():
            await self.session.next_hand()
        if self._game_over_pending and not self._showing_result():
            self.show_game_over()
        try:
            self.refresh_view()  # (the hand panel and the footer: Enter deals)
        except NoMatches:  # the table is being taken down
            pass

    def _showing_result(self) -> bool:
        """True while a hand's result is open (its screen is on top)."""
        from pokeroulette_tui.ui.screens.showdown import ShowdownScreen

        return isinstance(self.app.screen, ShowdownScreen)

    def show_game_over(self, *, again: bool = False) -> None:
        """The standings, once (``again``: asked for at the table, g or Enter); after the
        last hand's result if that is being read."""
        if self._game_over_shown and not again:
            return
        if self._showing_result():
            self._game_over_pending = True
            return
        self._game_over_shown = True
        self._game_over_pending = False
        from pokeroulette_tui.ui.screens.gameover import GameOverScreen

        can_new = bool(getattr(self.app, "can_start_new", lambda: False)())
        self.app.push_screen(GameOverScreen(self.session.view(None), can_start_new=can_new),
                             self._game_over_choice)

    async def _game_over_choice(self, choice: str | None) -> None:
        if choice == "quit":
            await self.app.action_quit()
        elif choice == "new":
            await self.app.back_to_start()  # type: ignore[attr-defined]
        elif choice == "history":
            self.action_history()
        self.refresh_bindings()  # (the table's own keys: the standings, a new game)

    def _result_waits(self) -> bool:
        """True while a hand's result waits for Enter at the table (its dialog closed)."""
        v = self.view
        return (v is not None and not v.game_over and self.session.holds_results
                and self.session.result_pending())

    async def action_next_hand(self) -> None:
        """Enter at the table while the result waits: the next hand is dealt."""
        if self._result_waits():
            await self.session.next_hand()
            self.refresh_view()

    def action_standings(self) -> None:
        """At game over, back at the table: the standings again."""
        self.show_game_over(again=True)

    async def action_new_game(self) -> None:
        """At game over, back at the table: a new game (the start screen), as the standings'
        n does."""
        await self._game_over_choice("new")

    def _can_start_new(self) -> bool:
        return bool(getattr(self.app, "can_start_new", lambda: False)())

    def _four(self) -> bool:
        return bool(getattr(self.app, "four_color", False))

    # -- keys ---------------------------------------------------------------
    def _turn(self) -> SeatView | None:
        """The view when it is the viewer's decision, else None."""
        v = self.view
        return v if v is not None and v.my_turn else None

    def key_display_for(self, binding: Binding) -> str | None:
        """The footer's keys for moving a stock card: as many as the stock has ("1-2"), not
        always "1-9" (None: the binding's own)."""
        v = self._turn()
        if not binding.action.startswith("choose(") or v is None or v.me is None:
            return None
        n = len(v.me.stock)
        return "1" if n == 1 else f"1-{n}" if n < 10 else "1-9, 0"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.has_class("-too-small") and action not in ("help", "leave", "chat"):
            return False  # nothing is done blind while the table is not on screen
        if action == "skip" and self.view is not None and not any(
                turn_ahead(self.view, seat) for seat in self.seating.humans):
            return False  # no turn of theirs to skip to (busted, or all in to the end)
        if action in PACE_ACTIONS:
            return self.pace_check(action, parameters)
        if action in NEEDS_HOST and not getattr(self.session, "connected", True):
            return False  # the host cannot be reached: the link line says so
        v = self._turn()
        if action in BET_ACTIONS:
            return bool(v and v.options is not None and action in v.options.kinds)
        if action == "call_all_in":
            return v is not None and calls_all_in(v)
        if action in ("choose", "keep"):
            if not (v and v.phase == "stock_to_active" and v.me is not None):
                return False
            return action == "keep" or int(parameters[0]) < len(v.me.stock)  # type: ignore[call-overload]
        if action == "toggle":
            return bool(v and v.phase == "draw" and v.me is not None
                        and int(parameters[0]) < len(v.me.hand))  # type: ignore[call-overload]
        if action in ("draw", "stand_pat"):
            return bool(v and v.phase == "draw")
        if action in ("cut", "cut_move", "cut_number"):
            return bool(v and v.phase == "cut")
        if action == "last_hand":
            return self.last_result is not None
        if action == "next_hand":
            return self._result_waits()
        if action in ("standings", "new_game"):
            over = self.view is not None and self.view.game_over and self._game_over_shown
            return over and (action == "standings" or self._can_start_new())
        if action == "leave":
            return self._leaver() is not None
        if action == "chat":
            return self.session.can_chat
        return True

    async def act(self, action: Action) -> None:
        """Send an action; the engine's refusal becomes a message, never a crash."""
        try:
            await self.session.act(action)
        except IllegalAction as exc:
            self.notify(str(exc), title=_("Not allowed"), severity="warning", markup=False)
        else:
            self.seating.acted(action.seat)  # hot-seat: public again before the next frame
            self._keyboard = action.seat     # (who has the keyboard: pre-action keys are theirs)
            self._clear_not_now()  # (what they said was about the move just made)
        self.refresh_view()

    def _seat(self) -> int:
        assert self.view is not None and self.view.seat is not None
        return self.view.seat

    async def action_check(self) -> None:
        await self.act(Check(seat=self._seat()))

    async def action_call(self) -> None:
        await self.act(Call(seat=self._seat()))

    async def action_call_all_in(self) -> None:
        await self.act(AllIn(seat=self._seat()))

    async def action_all_in(self) -> None:
        await self.act(AllIn(seat=self._seat()))

    async def action_fold(self) -> None:
        v = self._turn()
        if v is not None and v.options is not None and v.options.check:
            moment = (v.seat, v.hand_no, v.round_no, v.betting_round)
            if self._free_fold != moment:  # folding for nothing: say so once, then do it
                self._free_fold = moment
                self._say_not_now(_("Checking is free: f again folds, c checks."),
                                  title=_("Fold"), severity="warning")
                return
        await self.act(Fold(seat=self._seat()))

    async def action_bet(self) -> None:
        from pokeroulette_tui.ui.screens.amount import bet_presets

        v = self._turn()
        if v is not None and v.options is not None and v.options.bet_min:
            await self._ask_amount(N_("Bet"), v.options.bet_min, v.options.bet_max, PlaceBet,
                                   bet_presets(v))

    async def action_raise(self) -> None:
        from pokeroulette_tui.ui.screens.amount import raise_presets

        v = self._turn()
        if v is not None and v.options is not None and v.options.raise_min:
            await self._ask_amount(N_("Raise to"), v.options.raise_min, v.options.raise_max, RaiseTo,
                                   raise_presets(v))

    async def _ask_amount(self, title: str, lo: int, hi: int, kind: type[PlaceBet] | type[RaiseTo],
                          presets: list[tuple[str, int]]) -> None:
        from pokeroulette_tui.ui.screens.amount import AmountScreen

        seat = self._seat()
        if lo == hi:
            await self.act(kind(seat=seat, amount=lo))
            return

        async def done(amount: int | None) -> None:
            if amount is not None:
                await self.act(kind(seat=seat, amount=amount))

        self.app.push_screen(AmountScreen(title, lo, hi, presets=presets), done)

    async def action_choose(self, index: int) -> None:
        v = self._turn()
        if v is not None and v.me is not None and len(v.me.stock) == 1:
            moment = (v.seat, v.hand_no, v.round_no)
            if self._emptying != moment:  # the only stock card: say so once, then do it
                self._emptying = moment
                self._say_not_now(_("That is your only stock card: your stock would be empty. "
                                    "Press 1 again to move it, or k to keep it."),
                                  title=_("Stock to active"), severity="warning")
                return
        await self.act(MoveStockToActive(seat=self._seat(), index=index))

    async def action_keep(self) -> None:
        await self.act(MoveStockToActive(seat=self._seat(), index=None))

    def action_toggle(self, index: int) -> None:
        v = self._turn()
        if v is None:
            return
        index = self.hand_index(index)  # the card shown there (the hand may be sorted)
        if index in self.selected:
            self.selected = self.selected - {index}
        elif len(self.selected) >= v.rules.max_draw:
            limit = v.rules.max_draw
            self.notify(ngettext("You may exchange at most {n} card.",
                                 "You may exchange at most {n} cards.", limit).format(n=limit),
                        title=_("Draw"), severity="warning", markup=False)
            return
        else:
            self.selected = self.selected | {index}
        self._one(HandPanel).selected = self.shown_selection()

    async def action_draw(self) -> None:
        if not self.selected:  # Enter alone never stands pat by surprise
            limit = self.view.rules.max_draw if self.view is not None else 3
            self.notify(_("No card chosen: press 1–5 to pick up to {n} to exchange, then "
                          "Enter; or p to stand pat (keep all five).").format(n=limit),
                        title=_("Draw"), markup=False)
            return
        await self.act(Discard(seat=self._seat(), indices=tuple(sorted(self.selected))))

    async def action_stand_pat(self) -> None:
        self.selected = frozenset()
        await self.act(Discard(seat=self._seat(), indices=()))

    def _set_cut(self, position: int) -> None:
        v = self._turn()
        if v is None:
            return
        self.cut_pos = max(1, min(v.deck_count - 1, position))
        self._one(HandPanel).cut = self.cut_pos

    def action_cut_move(self, delta: int) -> None:
        self._set_cut(self.cut_pos + delta)

    async def action_cut(self) -> None:
        await self.act(Cut(seat=self._seat(), position=self.cut_pos))

    def action_cut_number(self) -> None:
        from pokeroulette_tui.ui.screens.amount import AmountScreen

        v = self._turn()
        if v is None:
            return
        top = v.deck_count - 1

        def done(position: int | None) -> None:
            if position is not None:
                self._set_cut(position)

        self.app.push_screen(AmountScreen(N_("Cut after"), 1, top, default=self.cut_pos,
                                          unit="cards", keys="oqml",
                                          presets=[(N_("one"), 1), (N_("quarter"), top // 4),
                                                   (N_("middle"), (top + 1) // 2),
                                                   (N_("last"), top)]), done)

    async def on_hand_panel_card_clicked(self, message: HandPanel.CardClicked) -> None:
        if message.kind == "stock" and self.check_action("choose", (message.index,)):
            await self.action_choose(message.index)
        elif message.kind == "hand" and self.check_action("toggle", (message.index,)):
            self.action_toggle(message.index)
        self.refresh_bindings()  # the footer rebuilds only if its keys changed

    def on_hand_panel_cut_clicked(self, message: HandPanel.CutClicked) -> None:
        self._set_cut(message.position)
