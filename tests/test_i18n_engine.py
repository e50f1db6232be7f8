"""The engine's and the command line's words in Finnish and Swedish (issue 12).

Real translated text is asserted (not just "something changed"), English stays as it was, and
every placeholder of a message survives its translation.
"""

from __future__ import annotations

import random
import re

import pytest

from pokeroulette_tui.cli import main
from pokeroulette_tui.engine.actions import Check, Fold, IllegalAction, PlaceBet
from pokeroulette_tui.engine.cards import Card, parse_cards
from pokeroulette_tui.engine.game import apply, check, legal_actions, new_game
from pokeroulette_tui.engine.hands import Category, category_words, evaluate
from pokeroulette_tui.engine.i18n import _, set_language
from pokeroulette_tui.engine.presets import PresetFolder, check_name
from pokeroulette_tui.engine.roulette import reason_words
from pokeroulette_tui.engine.rules import (OPTION_CHOICES, OPTION_GROUPS, PRESETS, RuleError, RuleSet,
                                           describe_rules, preset_note, token_words)
from pokeroulette_tui.engine.words import (OPTION_WORDS, and_words, changes_words, option_help,
                                           option_words, setting_words, value_words, yes_no)
from pokeroulette_tui.ui.config import check_seats, default_seats, speed_problem

PLACEHOLDER = re.compile(r"\{([a-z_]+)[^{}]*\}")


def _betting_state():
    """A roulette hand at its first betting round (everyone checks to Bo... or whoever acts)."""
    state = new_game(RuleSet(), ["Ana", "Bo", "Cy"], seed=3, bots=[True] * 3)
    while state.phase != "betting":
        seat = state.to_act
        actions = legal_actions(state, seat)
        apply(state, actions[0])
    return state


# -- hand names ------------------------------------------------------------------------------

@pytest.mark.parametrize("lang, cards, words", [
    ("fi", "Th Tc Td 2s 2h", "täyskäsi, kympit ja kakkoset"),
    ("sv", "Th Tc Td 2s 2h", "kåk, tior över tvåor"),
    ("fi", "Ah Kh Qh Jh *", "kuningasvärisuora"),
    ("sv", "Ah Kh Qh Jh *", "royal straight flush"),
    ("fi", "Js 9h 4d 3c 2s", "korkein kortti jätkä"),
    ("sv", "Js 9h 4d 3c 2s", "knekt högst"),
    ("fi", "7s 7h Kd 4c 2s", "pari, seiskat"),
    ("sv", "7s 7h Kd 4c 2s", "par i sjuor"),
    ("fi", "Ks Kh 5d 5c 2s", "kaksi paria, kuninkaat ja vitoset"),
    ("sv", "Ks Kh 5d 5c 2s", "två par, kungar och femmor"),
    ("sv", "Qd Qc Qh 7s 3c", "triss i damer"),
    ("fi", "9s 8h 7d 6c 5s", "suora, korkein ysi"),
])
def test_hand_names_are_translated(lang, cards, words):
    set_language(lang)
    assert evaluate(parse_cards(cards)).describe() == words


def test_hand_names_and_categories_follow_a_language_switch():
    hand = evaluate(parse_cards("Th Tc Td 2s 2h"))
    assert hand.describe() == "full house, tens over twos"
    assert category_words(Category.FLUSH) == "flush"
    set_language("fi")
    assert category_words(Category.FLUSH) == "väri"
    assert hand.describe().startswith("täyskäsi")
    set_language("sv")
    assert category_words(Category.FOUR_OF_A_KIND) == "fyrtal"
    assert Card(13, "H").name == "hjärter kung"
    set_language("en")  # back, and English is exactly as before
    assert hand.describe() == "full house, tens over twos"
    assert Card(14, "S").name == "ace of spades"


# -- rule words, descriptions and errors ----------------------------------------------------

def test_rule_description_in_finnish_and_swedish():
    english = describe_rules(PRESETS["classic"])
    set_language("fi")
    fi = describe_rules(PRESETS["classic"])
    assert fi[0] == ("Peli: Pokeriruletti, vähintään 3 pelaajaa; pakkoja yksi 5 pelaajaa kohden, "
                     "kussakin 52 korttia + 2 jokeria.")
    assert "Panostus: jokaisen osumakierroksen jälkeen ja ennen näyttöä." in fi
    set_language("sv")
    sv = describe_rules(PRESETS["draw"])
    assert sv[0] == "Spel: mörkpoker (five-card draw), 2–7 spelare, en kortlek med 52 kort, inga jokrar."
    assert any(line.startswith("Poängräkning: 6 föremål var;") for line in sv)  # "items", translated
    assert len(fi) == len(english)


