"""Start-up and key latency of the table screen, against a minimal Textual app in the same run.

Usage::

    python benchmarks/bench_startup.py [--quick] [--runs N] [--profile]

Measures, each against a named reference measured in this same run (headless, a "frame"
is the screen update Textual hands to its driver):

1. **Import** — wall time of a fresh ``python -c "import pokeroulette_tui.ui.app"``
   against ``python -c "import textual.app"`` (median of N processes, bytecode caches
   warm as after an install).
2. **Cold start to an interactive table** — from starting a fresh process to its first
   frame of the table screen with every seat drawn (a LocalSession, Ada and 3 bots, no
   pauses); against a fresh process running a Textual app with one ``Static("hello")``
   until its first frame. Median of N, with the ratio.
3. **Warm start** — the same two in this process (imports done), median of N.
4. **Key to updated screen** — from the key event to the first frame that shows its
   effect: ``?`` opens the help, ``c`` checks or calls (the table shows the new view);
   against ``x`` updating the minimal app's ``Static``. p50 and p95 over 2N presses.

Target: the table within 1.5× the minimal app's start-up. ``--profile`` prints the
slowest imports of ``pokeroulette_tui.ui.app`` (``python -X importtime``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZE = (80, 24)
NAMES = ("Ada", "Bo", "Cy", "Di")


# -- the two apps -----------------------------------------------------------------------------

def hello_app():
    """The reference: a Textual app showing one Static; ``x`` changes its text."""
    from textual.app import App
    from textual.binding import Binding
    from textual.widgets import Static

    class Hello(App[None]):
        BINDINGS = [Binding("x", "change", "Change")]

        def compose(self):
            yield Static("hello", id="hello")

        def action_change(self) -> None:
            self.query_one("#hello", Static).update("pressed")

    return Hello()


def table_app(seed: int = 1):
    """Ada and three random bots at the classic rules, no pauses; returns (app, session)."""
    from pokeroulette_tui.engine.rules import PRESETS
    from pokeroulette_tui.session import LocalSession
    from pokeroulette_tui.table import SeatConfig, Table
    from pokeroulette_tui.ui.app import make_app
    from pokeroulette_tui.ui.config import AppConfig

    seats = [SeatConfig(NAMES[0])] + [SeatConfig(n, "random") for n in NAMES[1:]]
    session = LocalSession(Table.create(PRESETS["classic"], seats, seed=seed), delay=0)
    return make_app(AppConfig(delay=0, autosave=False), session), session


class Frames:
    """Watches the frames an app draws: the time of the first frame drawn once ``condition()``
    holds (headless, a frame is the compositor's update handed to the driver)."""

    def __init__(self, app) -> None:
        self.condition = None
        self.hit: float | None = None
        draw = app._display

        def display(screen, renderable) -> None:
            draw(screen, renderable)
            if renderable is not None and self.hit is None and self.condition is not None \
                    and self.condition():
                self.hit = time.perf_counter()

        app._display = display

    def expect(self, condition) -> None:
        self.condition, self.hit = condition, None

    async def wait(self, timeout: float = 10.0) -> float:
        give_up = time.perf_counter() + timeout
        while self.hit is None:
            if time.perf_counter() > give_up:
                raise RuntimeError("the screen never showed what was expected")
            await asyncio.sleep(0.0005)
        return self.hit


def hello_ready(app) -> bool:
    try:
        return app.screen.query_one("#hello").size.width > 0
    except Exception:  # noqa: BLE001 - not composed yet
        return False


def table_ready(app) -> bool:
    from pokeroulette_tui.ui.screens.table import TableScreen
    from pokeroulette_tui.ui.widgets.seat import SeatWidget

    screen = app.screen
    if not isinstance(screen, TableScreen) or screen.view is None:
        return False
    seats = list(screen.query(SeatWidget))
    return len(seats) == len(NAMES) and all(s.view is not None and s.size.width for s in seats)


async def time_to_ready(make, ready, start: float | None = None) -> float:
    """Seconds from ``start`` (default: now) to the first frame of the app's ready screen."""
    start = time.perf_counter() if start is None else start
    made = make()
    app = made[0] if isinstance(made, tuple) else made
    frames = Frames(app)
    frames.expect(lambda: ready(app))
    async with app.run_test(size=SIZE):
        shown = await frames.wait()
        await app.action_quit()
    return shown - start


async def repaint(pilot) -> None:
    """Every widget has handled its messages and the screen has been drawn again."""
    await pilot._wait_for_screen()
    await asyncio.sleep(0)
    pilot.app.screen._on_timer_update()


def post_key(app, key: str) -> None:
    """A key press as the terminal sends it (no waiting, unlike ``Pilot.press``)."""
    from textual import events

    named = {"question_mark": "?", "escape": "\x1b", "enter": "\r"}
    char = named.get(key, key if len(key) == 1 else None)
    event = events.Key(key, char)
    event.set_sender(app)
    app._driver.send_message(event)


# -- fresh processes --------------------------------------------------------------------------

def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode caches as after an install
    env["POKEROULETTE_HOME"] = tempfile.mkdtemp(prefix="bench-startup-")
    env["PYTHONPATH"] = str(ROOT)
    return env


def process_time(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def cold_start(which: str, env: dict[str, str]) -> float:
    """Seconds from starting a fresh process to its first frame of ``which`` ready."""
    start = time.time()
    result = subprocess.run([sys.executable, __file__, "--child", which], env=env, check=True,
                            capture_output=True, text=True)
    return float(result.stdout.split()[-1]) - start


def child(which: str) -> None:
    """In a fresh process: start the app, print the wall-clock time of its first ready frame."""
    offset = time.time() - time.perf_counter()
    if which == "hello":
        make, ready = hello_app, hello_ready
    else:
        make, ready = table_app, table_ready
    took = asyncio.run(time_to_ready(make, ready, start=0.0))
    print(f"{offset + took:.6f}", flush=True)
    os._exit(0)  # no shutdown: only the start counts


# -- key latency ------------------------------------------------------------------------------

async def press_and_time(app, frames: Frames, key: str, condition) -> float:
    frames.expect(condition)
    start = time.perf_counter()
    post_key(app, key)
    return await frames.wait() - start


async def key_latency_hello(runs: int) -> list[float]:
    from textual.widgets import Static

    app = hello_app()
    frames = Frames(app)
    out = []
    async with app.run_test(size=SIZE) as pilot:
        static = app.query_one("#hello", Static)
        for _ in range(runs):
            static.update("hello")
            await repaint(pilot)
            out.append(await press_and_time(app, frames, "x", lambda: str(static.render()) == "pressed"))
    return out


async def settle(pilot, session) -> None:
    """Let the dealer and bots play until Ada is to act (not timed)."""
    for _ in range(10_000):
        await repaint(pilot)
        table = session.table
        if session._queue.empty() and (table.state.game_over or table.waiting_for_human() is not None):
            await repaint(pilot)
            return
    raise RuntimeError("the table never settled")


async def key_latency_table(runs: int) -> tuple[list[float], list[float]]:
    from pokeroulette_tui.ui.screens.help import HelpScreen
    from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
    from pokeroulette_tui.ui.screens.table import TableScreen

    help_times: list[float] = []
    bet_times: list[float] = []
    seed = 1
    while len(bet_times) < runs:
        app, session = table_app(seed)
        frames = Frames(app)
        async with app.run_test(size=SIZE) as pilot:
            while len(bet_times) < runs:
                await settle(pilot, session)
                if session.table.state.game_over:
                    break
                if isinstance(app.screen, ShowdownScreen):
                    await pilot.press("enter")
                    continue
                screen = app.screen
                assert isinstance(screen, TableScreen)
                if len(help_times) < runs:
                    help_times.append(await press_and_time(
                        app, frames, "question_mark", lambda: isinstance(app.screen, HelpScreen)))
                    await pilot.press("escape")
                    await repaint(pilot)
                view = screen.view
                if not (view is not None and view.my_turn and view.phase == "betting"):
                    await pilot.press("k")  # stock to active: keep
                    continue
                kinds = view.options.kinds if view.options is not None else ()
                key = "c" if ("check" in kinds or "call" in kinds) else "a"
                bet_times.append(await press_and_time(
                    app, frames, key, lambda: app.screen is screen and screen.view is not view))
            await app.action_quit()
        seed += 1
    return help_times, bet_times


# -- report -----------------------------------------------------------------------------------

def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def line(label: str, ours: float, ref: float, ref_label: str) -> None:
    print(f"  {label:<34}{ms(ours)}   {ref_label:<22}{ms(ref)}   ratio {ours / ref:5.2f}x")


def profile(env: dict[str, str], top: int = 15) -> None:
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", "import pokeroulette_tui.ui.app"],
                            env=env, capture_output=True, text=True, check=True)
    rows = []
    for row in result.stderr.splitlines():
        parts = row.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), int(parts[0].split(":")[1]), parts[2].rstrip()))
    print("\nSlowest imports (cumulative µs, self µs) of pokeroulette_tui.ui.app:")
    for cumulative, own, name in sorted(rows, reverse=True)[:top]:
        print(f"  {cumulative:9d} {own:9d} {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few runs (a smoke test)")
    parser.add_argument("--runs", type=int, default=None, help="runs of each measurement")
    parser.add_argument("--profile", action="store_true", help="print the slowest imports")
    parser.add_argument("--child", choices=("hello", "table"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    runs = args.runs or (3 if args.quick else 11)
    env = child_env()
    os.environ["POKEROULETTE_HOME"] = env["POKEROULETTE_HOME"]

    # warm the bytecode caches, then interleave the two so machine noise hits both alike
    process_time(["-c", "import pokeroulette_tui.ui.app, pokeroulette_tui.ui.screens.table"], env)
    imp_ours, imp_ref, cold_ours, cold_ref = [], [], [], []
    for _ in range(runs):
        imp_ref.append(process_time(["-c", "import textual.app"], env))
        imp_ours.append(process_time(["-c", "import pokeroulette_tui.ui.app"], env))
        cold_ref.append(cold_start("hello", env))
        cold_ours.append(cold_start("table", env))

    warm_ours, warm_ref = [], []
    asyncio.run(time_to_ready(table_app, table_ready))  # imports, first-use caches
    asyncio.run(time_to_ready(hello_app, hello_ready))
    for _ in range(runs):
        warm_ref.append(asyncio.run(time_to_ready(hello_app, hello_ready)))
        warm_ours.append(asyncio.run(time_to_ready(table_app, table_ready)))

    presses = max(runs, 5) * 2
    key_ref = asyncio.run(key_latency_hello(presses))
    help_times, bet_times = asyncio.run(key_latency_table(presses))

    med = statistics.median
    print(f"Start-up and key latency at {SIZE[0]}x{SIZE[1]}, medians of {runs} runs "
          f"(Python {sys.version.split()[0]})")
    print("Start-up:")
    line("import pokeroulette_tui.ui.app", med(imp_ours), med(imp_ref), "import textual.app")
    line("cold start to the table", med(cold_ours), med(cold_ref), "cold start, hello app")
    line("warm start to the table", med(warm_ours), med(warm_ref), "warm start, hello app")
    print(f"Key to updated screen ({presses} presses):      p50        p95")
    for label, values in (("x in the hello app (reference)", key_ref), ("? opens the help", help_times),
                          ("c checks or calls", bet_times)):
        ratio = med(values) / med(key_ref)
        print(f"  {label:<34}{ms(pct(values, 50))} {ms(pct(values, 95))}   p50 ratio {ratio:5.2f}x")
    target = med(cold_ours) / med(cold_ref)
    print(f"Cold start ratio {target:.2f}x (target within 1.5x): {'ok' if target <= 1.5 else 'SLOWER'}")
    if args.profile:
        profile(env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
