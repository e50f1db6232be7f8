"""Where things live (config, autosave, jackpot) and the app's display settings."""

from __future__ import annotations

import getpass
import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Sequence

from pokeroulette_tui.bots import LEVELS
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import PRESETS, RuleError, RuleSet
from pokeroulette_tui.paths import (  # noqa: F401
    APP,
    config_dir,
    config_home,
    data_dir,
    data_home,
    settings_file,
)

# Up to the start screen this module loads no more of the engine than the rules: the table,
# the game and the save code load when a table is dealt or a saved one is found.

MAX_NAME = 24
"""Longest player name (the engine's ``engine.game.MAX_NAME``, a test keeps them equal)."""

SPEEDS: dict[str, float] = {"slow": 1.2, "normal": 0.6, "fast": 0.25, "instant": 0.0}
"""The speeds of a local table, slowest first: the seconds between the dealer's and the
bots' steps (the driver's ``Pace.delay``). At every speed a hand's result stays on screen
until Enter is pressed (a local table holds it: ``Pace.hand_pause`` None)."""


def speed_name(delay: float) -> str:
    """The speed a pause between steps is, or the pause itself if it is no named speed.

    >>> speed_name(0.6), speed_name(0), speed_name(2)
    ('normal', 'instant', '2 s a step')
    """
    for name, seconds in SPEEDS.items():
        if abs(seconds - delay) < 1e-9:
            return name
    return _("{seconds:g} s a step").format(seconds=delay)


def next_speed(delay: float) -> str:
    """The speed after ``delay``'s, cycling slow → normal → fast → instant → slow; a pause
    that is no named speed goes to the next faster one.

    >>> next_speed(0.6), next_speed(0), next_speed(0.4), next_speed(5)
    ('fast', 'slow', 'fast', 'slow')
    """
    names = list(SPEEDS)
    current = speed_name(delay)
    if current in SPEEDS:
        return names[(names.index(current) + 1) % len(names)]
    return next((n for n in names if SPEEDS[n] < delay), names[-1])


def speed_problem(name: str) -> str | None:
    """Why ``name`` is not a speed, in one sentence, or None if it is one.

    >>> speed_problem("fast") is None, speed_problem("warp")
    (True, "unknown speed 'warp' (choose slow, normal, fast or instant)")
    """
    if name in SPEEDS:
        return None
    *first, last = SPEEDS
    return _("unknown speed {name} (choose {first} or {last})").format(
        name=repr(name), first=", ".join(first), last=last)


@dataclass
class SeatChoice:
    """Who sits in a seat of a table not dealt yet: a name, and a bot level or None for a
    person. The same two fields as :class:`pokeroulette_tui.table.SeatConfig`, which a
    table is dealt with (:func:`pokeroulette_tui.ui.tables.new_session` turns these into
    those); this one loads without the engine."""

    name: str
    bot: str | None = None


def autosave_path() -> Path:
    return data_dir() / "autosave.json"


def settings_path() -> Path:
    return config_dir() / "settings.json"


def autosave_exists() -> bool:
    """True if there is an autosave to look at (without making any folder)."""
    return (data_home() / "autosave.json").exists()


def default_bot_level() -> str:
    """The bot level a new table seats: "simple" once it exists, else "random"."""
    return "simple" if "simple" in LEVELS else "random"


def clean_name(raw: str) -> str:
    """A login name as a player's name: letters, digits and ``-_.'`` kept, separators as
    spaces, the first letter capitalised, at most MAX_NAME characters ("" if nothing is left).

    >>> clean_name("ada"), clean_name(" jean-luc "), clean_name("corp/bo.smith"), clean_name("..")
    ('Ada', 'Jean-luc', 'Corp bo.smith', '')
    """
    kept = "".join(ch if ch.isalnum() or ch in "-_.'" else " " for ch in raw)
    name = " ".join(kept.split())[:MAX_NAME].strip()
    if not any(ch.isalnum() for ch in name):
        return ""
    return name[:1].upper() + name[1:]


