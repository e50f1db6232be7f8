"""QA findings at the table: the standings rank players who are out by when they went out,
a bet nobody could call is given back rather than won, the own-cards panel is measured again
after the too-small notice, and the status lines fit 80 columns in every language."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from textual.app import App

from conftest import deal_draw, game, passive, play, roulette_to_showdown, set_chips
from pokeroulette_tui.engine.actions import AllIn, Discard, Fold, StartHand
from pokeroulette_tui.engine.cards import parse_card
from pokeroulette_tui.engine.game import new_game
from pokeroulette_tui.engine.i18n import _, set_language
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.scoring import standings
from pokeroulette_tui.engine.state import OUT, PLAYING
from pokeroulette_tui.engine.view import SeatView, view_for
from pokeroulette_tui.ui.screens import showdown
from pokeroulette_tui.ui.screens.gameover import standings_table
from pokeroulette_tui.ui.widgets import present
from pokeroulette_tui.ui.widgets.hand import HandPanel, panel_content, prompt_text
from pokeroulette_tui.ui.widgets.status import StatusLine, status_text
from ui_pilot import app_for, fake_at_turn, screen_text, step, table_screen


def stand_pat(g):
    events = []
    while g.phase == "draw":
        events += play(g, Discard(seat=g.to_act, indices=()))
    return events


def table_rows(view: SeatView) -> list[list[str]]:
    """The game-over standings table as cells, row by row."""
    table = standings_table(view)
    columns = [[str(c) for c in col._cells] for col in table.columns]
    return [list(row) for row in zip(*columns)]


# -- 1. standings: the later out, the better ------------------------------------------------

def _chips_game_with_eliminations():
    """Five players, no betting, an ante of 2: Bo (1 chip) and Cy (2) go out in hand 1, Di
    (2 after hand 1) in hand 2; Ana and Ed play on."""
    g = game(5, betting="none", ante=2)
    set_chips(g, {1: 1, 2: 2, 3: 4})
    play(g, StartHand())
    roulette_to_showdown(g, {0: "Ah Ad", 1: "2c 3d", 2: "2d 3c", 3: "Kh Kd", 4: "Qh Qd"})
    assert (g.seats[1].status, g.seats[2].status, g.seats[3].status) == (OUT, OUT, PLAYING)
    play(g, StartHand())
    roulette_to_showdown(g, {0: "Ah Ad", 3: "2c 3d", 4: "Kh Kd"})
    assert g.seats[3].status == OUT and not g.game_over
    return g


def test_players_out_are_ranked_latest_out_first_then_by_their_stack_that_hand():
    g = _chips_game_with_eliminations()
    assert (g.seats[1].out_hand, g.seats[2].out_hand, g.seats[3].out_hand) == (1, 1, 2)
    assert (g.seats[1].out_score, g.seats[2].out_score) == (1, 2)
    rows = standings(g)
    assert [r["name"] for r in rows] == ["Ana", "Ed", "Di", "Cy", "Bo"]
    assert [r["place"] for r in rows] == [1, 2, 3, 4, 5]
    # the view's twin gives the same order, and the game-over screen shows it
    view = view_for(g, 0)
    assert [r["seat"] for r in present.standings(view)] == [r["seat"] for r in rows]
    assert [row[:2] for row in table_rows(view)] == [
        ["1", "Ana"], ["2", "Ed"], ["3", "Di"], ["4", "Cy"], ["5", "Bo"]]
    # and each player's statistics record the same place
    from pokeroulette_tui.engine.stats import standing_place

    assert [standing_place(view, r["seat"])[0] for r in rows] == [1, 2, 3, 4, 5]


def test_out_in_the_same_hand_with_the_same_stack_share_a_place():
    g = game(4, betting="none", ante=2)
    set_chips(g, {1: 2, 2: 2})
    play(g, StartHand())
    roulette_to_showdown(g, {0: "Ah Ad", 1: "2c 3d", 2: "2d 3c", 3: "Kh Kd"})
    rows = standings(g)
    assert [r["place"] for r in rows][2:] == [3, 3]
    assert [row[0] for row in table_rows(view_for(g, None))][2:] == ["3", "3"]


def test_forfeit_tokens_rank_the_later_out_first():
    weak, mid, mid2, strong = ("2c 4d 6h 8s Tc", "Ah Kh 9d 7c 3s", "Ad Kd 9h 7d 3c",
                               "Qs Qd Qh 7s 2d")
    g = game(4, preset="draw", game_end="last_standing")
    g.seats[1].tokens = g.seats[2].tokens = 1
    deal_draw(g, {1: weak, 2: mid, 3: mid2, 0: strong})
    stand_pat(g)
    assert g.seats[1].status == OUT
    deal_draw(g, {2: weak, 3: mid2, 0: strong})  # (Bo is out: not dealt in)
    stand_pat(g)
    assert g.seats[2].status == OUT and not g.game_over
    rows = standings(g)
    assert [r["name"] for r in rows][2:] == ["Cy", "Bo"]
    assert [r["seat"] for r in present.standings(view_for(g, None))] == [r["seat"] for r in rows]


# -- 2. an uncalled bet is returned, not won -------------------------------------------------

def _all_in_for_less(ana: str, bo: str):
    """Ana (300) all in against Bo all in for 60 (Cy folds her ante): a showdown of draw."""
    g = game(3, variant="draw", betting="each_round", min_players=2)
    set_chips(g, {0: 300, 1: 60, 2: 100})
    deal_draw(g, {0: ana, 1: bo, 2: "As 4d 7s 8d 9c"})
    events = play(g, AllIn(seat=1)) + play(g, Fold(seat=2)) + play(g, AllIn(seat=0))
    events += stand_pat(g) + passive(g)
    return g, events


def test_an_uncalled_bet_goes_back_and_is_no_side_pot():
    g, events = _all_in_for_less("Ks Kd Ts Td 2c", "Qs Qd 5s 5d 3c")
    texts = [e.text for e in events]
    assert "240 uncalled, returned to Ana" in texts
    assert not any("side pot" in t for t in texts), texts
    assert [p.amount for p in g.result.pots] == [121]
    assert g.seats[0].chips == 361 and g.seats[1].chips == 0


def test_the_returned_bet_is_no_win_on_the_result_or_in_the_statistics():
    g, events = _all_in_for_less("Qs Qd 5s 5d 3c", "Ks Kd Ts Td 2c")  # Bo wins the pot
    assert g.result.winners == (1,)
    assert g.result.won(0) == 0 and g.result.won(1) == 121
    assert g.seats[0].chips == 240 and g.seats[1].chips == 121
    view = view_for(g, 0)
    sheet = showdown.HandResult.from_events(events, view, g.result)
    assert sheet.winners == {1}
    assert sheet.pots == ["Bo wins the pot of 121 with two pair, kings and tens"]
    text = showdown.result_text(sheet).plain
    assert "240 uncalled, returned to Ana" in text
    ana_line = next(line for line in text.split("\n") if line.startswith(("★ Ana", "  Ana")))
    assert "WINS" not in ana_line
    # without the engine's result (a later hand already dealt) the events decide the winners
    later = showdown.HandResult.from_events(events, view, None)
    assert later.winners == {1}


# -- 3. the own-cards panel after the too-small notice ---------------------------------------

@pytest.mark.parametrize("back", [(80, 24), (100, 30)])
async def test_the_cards_panel_is_measured_again_after_the_too_small_notice(back, tmp_path,
                                                                            monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    session = fake_at_turn(PRESETS["classic"], [("Ana", None), ("Bo", "random"),
                                                ("Cy", "random")], 4)
    app = app_for(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await step(pilot)
        panel = table_screen(app).query_one(HandPanel)
        lines = panel.size.height
        assert lines >= 4  # the prompt, the boxed faces and their labels
        await pilot.resize_terminal(60, 20)  # the notice, on Ana's turn
        await step(pilot)
        assert "Too small" in screen_text(app)
        await pilot.resize_terminal(*back)
        await step(pilot)
        await step(pilot)
        text, __ = panel_content(panel.view, hot_seat=False, width=panel.content_size.width)
        assert panel.size.height == len(text.plain.split("\n")) >= lines
        shown = screen_text(app)
        assert text.plain.split("\n")[-1].split()[0] in shown.split("\n")[-2]  # the labels


# -- 4. status lines that fit 80 columns in every language -----------------------------------

LANGS = ["en", "fi", "sv"]
WIDTH = 78  # inside the 80-column table's borders


def _betting_view(seat):
    g = new_game(RuleSet(), ["Player 1", "Player 2", "Player 3"] + [f"Bot {i}" for i in
                                                                    range(1, 8)], seed=3)
    v = view_for(g, seat)
    return replace(v, phase=Phase.BETTING, betting_round="round", round_no=3, to_act=3,
                   hand_no=2, dealer_step=False)


@pytest.mark.parametrize("lang", LANGS)
def test_the_hot_seat_status_keeps_the_armed_pre_action_whole(lang):
    set_language(lang)
    view = _betting_view(None)
    armed = f"Player 2: {_('check/fold')}"
    full = status_text(view, True, armed=armed).plain
    line = status_text(view, True, armed=armed, width=WIDTH).plain
    assert line.endswith("▶ " + armed) and len(line) <= WIDTH, line
    assert "Bot 1" in line  # who is to act stays
    # what the rest of the screen says goes first, whole: nothing is cut inside a part
    assert all(part in full for part in re.split(" · |  ", line))
    # a line that fits is the line as it always was
    assert status_text(view, True, armed=armed, width=200).plain == full


@pytest.mark.parametrize("lang", LANGS)
async def test_the_status_line_widget_fits_its_width(lang):
    set_language(lang)
    view = _betting_view(None)
    armed = f"Player 2: {_('check/fold')}"

    class One(App):
        def compose(self):
            yield StatusLine()

    app = One()
    async with app.run_test(size=(80, 3)) as pilot:
        bar = app.query_one(StatusLine)
        bar.hot_seat, bar.armed, bar.view = True, armed, view
        await pilot.pause()
        first = screen_text(app).split("\n")[0].rstrip()
        assert first.endswith(f"▶ {armed}") and "…" not in first, first


@pytest.mark.parametrize("lang", LANGS)
def test_the_public_view_prompt_waits_on_a_line_of_its_own(lang):
    set_language(lang)
    view = replace(_betting_view(None), phase=Phase.DRAW)
    text = panel_content(view, hot_seat=True, width=WIDTH)[0].plain
    lines = text.split("\n")
    assert all(len(line) <= WIDTH for line in lines), lines
    assert lines[-1].endswith(".") and "Bot 1" in lines[-1]
    # where it fits, one line as before
    assert "\n" not in panel_content(view, hot_seat=True, width=200)[0].plain


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [3, 5, 10])
def test_the_stock_to_active_prompt_fits(lang, n):
    set_language(lang)
    base = _betting_view(0)
    me = replace(base.players[0], stock=tuple(parse_card(t) for t in
                                              "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc".split()[:n]))
    view = replace(base, phase=Phase.STOCK_TO_ACTIVE, to_act=0,
                   players=(me,) + base.players[1:])
    line = prompt_text(view, hot_seat=False).plain
    tail = _("{keys}/click: move a stock card to active · k keep the stock").split()[-1]
    assert len(line) <= WIDTH and line.endswith(tail), line