def test_option_and_value_words():
    set_language("fi")
    assert option_words("min_players") == "Pelaajia vähintään"
    assert value_words("betting", "each_round") == "Joka kierroksen jälkeen"
    assert value_words("hand_limit", 0) == "Ei rajaa"
    assert value_words("suit_order", "SHDC") == "♠ > ♥ > ♦ > ♣"  # symbols: never translated
    assert yes_no(True) == "kyllä"
    assert setting_words("variant", "roulette") == "Peli: Pokeriruletti"  # a name keeps its capital
    assert changes_words(RuleSet(), RuleSet(betting="none", ante=2)) == "panostus: ei panostusta, ante: 2"
    assert option_help("ante") == "pelimerkit, jotka kukin pelaaja maksaa pottiin ennen jakoa"
    assert _(next(iter(OPTION_GROUPS))) == "Pöytä"
    set_language("sv")
    assert setting_words("forfeit_mode", "all_but_winner") == "Vem förlorar en pant: alla utom vinnaren betalar"
    assert preset_note("swedish").startswith("den svenska texten:")
    assert token_words(RuleSet(token_name="tokens")) == "panter"
    assert token_words(RuleSet(token_name="öl")) == "öl"  # a name the table chose stays
    assert and_words(["Ana", "Bo", "Cy"]) == "Ana och Bo och Cy"


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_translated_option_words_fit_the_setup_columns(lang):
    set_language(lang)
    words = [option_words(o) for o in OPTION_WORDS]
    assert all(len(w) <= 24 for w in words), [w for w in words if len(w) > 24]
    assert len(set(words)) == len(words)  # no two options read the same
    for option, choices in OPTION_CHOICES.items():
        values = [value_words(option, c) for c in choices]
        assert all(len(v) <= 28 for v in values), values
        assert len(set(values)) == len(values)


def test_rule_errors_are_translated_with_their_values():
    set_language("fi")
    with pytest.raises(RuleError) as err:
        RuleSet(tokens=9)
    assert str(err.value) == "Menetysmerkit: on oltava väliltä 5–7 (nyt 9)"
    assert err.value.option == "tokens"  # the option the code blames is never translated
    set_language("sv")
    with pytest.raises(RuleError, match=r"^Mörkpoker satsar före och efter bytet"):
        RuleSet(variant="draw", betting="final_only")
    with pytest.raises(RuleError) as err:
        RuleSet.from_dict({"wild_deuces": True})
    assert str(err.value) == "okända regelalternativ: wild_deuces"


# -- what happens at the table ---------------------------------------------------------------

def test_illegal_actions_are_sentences_in_the_players_language():
    state = _betting_state()
    other = next(i for i in range(3) if i != state.to_act)
    name = state.seats[state.to_act].name
    set_language("fi")
    with pytest.raises(IllegalAction) as err:
        check(state, Check(seat=other))
    assert str(err.value) == f"ei ole sinun vuorosi panostaa (vuorossa on {name})"
    set_language("sv")
    with pytest.raises(IllegalAction) as err:
        check(state, PlaceBet(seat=state.to_act, amount=10_000))
    assert str(err.value).startswith("en insats måste vara mellan ")
    assert str(err.value).endswith(" marker")
    set_language("en")
    with pytest.raises(IllegalAction, match=rf"^it is not your turn to bet \({name} is to act\)$"):
        check(state, Check(seat=other))


def test_events_are_told_in_the_language_spoken_when_they_happen():
    set_language("sv")
    state = new_game(RuleSet(), ["Ana", "Bo", "Cy"], seed=3, bots=[True] * 3)
    texts = []
    rng = random.Random(1)
    while state.hand_no < 2 and not state.game_over:
        actions = legal_actions(state, state.to_act)
        folds = [a for a in actions if isinstance(a, Fold)]
        action = folds[0] if folds and rng.random() < 0.3 else actions[0]
        texts += [e.text for e in apply(state, action)]
    assert "Giv 1: Ana har given" in texts
    assert any(t.startswith("Runda 1: jämförelsekortet är ") for t in texts)
    assert any(" vänder " in t for t in texts)
    assert any(t.endswith(" lägger sig") for t in texts)
    assert "Giv 1 är slut" in texts
    assert not any(re.search(r"\{[a-z_]+\}", t) for t in texts)  # every placeholder filled


