"""Where the start-up time goes: a traced timeline of the real command and of the bare app.

Usage::

    python benchmarks/trace_startup.py [--runs N]

Runs both, as ``bench_startup.py`` does, in a pseudo-terminal, a fresh process each (the
real command with an empty ``POKEROULETTE_HOME``: start screen, Enter, table), but each
child first wraps a few functions to note when they run and how long they take: import
phases, frames handed to the terminal, footer recomposes (and on which screen), stylesheet
parsing and restyling, ``StartScreen.action_deal`` (and in it the wait for the imports the
start screen runs in the background) and ``PokerApp.open_table``. Prints the
medians over N launches, in ms since the launch (or since Enter). The wrapping costs a
little time itself; the figures are for finding where time goes, ``bench_startup.py``
gives the start-up figures.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


# -- in the traced child ----------------------------------------------------------------------

EVENTS: list[tuple[float, str, float]] = []  # (start, label, duration in ms)


def note(label: str, start: float | None = None) -> None:
    now = time.perf_counter()
    EVENTS.append((now if start is None else start, label,
                   0.0 if start is None else (now - start) * 1000))


def timed(owner, name: str, label: str) -> None:
    """Wrap ``owner.name`` (sync or async) to note its start and duration; skip if absent."""
    import inspect

    func = getattr(owner, name, None)
    if func is None:
        return
    if inspect.iscoroutinefunction(func):
        @functools.wraps(func)
        async def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return await func(*args, **kwargs)
            finally:
                note(label(args) if callable(label) else label, start)
    else:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                note(label(args) if callable(label) else label, start)
    setattr(owner, name, wrapper)


def screen_of(args) -> str:
    try:
        return "footer recompose on " + type(args[0].screen).__name__
    except Exception:  # noqa: BLE001 - not mounted
        return "footer recompose on ?"


def instrument_textual() -> None:
    from textual.app import App
    from textual.css.stylesheet import Stylesheet
    from textual.widgets import Footer

    display = App._display

    def traced_display(self, screen, renderable):
        display(self, screen, renderable)
        if renderable is not None:
            note("frame " + type(screen).__name__)

    App._display = traced_display
    timed(Footer, "recompose", screen_of)
    timed(Stylesheet, "parse", "css parse")
    timed(Stylesheet, "update_nodes", "css restyle")


def child(which: str) -> None:
    note("script running")
    try:
        if which == "bare":
            import bare_app

            note("imports done")
            instrument_textual()
            bare_app.Bare().run()
        else:
            sys.argv = ["pokeroulette"]
            import pokeroulette_tui.cli as cli  # the order the real path imports in

            note("cli imported")
            import pokeroulette_tui.ui.launch  # noqa: F401

            note("ui.launch imported")
            import pokeroulette_tui.ui.app as app_module

            note("ui.app imported (textual with it)")
            instrument_textual()
            timed(app_module.PokerApp, "open_table", "open_table")
            try:
                from pokeroulette_tui.ui.screens import start
            except ImportError:
                pass
            else:
                timed(start.StartScreen, "action_deal", "action_deal")
            preload = getattr(pokeroulette_tui.ui.launch, "TablePreload", None)
            if preload is not None:
                timed(preload, "wait", "preload wait")
            note("instrumented")
            cli.main()
    finally:
        Path(os.environ["TRACE_OUT"]).write_text(json.dumps(EVENTS))


# -- the driver -------------------------------------------------------------------------------

def run_traced(which: str, env: dict[str, str]) -> dict[str, float] | None:
    import bench_startup as b

    out = Path(tempfile.mkstemp(prefix="trace-startup-", suffix=".json")[1])
    home = b.fresh_home()
    run_env = dict(env, TRACE_OUT=str(out), POKEROULETTE_HOME=str(home))
    term = b.Terminal([sys.executable, __file__, "--child", which], run_env)
    marks: dict[str, float] = {}
    try:
        if which == "bare":
            marks["ready"] = term.wait_for(b.BARE_READY)
        else:
            marks["start"] = term.wait_for(b.START_READY)
            marks["enter"] = term.send(b"\r")
            marks["ready"] = term.wait_for(b.TABLE_READY)
        term.send(b"q")
        term.drain(3.0)
    finally:
        term.close()
        shutil.rmtree(home, ignore_errors=True)
    try:
        events = json.loads(out.read_text() or "[]")
    finally:
        out.unlink(missing_ok=True)
    if not events:
        return None
    t0 = term.start
    ms = lambda t: (t - t0) * 1000  # noqa: E731
    row: dict[str, float] = {}

    def first(prefix: str, after: float = 0.0) -> float | None:
        hits = [t for t, label, _ in events if label.startswith(prefix) and t >= after]
        return min(hits) if hits else None

    def total(prefix: str, lo: float, hi: float) -> tuple[int, float]:
        hits = [d for t, label, d in events if label.startswith(prefix) and lo <= t <= hi]
        return len(hits), sum(hits)

    for label in ("script running", "cli imported", "ui.launch imported",
                  "ui.app imported (textual with it)", "imports done"):
        t = first(label)
        if t is not None:
            row[label] = ms(t)
    if which == "bare":
        row["first frame"] = ms(first("frame"))
        row["footer on screen (what the benchmark times)"] = ms(marks["ready"])
        n, d = total("footer recompose", 0, marks["ready"])
        row["footer recomposes (count)"], row["  ms in them"] = n, d
        row["css parse, ms"] = total("css parse", 0, marks["ready"])[1]
        row["css restyle, ms"] = total("css restyle", 0, marks["ready"])[1]
        return row
    start, enter, ready = marks["start"], marks["enter"], marks["ready"]
    row["first start-screen frame"] = ms(first("frame StartScreen"))
    row["start footer on screen"] = ms(start)
    n, d = total("footer recompose", 0, start)
    row["footer recomposes before it (count)"], row["  ms in them"] = n, d
    row["css parse before it, ms"] = total("css parse", 0, start)[1]
    row["css restyle before it, ms"] = total("css restyle", 0, start)[1]
    since = lambda t: None if t is None else (t - enter) * 1000  # noqa: E731
    deal = [(t, d) for t, label, d in events if label == "action_deal" and t >= enter]
    if deal:
        row["Enter -> action_deal done"] = since(deal[0][0]) + deal[0][1]
    waited = [d for t, label, d in events if label == "preload wait" and t >= enter]
    if waited:
        row["  waiting for the background imports, ms"] = waited[0]
    opened = [d for t, label, d in events if label == "open_table" and t >= enter]
    if opened:
        row["  open_table (imports the table screen), ms"] = opened[0]
    row["Enter -> first table frame"] = since(first("frame TableScreen", enter))
    row["Enter -> table footer on screen"] = since(ready)
    for screen in ("StartScreen", "TableScreen"):
        n, d = total(f"footer recompose on {screen}", enter, ready)
        row[f"footer recomposes on {screen} after Enter"], row[f"  ms in them ({screen})"] = n, d
    row["css parse after Enter, ms"] = total("css parse", enter, ready)[1]
    row["css restyle after Enter, ms"] = total("css restyle", enter, ready)[1]
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="launches of each")
    parser.add_argument("--child", choices=("bare", "real"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    import bench_startup as b

    env = b.base_env()
    rows: dict[str, list[dict[str, float]]] = {"bare": [], "real": []}
    for _ in range(args.runs):
        for which in rows:
            row = run_traced(which, env)
            if row is not None:
                rows[which].append(row)
    print(f"Traced launches in a {b.COLS}x{b.ROWS} pseudo-terminal, medians of {args.runs} "
          "(ms since the launch unless said)")
    for which, title in (("bare", "bare Textual app"), ("real", "pokeroulette, new table")):
        print(f"{title}:")
        for key in rows[which][0] if rows[which] else ():
            values = [r[key] for r in rows[which] if r.get(key) is not None]
            if values:
                print(f"  {key:<52}{statistics.median(values):8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
