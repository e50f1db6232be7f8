"""The first screen: resume the saved game, or deal a table in one key (or set one up)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Static

from pokeroulette_tui.engine.i18n import LANGUAGES, N_, _, language
from pokeroulette_tui.ui.config import LaunchOptions, TableSetup, check_seats, is_default_name
from pokeroulette_tui.ui.plain import plain
from pokeroulette_tui.ui.tables import (
    Autosave,
    TablePreload,
    app_config,
    describe_save,
    describe_seats,
    first_save,
    held_text,
    new_session,
    preset_label,
    find_preset,
    read_autosave,
    remember,
    remembered_setup,
    resume_session,
)
from pokeroulette_tui.ui.widgets.button import PlainButton
from pokeroulette_tui.ui.widgets.footer import TidyFooter
from pokeroulette_tui.ui.widgets.toosmall import TooSmallNotice, too_small

if TYPE_CHECKING:  # the session (and the engine) load when a table is dealt or found
    from textual.timer import Timer
    from textual.widget import Widget

    from pokeroulette_tui.session import Session


PRELOAD_AFTER = 0.25
"""Seconds after its first frame before the start screen loads the table in the background
(see :meth:`StartScreen._start_preload`)."""


def start_keys(screen: object) -> str:
    """What the too-small notice says of the start screen's keys (they go on working: it is
    a menu, and what they open says itself whether it fits)."""
    return _("q quit")


A_NEW_TABLE = N_("A new table")
YOUR_TABLE = N_("Your table")
YOUR_LAST_TABLE = N_("Your last table")
"""Where the table shown comes from (the heading above its players)."""


class StartScreen(Screen[None]):
    """Offers the autosaved game if there is one; otherwise shows the table Enter deals.

    The table is the one from the command line, else the remembered one, else you and
    three bots at the classic rules. ``s`` opens the setup screen.
    """

    BINDINGS = [
        Binding("enter", "primary", N_("Deal"), show=False),
        Binding("r", "resume", N_("Resume")),
        Binding("n", "new_game", N_("New game")),
        Binding("s", "setup", N_("Set up")),
        Binding("p", "preset", N_("Preset")),
        Binding("d", "default_table", N_("Default table")),
        Binding("t", "stats", N_("Stats")),
        Binding("l", "tutorial", N_("Tutorial")),
        Binding("c", "casino", N_("Casino")),
        Binding("g", "app.next_language", N_("Language"), show=False),  # said under the title
        Binding("q", "quit", N_("Quit")),
    ]

    DEFAULT_CSS = """
    StartScreen { align-horizontal: center; }
    StartScreen #start-body { max-width: 100; padding: 0 1; align-vertical: middle; }
    StartScreen #resume-box, StartScreen #new-box { height: auto; }
    StartScreen #start-title { width: 100%; content-align: center middle; text-style: bold;
                               margin: 1 0 0 0; }
    StartScreen #start-language { width: 100%; content-align: center middle; color: $text-muted; }
    StartScreen #start-notice { margin: 1 0 0 0; color: $text-warning; }
    StartScreen #tutorial-offer { margin: 1 0 0 0; display: none; }
    StartScreen .heading { text-style: bold; margin: 1 0 0 0; }
    StartScreen .buttons { height: auto; margin: 1 0 0 0; }
    StartScreen .buttons PlainButton { margin: 0 2 0 0; }
    StartScreen #table-rules { margin: 1 0 0 0; }
    StartScreen #table-rules-title { text-style: bold; margin: 1 0 0 0; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.setup = TableSetup.default()
        self.origin = A_NEW_TABLE  # (English, marked: said with _() where shown)
        self.saved = Autosave()
        self.mode = "new"          # "resume" (a saved game is offered) or "new"
        self._notice: Callable[[], str] = str  # says the notice in the language of the moment
        self._playing = False      # a table was opened from here; look at the autosave again after
        self._default: TableSetup | None = None   # TableSetup.default(), made once
        self._preload: TablePreload | None = None
        self._preload_timer: Timer | None = None
        self._preload_put_off = False  # a screen opened over this one before it began

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="start-body", can_focus=False):
            yield Static("♠ ♥  " + _("Poker Roulette") + "  ♦ ♣", id="start-title")
            yield Static(_("Language: {name} (g changes it)").format(name=LANGUAGES[language()]),
                         id="start-language")
            yield Static("", id="start-notice")
            yield Static(_("New here? Press l for a tutorial: a prepared hand of Poker Roulette "
                           "or five-card draw, step by step."), id="tutorial-offer")
            yield Vertical(id="resume-box")  # the offer of a saved game: see _offer_resume
            with Vertical(id="new-box"):
                yield Static("", id="table-heading", classes="heading")
                yield Static("", id="table-seats")
                with Horizontal(classes="buttons"):
                    yield PlainButton(_("Deal (Enter)"), id="deal", variant="primary")
                    yield PlainButton(_("Set up the table (s)"), id="setup")
                    yield PlainButton(_("Preset (p)"), id="preset")
                    yield PlainButton(_("Quit (q)"), id="quit")
                yield Static("", id="table-rules-title")
                yield Static("", id="table-rules")
        notice = TooSmallNotice(id="too-small", keys=start_keys, menu=True)
        notice.display = False  # (shown by _fit below 80×24)
        yield notice
        yield TidyFooter()

    def on_mount(self) -> None:
        config = app_config(self.app)
        launch, config.launch = config.launch, LaunchOptions()  # the command line counts once
        if launch.setup is not None:
            self.setup, self.origin = launch.setup, YOUR_TABLE
        else:
            remembered = remembered_setup(config)
            if remembered is not None:
                self.setup, self.origin = remembered, YOUR_LAST_TABLE
        self._look_for_save(offer=not launch.new)
        self._show()
        if launch.open_setup:
            self.action_setup()
        # while a key is awaited, load what dealing needs (after the first frame is out)
        self.call_after_refresh(self._start_preload)
        self._offer_tutorial(config)

    async def retranslate(self) -> None:
        """Say everything again in the language just chosen (``g``)."""
        offering = self.query_one("#tutorial-offer").display
        await self.recompose()
        self.query_one("#tutorial-offer").display = offering
        self._show()
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """Below 80×24 a notice in place of the menu (it cut its buttons off, and the
        footer): it says the size needed and how to quit; the menu comes back as the
        terminal grows."""
        small = too_small(*self.size)
        self.set_class(small, "-too-small")
        self.query_one("#start-body").display = not small
        notice = self.query_one(TooSmallNotice)
        notice.display = small
        notice.size_now = (self.size.width, self.size.height)

    @property
    def notice(self) -> str:
        """The warning above the table (a save that could not be read, a table that cannot
        be dealt), in the language of the moment; "" for none."""
        return self._notice()

    @notice.setter
    def notice(self, text: str) -> None:
        self._notice = lambda: text

    def _start_preload(self) -> None:
        """After the first frame: load what dealing needs in the background (TablePreload),
        a moment later, while a player reads. Not at once: the imports and the drawing of
        the start screen fought for the interpreter (the GIL, and the import locks of
        modules both wanted), which held its first frame back by ~100 ms. A key that deals
        before then imports what it needs itself, with nothing to wait for."""
        if self._preload is None and self._preload_timer is None:
            self._preload_timer = self.set_timer(PRELOAD_AFTER, self._begin_preload,
                                                 name="table preload")

    def _begin_preload(self) -> None:
        self._preload_timer = None
        if self._preload is None:
            self._preload = TablePreload(self.setup).start()

    def _preloaded(self) -> None:
        """Wait for the background imports, so that none runs twice at once (and start none
        now: what is missing is imported where it is needed)."""
        if self._preload_timer is not None:
            self._preload_timer.stop()
            self._preload_timer = None
            self._preload_put_off = True
        if self._preload is not None:
            self._preload.wait()

    def on_screen_resume(self) -> None:
        if self._playing:  # back from a table: the autosave may be new, or cleared
            self._playing = False
            self.notice = ""
            self._look_for_save(offer=True)
            self._show()
        elif self._preload_put_off:  # back from the setup screen (say): load the table now
            self._preload_put_off = False
            self._start_preload()

    # -- the state shown ------------------------------------------------------------------
    def _look_for_save(self, *, offer: bool) -> None:
        self.saved = read_autosave() if offer else Autosave()
        if self.saved.salvaged:
            kept_as, problem = self.saved.kept_as, self.saved.problem

            def salvaged() -> str:
                return (_("The saved game was damaged: it resumes from before the damage. "
                          "The damaged file was kept as {path}.").format(path=kept_as) + "\n"
                        + _("Reason: {problem}").format(problem=problem))
            self._notice = salvaged
        elif self.saved.held_by is not None:  # another pokeroulette's game: left to it
            held = self.saved.held_by
            self._notice = lambda: held_text(held)
        elif self.saved.left:  # cannot be read at all: left where it is, not written over
            path, problem = self.saved.kept_as, self.saved.problem
            self._notice = lambda: _(
                "The saved game {path} cannot be read ({problem}). It is left as it is and "
                "not written over: a table dealt here is not saved.").format(
                    path=path, problem=problem)
        elif self.saved.problem:
            kept_as, problem = self.saved.kept_as, self.saved.problem

            def notice() -> str:
                where = (_("It was kept as {path}.").format(path=kept_as) if kept_as
                         else _("It could not be moved aside."))
                return (_("The saved game could not be read, so a new game starts. {where}")
                        .format(where=where) + "\n"
                        + _("Reason: {problem}").format(problem=problem))
            self._notice = notice
        self.mode = "resume" if self.saved.table is not None else "new"

    def _show(self) -> None:
        notice = self.query_one("#start-notice", Static)
        notice.update(plain(self.notice))  # (paths and reasons: never markup)
        notice.display = bool(self.notice)
        resuming = self.mode == "resume"
        box = self.query_one("#resume-box")
        box.display = resuming
        if resuming and not box.children:
            self._offer_resume(box)
        self.query_one("#new-box").display = not resuming
        if resuming and self.saved.table is not None:
            self.query_one("#resume-info", Static).update(plain(  # (the players' names)
                _("Resume the game in progress ({game}), or start a new game (it replaces the "
                  "saved one once dealt).").format(game=describe_save(self.saved.table))))
            self.query_one("#resume", Button).focus()
        else:
            self._show_table()
            self.query_one("#deal", Button).focus()
        self.refresh_bindings()

    @staticmethod
    def _offer_resume(box: Widget) -> None:
        """Put the offer of the saved game in ``box``, once there is one to offer (most
        starts have none: its widgets would be made and styled, hidden, for nothing)."""
        buttons = Horizontal(classes="buttons")
        box.mount_all([Static(_("A game is in progress"), classes="heading"),
                       Static("", id="resume-info"), buttons])
        buttons.mount_all([PlainButton(_("Resume (Enter)"), id="resume", variant="primary"),
                           PlainButton(_("New game (n)"), id="new-game")])

    def _show_table(self) -> None:
        setup = self.setup
        self.query_one("#table-heading", Static).update(_(self.origin))
        seed = ("\n" + _("Fixed shuffle: seed {seed}.").format(seed=setup.seed)
                if setup.seed is not None else "")
        # names, a preset's name and the tokens' name are the players' own words: literal
        self.query_one("#table-seats", Static).update(
            plain(_("Players: {players}.").format(players=describe_seats(setup)) + seed))
        self.query_one("#table-rules-title", Static).update(
            plain(_("The agreed rules: {preset}").format(preset=preset_label(setup))))
        self.query_one("#table-rules", Static).update(
            plain("\n".join(f"• {line}" for line in setup.rules.describe())))

    def _open(self, session: Session, then: Callable[[], None] | None = None) -> None:
        """Sit down at ``session``; ``then`` runs after the table's first frame (at once if
        the app opened no screen over this one)."""
        open_table = getattr(self.app, "open_table", None)
        if open_table is None:  # pragma: no cover - every app of this package has one
            self.notify(_("This app cannot open a table."), severity="error", markup=False)
            return
        self._playing = True
        open_table(session)
        if then is None:
            return
        table = self.app.screen  # pushed at once: the table screen, unless nothing was opened
        if table is self:
            then()
        else:
            table.call_after_refresh(then)

    # -- handlers -------------------------------------------------------------------------
    @on(Button.Pressed, "#resume")
    def _pressed_resume(self) -> None:
        self.action_resume()

    @on(Button.Pressed, "#new-game")
    def _pressed_new(self) -> None:
        self.action_new_game()

    @on(Button.Pressed, "#deal")
    def _pressed_deal(self) -> None:
        self.action_deal()

    @on(Button.Pressed, "#setup")
    def _pressed_setup(self) -> None:
        self.action_setup()

    @on(Button.Pressed, "#preset")
    def _pressed_preset(self) -> None:
        self.action_preset()

    @on(Button.Pressed, "#quit")
    async def _pressed_quit(self) -> None:
        await self.action_quit()

    def _setup_done(self, result: TableSetup | None) -> None:
        if result is None:
            return
        self.setup, self.origin, self.mode = result, YOUR_TABLE, "new"
        remember(app_config(self.app), result)
        self._show()

    def _preset_done(self, name: str | None) -> None:
        found = find_preset(name) if name else None
        if found is None:
            if name:
                self.notify(_("The preset {name} cannot be read any more.").format(name=repr(name)),
                            severity="error", markup=False)
            return
        seats = self.setup.seats
        if check_seats(found.rules, seats):  # these seats do not fit its rules: the default ones
            seats = TableSetup.default(found.rules).seats
        self.setup = TableSetup(rules=found.rules, seats=seats, preset=found.name, seed=self.setup.seed)
        self.origin, self.mode = YOUR_TABLE, "new"
        remember(app_config(self.app), self.setup)
        self._show()

    # -- actions --------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("resume", "new_game"):
            return self.mode == "resume"
        if action in ("deal", "preset"):
            return self.mode == "new"
        if action == "default_table":
            return self.mode == "new" and not self._is_default()
        return True

    def _is_default(self) -> bool:
        """The table set up is the default one: the same rules and seats, a seat's default
        name in another language counting as the same ("Bot 1" remembered from an English
        game is the default table's "Botti 1" in Finnish)."""
        setup, default = self.setup, self._default_setup()
        if (setup.rules, setup.preset, setup.seed) != (default.rules, default.preset,
                                                       default.seed):
            return False
        return len(setup.seats) == len(default.seats) and all(
            a.bot == b.bot and (a.name == b.name or (a.bot is not None and is_default_name(
                a.name, bots_only=True) and is_default_name(b.name, bots_only=True)))
            for a, b in zip(setup.seats, default.seats))

    def _default_setup(self) -> TableSetup:
        """The default table, made once (it asks the system for the login name)."""
        if self._default is None:
            self._default = TableSetup.default()
        return self._default

    def action_primary(self) -> None:
        if self.mode == "resume":
            self.action_resume()
        else:
            self.action_deal()

    def action_resume(self) -> None:
        table = self.saved.table
        if self.mode != "resume" or table is None:
            return
        self._preloaded()
        self._open(resume_session(table, app_config(self.app)))

    def action_new_game(self) -> None:
        self.mode = "new"
        self._show()

    def action_default_table(self) -> None:
        self.setup, self.origin = TableSetup.default(), A_NEW_TABLE
        self._show()

    def action_deal(self) -> None:
        problem = self.setup.problem()
        if problem:
            self._notice = lambda: _("This table cannot be dealt: {problem}. Press s to set it "
                                     "up.").format(problem=problem)
            self._show()
            return
        config = app_config(self.app)
        setup = self.setup
        self._preloaded()
        try:
            session = new_session(setup, config, save_now=False)
        except ValueError as exc:  # RuleError: the checks above should have caught it
            reason = str(exc)
            self._notice = lambda: _("This table cannot be dealt: {problem}").format(problem=reason)
            self._show()
            return

        def save() -> None:
            # the new table (replacing the old autosave) and the table to offer next time;
            # an action applied before this saves the table itself (its journal starts then)
            first_save(session)
            remember(config, setup)

        self._open(session, then=save)

    def action_setup(self) -> None:
        self._preloaded()  # first: no import runs in two threads at once
        from pokeroulette_tui.ui.screens.setup import SetupScreen

        self.app.push_screen(SetupScreen(self.setup), self._setup_done)

    def action_preset(self) -> None:
        from pokeroulette_tui.ui.screens.presets import PresetScreen

        self.app.push_screen(PresetScreen(self.setup.preset), self._preset_done)

    def _offer_tutorial(self, config) -> None:
        """The first time, say that there is a tutorial (and remember, after the first frame,
        that it was offered)."""
        if config.tutorial_offered:
            return
        self.query_one("#tutorial-offer").display = True
        config.tutorial_offered = True
        self.call_after_refresh(config.save)

    def action_casino(self) -> None:
        """The casino game (play money), for the player at this terminal; q comes back."""
        from pokeroulette_tui.engine.casino.paytable import DEFAULT
        from pokeroulette_tui.paths import data_home
        from pokeroulette_tui.ui.casino import CasinoScreen
        from pokeroulette_tui.ui.config import login_name

        self.app.push_screen(CasinoScreen([login_name()], DEFAULT, data_home() / "casino.json",
                                          four_color=bool(app_config(self.app).four_color)))

    def action_tutorial(self) -> None:
        from pokeroulette_tui.ui.screens.tutorial import choose_tutorial

        self.query_one("#tutorial-offer").display = False
        choose_tutorial(self.app)

    def action_stats(self) -> None:
        from pokeroulette_tui.ui.screens.stats import StatsScreen

        self.app.push_screen(StatsScreen())

    async def action_quit(self) -> None:
        await self.app.run_action("quit")  # the app's own quit (it closes any session first)