def login_name() -> str:
    """The user's login name, cleaned (see :func:`clean_name`), or "Player 1" without one."""
    try:
        raw = getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name in the environment or the user database
        raw = ""
    return clean_name(raw) or _("Player {n}").format(n=1)


def default_name(seat: int, bot: str | None, *, number: int | None = None) -> str:
    """The name a seat gets until someone types one, in the language in use now: the login
    name for a person in the first seat, "Player N" for other people (N: the seat, from 1),
    "Bot N" for bots (N: ``number``, the bot's place among the bots, else the seat from 0).

    >>> default_name(2, None), default_name(2, "simple"), default_name(2, "simple", number=1)
    ('Player 3', 'Bot 2', 'Bot 1')
    """
    if bot is not None:
        n = seat if number is None else number
        return _("Bot {n}").format(n=n) if n else _("Bot")
    return login_name() if seat == 0 else _("Player {n}").format(n=seat + 1)


def is_default_name(name: str, *, bots_only: bool = False) -> bool:
    """True if ``name`` is a name :func:`default_name` gives (in English or in the language
    in use now): a seat whose kind changes may then take the new kind's name. ``bots_only``:
    only a bot's default name.

    >>> is_default_name("Bot 3"), is_default_name("Player 2"), is_default_name("Ada")
    (True, True, False)
    >>> is_default_name("Player 2", bots_only=True)
    False
    """
    import re

    forms = {"Bot {n}", "Bot", _("Bot {n}"), _("Bot")}
    if not bots_only:
        forms |= {"Player {n}", _("Player {n}")}
    pattern = "|".join(re.escape(f).replace(re.escape("{n}"), r"\d+") for f in forms)
    return re.fullmatch(pattern, name.strip()) is not None


def default_seats(players: int = 4, humans: int = 1, bot: str | None = None) -> list[SeatChoice]:
    """``humans`` people in the first seats, bots of level ``bot`` in the rest.

    One person plays under the login name; several (hot-seat) are "Player 1", "Player 2" …;
    the bots are "Bot 1", "Bot 2" … however many people sit before them. The names are in the
    language in use when the table is set up (a table keeps the names it was given).

    >>> [s.name for s in default_seats(3)][1:], default_seats(3)[0].name == login_name()
    (['Bot 1', 'Bot 2'], True)
    >>> [s.name for s in default_seats(3, humans=2)]
    ['Player 1', 'Player 2', 'Bot 1']
    """
    level = bot or default_bot_level()
    seats = []
    for i in range(players):
        if i < humans:
            name = login_name() if humans == 1 else _("Player {n}").format(n=i + 1)
            seats.append(SeatChoice(name=name))
        else:
            seats.append(SeatChoice(name=default_name(i, level, number=i - humans + 1),
                                    bot=level))
    return seats


def check_seats(rules: RuleSet, seats: Sequence[SeatChoice]) -> str | None:
    """Why these seats cannot play these rules, in one sentence, or None if they can.

    >>> check_seats(RuleSet(), default_seats(2))
    'these rules seat 3 to 10 players (got 2)'
    """
    lo, hi = rules.fewest_players, rules.max_players
    if not lo <= len(seats) <= hi:
        return _("these rules seat {lo} to {hi} players (got {n})").format(lo=lo, hi=hi, n=len(seats))
    seen: dict[str, int] = {}
    for i, seat in enumerate(seats, start=1):
        name = seat.name.strip()
        if not name:
            return _("seat {n} needs a name").format(n=i)
        if len(name) > MAX_NAME:
            return _("seat {n}: names are at most {most} characters").format(n=i, most=MAX_NAME)
        if name.casefold() in seen:
            return _("seats {first} and {n} are both called {name}").format(
                first=seen[name.casefold()], n=i, name=repr(name))
        seen[name.casefold()] = i
        if seat.bot is not None and seat.bot not in LEVELS:
            return _("seat {n}: unknown bot level {level} (choose {levels})").format(
                n=i, level=repr(seat.bot), levels=", ".join(LEVELS))
    return None


