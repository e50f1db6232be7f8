"""Words a QA play-through found wrong or untranslated: the stock's name in Finnish and
Swedish, five of a kind's verb, the bot levels, the default names, the draw preset's note,
the language names, the preset key's word, the forfeit tokens' name in the hints, the last
tutorial step inside the app and its footer, and the Swedish draw summary at 80×24."""

from __future__ import annotations

import textwrap

import pytest

from pokeroulette_tui.bots import LEVELS, level_words
from pokeroulette_tui.engine.i18n import LANGUAGES, _, language, set_language
from pokeroulette_tui.engine.rules import PRESET_NOTES, PRESETS, RuleSet
from pokeroulette_tui.engine.tutorial_deals import DEALS
from pokeroulette_tui.engine.words import option_words
from pokeroulette_tui.ui.config import (SeatChoice, TableSetup, default_name, default_seats,
                                        is_default_name)
from pokeroulette_tui.ui.hints import Estimate, beats_text, equity_text
from pokeroulette_tui.ui.screens.tutorial import TutorialScreen, notes_text
from pokeroulette_tui.ui.tables import describe_seats
from pokeroulette_tui.ui.tutorial import TutorialSession
from ui_pilot import SIZE, press, screen_text


@pytest.fixture(autouse=True)
def english_after(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    before = language()
    yield
    set_language(before)


def catalog(lang: str) -> list[tuple[str, str]]:
    from babel.messages.pofile import read_po

    from pokeroulette_tui.engine.i18n import LOCALE_DIR

    with (LOCALE_DIR / lang / "LC_MESSAGES" / "pokeroulette.po").open("rb") as f:
        out = []
        for m in read_po(f):
            if m.id:
                ids = m.id if isinstance(m.id, tuple) else (m.id,)
                strs = m.string if isinstance(m.string, tuple) else (m.string,)
                out.extend((ids[0], s) for s in strs)
        return out


# 1. the stock is the table's "varasto" / "lager", never a share of stock

@pytest.mark.parametrize("lang,wrong", [("fi", "osake"), ("sv", "stock-kort")])
def test_the_stock_has_one_name_in_each_language(lang, wrong):
    bad = [msgid for msgid, text in catalog(lang) if wrong in text.lower()]
    assert bad == []
    set_language(lang)
    words = option_words("stock_to_active")
    assert words == {"fi": "Varastosta aktiiviseksi", "sv": "Lagerkort till hålkort"}[lang]
    assert _("stock") in words.lower()


def test_the_rules_documents_call_the_stock_the_same():
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs"
    assert "osake" not in (docs / "RULES.fi.md").read_text(encoding="utf-8").lower()
    assert "stock-kort" not in (docs / "RULES.sv.md").read_text(encoding="utf-8").lower()


# 2. five of a kind is plural in Finnish

def test_five_of_a_kind_agrees_with_its_verb_in_finnish():
    set_language("fi")
    rules = RuleSet(five_of_a_kind="high")
    assert "vitoset  voittavat värisuoran" in beats_text(rules, "SHDC").plain.lower()
    assert "Vitoset voittavat värisuoran." in rules.describe()


# 3. the bot levels in the player's language

@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_bot_levels_are_said_in_the_players_language(lang):
    set_language(lang)
    words = [level_words(level) for level in LEVELS]
    assert not set(words) & set(LEVELS) and len(set(words)) == len(words)
    setup = TableSetup(seats=[SeatChoice("Ada"), SeatChoice("Bo", "simple")])
    seats = describe_seats(setup)
    assert level_words("simple") in seats and "simple" not in seats


# 4. default names: translated, chosen in the language of the moment, bots counted from 1

def test_a_sole_bot_beside_two_people_is_bot_1():
    assert [s.name for s in default_seats(3, humans=2)] == ["Player 1", "Player 2", "Bot 1"]
    assert [s.name for s in default_seats(3, humans=0)] == ["Bot 1", "Bot 2", "Bot 3"]


@pytest.mark.parametrize("lang,player,bot", [("fi", "Pelaaja", "Botti"), ("sv", "Spelare", "Bot")])
def test_default_names_are_in_the_language_the_table_is_set_up_in(lang, player, bot):
    set_language(lang)
    names = [s.name for s in default_seats(4, humans=2)]
    assert names == [f"{player} 1", f"{player} 2", f"{bot} 1", f"{bot} 2"]
    assert default_name(2, None) == f"{player} 3"
    assert is_default_name(f"{player} 7") and is_default_name("Bot 3") and not is_default_name("Ada")
    set_language("en")
    assert names[1] == f"{player} 2"  # a table keeps the names it was given


# 5. the Swedish draw note

def test_the_swedish_draw_note_is_swedish():
    set_language("sv")
    note = _(PRESET_NOTES["draw"])
    assert "five-card" not in note and note.startswith("Mörkpoker:")


# 7. language names in lower case, as Finnish and Swedish write them

def test_language_names_are_written_as_their_language_writes_them():
    assert LANGUAGES == {"en": "English", "fi": "suomi", "sv": "svenska"}


# 8. one word for the preset key in Finnish

@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_the_preset_button_and_footer_say_the_same_word(lang):
    set_language(lang)
    assert _("Preset (p)") == _("Preset") + " (p)"


# 9. the tokens' name in the draw hints

@pytest.mark.parametrize("lang", ["en", "fi", "sv"])
def test_the_weakest_hand_hint_says_the_tables_token_name(lang):
    from pokeroulette_tui.engine.rules import token_words
    from pokeroulette_tui.engine.view import view_for
    from pokeroulette_tui.table import SeatConfig, Table

    set_language(lang)
    rules = PRESETS["draw"]
    assert rules.scoring == "forfeit" and rules.token_name == "items"
    table = Table.create(rules, [SeatConfig("Ada"), SeatConfig("Bo", "random"),
                                 SeatConfig("Cy", "random")], seed=1)
    text = equity_text(Estimate(win=0.3, last=0.32, done=True), view_for(table.state, 0)).plain
    from pokeroulette_tui.engine.i18n import percent
    assert percent(0.32, 0) in text and token_words(rules) in text
    beers = RuleSet(variant="draw", scoring="forfeit", token_name="beers", betting="none")
    table = Table.create(beers, [SeatConfig("Ada"), SeatConfig("Bo", "random")], seed=1)
    assert "beers" in equity_text(Estimate(win=0.5, last=0.5, done=True),
                                  view_for(table.state, 0)).plain


# 10. the last tutorial step inside the app; the result step's key in the footer

@pytest.mark.parametrize("name,key", [("roulette", "d"), ("draw", "r")])
def test_the_last_step_in_the_app_says_the_keys_not_the_command(name, key):
    session = TutorialSession(name, step=len(DEALS[name].beats) - 1, remember=False)
    assert session.beat.name == "the_end"
    in_app = notes_text(session, in_app=True).plain
    assert "pokeroulette tutorial" not in in_app and f"l, then {key}" in in_app
    assert f"pokeroulette tutorial {'draw' if name == 'roulette' else 'roulette'}" in (
        notes_text(session).plain)


async def test_the_result_step_shows_s_in_the_footer():
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.tutorial_app import TutorialApp

    session = TutorialSession("roulette", step=DEALS["roulette"].beat_index("result"),
                              player="Ada", remember=False)
    app = TutorialApp(AppConfig(delay=0), session)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        assert isinstance(app.screen, TutorialScreen) and session.beat.name == "result"
        footer = screen_text(app).splitlines()[-1]
        assert f"s {_('The result')}" in footer
        await press(pilot, "escape")


# 11. the Swedish draw summary fits the start screen at 80×24

async def test_the_swedish_draw_table_fits_the_start_screen():
    from pokeroulette_tui.ui.app import make_app
    from pokeroulette_tui.ui.config import AppConfig

    set_language("sv")
    lines = [line for rule in PRESETS["draw"].describe()
             for line in textwrap.wrap(f"• {rule}", 76)]
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "p", "down", "down", "down", "enter")  # the fourth preset: draw
        assert app.screen.setup.preset == "draw"
        text = screen_text(app)
    last = PRESETS["draw"].describe()[-1]
    assert last[-30:] in " ".join(text.split()), (lines, text)