def test_matching_reasons_are_translated_whole():
    set_language("fi")
    assert reason_words("no match") == "ei osumaa"
    assert reason_words("7♥ matched by rank, 2♠ by suit: both kept") == \
        "7♥ osui arvolla, 2♠ maalla: molemmat pidetään"
    assert reason_words("K♣ matched by suit") == "K♣ osui maalla"
    assert reason_words("something new") == "something new"  # unknown: left as it is


# -- presets, seats, the command line --------------------------------------------------------

def test_preset_and_seat_problems(tmp_path):
    set_language("fi")
    with pytest.raises(ValueError, match=r"^'Classic' on valmis sääntöpaketti: valitse toinen nimi$"):
        check_name("Classic")
    with pytest.raises(ValueError, match=r"^tuntematon sääntöpaketti 'texas' \(valmiit: classic"):
        PresetFolder(tmp_path).get("texas")
    assert check_seats(RuleSet(), default_seats(2)) == "näihin sääntöihin mahtuu 3–10 pelaajaa (nyt 2)"
    set_language("sv")
    assert speed_problem("warp") == "okänd hastighet 'warp' (välj slow, normal, fast eller instant)"


def test_cli_errors_and_reports_in_finnish_and_swedish(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    assert main(["--lang", "fi", "rules", "--rule", "ante=x"]) == 2
    assert capsys.readouterr().err == "pokeroulette: Ante (ante): on oltava kokonaisluku (nyt 'x')\n"
    assert main(["--lang", "sv", "simulate", "--bots", "foo"]) == 2
    assert capsys.readouterr().err == ("pokeroulette: okänd botnivå 'foo' (välj random, simple, "
                                       "strong)\n")
    assert main(["--lang", "fi", "preset", "list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Valmiit:\n")
    assert "Tallennetut: ei vielä yhtään" in out
    assert main(["--lang", "sv", "rules"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Regler: förval classic (det engelska originalet bakom den finska texten")
    assert "  Satsning: efter varje matchningsrunda och före visningen." in out
    assert main(["--lang", "sv", "stats"]) == 0
    assert "Inga spel registrerade än" in capsys.readouterr().out
    set_language("en")
    assert main(["rules", "--rule", "ante=x"]) == 2  # and English is as it was
    assert capsys.readouterr().err == "pokeroulette: Ante (ante) must be a whole number (got 'x')\n"


def test_cli_help_is_translated(capsys):
    with pytest.raises(SystemExit):
        main(["--lang", "fi", "rules", "--help"])
    out = capsys.readouterr().out
    assert "luettele kaikki asetukset ohjeriveineen" in out
    assert "muuta yhtä sääntöasetusta (toistettavissa)" in out


# -- the translations themselves --------------------------------------------------------------

def _part_messages(lang):
    from pathlib import Path

    babel = pytest.importorskip("babel.messages.pofile")
    with (Path(__file__).resolve().parent.parent / "pokeroulette_tui" / "locale" / lang /
          "LC_MESSAGES" / "pokeroulette.po").open("rb") as f:
        return list(babel.read_po(f, locale=lang))


ENGINE_FILES = ("engine/words.py", "engine/rules.py", "engine/hands.py", "engine/cards.py",
                "engine/scoring.py", "engine/betting.py", "engine/roulette.py", "engine/draw.py",
                "engine/game.py", "engine/presets.py", "engine/stats_report.py", "cli.py",
                "ui/stats_cli.py", "ui/config.py", "table.py", "session.py", "driver.py")


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_engine_and_cli_messages_are_translated_with_their_placeholders(lang):
    seen = 0
    for message in _part_messages(lang):
        if not message.id or not any(loc.endswith(ENGINE_FILES) for loc, __ in message.locations):
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert all(strings) and not message.fuzzy, ids[0]
        wanted = {p for i in ids for p in PLACEHOLDER.findall(i)}
        for string in strings:
            assert set(PLACEHOLDER.findall(string)) == wanted, (ids[0], string)
            string.format(**{name: 1 for name in wanted})  # no stray braces
            assert "%" not in string or "%" in ids[0]  # argparse formats help with %
        seen += 1
    assert seen > 400
