"""The command line: play (default), rules, preset, simulate, casino, host, join."""

from __future__ import annotations

import contextlib
import json
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING, NoReturn, Sequence

from pokeroulette_tui import __version__
from pokeroulette_tui.engine.rules import (
    OPTION_CHOICES,
    OPTION_HELP,
    PRESET_NOTES,
    PRESETS,
    RuleError,
    RuleSet,
    preset_note,
)
from pokeroulette_tui.engine.i18n import N_, _, detect, language_problem, set_language
from pokeroulette_tui.engine.words import changes_words, option_help, option_words, setting_words, value_words
from pokeroulette_tui.errors import CliError  # also importable from here, as it always was

if TYPE_CHECKING:  # argparse loads when a command line is given (``pokeroulette`` alone needs none)
    import argparse

    from pokeroulette_tui.engine.casino.store import CasinoStore
    from pokeroulette_tui.engine.presets import Preset


def parse_rule_overrides(pairs: Sequence[str], base: RuleSet) -> RuleSet:
    """``--rule name=value`` pairs applied to a rule set, values parsed by the option's type.

    >>> parse_rule_overrides(["ante=5", "stock_to_active=yes"], RuleSet()).ante
    5
    """
    changes: dict[str, object] = {}
    for pair in pairs:
        if "=" not in pair:
            raise CliError(_("--rule takes name=value, got {pair}").format(pair=repr(pair)))
        name, __, raw = pair.partition("=")
        name = name.strip()
        if name not in OPTION_HELP:
            raise CliError(_("unknown rule option {name}; `pokeroulette rules --list` shows them").format(
                name=repr(name)))
        current = getattr(base, name)
        if isinstance(current, bool):
            low = raw.strip().lower()
            if low not in ("yes", "no", "true", "false", "on", "off", "1", "0"):
                raise CliError(rule_problem(RuleError(_("{option} must be yes or no (got {value})").format(
                    option=option_words(name), value=repr(raw)), name)))
            changes[name] = low in ("yes", "true", "on", "1")
        elif isinstance(current, int):
            try:
                changes[name] = int(raw)
            except ValueError:
                raise CliError(rule_problem(RuleError(_("{option} must be a whole number (got {value})").format(
                    option=option_words(name), value=repr(raw)), name))) from None
        else:
            changes[name] = raw.strip()
    try:
        return base.replace(**changes)
    except RuleError as exc:
        raise CliError(rule_problem(exc)) from None


def rule_problem(exc: RuleError) -> str:
    """A RuleError for the command line, in one pattern whatever the rule: the option in
    words once, with the name ``--rule`` takes after it, ``Words (name) …``.

    >>> rule_problem(RuleError("Forfeit tokens must be between 5 and 7 (got 9)", "tokens"))
    'Forfeit tokens (tokens) must be between 5 and 7 (got 9)'
    >>> rule_problem(RuleError("Betting (betting) must be one of none, final_only, each_round", "betting"))
    'Betting (betting) must be one of none, final_only, each_round'
    >>> rule_problem(RuleError("Chip scoring with no betting needs an ante above 0", "ante"))
    'Ante (ante): Chip scoring with no betting needs an ante above 0'
    """
    message = str(exc)
    name = exc.option
    if not name or f"({name})" in message:
        return message
    words = option_words(name) if name in OPTION_HELP else name
    rest = message[len(words):]
    if message.startswith(words) and not rest[:1].isalnum():  # "Ante must be …", "Ante: …"
        return f"{words} ({name}){rest}"
    return f"{words} ({name}): {message}"


def refuse_together(*given: tuple[str, bool]) -> None:
    """One line (CliError, status 2) for two options given together that cannot both be
    done, rather than one of them silently ignored: ``given`` is (option, given) pairs, and
    the first two given are named.

    >>> refuse_together(("--odds", True), ("--simulate", False), ("--pay-tables", True))
    Traceback (most recent call last):
    ...
    pokeroulette_tui.errors.CliError: cannot combine --odds with --pay-tables
    """
    named = [flag for flag, there in given if there]
    if len(named) > 1:
        raise CliError(_("cannot combine {one} with {other}").format(one=named[0], other=named[1]))


def find_preset(name: str) -> Preset:
    """A built-in or saved preset by name, or CliError in one line."""
    from pokeroulette_tui.engine.presets import PresetError
    from pokeroulette_tui.paths import saved_presets

    try:
        return saved_presets().get(name)
    except PresetError as exc:
        raise CliError(str(exc)) from None


def preset_asked(args: argparse.Namespace) -> str:
    """The preset ``--preset`` names, classic if it is not given ('' is a name, unknown)."""
    return "classic" if args.preset is None else args.preset


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """The rules of ``--preset`` (built in or saved; classic if not given) with any ``--rule``."""
    name = preset_asked(args)
    if name in PRESETS:
        base = PRESETS[name]
    else:
        found = find_preset(name)
        args.preset, base = found.name, found.rules  # the name as it is spelled where it is kept
    return parse_rule_overrides(args.rule or [], base)


