"""QA fixes: the showdown's result in sight at 80×24 with ten players, the statistics screen's
recent hands readable at 80 columns, ``pokeroulette stats`` wrapped to the terminal."""

from __future__ import annotations

import argparse
import io

import pytest
from rich.console import Console
from stats_helpers import TableSession, new_table, play
from ui_pilot import screen_text, step

from pokeroulette_tui.engine.cards import parse_cards
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.stats import PlayerStats, Tally
from pokeroulette_tui.engine.stats_report import summary_lines
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.showdown import (
    HandResult,
    ShowdownScreen,
    ShownHand,
    result_text,
)
from pokeroulette_tui.ui.screens.stats import (
    RecentHands,
    StatsScreen,
    game_words,
    recent_table,
)
from pokeroulette_tui.ui.stats_cli import run_stats
from pokeroulette_tui.ui.stats_recorder import StatsRecorder, stats_store

POT = "Bot 9 wins the pot of 10 with pair of aces"


def ten_hands() -> HandResult:
    """Ten shown hands (Root, then Bot 1 … Bot 9), Bot 9 the winner: longer than 80×24."""
    names = ["Root"] + [f"Bot {n}" for n in range(1, 10)]
    shown = [ShownHand(seat, name, tuple(parse_cards("Js 9d 5c 4h 2s")), "jack high",
                       frozenset({0})) for seat, name in enumerate(names)]
    shown[-1] = ShownHand(9, "Bot 9", tuple(parse_cards("As Ad 7c")), "pair of aces",
                          frozenset({0, 1}))
    return HandResult(hand_no=6, shown=shown, winners={9}, pots=[POT])


# -- 1. the showdown ------------------------------------------------------------------------

def test_the_result_comes_before_the_hands_which_keep_their_order():
    text = result_text(ten_hands()).plain
    lines = text.split("\n")
    assert lines[0] == "• " + POT
    heads = [line[2:].split(" — ")[0] for line in lines if " — " in line]
    assert heads == ["Root"] + [f"Bot {n}" for n in range(1, 10)]
    assert "★ Bot 9 — pair of aces  WINS" in text



def test_a_forfeit_result_calls_the_best_hand_best_and_an_unnamed_hand_has_no_dash():
    """Forfeit tokens without betting: the best hand wins nothing (the weakest loses a
    token), so it is marked BEST, not WINS; a hand told from events alone (a resumed table,
    a spectator who joined late) has no name, and no dangling dash."""
    shown = [ShownHand(0, "Eva", tuple(parse_cards("Qs Qd 7c 4h 2s")), "pair of queens",
                       frozenset({0, 1})),
             ShownHand(1, "Bo", tuple(parse_cards("Js 9d 5c 4h 2s")), "jack high",
                       frozenset({0}))]
    forfeit = HandResult(hand_no=3, shown=shown, winners={0},
                         tokens=["Bo loses one of the items (5 left)"])
    text = result_text(forfeit).plain
    assert "★ Eva — pair of queens  BEST" in text and "WINS" not in text
    chips = HandResult(hand_no=3, shown=shown, winners={0}, pots=[POT])
    assert "★ Eva — pair of queens  WINS" in result_text(chips).plain
    unnamed = HandResult(hand_no=3, shown=[ShownHand(0, "Eva", shown[0].cards, "", frozenset())],
                         winners={0}, pots=[POT])
    assert "—" not in result_text(unnamed).plain

async def test_ten_hands_at_80x24_open_on_the_result_and_use_the_height():
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await step(pilot)
        app.push_screen(ShowdownScreen(ten_hands()))
        await step(pilot)
        await pilot.pause()
        shown = screen_text(app)
        assert POT in shown  # who won what, as the dialog opens
        assert "Enter: back to the table" in shown  # the prompt is not cut off
        box = app.screen.query_one("#showdown-box")
        # the whole screen but the footer (the old cap left three rows of it unused)
        assert box.outer_size.height == 23
        assert "Bot 5 — jack high" in shown  # more hands in sight than before


