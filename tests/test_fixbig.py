"""The casino screen on big terminals: the board, the dealt cards and the panels under it as
one centred composition, with taller card faces where there is room (80×24 keeps its own
layout: tests/test_casino_snapshots.py)."""

from __future__ import annotations

import pytest
from textual.widgets import Static
from ui_pilot import press, step

from pokeroulette_tui.engine.casino.game import Stage
from pokeroulette_tui.engine.casino.paytable import DEFAULT
from pokeroulette_tui.ui.casino import CasinoApp, CasinoScreen
from pokeroulette_tui.ui.widgets.casino_board import COMPACT, HUGE, MEDIUM, CasinoBoard
from pokeroulette_tui.ui.widgets.casino_panels import PAYS_LINES

# bets on A♠, a split, a corner, the aces, spades, the joker spot, the side bet and red
BETS = ("space", "s", "v", "c", "k", "f", "j", "p", *["down"] * 4, "right", "space")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.delenv("NO_COLOR", raising=False)


def app_for(tmp_path, names=("Ana", "Bo")) -> CasinoApp:
    return CasinoApp(list(names), DEFAULT, tmp_path / "casino.json", deal_pause=0, seed=4)


async def dealt(pilot) -> CasinoScreen:
    await step(pilot)
    await press(pilot, *BETS, "tab", "space", "d")
    await step(pilot)
    screen = pilot.app.casino_screen
    assert screen.casino.stage is Stage.SETTLED
    return screen


def board_columns(screen: CasinoScreen) -> tuple[int, int]:
    """The first column of the board's drawing that is not blank felt, and the one after
    its last."""
    board = screen.query_one(CasinoBoard)
    lines = board.render().plain.splitlines()
    left = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    right = max(len(line.rstrip()) for line in lines)
    return board.region.x + left, board.region.x + right


@pytest.mark.parametrize("size, geometry", [((120, 40), MEDIUM), ((160, 48), HUGE),
                                            ((200, 60), HUGE)])
async def test_the_board_the_cards_and_the_bets_are_one_centred_composition(
        tmp_path, size, geometry):
    app = app_for(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await dealt(pilot)
        width, height = size
        board = screen.query_one(CasinoBoard)
        assert board.geometry is geometry
        assert board.size.height == geometry.height  # (not cut)
        # the board is drawn centred …
        start = (width - geometry.width) // 2
        assert abs(start - (width - start - geometry.width)) <= 1
        left, right = board_columns(screen)
        assert left == start and start + geometry.width - 8 <= right <= start + geometry.width
        lower = screen.query_one("#casino-lower")
        deal = screen.query_one("#casino-deal")
        # … and the panels under it start and end where it does
        assert lower.region.x == start and lower.region.right == start + geometry.width
        assert deal.region.x == lower.region.x
        # the dealt cards: the tall faces (a frame, three lines, a frame, the labels)
        lines = deal.render().plain.splitlines()
        assert lines[0].count("╭─────╮") == 4 and lines[0].count("┏━━━━━┓") == 1
        assert all(line.count("│") == 8 for line in lines[1:4])
        assert "5th" in lines[5]
        # all of the lower part under the hint and above the footer: nothing cut off
        hint = screen.query_one("#casino-hint")
        footer_y = height - 1
        assert hint.region.bottom <= lower.region.y
        assert lower.region.bottom <= footer_y
        assert deal.region.right <= lower.region.right <= width
        # the last rounds fill the lines under the cards
        assert "Round 1" in deal.render().plain


async def test_the_pay_table_stands_beside_the_bets_where_there_is_room(tmp_path):
    app = app_for(tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await dealt(pilot)
        side = screen.query_one("#casino-side", Static)
        lower = screen.query_one("#casino-lower")
        assert side.display and side.region.right == lower.region.right
        text = side.render().plain
        assert text.count("\n") + 1 == PAYS_LINES <= side.region.height
        assert "Joker bet ★ first and fifth ★   1250:1" in text
        assert all(len(line) <= side.content_size.width for line in text.splitlines())
        await pilot.resize_terminal(160, 48)  # too few lines for all of it: not shown
        await step(pilot)
        assert not side.display


async def test_80x24_keeps_the_compact_board_at_full_width(tmp_path):
    app = app_for(tmp_path, names=("Ana",))
    async with app.run_test(size=(200, 60)) as pilot:
        await step(pilot)
        await pilot.resize_terminal(80, 24)  # and back from a big layout
        await step(pilot)
        screen = app.casino_screen
        assert screen.query_one(CasinoBoard).geometry is None
        assert not screen.has_class("-tall")
        lower = screen.query_one("#casino-lower")
        assert lower.region.x == 0 and lower.region.width == 80
        assert screen.query_one("#casino-hint").styles.padding.left == 1
        assert screen.query_one(CasinoBoard).size.height == COMPACT.height
        assert "╭───╮" in screen.query_one("#casino-deal").render().plain


def test_the_casino_after_the_deal_at_200x60(snap_compare, tmp_path):
    async def run_before(pilot) -> None:
        await dealt(pilot)
        pilot.app.clear_notifications()
        await step(pilot)

    assert snap_compare(app_for(tmp_path), terminal_size=(200, 60), run_before=run_before)