def test_a_bot_named_as_a_bot_is_not_said_to_be_a_bot_twice():
    setup = TableSetup(seats=[SeatChoice("Ada"), SeatChoice("Bot 1", "simple"),
                              SeatChoice("Bo", "strong"), SeatChoice("Player 4", "random")])
    assert describe_seats(setup) == ("Ada, Bot 1 (simple), Bo (strong bot), "
                                     "Player 4 (random bot)")
    set_language("fi")  # (a name given in another language is a default name too)
    assert describe_seats(setup).startswith("Ada, Bot 1 (helppo), Bo (botti: vahva)")


def test_one_hand_and_one_card_are_singular():
    import json
    from pathlib import Path

    from pokeroulette_tui.engine.game import new_game
    from pokeroulette_tui.engine.phase import Phase
    from pokeroulette_tui.engine.scoring import check_game_over

    golden = Path(__file__).parent / "fixtures" / "golden_draw_3_forfeit.json"
    texts = [text for __, text in json.loads(golden.read_text(encoding="utf-8"))["events"]]
    assert any(t.endswith("cuts 1 card") for t in texts)  # (the golden draw game's cut)
    for limit, words in ((1, "the agreed 1 hand has been played"),
                         (2, "the agreed 2 hands have been played")):
        state = new_game(PRESETS["classic"].replace(hand_limit=limit), ["Ana", "Bo", "Cy"],
                         seed=3)
        state.hand_no, state.phase = limit, Phase.HAND_OVER
        check_game_over(state)
        assert state.game_over_reason == words