async def test_a_short_result_keeps_a_small_dialog():
    res = HandResult(hand_no=2, shown=ten_hands().shown[:2], winners={0},
                     pots=["Root wins the pot of 4 with jack high"])
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await step(pilot)
        app.push_screen(ShowdownScreen(res))
        await step(pilot)
        await pilot.pause()
        assert app.screen.query_one("#showdown-box").outer_size.height < 15
        assert "Root wins the pot of 4" in screen_text(app)


# -- 2. the statistics screen's recent hands -------------------------------------------------

@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    for preset, humans, seed in (("classic", [0], 5), ("draw", [0, 1], 5)):
        table = new_table(PRESETS[preset], humans=humans, seed=seed)
        play(table, TableSession(table, humans),
             StatsRecorder(stats_store(), clock=lambda: "2026-12-02T10:37:00+00:00"), seed=seed)
    return tmp_path


def rendered(renderable, width: int) -> str:
    console = Console(width=width, file=io.StringIO(), color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


def test_game_words_say_a_preset_named_after_its_variant_once():
    assert game_words("draw · draw") == "draw"
    assert game_words("roulette · classic") == "roulette · classic"
    assert game_words("all") == "all"


def test_recent_hands_at_80_columns_have_no_ellipsis(home):
    hands = list(stats_store().hands("Ana"))[-14:]
    assert any(h.group == "draw · draw" for h in hands)
    text = rendered(RecentHands(hands), 76)  # 80 columns less the padding and the scrollbar
    assert "…" not in text
    assert "12-02 10:37" in text and "2026-12-02" not in text
    assert "draw · draw" not in text and "game" in text.split("\n")[1]
    assert all(len(line) <= 76 for line in text.split("\n"))
    # every hand's number and its chips or tokens after, whole
    for rec in hands:
        assert any(f" {rec.hand_no} " in line for line in text.split("\n"))


def test_a_wide_table_says_all_of_it(home):
    hands = list(stats_store().hands("Ana"))[-14:]
    text = rendered(recent_table(hands, 110), 110)
    assert "2026-12-02 10:37" in text and "variant · preset" in text and "…" not in text


async def test_the_screen_at_80_columns_shows_recent_hands_whole(home):
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=(80, 60)) as pilot:
        await step(pilot)
        app.push_screen(StatsScreen(player="Ana"))
        await step(pilot)
        await pilot.pause()
        shown = screen_text(app)
    assert "Recent hands" in shown and "12-02 10:37" in shown
    recent = shown[shown.index("Recent hands"):]
    assert "…" not in recent


# -- 3. pokeroulette stats at the terminal's width -------------------------------------------

def stats_args(**kw) -> argparse.Namespace:
    base = {"player": None, "json": False, "export": None, "export_text": None, "reset": False,
            "yes": False}
    return argparse.Namespace(**{**base, **kw})


@pytest.mark.parametrize("columns", [60, 80])
def test_stats_lines_fit_the_terminal_and_break_between_words(home, monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", str(columns))
    out = io.StringIO()
    assert run_stats(stats_args(), out=out) == 0
    lines = out.getvalue().split("\n")
    folder = str(stats_store().folder)
    assert all(len(line) <= columns for line in lines if folder not in line), lines
    text = out.getvalue()
    for word in ("showdowns", "tokens", "reached"):  # never cut inside a word
        assert word in text
    assert "roulette · classic" in text and "best hand:" in text


def test_the_no_games_message_wraps_between_words(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "60")
    out = io.StringIO()
    assert run_stats(stats_args(), out=out) == 0
    lines = out.getvalue().rstrip("\n").split("\n")[1:]
    assert len(lines) > 1 and all(len(line) <= 60 for line in lines)
    assert " ".join(lines) == ("No games recorded yet: they are kept for the people who play "
                               "at this terminal.")


def test_a_narrow_summary_lists_the_counts_whole():
    stats = PlayerStats("Ana", tallies={"roulette · classic": Tally(games=2, wins=1, hands=7),
                                        "draw · draw": Tally(games=1, hands=13)})
    lines = summary_lines(stats, width=60)
    assert all(len(line) <= 60 for line in lines)
    assert "  draw · draw" in lines
    said = " ".join(lines)
    assert "showdowns reached 0" in said and "tokens lost 0" in said
    # wide enough: the table as before
    assert summary_lines(stats, width=80) == summary_lines(stats)