@dataclass
class TableSetup:
    """A table agreement before the first deal: the rules, who sits where, a fixed seed or none.

    ``seats`` are :class:`SeatChoice` (or anything with the same ``name`` and ``bot``, such
    as the table's own ``SeatConfig``)."""

    rules: RuleSet = field(default_factory=RuleSet)
    seats: list[SeatChoice] = field(default_factory=default_seats)
    preset: str = "classic"     # the preset the rules started from
    seed: int | None = None     # a fixed shuffle (command line only; never remembered)

    @classmethod
    def default(cls, rules: RuleSet | None = None, preset: str = "classic") -> TableSetup:
        """You and bots (4 seats, or the rules' minimum) at ``rules`` (classic by default)."""
        rules = rules or PRESETS[preset]
        players = min(max(4, rules.fewest_players), rules.max_players)
        return cls(rules=rules, seats=default_seats(players), preset=preset)

    def problem(self) -> str | None:
        return check_seats(self.rules, self.seats)

    def to_dict(self) -> dict[str, Any]:
        """What ``AppConfig.last_setup`` remembers (not the seed)."""
        return {"preset": self.preset, "rules": self.rules.to_dict(),
                "seats": [{"name": s.name, "bot": s.bot} for s in self.seats]}

    @classmethod
    def from_dict(cls, data: Any) -> TableSetup | None:
        """A remembered setup, or None if it is missing, damaged or no longer playable."""
        if not isinstance(data, dict) or not data:
            return None
        try:
            rules = RuleSet.from_dict(data["rules"])
            seats = [SeatChoice(name=str(s["name"]), bot=None if s.get("bot") is None else str(s["bot"]))
                     for s in data["seats"]]
        except (RuleError, KeyError, TypeError, AttributeError):
            return None
        preset = data.get("preset")
        setup = cls(rules=rules, seats=seats, preset=preset if preset in PRESETS else "classic")
        return None if setup.problem() else setup


@dataclass
class LaunchOptions:
    """What the command line asked for at this start (never saved)."""

    setup: TableSetup | None = None   # a table pre-filled by --preset/--rule/--players/--humans/--bot/--seed
    new: bool = False                 # --new: do not offer to resume the autosave
    open_setup: bool = False          # --setup: open the setup screen first


_RUNTIME = {"runtime": True}  # field metadata: a setting of this run only, not written to disk


