"""The interactive tutorials: the table screen over a prepared table, with notes beside the cards.

:class:`TutorialScreen` is the :class:`~pokeroulette_tui.ui.screens.table.TableScreen`
itself, driven by a :class:`~pokeroulette_tui.ui.tutorial.TutorialSession`: the same seats,
centre and hand, a notes panel where the event log is (beside it on wide screens), and
only the keys the step asks for. Any other key gets a hint; Esc or q leaves, and the
tutorial resumes at that step next time. :class:`TutorialChoice` picks a tutorial (the
start screen's ``t``), :func:`open_tutorial` sits down at one (``pokeroulette tutorial`` is
:mod:`pokeroulette_tui.ui.tutorial_app`).
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Static

from pokeroulette_tui.engine.actions import Action
from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.ui.config import login_name
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.screens.table import WIDE, TableScreen
from pokeroulette_tui.ui.tutorial import (TUTORIALS, TutorialSession, read_progress,
                                          write_progress)
from pokeroulette_tui.ui.widgets.footer import TidyFooter
from pokeroulette_tui.ui.widgets.toosmall import TooSmallNotice

TABLE_KEYS = frozenset({
    "check", "call", "call_all_in", "bet", "raise", "all_in", "fold", "choose", "keep",
    "toggle", "draw", "stand_pat", "cut", "cut_move", "cut_number", "last_hand"})
"""The table screen's actions a step may let through (its note names them)."""


def notes_text(session: TutorialSession, hint: str = "", *, in_app: bool = False) -> Text:
    """The note of the step the tutorial is at, the keys that go on, and a hint after a
    wrong key. ``in_app``: the tutorial runs inside the app (not ``pokeroulette tutorial``),
    where a step may say other keys (the last one: how to start the other tutorial).

    >>> print(notes_text(TutorialSession("draw", remember=False)).plain)
    Five-card draw (Mörkpoker). No betting here: everyone has 6 forfeit tokens, and each deal's weakest hand loses one.
    ▸ Enter: Bo deals
    Esc leaves; the tutorial carries on here next time.
    """
    note = session.note
    then = note.in_app if in_app else note.on_command_line
    text = Text(_(note.text) + (" " + _(then) if then else ""))
    # a wrong key's hint says the keys in full, in place of their short line (the box is
    # no taller than the space between the centre and the hand at 80×24)
    if hint:
        text.append("\n▸ " + hint, style="bold italic")
    else:
        text.append("\n▸ " + _(note.keys), style="bold")
    if session.step == 0:  # said once, at the start (the footer has q too)
        text.append("\n" + _("Esc leaves; the tutorial carries on here next time."),
                    style="italic")
    return text


def tutorial_keys(screen: object) -> str:
    """The keys the tutorial takes while the terminal is too small for its table (the
    too-small notice's line): q leaves the tutorial here, not the program."""
    return _("? help · q leave (the tutorial carries on here next time)")


class NoStats:
    """Statistics that record nothing (a tutorial's hand is prepared, not played)."""

    def on_update(self, *_args: object) -> None:
        return None


class TutorialNotes(Static):
    """The note beside the cards: what this step shows, and which key goes on."""

    DEFAULT_CSS = """
    TutorialNotes { height: 1fr; padding: 0 1; border-top: solid $accent;
                    border-title-align: left; border-title-style: bold; }
    """

    hint = ""  # said after a wrong key, until the step changes

    def show(self, session: TutorialSession, hint: str = "", *, in_app: bool = False) -> None:
        self.hint = hint
        self.border_title = _("Tutorial · step {step} of {steps}").format(step=session.step + 1,
                                                                           steps=session.steps)
        self.update(notes_text(session, hint, in_app=in_app))