def _add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", default=None,  # (None: not given, so "classic" can be asked for)
                   help=_("rule preset: {names} (default classic), or one you saved "
                          "(`pokeroulette preset list`)").format(names=", ".join(PRESETS)))
    p.add_argument("--rule", action="append", metavar="NAME=VALUE",
                   help=_("change one rule option (repeatable), e.g. --rule ante=5"))


def _one_line_errors(parser_class: type) -> type:
    """An ArgumentParser whose mistakes are one line that says where to look, not the usage."""

    class Parser(parser_class):  # type: ignore[misc, valid-type]
        def error(self, message: str) -> NoReturn:
            message = message.replace("invalid int value", _("expects a whole number, not"))
            message = message.replace("invalid float value", _("expects a number, not"))
            self.exit(2, _("{prog}: {message} (see: {prog} --help)").format(
                prog=self.prog, message=message) + "\n")

        def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                       namespace: argparse.Namespace | None = None) -> argparse.Namespace:
            """As argparse's, but an option no command knows is said by the command it was
            given to (``pokeroulette rules --jsn`` points to ``pokeroulette rules --help``)."""
            ns, extras = self.parse_known_args(args, namespace)
            if extras:
                _command_parser(self, ns).error(_("unrecognized arguments: %s") % " ".join(extras))
            return ns

    return Parser


