"""The table in Finnish and Swedish at 80×24: mid-hand, a hand's result, the help screen, the
draw and the hot-seat privacy screen (SVG snapshots, as in test_snapshots.py), and a language
switch at the table that says the table's words again.

The language is chosen before the table is dealt: the engine writes the events' sentences
in the language spoken when they happen. After a deliberate change, look at the new
pictures and accept them: ``python -m pytest tests/test_i18n_table_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.i18n import set_language
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.screens.table import TableScreen
from pokeroulette_tui.ui.widgets.hand import HandPanel
from pokeroulette_tui.ui.widgets.status import StatusLine
from test_snapshots import app_at, mid_hand, my_turn, seats_for, settled_with
from ui_pilot import settle, step, table_until

LANGS = ["fi", "sv"]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    monkeypatch.delenv("NO_COLOR", raising=False)


def final_call(s) -> bool:
    """Ada can end the hand's last betting with a check or a call (as test_snapshots)."""
    if not (s.to_act == 0 and s.phase == "betting" and s.seats[0].bet == s.current_bet):
        return False
    need = sum(2 if s.seats[i].added else 1 for i in s.live_seats()) + 1
    return s.betting_round == "final" or (s.betting_round == "round" and len(s.deck) < need)


@pytest.mark.parametrize("lang", LANGS)
def test_table_mid_hand(snap_compare, lang):
    set_language(lang)
    app, session = app_at(mid_hand("80x24"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=settled_with(session))


@pytest.mark.parametrize("lang", LANGS)
def test_showdown(snap_compare, lang):
    set_language(lang)
    app, session = app_at(table_until(PRESETS["classic"], seats_for("80x24"), 5, final_call))
    assert snap_compare(app, terminal_size=(80, 24), run_before=settled_with(session, "c"))


@pytest.mark.parametrize("lang", LANGS)
def test_help(snap_compare, lang):
    set_language(lang)
    app, session = app_at(mid_hand("80x24"))
    assert snap_compare(app, terminal_size=(80, 24),
                        run_before=settled_with(session, "question_mark"))


@pytest.mark.parametrize("lang", LANGS)
def test_draw_exchange(snap_compare, lang):
    set_language(lang)
    rules = PRESETS["draw"].replace(betting="each_round")
    app, session = app_at(table_until(rules, seats_for("80x24"), 2, my_turn("draw")))
    assert snap_compare(app, terminal_size=(80, 24), run_before=settled_with(session, "2", "5"))


@pytest.mark.parametrize("lang", LANGS)
def test_privacy_screen(snap_compare, lang):
    """Hot-seat: the table hides until the next person has the keyboard."""
    set_language(lang)
    seats = [("Ada", None), ("Bo", None), ("Cy", "random"), ("Di", "random")]
    app, session = app_at(Table.create(PRESETS["classic"],
                                       [SeatConfig(n, b) for n, b in seats], seed=5))

    async def run_before(pilot) -> None:
        await settle(pilot, session)
        pilot.app.clear_notifications()
        await step(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


async def test_a_language_switch_at_the_table_says_its_words_again():
    """English → Finnish → Swedish while a hand is played: the status line, the hand panel's
    title and prompt and the footer's keys follow (PokerApp.switch_language)."""
    app, session = app_at(mid_hand("80x24"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, session)
        table = app.screen
        assert isinstance(table, TableScreen)

        def words() -> tuple[str, str, str]:
            status = str(table.query_one(StatusLine).render())
            hand = table.query_one(HandPanel)
            return status, str(hand.border_title), str(hand.render())

        status, title, prompt = words()
        assert status.startswith("Hand ") and title.startswith("Your cards")
        assert "Your bet" in prompt
        for lang, hand_word, title_word, prompt_word in [("fi", "Jako ", "Korttisi", "Sinun vuorosi"),
                                                         ("sv", "Giv ", "Dina kort", "Din tur")]:
            app.switch_language(lang)
            await step(pilot)
            await step(pilot)
            status, title, prompt = words()
            assert status.startswith(hand_word), status
            assert title.startswith(title_word), title
            assert prompt_word in prompt, prompt
        app.switch_language("en")
        await step(pilot)
        await step(pilot)
        assert words()[0].startswith("Hand ")
