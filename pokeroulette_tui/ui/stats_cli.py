"""``pokeroulette stats``: print the statistics, export the hand histories, reset them.

No Textual here: the command prints plain text (or JSON) and starts no screen.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Callable, Iterator

from pokeroulette_tui.engine.i18n import _, ngettext, pgettext
from pokeroulette_tui.errors import CliError
from pokeroulette_tui.ui.terminal import terminal_width, wrapped

if TYPE_CHECKING:  # the engine loads when the command runs, not when the parser is built
    from pokeroulette_tui.engine.stats_store import StatsStore


def add_stats_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    stats = sub.add_parser("stats", help=_("your statistics across games: print, export, reset"))
    stats.add_argument("--player", default=None, metavar="NAME",
                       help=_("only this player (default: everyone recorded here)"))
    stats.add_argument("--json", action="store_true", help=_("print them as JSON"))
    stats.add_argument("--export", default=None, metavar="FILE",
                       help=_("write the hand histories as JSON lines (- for the screen)"))
    stats.add_argument("--export-text", default=None, metavar="FILE",
                       help=_("write the hand histories as readable text (- for the screen)"))
    stats.add_argument("--replace", action="store_true",
                       help=_("with --export or --export-text: overwrite FILE if it exists"))
    stats.add_argument("--reset", action="store_true", help=_("delete the statistics (asks first)"))
    stats.add_argument("--yes", action="store_true", help=_("with --reset: do not ask"))


def run_stats(args: argparse.Namespace, *, store: StatsStore | None = None,
              ask: Callable[[str], str] = input, out: IO[str] | None = None) -> int:
    """The ``stats`` command; raises CliError (one line, status 2) for a mistake."""
    from pokeroulette_tui.engine.stats_report import (hand_json, hand_text, summary_json,
                                                      summary_lines)

    for flag, target in (("--export", args.export), ("--export-text", args.export_text)):
        if target is not None and not target.strip():
            raise CliError(_("{flag} needs a file name (- for the screen)").format(flag=flag))
    out = out or sys.stdout
    if store is None:
        from pokeroulette_tui.ui.stats_recorder import stats_store

        store = stats_store()
    everyone = store.players()
    if args.player is not None and args.player not in everyone:
        known = ", ".join(everyone) or _("nobody yet")
        raise CliError(_("no statistics for {name} (recorded: {known})").format(
            name=repr(args.player), known=known))
    players = [args.player] if args.player is not None else everyone
    if args.yes and not args.reset:
        raise CliError(_("--yes goes with --reset"))
    if getattr(args, "replace", False) and not (args.export or args.export_text):
        raise CliError(_("--replace goes with --export or --export-text"))
    if args.reset:
        return _reset(store, args.player, players, yes=args.yes, ask=ask, out=out)
    if args.export or args.export_text:
        for target in (args.export, args.export_text):  # (before a word is written)
            if target and target != "-":
                _check_target(target, replace=getattr(args, "replace", False))
        for target, line in ((args.export, lambda r: json.dumps(hand_json(r), ensure_ascii=False)),
                             (args.export_text, lambda r: hand_text(r) + "\n")):
            if target:
                count = _export(store, players, target, line, out)
                if target != "-":
                    print(ngettext("{n} hand written to {file}", "{n} hands written to {file}",
                                   count).format(n=count, file=target), file=sys.stderr)
        _problems(store)
        return 0
    books = [store.load(p) for p in players]
    if args.json:
        json.dump({"folder": str(store.folder), "players": [summary_json(b) for b in books],
                   "problems": store.problems}, out, ensure_ascii=False, indent=1)
        out.write("\n")
        return 0
    width = terminal_width()
    say = _sayer(out, width)
    # (whole: the folder is what this line says, to be copied as it is)
    print(_("Statistics in {folder}").format(folder=store.folder), file=out)
    if not books and store.problems:  # (not "no games": some could not be read, below)
        say(_("No statistics could be read here."))
    elif not books:
        say(_("No games recorded yet: they are kept for the people who play at this terminal."))
    for book in books:
        print(file=out)
        print("\n".join(summary_lines(book, width)), file=out)
    _problems(store)
    return 0


def _sayer(out: IO[str], width: int) -> Callable[[str], None]:
    """A print to ``out`` that wraps at spaces to ``width`` columns (never inside a word)."""
    def say(text: str) -> None:
        print(wrapped(text, width), file=out)
    return say


def _problems(store: StatsStore) -> None:
    for problem in store.problems:
        print(f"pokeroulette: {problem}", file=sys.stderr)


def _check_target(target: str, *, replace: bool) -> None:
    """An export's file may be written: not a folder, and not a file already there unless
    ``replace`` (the words of ``pokeroulette preset export``); raises CliError."""
    from pokeroulette_tui.engine.folders import export_problem

    problem = export_problem(Path(target).expanduser(), replace=replace)
    if problem:
        raise CliError(problem)


@contextmanager
def _opened(target: str, out: IO[str]) -> Iterator[IO[str]]:
    if target == "-":
        yield out
        return
    try:
        with open(Path(target).expanduser(), "w", encoding="utf-8") as f:
            yield f
    except OSError as exc:
        raise CliError(_("cannot write {file}: {why}").format(file=target, why=exc.strerror or exc)) from None


def _export(store: StatsStore, players: list[str], target: str,
            line: Callable[..., str], out: IO[str]) -> int:
    count = 0
    with _opened(target, out) as f:
        for player in players:
            for rec in store.hands(player):
                f.write(line(rec) + "\n")
                count += 1
    return count


def _reset(store: StatsStore, player: str | None, players: list[str], *, yes: bool,
           ask: Callable[[str], str], out: IO[str]) -> int:
    say = _sayer(out, terminal_width())
    if not players:
        say(_("There are no statistics to reset."))
        return 0
    if player:
        whose = _("the statistics of {name}").format(name=player)
    else:
        whose = _("all statistics ({names})").format(names=", ".join(players))
    if not yes:
        if not sys.stdin.isatty() and ask is input:
            raise CliError(_("--reset would delete {what}: add --yes to do it without asking").format(
                what=whose))
        try:
            # TRANSLATORS: y and yes are accepted as the answer in every language, and the
            # translation of "y" and "yes" too
            answer = ask(_("Delete {what}? This cannot be undone. [y/N] ").format(what=whose))
        except EOFError:  # (Ctrl-D: the answer's line was never ended)
            print(file=out)
            answer = ""
        if answer.strip().lower() not in ("y", "yes", pgettext("answer", "y"), pgettext("answer", "yes")):
            say(_("Nothing was deleted."))
            return 1
    gone = store.reset(player)
    say(ngettext("Deleted {what} ({n} file).", "Deleted {what} ({n} files).", len(gone)).format(
        what=whose, n=len(gone)))
    return 0
