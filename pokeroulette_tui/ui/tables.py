"""From a setup or the autosave to a session: new and resumed tables, the autosave, the preload.

The start screen's helpers. Up to the start screen nothing here loads the engine beyond its
rules: the table, the session and the save code are imported when a saved game is found or
a table is dealt (and, while the start screen waits for a key, in the background:
:class:`TablePreload`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokeroulette_tui.bots import LEVELS, level_words
from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.engine.rules import (
    PRESET_NOTES,
    PRESETS,
    RuleSet,  # noqa: F401 - the doctests
    token_words,
)
from pokeroulette_tui.engine.words import changed_options, names_words
from pokeroulette_tui.ui.config import (
    AppConfig,
    SeatChoice,
    TableSetup,
    autosave_exists,
    autosave_path,
    is_default_name,
)

if TYPE_CHECKING:
    from pokeroulette_tui.engine.presets import Preset
    from pokeroulette_tui.session import LocalSession
    from pokeroulette_tui.table import Table

VARIANT_NAMES = {"roulette": N_("Poker Roulette"), "draw": N_("five-card draw")}
"""The games by variant (English, marked: said with ``_()``)."""


# -- the autosave ---------------------------------------------------------------------------

@dataclass
class Autosave:
    """What the start screen found in the autosave: a table to resume and/or a problem."""

    table: Table | None = None
    problem: str = ""            # why a save could not be used, in plain words
    kept_as: Path | None = None  # where the unusable file was moved (or, salvaged, copied)
    salvaged: bool = False       # damaged past its start: ``table`` goes on from before it
    held_by: int | None = None   # the autosave is another running pokeroulette's (its pid, 0: unknown)
    left: bool = False           # the file cannot be read: left where it is, never written over


def held_text(pid: int | None) -> str:
    """What the start screen says when another pokeroulette holds the autosave."""
    if pid:
        return _("This game is open in another pokeroulette (pid {pid}), so it cannot be "
                 "resumed here until that one is closed. A table dealt here is not saved: "
                 "that game is not written over.").format(pid=pid)
    return _("This game is open in another pokeroulette, so it cannot be resumed here until "
             "that one is closed. A table dealt here is not saved: that game is not written "
             "over.")


def _unreadable(path: Path) -> str:
    """Why the file at ``path`` cannot be read at all, in words ("" when it can be opened,
    or is not there)."""
    from pokeroulette_tui.engine.folders import os_problem

    try:
        with open(path, "rb"):
            pass
    except FileNotFoundError:
        return ""
    except OSError as exc:  # (a folder in its place, its permissions …)
        return os_problem(exc)
    return ""


def read_autosave(path: Path | None = None) -> Autosave:
    """Load the autosave if there is one. A damaged file is moved aside (never deleted) and
    reported; one damaged after its first line is salvaged: the game goes on from before
    the damage, a copy of the whole file kept (``salvaged``). The save of a finished game,
    or of one every player at this terminal left, is cleared. A save another running
    pokeroulette holds is not read (``held_by``; see :func:`pokeroulette_tui.engine.save.hold`), nor one that
    cannot be read at all (``left``: its permissions, a folder in its place). Never raises."""
    if path is None and not autosave_exists():
        return Autosave()
    if path is None:
        try:
            path = autosave_path()
        except OSError as exc:  # a data folder another account could swap: not read, not moved
            return Autosave(problem=str(exc.strerror or exc))
    if not path.exists():
        return Autosave()
    from pokeroulette_tui.engine.save import SaveHeld, hold, release

    try:
        hold(path)  # (this process keeps it while it offers or plays the game)
    except SaveHeld as held:
        return Autosave(problem=held_text(held.pid), held_by=held.pid)
    found = _read_held(path)
    if found.table is None:
        release(path)  # nothing here to keep from the others
    return found


def _read_held(path: Path) -> Autosave:
    unreadable = _unreadable(path)
    if unreadable:
        return Autosave(problem=unreadable, kept_as=path, left=True)
    from pokeroulette_tui.engine.save import SaveError
    from pokeroulette_tui.engine.state import LEFT
    from pokeroulette_tui.table import Table

    try:
        table = Table.resume(path, salvage=True)
        if len(table.seats) != len(table.state.seats):
            raise SaveError(_("{path} is damaged: it lists {seats} seats for {players} "
                              "players").format(path=table.damaged_copy or path,
                                                seats=len(table.seats),
                                                players=len(table.state.seats)))
    except SaveError as exc:
        problem = str(exc)
    except Exception:  # noqa: BLE001 - a save from another version, a bot level gone …
        import logging

        logging.getLogger(__name__).exception("the autosave %s cannot be resumed", path)
        problem = _("{path} cannot be resumed: this version of the game cannot carry it "
                    "on").format(path=path)
    else:
        humans = table.human_seats
        everyone_left = bool(humans) and all(table.state.seats[i].status == LEFT for i in humans)
        if table.state.game_over or everyone_left:  # nothing left to resume
            clear_autosave(path)
            return Autosave()
        if table.salvaged:
            return Autosave(table=table, problem=table.salvaged, kept_as=table.damaged_copy,
                            salvaged=True)
        return Autosave(table=table)
    kept = set_aside(path)
    return Autosave(problem=problem, kept_as=kept)


def set_aside(path: Path) -> Path | None:
    """Rename an unusable save to ``<name>.corrupt-<timestamp>``; None if even that fails."""
    from pokeroulette_tui.engine.save import aside_path

    target = aside_path(path)
    try:
        path.replace(target)
    except OSError:
        return None
    return target


def clear_autosave(path: Path | None = None) -> None:
    """Forget the saved game (call when a game is over). Missing files are fine."""
    try:
        (path or autosave_path()).unlink(missing_ok=True)
    except OSError:
        pass


def describe_save(table: Table) -> str:
    """One line for the resume offer: the hand and who is playing, with their score.

    >>> from pokeroulette_tui.table import SeatConfig, Table
    >>> t = Table.create(RuleSet(), [SeatConfig("You"), SeatConfig("Bo", "random"),
    ...                              SeatConfig("Cy", "random")], seed=1)
    >>> describe_save(t)
    'Poker Roulette, before the first deal; players: You 100, Bo 100, Cy 100 chips'
    """
    from pokeroulette_tui.engine.state import LEFT, OUT

    state = table.state
    rules = state.rules
    when = (_("hand {number}").format(number=state.hand_no) if state.hand_no
            else _("before the first deal"))
    parts = []
    for seat in state.seats:
        part = seat.name
        if rules.scoring == "forfeit":
            part = f"{part} {seat.tokens}"
        elif rules.uses_chips:
            part = f"{part} {seat.chips}"
        if seat.status == OUT:
            part = _("{player} (out)").format(player=part)
        elif seat.status == LEFT:
            part = _("{player} (left)").format(player=part)
        parts.append(part)
    variant = _(VARIANT_NAMES[rules.variant]) if rules.variant in VARIANT_NAMES else rules.variant
    players = ", ".join(parts)
    if rules.scoring == "forfeit":
        unit = token_words(rules)
    elif rules.uses_chips:
        unit = _("chips")
    else:
        return _("{variant}, {when}; players: {players}").format(
            variant=variant, when=when, players=players)
    # TRANSLATORS: {unit} is what the numbers after the names count: chips, or tokens
    return _("{variant}, {when}; players: {players} {unit}").format(
        variant=variant, when=when, players=players, unit=unit)


# -- tables and sessions --------------------------------------------------------------------

def describe_seats(setup: TableSetup) -> str:
    """``You, Bot 1 (simple), Ada (strong bot), …`` for the start screen: a bot that goes
    by a bot's default name is not said to be a bot twice."""
    def seat(s: SeatChoice) -> str:
        if s.bot is None:
            return s.name
        level = level_words(s.bot)
        if is_default_name(s.name, bots_only=True):
            # TRANSLATORS: a bot named "Bot 2" and its level: "Bot 2 (simple)"
            return _("{name} ({level})").format(name=s.name, level=level)
        return _("{name} ({level} bot)").format(name=s.name, level=level)

    return ", ".join(seat(s) for s in setup.seats)


