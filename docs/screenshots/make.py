"""Regenerate the screenshots in this folder: ``python docs/screenshots/make.py``.

Each table is played to an interesting moment with fixed seeds (every seat checks or
calls), then the app is started on it headless and saved as SVG.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1] / "tests"))
from ui_pilot import passive_step  # noqa: E402  (the tests' passive player: one copy of it)

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ida", "Jo"]


def table_until(rules, players: int, seed: int, stop) -> Table:
    seats = [SeatConfig(NAMES[i], None if i == 0 else "random") for i in range(players)]
    table = Table.create(rules, seats, seed=seed)
    for _ in range(5000):
        if stop(table.state):
            return table
        passive_step(table)
    raise SystemExit("never reached the moment")


async def shoot(table: Table, size, name: str, keys=()) -> None:
    session = LocalSession(table, delay=0)
    app = make_app(AppConfig(delay=0), session)
    async with app.run_test(size=size) as pilot:
        for _ in range(10):
            await pilot.pause()
        for key in keys:
            await pilot.press(key)
            for _ in range(5):
                await pilot.pause()
        svg = app.export_screenshot()
    # the text runs start with non-breaking spaces; some SVG renderers (librsvg) drop them
    # unless told to keep white space
    svg = svg.replace("<svg ", '<svg xml:space="preserve" ', 1)
    (HERE / name).write_text(svg, encoding="utf-8")
    print("wrote", name)


def my_turn(phase: str, round_no: int = 0):
    return lambda s: s.to_act == 0 and s.phase == phase and s.round_no >= round_no


async def main() -> None:
    classic = PRESETS["classic"]
    await shoot(table_until(classic, 4, 5, my_turn("betting", 4)), (80, 24), "roulette-80x24.svg")
    await shoot(table_until(classic, 10, 3, my_turn("betting", 3)), (160, 48), "roulette-160x48.svg")
    draw = PRESETS["draw"].replace(betting="each_round")
    await shoot(table_until(draw, 4, 2, my_turn("draw")), (80, 24), "draw-80x24.svg", keys=("2", "5"))
    final = table_until(classic, 4, 5, lambda s: s.to_act == 0 and s.phase == "betting"
                        and s.betting_round == "final" and s.seats[0].bet == s.current_bet)
    await shoot(final, (80, 24), "showdown-80x24.svg", keys=("c",))


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
