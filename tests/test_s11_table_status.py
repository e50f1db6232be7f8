"""The card table's status line and footer at 80×24: in hot-seat, whose eyes the table is
seen with stays on the status line also while the game is not being saved (privacy is not
the part that gives way), and the result dialog's footer names every key that works there
(``n`` as well as Enter)."""

from __future__ import annotations

import re

import pytest
from ui_pilot import SIZE, app_for, local_session, press, screen_text, settle, table_screen

from pokeroulette_tui.engine import journal
from pokeroulette_tui.engine.game import new_game
from pokeroulette_tui.engine.i18n import set_language
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.screens.privacy import PrivacyScreen
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.widgets.status import status_text

WIDTH = 78  # the status line inside an 80-column table (its padding)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language("en")


def _read_only(m: pytest.MonkeyPatch) -> None:
    """Every journal write fails as on a read-only file system (as tests/test_fixsave2)."""
    def refuse(*args, **kwargs):
        raise OSError(30, "Read-only file system")

    for name in ("start", "append", "resume"):
        m.setattr(journal.JournalFile, name, refuse)


def _view(names, seat, to_act, *, round_no=1, hand_no=1):
    v = view_for(new_game(RuleSet(), list(names), seed=3), seat)
    from dataclasses import replace
    return replace(v, phase=Phase.BETTING, betting_round="round", round_no=round_no,
                   to_act=to_act, hand_no=hand_no, dealer_step=False)


# -- the line itself ------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "fi", "sv"])
def test_whose_eyes_stays_when_the_game_is_not_saved(lang):
    set_language(lang)
    view = _view(["Player 1", "Player 2", "Bot 1"], seat=1, to_act=1)
    line = status_text(view, True, unsaved=True, width=WIDTH).plain
    eyes = status_text(view, True).plain.split("  ")[-1]  # "seen by Player 2", translated
    assert "Player 2" in eyes
    assert eyes in line and len(line) <= WIDTH, line
    assert line.startswith("⚠ ") and "Player 2" in line.split("  ")[1]  # who is to act stays


def test_the_phase_and_the_hand_give_way_before_whose_eyes():
    view = _view(["Player 1", "Player 2", "Bot 1"], seat=1, to_act=1, round_no=12, hand_no=14)
    full = status_text(view, True, unsaved=True).plain
    assert "Hand 14" in full and "round 12" in full and "seen by Player 2" in full
    line = status_text(view, True, unsaved=True, width=62).plain
    assert line == "⚠ not saved  Hand 14 · Player 2 to act  seen by Player 2", line
    line = status_text(view, True, unsaved=True, width=50).plain
    assert line == "⚠ not saved  Player 2 to act  seen by Player 2", line


def test_long_names_put_whose_eyes_first_where_nothing_cuts_it():
    long_ = "Bartholomew Quintessence"  # the longest name a seat may have (24)
    view = _view(["Ann", long_, "Bot 1"], seat=1, to_act=1)
    armed = "Ann: check/call any"
    line = status_text(view, True, unsaved=True, armed=armed, width=WIDTH).plain
    # too long for 78 columns whatever goes: the line is cut at its right end, so whose
    # eyes comes right after the unsaved mark, whole
    assert line[:WIDTH].startswith(f"⚠ not saved  seen by {long_}  "), line
    # a line that fits keeps its usual order
    assert status_text(view, True, unsaved=True, width=300).plain.index("to act") < \
        status_text(view, True, unsaved=True, width=300).plain.index("seen by")


def test_a_public_view_says_so_whatever_the_width():
    view = _view(["Player 1", "Player 2", "Bot 1"], seat=None, to_act=2, round_no=12,
                 hand_no=14)
    for width in (78, 50, 40):
        assert "[public view]" in status_text(view, True, unsaved=True, width=width).plain


# -- at the table, 80×24 ----------------------------------------------------------------------