def find_preset(name: str) -> Preset | None:
    """A built-in or saved preset by name; None if there is none (or it cannot be read).
    The saved presets are looked at only for a name that is not built in."""
    from pokeroulette_tui.engine.presets import Preset, PresetError

    if name in PRESETS:
        return Preset(name, PRESETS[name], PRESET_NOTES.get(name, ""), built_in=True)
    from pokeroulette_tui.paths import saved_presets

    try:
        return saved_presets().find(name)
    except PresetError:
        return None


def preset_label(setup: TableSetup) -> str:
    """The preset's name and what it is, or the options changed from it, in words.

    >>> preset_label(TableSetup(rules=PRESETS["draw"], preset="draw", seats=[]))
    'draw — Mörkpoker: five-card draw, no betting, forfeit tokens'
    >>> preset_label(TableSetup(rules=PRESETS["draw"].replace(betting="each_round"),
    ...                         preset="draw", seats=[]))
    'draw, changed: betting'
    """
    if setup.preset in PRESETS:  # (no need to look at the saved presets)
        base, note = PRESETS[setup.preset], PRESET_NOTES.get(setup.preset, "")
    else:
        found = find_preset(setup.preset)
        if found is None:
            return setup.preset
        base, note = found.rules, found.note or N_("your own preset")
    if base == setup.rules:
        return setup.preset + (f" — {_(note)}" if note else "")
    return _("{preset}, changed: {options}").format(
        preset=setup.preset, options=names_words(changed_options(base, setup.rules)))


