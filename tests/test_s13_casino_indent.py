"""A bet or result too long for one line of the casino's results panel wraps with a hanging
indent: its later lines start under its own words, not under the mark or the amount."""

from __future__ import annotations

from test_qa_casino import make
from test_ui_casino import home, store_path  # noqa: F401 (the casino screen tests' fixtures)
from ui_pilot import SIZE, press, screen_text, step


def panel(app) -> list[str]:
    """The results panel's lines as shown, with the panel's own left edge at column 0."""
    screen = app.casino_screen
    region = screen.query_one("#casino-results-text").region
    lines = screen_text(app).splitlines()[region.y:region.bottom]
    return [line[region.x:region.right].rstrip() for line in lines]


async def test_long_bets_and_results_wrap_under_their_own_words(store_path):
    app = make(store_path, names=("Ana",))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, *["down"] * 6, "p")  # the progressive side bet: a long line
        await press(pilot, "up", "space")       # and a short one
        lines = panel(app)
        side = next(i for i, line in enumerate(lines) if "progressive side bet" in line)
        assert lines[side + 1].startswith(" " * 6) and not lines[side + 1].startswith(" " * 7), \
            lines
        assert "jackpot)" in lines[side + 1], lines
        await press(pilot, "d")
        for __ in range(40):
            await step(pilot)
            if any("net" in line for line in panel(app)):
                break
        lines = panel(app)
        results = [i for i, line in enumerate(lines) if line.startswith((" ✓", " ✗"))]
        assert results, lines
        long = [i for i in results if i + 1 < len(lines) and lines[i + 1].startswith("   ")
                and lines[i + 1].strip()]
        assert long, lines  # the side bet's result does not fit one line at 80 columns
        for i in long:
            following = lines[i + 1]
            assert following.startswith("   ") and not following.startswith("    "), lines


async def test_the_line_under_the_board_keeps_your_stake_on_a_long_spot(store_path):
    """On the progressive side bet with a stake placed, the line under the board names the
    spot and your stake whole (its long description gave way), not cut at "yours:"."""
    from test_qa_casino import hint

    app = make(store_path, names=("Ana",))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, *["down"] * 6, "p", "up", "down")
        said = hint(app)
        assert said.endswith("the progressive side bet · yours: 1"), said


def test_the_history_names_the_dealt_hand_not_its_pay_table_class():
    """A pair of tens is "pair of tens" in the history (its class on the pay table, "pair of
    sixes or better", is what a poker bet on it reads)."""
    from pokeroulette_tui.engine.cards import parse_cards
    from pokeroulette_tui.engine.casino.game import Round
    from pokeroulette_tui.ui.screens.casino_dialogs import round_lines

    r = Round(number=2, cards=tuple(parse_cards("Th Tc 4d 8s Ks")), hand="pair_6", nets=(5,),
              names=("Ana",))
    for narrow in (False, True):
        text = round_lines(r, narrow=narrow).plain
        assert "pair of tens" in text and "sixes or better" not in text, text
