"""From ``pokeroulette`` to the start screen: the ``play`` flags checked, then the app run.

The start screen's helpers (the autosave, new and resumed sessions, the background
preload) are :mod:`pokeroulette_tui.ui.tables`, importable from here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokeroulette_tui.bots import LEVELS
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.errors import CliError
from pokeroulette_tui.ui.config import (
    SPEEDS,
    AppConfig,
    LaunchOptions,
    TableSetup,
    check_seats,
    default_bot_level,
    default_seats,
)

if TYPE_CHECKING:
    import argparse


# -- the command line -----------------------------------------------------------------------

def launch_options(args: argparse.Namespace, rules: RuleSet, config: AppConfig) -> LaunchOptions:
    """The ``play`` flags checked and turned into a pre-filled table (raises CliError).

    The remembered table (``config.last_setup``) is the base; ``--preset``/``--rule`` replace
    its rules and ``--players``/``--humans``/``--bot`` its seats.
    """
    asked = getattr(args, "preset", None)  # None: not given (the last table's rules stay)
    preset_name = asked or "classic"
    players = getattr(args, "players", None)
    humans = getattr(args, "humans", None)
    bot = getattr(args, "bot", None)
    seed = getattr(args, "seed", None)
    options = LaunchOptions(new=bool(getattr(args, "new", False)),
                            open_setup=bool(getattr(args, "setup", False)))
    rules_given = bool(getattr(args, "rule", None)) or asked is not None
    seats_given = players is not None or humans is not None or bot is not None
    setup = TableSetup.from_dict(config.last_setup) or TableSetup.default()
    if rules_given:
        setup.rules, setup.preset = rules, preset_name
    rules = setup.rules
    if bot is not None and bot not in LEVELS:
        raise CliError(_("unknown bot level {level} for --bot (choose {levels})").format(
            level=repr(bot), levels=", ".join(LEVELS)))
    lo, hi = rules.fewest_players, rules.max_players
    if players is not None and not lo <= players <= hi:
        if players == 2 and lo > 2:
            raise CliError(_("--players must be between {lo} and {hi} for these rules (got {n}); "
                             "--rule min_players=2 allows 2").format(lo=lo, hi=hi, n=players))
        raise CliError(_("--players must be between {lo} and {hi} for these rules (got {n})")
                       .format(lo=lo, hi=hi, n=players))
    if humans is not None:
        top = players if players is not None else hi
        if not 0 <= humans <= top:
            what = (_("--humans must be between 0 and {top}, the number of players (got {n})")
                    if players is not None else
                    _("--humans must be between 0 and {top}, the most these rules seat (got {n})"))
            raise CliError(what.format(top=top, n=humans))
    if not (rules_given or seats_given or seed is not None):
        return options
    if seats_given:
        people = 1 if humans is None else humans
        count = players if players is not None else min(max(4, lo, people), hi)
        setup.seats = default_seats(count, people, bot or default_bot_level())
    elif check_seats(rules, setup.seats):
        setup.seats = TableSetup.default(rules).seats
    problem = check_seats(rules, setup.seats)
    if problem:  # pragma: no cover - the checks above cover every way here
        raise CliError(problem)
    setup.seed = seed
    options.setup = setup
    return options


def run_play(args: argparse.Namespace, rules: RuleSet) -> int:
    """``pokeroulette play``: check the flags, then run the app on its start screen."""
    config = AppConfig.load()
    config.launch = launch_options(args, rules, config)
    speed = getattr(args, "speed", None)
    if speed is not None:  # (cli.cmd_play checked the name) a speed is remembered
        config.delay = SPEEDS[speed]
        config.save()
    return _run_app(config)


def _run_app(config: AppConfig) -> int:
    from pokeroulette_tui.ui.app import make_app

    app = make_app(config)
    app.run()
    if getattr(app, "farewell", ""):
        from pokeroulette_tui.ui.terminal import say_wrapped

        say_wrapped(app.farewell)
    return app.return_code or 0