async def test_hot_seat_not_saved_at_80_columns_keeps_seen_by_on_screen(tmp_path, monkeypatch):
    """Two people and a bot; the disk refuses every write from the start. Each time a
    person's cards are on screen the status line says both: not saved, and seen by whom."""
    table = Table.create(PRESETS["classic"], [SeatConfig("Player 1"), SeatConfig("Player 2"),
                                              SeatConfig("Bot 1", "simple")],
                         seed=7, save_path=tmp_path / "autosave.json")
    checked = set()
    with monkeypatch.context() as m:
        _read_only(m)
        session = LocalSession(table, delay=0)
        app = app_for(session)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(80):
                await settle(pilot, session)
                if isinstance(app.screen, PrivacyScreen):
                    await press(pilot, "enter")
                    continue
                if isinstance(app.screen, ShowdownScreen):
                    if table.state.hand_no >= 2:
                        break
                    await press(pilot, "enter")
                    continue
                if table.state.game_over:
                    break
                view = table_screen(app).view
                assert view.seat is not None and view.my_turn
                name = view.players[view.seat].name
                top = screen_text(app).splitlines()[0]
                assert "not saved" in top, top
                assert f"seen by {name}" in top, top
                checked.add((name, view.hand_no, view.round_no))
                kinds = view.options.kinds if view.options is not None else ()
                await press(pilot, "c" if ("check" in kinds or "call" in kinds)
                            else "k" if view.phase == "stock_to_active" else "a")
            await press(pilot, "q")
    assert {n for n, *_ in checked} == {"Player 1", "Player 2"}, checked
    assert len(checked) >= 4


# -- the result dialog's footer ----------------------------------------------------------------

async def test_the_result_footer_names_n_and_n_deals_the_next_hand():
    session = local_session(PRESETS["classic"], [("Ana", None), ("Bo", "random"),
                                                 ("Cy", "random")], seed=5)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            await settle(pilot, session)
            if isinstance(app.screen, ShowdownScreen):
                break
            view = table_screen(app).view
            kinds = view.options.kinds if view.options is not None else ()
            await press(pilot, "c" if ("check" in kinds or "call" in kinds) else "a")
        else:
            raise AssertionError("no hand ended")
        footer = screen_text(app).splitlines()[-1]
        assert re.search(r"⏎/n Continue", footer), footer
        hand = session.table.state.hand_no
        await press(pilot, "n")  # what the footer says: the next hand is dealt
        await settle(pilot, session)
        assert not isinstance(app.screen, ShowdownScreen)
        assert session.table.state.hand_no == hand + 1
        await press(pilot, "q")


# -- n, when it does nothing, says why (never silence) -------------------------------------------

def _refusal(view, **kw):
    from pokeroulette_tui.ui.refusals import refusal
    return refusal(view, "n", players_here=True, ended=False, **kw)


def test_a_dead_n_says_why():
    mine = _view(["Ana", "Bo", "Cy"], seat=0, to_act=0)
    assert mine.my_turn
    assert "your turn now" in _refusal(mine)
    theirs = _view(["Ana", "Bo", "Cy"], seat=0, to_act=1)
    assert "speed instant" in _refusal(theirs, instant=True)
    assert "host paces" in _refusal(theirs, can_pace=False)
    assert "no turn ahead" in _refusal(theirs)  # (bound whenever a turn is ahead)
    # a spectator is told what it always was
    from pokeroulette_tui.ui.refusals import refusal
    assert "watching" in refusal(theirs, "n", players_here=False, ended=False)


async def test_n_on_your_own_turn_is_answered_at_the_table():
    session = local_session(PRESETS["classic"], [("Ana", None), ("Bo", "random"),
                                                 ("Cy", "random")], seed=5)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        assert table_screen(app).view.my_turn
        await press(pilot, "n")
        said = [n.message for n in app._notifications]
        assert any("your turn now" in m for m in said), said
        assert table_screen(app).view.my_turn  # nothing else happened
        await press(pilot, "q")