@dataclass
class AppConfig:
    """Display and pacing settings of the app (not rules: those are the RuleSet)."""

    theme: str = "dark"            # "dark" or "light" (styles/dark.tcss, styles/light.tcss)
    four_color: bool = False       # four-colour deck: spades black, hearts red, diamonds blue, clubs green
    delay: float = 0.6             # seconds between dealer/bot steps (SPEEDS names them); 0 in tests
    auto_cut: bool = False         # a person's cut at a local table is made at a random place
    hints: bool = True             # the table's i key shows this seat's odds (a network table: if its host allows)
    autosave: bool = True          # save after every action to autosave_path()
    language: str = ""             # "en", "fi" or "sv"; "" follows the locale (LANG, LANGUAGE)
    tutorial_offered: bool = False  # the start screen has said once that there is a tutorial
    last_setup: dict[str, Any] = field(default_factory=dict)  # the setup screen's last choices
    launch: LaunchOptions = field(default_factory=LaunchOptions, metadata=_RUNTIME)
    notice: str = field(default="", metadata=_RUNTIME)  # what went wrong reading them
    damaged: tuple[Path, str] | None = field(default=None, metadata=_RUNTIME)
    """A damaged settings file still in its place, and why: never written over."""
    unreadable: bool = field(default=False, metadata=_RUNTIME)
    """The settings file (``damaged``) cannot be read at all (its permissions, say): it is
    left where it is, and never written over, while this run lasts."""
    save_problem: str = field(default="", metadata=_RUNTIME)
    """Why the settings could not be written the last time ("" once they were)."""
    on_save_problem: Any = field(default=None, metadata=_RUNTIME, repr=False, compare=False)
    """Called with a sentence once each time saving starts to fail (the app says it): a
    setting changed now is kept for this run only."""

    @classmethod
    def load(cls) -> "AppConfig":
        """The saved settings, or defaults if there are none or the file is damaged or
        cannot be read. Such a file is never written over: see :meth:`keep_damaged_aside`."""
        try:  # read where settings_path() is, without making the folder for it
            path = settings_file()  # another account's folder: refused, its file not read
        except OSError:
            return cls()
        if path is None:
            return cls()
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        except OSError as exc:  # (its permissions, say): left where it is, not written over
            from pokeroulette_tui.engine.folders import os_problem

            config = cls._damaged(path, os_problem(exc))
            config.unreadable = not isinstance(exc, IsADirectoryError)
            return config
        except ValueError:  # not UTF-8
            return cls._damaged(path, _("not UTF-8 text"))
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            return cls._damaged(path, _("not JSON: {error}").format(error=str(exc)[:80]))
        if not isinstance(data, dict):
            return cls._damaged(path, _("not a set of settings"))
        known = {f.name for f in fields(cls) if not f.metadata.get("runtime")}
        try:
            config = cls(**{k: v for k, v in data.items() if k in known})
        except TypeError:  # (cannot happen with known names; kept as a safety net)
            return cls._damaged(path, _("not a set of settings"))
        if isinstance(config.delay, bool) or not isinstance(config.delay, (int, float)) \
                or not 0 <= config.delay <= 60:
            config.delay = cls.delay  # a hand-edited pause that no table could keep
        config.auto_cut = config.auto_cut is True
        config.tutorial_offered = config.tutorial_offered is True
        config.hints = config.hints is not False  # on unless turned off
        if config.language not in ("", "en", "fi", "sv"):
            config.language = ""  # a hand-edited language the game does not speak: the locale's
        return config

    @classmethod
    def _damaged(cls, path: Path, problem: str) -> "AppConfig":
        """Defaults; the damaged file is not written over until :meth:`keep_damaged_aside`
        has moved it aside and said so."""
        config = cls()
        config.damaged = (path, problem)
        return config

    def keep_damaged_aside(self) -> str:
        """Move a damaged settings file aside (it is kept, never written over); what to tell
        the player ("" if the settings were fine). Called by the app that shows it."""
        if self.damaged is None:
            return ""
        from pokeroulette_tui.engine.save import aside_path

        path, problem = self.damaged
        kept = aside_path(path)
        try:
            if self.unreadable:  # (what cannot be read is left as it is)
                raise PermissionError(problem)
            path.replace(kept)
        except OSError:  # not even moved: not written over either (still ``damaged``)
            self.notice = _("Your settings could not be read ({problem}); the defaults are "
                            "used for now, and {path} is left as it is.").format(
                                problem=problem, path=path)
            return self.notice
        self.damaged = None
        self.notice = _("Your settings could not be read ({problem}), so the defaults are "
                        "used. The file was kept as {path}.").format(problem=problem, path=kept)
        return self.notice

    def save(self) -> None:
        from pokeroulette_tui.engine.folders import atomic_write

        if self.damaged is not None:  # (kept as it is until moved aside)
            return

        try:
            data = {f.name: getattr(self, f.name) for f in fields(self) if not f.metadata.get("runtime")}
            atomic_write(settings_path(), json.dumps(data, indent=2))
        except OSError as exc:  # settings are a convenience; never fail the game for them
            from pokeroulette_tui.engine.folders import os_problem

            said = _("Your settings cannot be saved ({problem}): what you change now lasts "
                     "until you quit.").format(problem=os_problem(exc))
            if said != self.save_problem and self.on_save_problem is not None:
                self.on_save_problem(said)
            self.save_problem = said
        else:
            self.save_problem = ""