def _command_parser(parser: argparse.ArgumentParser,
                    ns: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``ns`` was parsed for: ``parser`` itself if none."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(ns, action.dest, None) or "")
            if chosen is not None:
                return _command_parser(chosen, ns)
    return parser


ARGPARSE_WORDS = frozenset((
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("the following arguments are required: %s"), N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"), N_("expected one argument"),
    N_("expected at most one argument"), N_("expected at least one argument"),
    N_("not allowed with argument %s"), N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s")))
"""argparse's own words (headings, its errors) that the game's catalogs translate."""


def _argparse_speaks(argparse_module: object) -> None:
    """Let argparse say its own words (``usage:``, ``options``, its errors) in the player's
    language: it looks each up with its module's ``_`` when it prints them."""
    argparse_module._ = lambda message: _(message) if message in ARGPARSE_WORDS else message  # type: ignore[attr-defined]


def build_parser() -> argparse.ArgumentParser:
    import argparse

    _argparse_speaks(argparse)

    parser = _one_line_errors(argparse.ArgumentParser)(
        prog="pokeroulette", description=_("Poker Roulette and five-card draw in the terminal."),
        epilog=_("With no command it plays. The table's options (--preset, --players, --humans, "
                 "--bot, --seed, --speed …): pokeroulette play --help"))
    parser.add_argument("--version", action="version", version=f"pokeroulette {__version__}",
                        help=_("show program's version number and exit"))
    parser.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS,  # main() takes it
                        help=_("the language: en, fi or sv (default: the settings', else the locale's)"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help=_("play at this terminal (the default)"))
    _add_rules_args(play)
    play.add_argument("--players", type=int, default=None, help=_("seats at the table (2-10)"))
    play.add_argument("--humans", type=int, default=None, help=_("human seats (hot-seat); the rest are bots"))
    play.add_argument("--bot", default=None, help=_("bot level: random, simple or strong"))
    play.add_argument("--seed", type=int, default=None, help=_("fixed shuffle (for testing and replays)"))
    play.add_argument("--new", action="store_true", help=_("start a new game, ignoring any autosave"))
    play.add_argument("--setup", action="store_true", help=_("open the table-setup screen first"))
    play.add_argument("--speed", default=None, metavar="SPEED",
                      help=_("pace of the dealer and the bots: slow, normal, fast or instant "
                             "(remembered; v at the table changes it)"))

    rules = sub.add_parser("rules", help=_("print a rule set in plain words"))
    _add_rules_args(rules)
    rules.add_argument("--list", action="store_true", help=_("list every option with a line of help"))
    rules.add_argument("--json", action="store_true", help=_("print the options as JSON"))
    rules.add_argument("--doc", action="store_true",
                       help=_("print the whole rules reference (every option, every decision)"))

    presets = sub.add_parser("preset", help=_("save, list, delete, export and import rule presets"))
    what = presets.add_subparsers(dest="preset_command", metavar="ACTION", required=True)
    what.add_parser("list", help=_("the built-in and saved presets"))
    save = what.add_parser("save", help=_("save --preset/--rule as a preset of your own"))
    save.add_argument("name", metavar="NAME")
    _add_rules_args(save)
    save.add_argument("--note", default="", help=_("a line about it (shown beside its name)"))
    save.add_argument("--replace", action="store_true", help=_("replace a saved preset of that name"))
    delete = what.add_parser("delete", help=_("delete a saved preset"))
    delete.add_argument("name", metavar="NAME")
    export = what.add_parser("export", help=_("write a preset to a file (- for the screen)"))
    export.add_argument("name", metavar="NAME")
    export.add_argument("file", metavar="FILE")
    export.add_argument("--replace", action="store_true", help=_("overwrite FILE if it exists"))
    load = what.add_parser("import", help=_("check a preset file and save it as a preset"))
    load.add_argument("file", metavar="FILE")
    load.add_argument("--name", default=None, help=_("save it under this name instead of its own"))
    load.add_argument("--replace", action="store_true", help=_("replace a saved preset of that name"))

    sim = sub.add_parser("simulate", help=_("play bot games with no screen and report"))
    _add_rules_args(sim)
    sim.add_argument("--games", type=int, default=10,
                     help=_("bot games to play, one after another (default 10)"))
    sim.add_argument("--players", type=int, default=4,
                     help=_("seats in each game (default 4): up to 52 in Poker Roulette, more "
                            "than the 10 a table at the terminal seats, to test the engine; up "
                            "to 7 in five-card draw"))
    sim.add_argument("--seed", type=int, default=1,
                     help=_("the first game's shuffle and bots (default 1), each next game's "
                            "one more: the same seed plays the same games"))
    sim.add_argument("--bots", default="random", help=_("one level for all, or comma-separated per seat"))
    sim.add_argument("--max-hands", type=int, default=200, help=_("stop a game after this many hands"))
    sim.add_argument("--no-check", action="store_true", help=_("skip the invariant checks (faster)"))

    casino = sub.add_parser("casino", help=_("the casino game against the house (play money)"))
    casino.add_argument("--pay-table", default=None, metavar="NAME|FILE",  # (None: default)
                        help=_("a named pay table (default, generous, tight) or a .toml file of "
                               "your own (default: default)"))
    casino.add_argument("--pay-tables", action="store_true",
                        help=_("list the named pay tables with their exact house edges, and stop"))
    casino.add_argument("names", nargs="*", metavar="NAME",
                        help=_("the players at this terminal, in turn (default: your login name)"))
    casino.add_argument("--odds", action="store_true",
                        help=_("print every bet's exact chance, return and house edge, and stop"))
    casino.add_argument("--simulate", type=int, default=None, metavar="ROUNDS",
                        help=_("deal ROUNDS rounds and check each bet's return against the exact "
                               "figure, and stop"))
    casino.add_argument("--seed", type=int, default=None, help=_("fixed shuffle (for testing)"))
    casino.add_argument("--reset-bankroll", default=None, metavar="NAME",
                        help=_("give NAME a fresh bankroll, and stop"))
    casino.add_argument("--reset-jackpot", action="store_true",
                        help=_("start the pay table's jackpot again from its seed, and stop"))
    casino.add_argument("--deal-pause", type=float, default=None, metavar="SECONDS",  # (None: 0.6)
                        help=_("pause between the cards of a deal (default 0.6)"))

    tutorial = sub.add_parser("tutorial", help=_("learn a game on a prepared hand, step by step"))
    tutorial.add_argument("game", nargs="?", choices=("roulette", "draw"), default="roulette",
                          help=_("Poker Roulette (default) or five-card draw"))
    tutorial.add_argument("--restart", action="store_true",
                          help=_("start again from the first step (it resumes where you left)"))

    host = sub.add_parser("host", help=_("host a table on the network or on this machine"))
    _add_rules_args(host)
    host.add_argument("--casino", action="store_true",
                      help=_("host a casino table (each player bets against the house); "
                             "--delay is then the pause between cards, --turn-timeout how long "
                             "the others have to bet once one player is ready"))
    host.add_argument("--pay-table", default=None, metavar="NAME|FILE",
                      help=_("with --casino: a named pay table or a .toml file (default: "
                             "default)"))
    host.add_argument("--unix", nargs="?", const="", default=None, metavar="PATH",
                      help=_("a table for accounts of this machine, on a Unix socket (default "
                             "/tmp/pokeroulette-UID/table.sock): players join with @LOGIN"))
    host.add_argument("--allow", default=None, metavar="LOGIN,LOGIN",
                      help=_("with --unix: the accounts that may join (default: your group)"))
    host.add_argument("--port", type=int, default=7777)
    host.add_argument("--bind", default="0.0.0.0")
    host.add_argument("--no-tls", action="store_true",
                      help=_("TCP without TLS (players then join with --no-tls): only on a "
                             "network you trust"))
    _add_password_args(host)
    host.add_argument("--name", default=None, help=_("your name at the table (TCP)"))
    host.add_argument("--headless", action="store_true", help=_("host without sitting at the table"))
    host.add_argument("--stop", action="store_true",
                      help=_("stop your table (the one at --unix [PATH], or on --port)"))
    host.add_argument("--detach", action="store_true",
                      help=_("with --headless: serve in the background and return (the table "
                             "outlives this terminal)"))
    host.add_argument("--resume", default=None, metavar="FILE", help=_("resume a saved table"))
    host.add_argument("--bots", type=int, default=0, help=_("bot seats to add at the start"))
    host.add_argument("--turn-timeout", type=float, default=None,
                      help=_("seconds per turn (0 = none; default 60)"))
    host.add_argument("--bot-level", default=None, help=_("level of the bots: random, simple or strong"))
    host.add_argument("--delay", type=float, default=None, help=_("seconds between dealer and bot steps"))
    host.add_argument("--save", default=None, metavar="FILE", help=_("where the table is saved after every action"))
    host.add_argument("--seed", type=int, default=None, help=_("fixed shuffle (testing only: not a fair deck)"))
    host.add_argument("--allow-hints", action="store_true",
                      help=_("let players' clients show hints (each from its own cards only)"))
    host.add_argument("--result-pause", type=float, default=None, metavar="SECONDS",
                      help=_("after each hand, the result is shown this long before the next "
                             "deal (default 4)"))
    host.add_argument("--start-countdown", type=float, default=None, metavar="SECONDS",
                      help=_("with --headless: once everyone seated is ready, the game starts "
                             "this much later, unless someone joins (default 10; the table's "
                             "leader can start at once)"))
    host.add_argument("--lobby-timeout", type=float, default=None, metavar="MINUTES",
                      help=_("close a lobby whose game has not started after this long "
                             "(default 60; 0 = never)"))

    join = sub.add_parser("join", help=_("join a table or a casino table: @LOGIN on this "
                                         "machine, or HOST[:PORT]"))
    join.add_argument("address", nargs="?", default=None, metavar="@LOGIN | HOST[:PORT]")
    join.add_argument("--unix", default=None, metavar="PATH", help=_("join the table at this socket"))
    join.add_argument("--no-tls", action="store_true",
                      help=_("join a table hosted with --no-tls (plain TCP)"))
    join.add_argument("--fingerprint", default=None, metavar="SHA256:…",
                      help=_("the host's TLS certificate fingerprint (as its banner prints it): "
                             "checked instead of trusting the first visit"))
    join.add_argument("--owner", default=None, metavar="LOGIN",
                      help=_("with --unix: the account that must be serving that socket"))
    join.add_argument("--name", default=None, help=_("your name at a TCP table"))
    _add_password_args(join)
    join.add_argument("--spectate", action="store_true", help=_("watch, seeing public cards only"))
    from pokeroulette_tui.ui.stats_cli import add_stats_parser

    add_stats_parser(sub)  # stats: print, --json, --export, --export-text, --reset
    from pokeroulette_tui.ui.sshroom import add_parser as add_serve_ssh_parser

    add_serve_ssh_parser(sub)  # serve-ssh: the card room over SSH (asyncssh: imported when run)
    return parser


def _add_password_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--password", nargs="?", const=True, default=None,
                   help=_("ask for the table's password (a value here is refused: other "
                          "accounts can read command lines); or set POKEROULETTE_PASSWORD"))
    p.add_argument("--password-file", default=None, metavar="FILE",
                   help=_("read the password from the first line of FILE (mode 0600)"))


def cmd_rules(args: argparse.Namespace) -> int:
    doc = getattr(args, "doc", False)
    refuse_together(("--doc", doc), ("--json", args.json), ("--list", args.list))
    if doc:  # the whole reference: no one rule set's
        refuse_together(("--doc", True), ("--preset", args.preset is not None),
                        ("--rule", bool(args.rule)))
    if doc:
        from pokeroulette_tui.paths import translated_doc_path
        path = translated_doc_path("RULES.md")  # RULES.fi.md / RULES.sv.md in fi / sv
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise CliError(_("the rules reference is missing ({path}: {why})").format(
                path=path, why=exc.strerror)) from None
        print(text)  # (a closed pipe, `| head`, is main's BrokenPipeError, not a missing file)
        return 0
    r = rules_from_args(args)
    if args.json:
        print(json.dumps(r.to_dict(), indent=2))
        return 0
    if args.list:
        print(_("Every option: NAME=VALUE as --rule takes it, then the same in words."))
        for name in OPTION_HELP:
            value = getattr(r, name)
            typed = ("yes" if value else "no") if isinstance(value, bool) else value  # as typed
            print(f"{name + '=' + str(typed):34} {setting_words(name, value)}")
            print(f"    {option_help(name)}")
            if name in OPTION_CHOICES:
                print("    " + _("values: {values}").format(values=", ".join(
                    f"{c} ({value_words(name, c).lower()})" for c in OPTION_CHOICES[name])))
        return 0
    found = find_preset(preset_asked(args))
    note = found.note_words
    if found.built_in:
        title = (_("Rules: preset {name} ({note})") if note else _("Rules: preset {name}"))
    else:
        title = (_("Rules: saved preset {name} ({note})") if note else _("Rules: saved preset {name}"))
    print(title.format(name=found.name, note=note))
    if r != found.rules:
        print(_("Changed: {changes}").format(changes=changes_words(found.rules, r)))
    for line in r.describe():
        print("  " + line)
    return 0


def cmd_preset(args: argparse.Namespace) -> int:
    """``pokeroulette preset list|save|delete|export|import``."""
    from pathlib import Path

    from pokeroulette_tui.engine.presets import BuiltInName, Preset, PresetError, PresetExists
    from pokeroulette_tui.paths import saved_presets

    folder = saved_presets()
    action = args.preset_command
    try:
        if action == "list":
            from pokeroulette_tui.engine.folders import checked_dir

            checked_dir(folder.folder)  # another account's folder: one line, nothing listed
            saved, problems = folder.scan()
            print(_("Built in:"))
            for name in PRESET_NOTES:
                print(f"  {name:16} {preset_note(name)}")
            print(_("Saved ({folder}):").format(folder=folder.folder) if saved or problems else
                  _("Saved: none yet (save one on the setup screen, or with `pokeroulette preset save`)"))
            for p in saved:
                about = p.note or _("changed from classic: {changes}").format(
                    changes=changes_words(RuleSet(), p.rules) or _("nothing"))
                print(f"  {p.name:16} {about}")
            for line in problems:
                print("  " + _("(cannot be used) {problem}").format(problem=line))
        elif action == "save":
            rules = rules_from_args(args)
            path = folder.save(Preset(args.name, rules, args.note), replace=args.replace)
            print(_("Saved the preset {name}: play it with `pokeroulette --preset {typed}`").format(
                name=repr(path.stem), typed=_quoted(path.stem)))
        elif action == "delete":
            path = folder.delete(args.name)
            print(_("Deleted the saved preset {name}").format(name=repr(path.stem)))
        elif action == "export":
            if args.file == "-":
                from pokeroulette_tui.engine.presets import preset_text

                print(preset_text(folder.get(args.name)), end="")
            else:
                found = folder.export(args.name, Path(args.file), replace=args.replace)
                print(_("Wrote the preset {name} to {file}").format(name=repr(found.name), file=args.file))
        else:  # import
            found = folder.import_file(Path(args.file), name=args.name, replace=args.replace)
            print(_("Imported the preset {name}: play it with `pokeroulette --preset {typed}`").format(
                name=repr(found.name), typed=_quoted(found.name)))
    except PresetError as exc:
        message = str(exc)
        exists = isinstance(exc, PresetExists)
        built_in = isinstance(exc, BuiltInName)
        if action == "save" and exists:
            message = _("{problem} (add --replace to replace it)").format(problem=message)
        elif action == "import" and exists:
            message = _("{problem} (add --replace to replace it, or --name to import it under another "
                        "name)").format(problem=message)
        elif action == "import" and built_in:
            message = _("{problem} (add --name NAME to import it under another name)").format(
                problem=message)
        raise CliError(message) from None
    return 0


def _quoted(name: str) -> str:
    """A preset name as it would be typed in a shell."""
    import shlex

    return shlex.quote(name)


SIMULATE_MOST_PLAYERS = 52
"""The most seats ``simulate`` deals Poker Roulette for (the engine's limit)."""


def cmd_simulate(args: argparse.Namespace) -> int:
    from pokeroulette_tui.bots import LEVELS
    from pokeroulette_tui.simulate import simulate

    r = rules_from_args(args)
    if args.games < 1 or args.games > 1_000_000:
        raise CliError(_("--games must be between 1 and 1000000"))
    if not 1 <= args.max_hands <= 1_000_000:
        raise CliError(_("--max-hands must be between 1 and 1000000"))
    # (a simulation seats more than the 10 of a table at the terminal: the engine deals
    # Poker Roulette for up to 52; the words are those of ``play --players``)
    lo, hi = r.fewest_players, (r.max_players if r.variant == "draw" else SIMULATE_MOST_PLAYERS)
    if not lo <= args.players <= hi:
        if args.players == 2 and lo > 2:
            raise CliError(_("--players must be between {lo} and {hi} for these rules (got {n}); "
                             "--rule min_players=2 allows 2").format(lo=lo, hi=hi, n=args.players))
        raise CliError(_("--players must be between {lo} and {hi} for these rules (got {n})")
                       .format(lo=lo, hi=hi, n=args.players))
    levels = [s.strip() for s in args.bots.split(",")]
    for lv in levels:
        if lv not in LEVELS:
            raise CliError(_("unknown bot level {level} (choose {levels})").format(
                level=repr(lv), levels=", ".join(LEVELS)))
    if len(levels) == 1:
        levels = levels * args.players
    if len(levels) != args.players:
        raise CliError(_("--bots lists {n} levels for {players} players").format(
            n=len(levels), players=args.players))
    summary = simulate(r, games=args.games, players=args.players, seed=args.seed, levels=levels,
                       max_hands=args.max_hands, check=not args.no_check)
    for ex in summary["violation_examples"]:
        print(_("violation:"), ex)
    print(json.dumps(summary))
    return 1 if summary["violations"] else 0


def cmd_play(args: argparse.Namespace) -> int:
    try:
        from pokeroulette_tui.ui.config import speed_problem
        from pokeroulette_tui.ui.launch import run_play
    except ImportError as exc:  # pragma: no cover - the UI ships with the package
        raise CliError(_("the terminal table is not available: {problem}").format(problem=exc)) from None
    speed = getattr(args, "speed", None)
    if speed is not None and speed_problem(speed):
        raise CliError(f"--speed: {speed_problem(speed)}")
    return run_play(args, rules_from_args(args))


def _casino_store() -> CasinoStore:
    """The bankrolls and jackpots kept in the data folder; that folder another account's:
    ForeignFolderError (one line, status 2), its file not read."""
    from pokeroulette_tui.engine.casino.store import CasinoStore
    from pokeroulette_tui.engine.folders import checked_dir
    from pokeroulette_tui.paths import data_home

    checked_dir(data_home())
    store = CasinoStore.open(data_home() / "casino.json")
    _say_set_aside(store)
    return store


def cmd_casino(args: argparse.Namespace) -> int:
    from pokeroulette_tui.engine.casino.paytable import PayTableError, find
    from pokeroulette_tui.paths import data_home

    casino_conflicts(args)
    if args.pay_tables:
        from pokeroulette_tui.engine.casino.odds import tables_report
        from pokeroulette_tui.engine.casino.paytable import NAMED

        print(tables_report(NAMED))
        return 0
    try:
        table = find("default" if args.pay_table is None else args.pay_table)
    except PayTableError as exc:
        raise CliError(f"--pay-table: {exc}") from None
    if args.odds:
        from pokeroulette_tui.engine.casino.odds import report

        print(report(table, _casino_store().jackpot(table) // 100))
        return 0
    if args.simulate is not None:
        return _casino_simulate(table, args.simulate, 1 if args.seed is None else args.seed)
    if args.reset_bankroll is not None or args.reset_jackpot:
        who = None if args.reset_bankroll is None else \
            _casino_names([args.reset_bankroll], flag="--reset-bankroll")[0]
        store = _casino_store()
        try:
            if who is not None:
                store.reset_bankroll(who)
                print(_("{name} has a fresh bankroll of {amount:,} play chips").format(
                    name=who, amount=store.bankroll(who)))
            if args.reset_jackpot:
                store.reset_jackpot(table)
                print(_("The jackpot of the {name} pay table starts again at {amount:,}").format(
                    name=repr(table.name), amount=table.jackpot_seed))
        except OSError as exc:
            raise CliError(_("cannot write {path}: {problem}").format(
                path=store.path, problem=exc.strerror or exc)) from None
        return 0
    names = _casino_names(args.names)
    pause = 0.6 if args.deal_pause is None else args.deal_pause
    if not 0 <= pause <= 5:
        raise CliError(_("--deal-pause must be between 0 and 5 seconds"))
    try:
        from pokeroulette_tui.ui.casino import run_casino
    except ImportError as exc:
        raise CliError(_("the casino screen is not available: {problem}").format(
            problem=exc)) from None
    return run_casino(names, table, data_home() / "casino.json", pause, seed=args.seed)


def casino_conflicts(args: argparse.Namespace) -> None:
    """``casino`` does one thing: list the pay tables, print the odds, simulate, reset, or
    play. Two of them, or an option that only the other thing takes, is refused in one line
    (each once did the first and silently dropped the rest)."""
    reset = args.reset_bankroll is not None or args.reset_jackpot  # (the two go together)
    modes = (("--pay-tables", args.pay_tables), ("--odds", args.odds),
             ("--simulate", args.simulate is not None),
             ("--reset-bankroll" if args.reset_bankroll is not None else "--reset-jackpot", reset))
    refuse_together(*modes)
    mode = next((flag for flag, there in modes if there), None)
    if mode is None:
        return  # play: every option counts
    plays_a_table = args.odds or args.simulate is not None or args.reset_jackpot
    refuse_together((mode, True), (_("player names"), bool(args.names)),
                    ("--pay-table", args.pay_table is not None and not plays_a_table),
                    ("--seed", args.seed is not None and args.simulate is None),
                    ("--deal-pause", args.deal_pause is not None))


def _say_set_aside(store: CasinoStore) -> None:
    """Say (once, on stderr) what the casino screen says of a damaged casino file moved aside
    (or left where it is)."""
    if store.warning:  # (wrapped at spaces: the path it was moved to is never cut in two)
        from pokeroulette_tui.ui.terminal import say_wrapped

        say_wrapped(f"pokeroulette: {store.warning}", file=sys.stderr)
        store.warning = ""


def _casino_names(given: list[str], flag: str = "") -> list[str]:
    """The names of players at the casino (``casino NAME…``, or ``flag``'s one name), checked
    before anything is stored or printed: 1 to 24 characters, none of them a control
    character (a terminal escape) or a byte that is not UTF-8 (raises CliError)."""
    from pokeroulette_tui.ui.casino_words import check_names
    from pokeroulette_tui.ui.config import login_name

    names = [n.strip() for n in given] or [login_name()]
    odd = next((n for n in names if not n.isprintable()), None)
    problem = (_("a player's name cannot hold control characters or bytes that are not UTF-8 "
                 "text (got {name})").format(name=repr(odd[:30])) if odd is not None else
               check_names(names) or (_("at most 6 players at a casino table")
                                      if len(names) > 6 else None))
    if problem:
        raise CliError(f"{flag}: {problem}" if flag else problem)
    return names


def _casino_simulate(table: object, rounds: int, seed: int) -> int:
    from pokeroulette_tui.engine.casino.odds import percent, simulate_returns
    from pokeroulette_tui.engine.i18n import number

    if not 100 <= rounds <= 10_000_000:
        raise CliError(_("--simulate takes 100 to 10000000 rounds"))
    rows = simulate_returns(table, rounds, seed)  # type: ignore[arg-type]
    print(_("{rounds:,} rounds simulated (seed {seed}); each bet's mean return per chip "
            "against the exact one, with a 99.9% interval:").format(rounds=rounds, seed=seed))
    for r in rows:
        verdict = _("agrees") if r.agrees else _("OUTSIDE")
        print(f"  {r.odds.words:45} {percent(r.mean):>8} ± "
              f"{number(r.half_width * 100, '5.2f')}  "
              + _("exact {figure}").format(figure=f"{percent(r.odds.returns):>7}")
              + f"  {verdict}")
    outside = sum(not r.agrees for r in rows)
    print(_("{agree} of {total} bets agree with the exact figures").format(
        agree=len(rows) - outside, total=len(rows)))
    return 0 if outside == 0 else 1


def cmd_host(args: argparse.Namespace) -> int:
    if args.casino:
        from pokeroulette_tui.net.casino_launch import run_casino_host

        def play(*a: object) -> int:
            from pokeroulette_tui.ui.casino_net import play_casino_hosted
            return play_casino_hosted(*a)  # type: ignore[arg-type]
        return run_casino_host(args, play=play)
    if args.pay_table is not None:
        raise CliError(_("--pay-table goes with --casino"))
    if args.stop:
        stop_conflicts(args)
    try:
        from pokeroulette_tui.ui.netplay import run_host
    except ImportError as exc:
        raise CliError(_("network play is not available in this build: {problem}").format(
            problem=exc)) from None
    return run_host(args, rules_from_args(args))


HOST_DEFAULTS = {"preset": None, "rule": None, "allow": None, "bind": "0.0.0.0", "no_tls": False,
                 "password": None, "password_file": None, "name": None, "headless": False,
                 "detach": False, "resume": None, "bots": 0, "turn_timeout": None,
                 "bot_level": None, "delay": None, "save": None, "seed": None,
                 "allow_hints": False, "result_pause": None, "start_countdown": None,
                 "lobby_timeout": None}
"""``host`` options besides --casino, --pay-table, --unix, --port and --stop, with their
defaults: ``--stop`` takes none of them (a test keeps this equal to the parser's)."""


def stop_conflicts(args: argparse.Namespace) -> None:
    """``host --stop`` stops the table at --unix [PATH] or on --port, and does nothing else:
    an option of a table to serve is refused in one line (it was silently ignored)."""
    for key, default in HOST_DEFAULTS.items():
        if getattr(args, key, default) not in (default, []):
            refuse_together(("--stop", True), ("--" + key.replace("_", "-"), True))


def cmd_join(args: argparse.Namespace) -> int:
    casino = _casino_at(args)
    if casino is not None:
        from pokeroulette_tui.ui.casino_net import run_casino_join

        session, info = casino
        return run_casino_join(session, info)
    try:
        from pokeroulette_tui.ui.netplay import run_join
    except ImportError as exc:
        raise CliError(_("network play is not available in this build: {problem}").format(
            problem=exc)) from None
    return run_join(args)


def _casino_at(args: argparse.Namespace):
    """``join HOST[:PORT]`` at a casino table: its session and what to show while joining;
    None for a card table (or nothing there: ``run_join`` says so)."""
    from pokeroulette_tui.net.casino_client import plays_casino
    from pokeroulette_tui.net.client import ConnectError, parse_address

    address = (args.address or "").strip()
    if not address or address.startswith("@") or getattr(args, "unix", None):
        return None
    try:
        host, port = parse_address(address)
    except ConnectError as exc:
        raise CliError(str(exc)) from None
    if not plays_casino(host, port, tls=not args.no_tls):
        return None
    from pokeroulette_tui.net.casino_launch import casino_session

    session = casino_session(args, host, port)
    return session, [_("Joining the casino table at {address} as {name}").format(
        address=f"{host}:{port}", name=session.name)]


def cmd_tutorial(args: argparse.Namespace) -> int:
    try:
        from pokeroulette_tui.ui.tutorial_app import run_tutorial
    except ImportError as exc:  # pragma: no cover - the UI ships with the package
        raise CliError(_("the tutorial is not available: {problem}").format(problem=exc)) from None
    return run_tutorial(args.game, restart=args.restart)


def cmd_serve_ssh(args: argparse.Namespace) -> int:
    from pokeroulette_tui.ui.sshroom import run

    return run(args)


def cmd_stats(args: argparse.Namespace) -> int:
    from pokeroulette_tui.engine.folders import checked_dir
    from pokeroulette_tui.ui.stats_cli import run_stats
    from pokeroulette_tui.ui.stats_recorder import stats_store

    stats_conflicts(args)
    store = stats_store()
    checked_dir(store.folder)  # another account's folder: one line, nothing read or deleted
    return run_stats(args, store=store)


def stats_conflicts(args: argparse.Namespace) -> None:
    """``stats`` prints, exports (--export and --export-text may both be given) or resets:
    two of these at once is refused in one line (the first once silently won)."""
    exports = args.export is not None or args.export_text is not None
    refuse_together(("--reset", args.reset),
                    ("--export" if args.export is not None else "--export-text", exports),
                    ("--json", args.json))


COMMANDS = {"play": cmd_play, "rules": cmd_rules, "preset": cmd_preset, "simulate": cmd_simulate,
            "casino": cmd_casino, "host": cmd_host, "join": cmd_join,
            "stats": cmd_stats, "tutorial": cmd_tutorial, "serve-ssh": cmd_serve_ssh}


PLAY_DEFAULTS = {"command": "play", "preset": None, "rule": None, "players": None,
                 "humans": None, "bot": None, "seed": None, "new": False, "setup": False,
                 "speed": None}
"""What ``pokeroulette play`` with no flags parses to (a test keeps it equal to the parser's)."""


def take_language(argv: list[str]) -> tuple[list[str], str | None]:
    """``--lang CODE`` (or ``--lang=CODE``) anywhere on a command line, taken out of it, so
    that every command speaks it (and its own parser never sees it).

    >>> take_language(["casino", "--lang", "fi", "--odds"])
    (['casino', '--odds'], 'fi')
    >>> take_language(["--lang=sv"]), take_language(["--lang", " FI "])
    (([], 'sv'), ([], 'fi'))
    """
    rest: list[str] = []
    lang: str | None = None
    args = iter(argv)
    for arg in args:
        if arg == "--":
            rest.append(arg)
            rest.extend(args)
        elif arg == "--lang":
            lang = next(args, None)
            if lang is None:
                _speak_the_default()
                raise CliError(_("--lang needs a language: en, fi or sv"))
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
        else:
            rest.append(arg)
    if lang is not None:
        lang = lang.strip().lower()  # (FI, Sv: the code whatever its case)
    if lang is not None and language_problem(lang):
        _speak_the_default()
        raise CliError(language_problem(lang) or "")
    return rest, lang


def _speak_the_default() -> None:
    """Speak what the program would without ``--lang`` (the settings', else the locale's):
    a wrong ``--lang`` is said in that language, in English only when none is known."""
    set_language(saved_language() or detect())


def saved_language() -> str:
    """The language chosen in the settings ("" to follow the locale)."""
    from pokeroulette_tui.paths import settings_file

    try:  # a folder another account could swap is not read (the app starts with defaults)
        path = settings_file()
        if path is None:
            return ""
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    lang = data.get("language", "") if isinstance(data, dict) else ""
    return lang if isinstance(lang, str) and language_problem(lang) is None else ""


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv, lang = take_language(argv)
    except CliError as exc:
        print(f"pokeroulette: {exc}", file=sys.stderr)
        return 2
    set_language(lang or saved_language() or detect())
    if not argv:  # the plain command: play, nothing to parse (the parser costs start-up time)
        args: argparse.Namespace | SimpleNamespace = SimpleNamespace(**PLAY_DEFAULTS)
    else:
        if argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
            argv = ["play", *argv]
        args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except CliError as exc:
        print(f"pokeroulette: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # (at a prompt, say: the shell's next line on a line of its own)
        with contextlib.suppress(OSError, ValueError):
            print(file=sys.stderr, flush=True)
        return 130
    except BrokenPipeError:  # the reader went away (``| head``): nothing more to say
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except PermissionError as exc:
        from pokeroulette_tui.engine.folders import ForeignFolderError

        if not isinstance(exc, ForeignFolderError):
            raise
        print(f"pokeroulette: {exc}", file=sys.stderr)  # it names the folder and what to do
        return 2