def remembered_setup(config: AppConfig) -> TableSetup | None:
    """The table remembered from last time (``AppConfig.last_setup``), or None; a saved
    preset it started from keeps its name while that preset is still saved."""
    setup = TableSetup.from_dict(config.last_setup)
    if setup is None:
        return None
    name = config.last_setup.get("preset")
    if isinstance(name, str) and name not in PRESETS:
        found = find_preset(name)
        if found is not None:
            setup.preset = found.name
    return setup


def remember(config: AppConfig, setup: TableSetup) -> None:
    """Keep the table for next time (``AppConfig.last_setup``)."""
    config.last_setup = setup.to_dict()
    config.save()


def new_session(setup: TableSetup, config: AppConfig, *, save_now: bool = True) -> LocalSession:
    """A fresh table for ``setup``; with autosave on it replaces any older autosave at once
    (``save_now``), or when :func:`first_save` is called: the caller calls it before any
    action is applied (should an action come first, the table saves itself with it anyway).

    Raises RuleError if the seats do not fit the rules (the screens check that first).
    """
    from pokeroulette_tui.session import LocalSession
    from pokeroulette_tui.table import SeatConfig, Table

    from pokeroulette_tui.engine.save import SaveHeld, hold, release

    path, refused = None, ""
    if config.autosave:
        try:
            path = autosave_path()
            hold(path)  # (kept until the session closes: see LocalSession.close)
            problem = _unreadable(path)
            if problem:  # not written over (an unreadable file, a folder in its place)
                refused = _("This game is not saved: the saved game {path} cannot be read "
                            "({problem}), and it is not written over.").format(
                                path=path, problem=problem)
                release(path)
                path = None
        except SaveHeld as held:  # another pokeroulette's game: not written over
            path = None
            refused = (_("This game is not saved: the saved game is open in another "
                         "pokeroulette (pid {pid}).").format(pid=held.pid) if held.pid else
                       _("This game is not saved: the saved game is open in another "
                         "pokeroulette."))
        except OSError as exc:  # the data folder is refused (another account's): play unsaved
            refused = _("This game is not saved: {problem}").format(problem=exc.strerror or exc)
    seats = [SeatConfig(name=s.name, bot=s.bot) for s in setup.seats]
    table = Table.create(setup.rules, seats, seed=setup.seed, save_path=path)
    session = LocalSession(table, delay=config.delay, auto_cut=config.auto_cut)
    if refused:
        session.refuse_saving(refused)  # the table screen shows it as a toast and a mark
    if save_now:
        first_save(session)
    return session


def first_save(session: LocalSession) -> None:
    """Write a new table's first checkpoint (it replaces any older autosave)."""
    table = session.table
    if table.save_path is None or table.actions:
        return  # no autosave, or the table has saved itself with its first action
    try:
        table.autosave()
    except OSError:
        table.save_path = None  # cannot save here: play on without an autosave


def resume_session(table: Table, config: AppConfig) -> LocalSession:
    """Carry on a resumed table exactly where it stopped."""
    from pokeroulette_tui.session import LocalSession

    return LocalSession(table, delay=config.delay, auto_cut=config.auto_cut)


class TablePreload:
    """Imports what dealing a table needs (the table screen, the engine, the session, the
    setup's bot levels) in a background thread, while the start screen waits for a key.

    :meth:`wait` before dealing: the imports are then done (or, should the thread have
    failed, are left to the import statements where they are needed).
    """

    def __init__(self, setup: TableSetup) -> None:
        self._levels = sorted({s.bot for s in setup.seats if s.bot is not None})
        self._thread = threading.Thread(target=self._run, name="table-preload", daemon=True)

    def start(self) -> "TablePreload":
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            import pokeroulette_tui.session  # noqa: F401
            import pokeroulette_tui.table  # noqa: F401
            import pokeroulette_tui.ui.screens.table  # noqa: F401

            for level in self._levels:
                LEVELS.get(level)
        except Exception:  # noqa: BLE001 - the imports are tried again where needed
            pass

    def wait(self, timeout: float = 10.0) -> None:
        if self._thread.is_alive():
            self._thread.join(timeout)


def app_config(app: Any) -> AppConfig:
    """The running app's AppConfig (loaded from disk if the app has none)."""
    config = getattr(app, "config", None)
    if not isinstance(config, AppConfig):
        config = AppConfig.load()
        try:
            app.config = config
        except AttributeError:  # pragma: no cover - an app that refuses attributes
            pass
    return config