class TutorialScreen(TableScreen):
    """A tutorial at the table: the notes where the log is, the step's keys and no others."""

    ONLY_HAND = True  # (the prepared hand is the whole game: no "next hand follows")

    BINDINGS = [  # (a key bound here loses the table's bindings of it: Enter's come again)
        Binding("enter", "draw", N_("Draw")),
        Binding("enter", "cut", N_("Cut")),
        Binding("enter,space", "tutorial_next", N_("Go on"), key_display="⏎"),
        # shown at the step that asks for it (the table's own s is hidden in its footer)
        Binding("s", "last_hand", N_("The result")),
        Binding("escape,q", "tutorial_leave", N_("Leave"), priority=True),
    ]
    # Layout of this screen only (the table's own is styles/app.tcss): the notes take the
    # log's place beside the centre at 80×24 (see place_notes); from 120 columns the log is
    # under them.
    DEFAULT_CSS = """
    TutorialScreen.-wide TutorialNotes { height: auto; min-height: 8; }
    """

    def __init__(self, session: TutorialSession, *, exit_on_leave: bool = False,
                 name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(session, name=name, id=id, classes=classes)
        self.tutorial = session
        self.exit_on_leave = exit_on_leave  # leaving ends the program (pokeroulette tutorial)
        if hasattr(self, "stats_recorder"):  # a prepared hand is no game to count
            self.stats_recorder = NoStats()

    async def on_mount(self) -> None:
        # (runs before the table screen's own on_mount, which then starts the session)
        await self.query_one("#side").mount(TutorialNotes(id="notes"), after="#centre")
        self.query_one(TooSmallNotice).keys = tutorial_keys  # (q leaves the tutorial here)
        self.show_note()
        if self.tutorial.step:
            again = (f"pokeroulette tutorial {self.tutorial.name} --restart"
                     if self.exit_on_leave else _("l, then R or D"))
            self.notify(_("Carrying on at step {step} of {steps} ({again} starts again).").format(
                            step=self.tutorial.step + 1, steps=self.tutorial.steps, again=again),
                        title=_("Tutorial"), markup=False, timeout=3)

    def refresh_view(self) -> None:
        super().refresh_view()
        self.place_notes()

    def on_resize(self, event: events.Resize) -> None:
        self.call_later(self.place_notes)  # after the table has laid itself out

    def place_notes(self) -> None:
        """The log makes room for the notes below 120 columns (the table may have shown it
        again: it sets the log's display itself, with its hints)."""
        try:
            self.query_one("#log").display = self.app.size.width >= WIDE
        except NoMatches:  # (the screen is being taken down)
            pass

    def show_note(self) -> None:
        self.query_one(TutorialNotes).show(self.tutorial, in_app=not self.exit_on_leave)
        self.refresh_bindings()

    # -- keys --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "tutorial_leave":
            return True
        if self.has_class("-too-small"):
            return action == "help"
        if action == "tutorial_next":
            return self.tutorial.beat.player is None and "last_hand" not in self.tutorial.note.actions
        if action == "help":
            return True
        if action == "last_hand":  # the step that asks for it, or any while the hand is over:
            return ("last_hand" in self.tutorial.note.actions  # the status line offers s then
                    or self._hand_over())
        if action in TABLE_KEYS and action in self.tutorial.note.actions:
            return True if action == "last_hand" else super().check_action(action, parameters)
        return False

    def _hand_over(self) -> bool:
        """The hand is over and its result can be shown (the table's status line says that
        ``s`` shows it: from the showdown on, not only at the step that asks for it)."""
        view = self.view
        return (view is not None and view.phase == Phase.HAND_OVER
                and self.session.view(None).result is not None)

    def on_key(self, event: events.Key) -> None:
        """A key this step has no use for: say which keys it has (it is not passed on)."""
        active = self.active_bindings.get(event.key)
        if active is not None and active.enabled:
            return
        if event.key.startswith("ctrl+"):
            return  # the app's own keys (theme, colours, quit)
        if self.has_class("-too-small"):
            return  # the table is away: nothing is done, and no hint about it (the notice says)
        event.stop()
        event.prevent_default()
        self.hint(_(self.tutorial.note.hint))

    def hint(self, text: str) -> None:
        """Say which key this step wants, in the notes (no toast over the cards)."""
        self.query_one(TutorialNotes).show(self.tutorial, hint=text,
                                           in_app=not self.exit_on_leave)
        self.app.bell()

    async def act(self, action: Action) -> None:
        """The step's move goes to the table; another gets a hint."""
        problem = self.tutorial.refusal(action)
        if problem is not None:
            self.hint(problem)
            return
        await super().act(action)
        self.show_note()

    def action_tutorial_next(self) -> None:
        if self.tutorial.beat.player is not None:
            return
        self.tutorial.go_on()
        if self.tutorial.finished:
            # from the app's loop: leaving pops this screen, which must not wait on itself
            # (run from this screen's own queue, that wait never ended: a dead app)
            self.app.call_later(self.action_tutorial_leave)
            return
        self.refresh_view()
        self.show_note()

    def action_last_hand(self) -> None:
        """The hand's result, as a game shows it (the step that asks for it then goes on)."""
        from pokeroulette_tui.ui.screens.showdown import HandResult

        past = self.session.history()
        pub = self.session.view(None)
        if not past or pub.result is None:
            return
        self.last_result = HandResult.from_events(past[-1], pub, pub.result)
        self.app.push_screen(TutorialResult(self.last_result, four_color=self._four(),
                                            prompt=_("Enter: back to the tutorial")))
        if "last_hand" in self.tutorial.note.actions:
            self.tutorial._next()
            self.show_note()

    def show_hand_result(self) -> None:
        """A tutorial shows the result when its step says so (``s``), not at once: the notes
        talk about the cards on the table first."""

    async def action_tutorial_leave(self) -> None:
        """Leave the tutorial (it resumes at this step next time): back to the start screen,
        or out of the program when it was started by ``pokeroulette tutorial``."""
        tutorial = self.tutorial
        app = self.app
        if not self.exit_on_leave:
            await app.pop_screen()  # (the table screen closes the session as it goes)
            return
        closer = getattr(app, "close_session", None)
        if closer is not None:
            await closer()
        else:  # pragma: no cover - every app of this package has one
            await tutorial.close()
        app.farewell = farewell_text(tutorial)  # type: ignore[attr-defined]
        app.exit()


class TutorialResult(ShowdownScreen):
    """The hand's result, as a game shows it, over the tutorial: q leaves the tutorial (as
    everywhere in it), not the program."""

    BINDINGS = [Binding("q", "leave", N_("Leave"))]  # (in place of the table's q: Quit)

    def action_leave(self) -> None:
        stack = self.app.screen_stack
        below = stack[-2] if len(stack) > 1 else None
        self.dismiss(None)
        if isinstance(below, TutorialScreen):  # (after this screen is gone: from the app)
            self.app.call_later(below.action_tutorial_leave)


def farewell_text(tutorial: TutorialSession) -> str:
    """What to say in the terminal after leaving a tutorial.

    >>> farewell_text(TutorialSession("draw", step=3, remember=False))
    'The five-card draw tutorial stopped at step 4 of 9: pokeroulette tutorial draw carries on there.'
    """
    if tutorial.finished:
        return ""
    return _("The {game} tutorial stopped at step {step} of {steps}: pokeroulette tutorial "
             "{name} carries on there.").format(game=_(TUTORIALS[tutorial.name]),
                                                step=tutorial.step + 1, steps=tutorial.steps,
                                                name=tutorial.name)


def start_tutorial(name: str, *, restart: bool = False) -> TutorialSession:
    """The tutorial ``name``, at the step it stopped at (the top with ``restart``)."""
    if restart:
        write_progress(name, None)
    step = read_progress().get(name, 0)
    return TutorialSession(name, step=step, player=login_name())


def open_tutorial(app, name: str, *, restart: bool = False, exit_on_leave: bool = False):
    """Sit ``app`` down at the tutorial ``name`` (the app's session while it lasts)."""
    session = start_tutorial(name, restart=restart)
    app.session = session
    screen = TutorialScreen(session, exit_on_leave=exit_on_leave)
    return app.push_screen(screen)


class TutorialChoice(ModalScreen[str | None]):
    """Which tutorial: dismissed with its name (``"!name"`` to start it again), or None."""

    BINDINGS = [
        Binding("r", "choose('roulette')", N_("Poker Roulette")),
        Binding("d", "choose('draw')", N_("Five-card draw")),
        Binding("R", "choose('!roulette')", N_("Roulette again"), show=False),
        Binding("D", "choose('!draw')", N_("Draw again"), show=False),
        Binding("escape", "choose('')", N_("Back")),
    ]

    def compose(self) -> ComposeResult:
        progress = read_progress()
        text = Text(_("Tutorials: a prepared hand, step by step") + "\n\n", style="bold")
        for key, name in (("r", "roulette"), ("d", "draw")):
            text.append(f"{key}", style="bold reverse")
            text.append(f" {_(TUTORIALS[name])}")
            if name in progress:
                text.append(" " + _("(carries on at step {step}; {key} starts again)").format(
                    step=progress[name] + 1, key=key.upper()), style="italic")
            text.append("\n")
        text.append("\n" + _("Esc or q leaves a tutorial; it carries on there next time."),
                    style="italic")
        with Vertical(classes="dialog"):
            yield Static(text, id="tutorial-choice")
        yield TidyFooter()

    def action_choose(self, name: str) -> None:
        self.dismiss(name or None)


def choose_tutorial(app) -> None:
    """Ask which tutorial, then open it (the start screen's ``t``)."""

    def chosen(name: str | None) -> None:
        if name:
            open_tutorial(app, name.lstrip("!"), restart=name.startswith("!"))

    app.push_screen(TutorialChoice(), chosen)
