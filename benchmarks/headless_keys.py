"""Key press to updated screen, headless, in this process: the table against a bare app.

Used by ``bench_startup.py`` (the start-up itself is timed there, in a pseudo-terminal).
The table is a LocalSession (Ada and three random bots, no pauses) made with
``make_app``; the reference a Textual app with one Static that ``x`` changes. A frame is
the compositor's update handed to the driver; a key is posted as the terminal sends it.
"""

from __future__ import annotations

import asyncio
import time

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
    """Let the dealer and bots play until Ada is to act or the showdown waits (not timed)."""
    from pokeroulette_tui.ui.screens.showdown import ShowdownScreen

    for _ in range(10_000):
        await repaint(pilot)
        table = session.table
        if session._queue.empty() and (table.state.game_over or table.waiting_for_human() is not None
                                       or isinstance(pilot.app.screen, ShowdownScreen)):
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


