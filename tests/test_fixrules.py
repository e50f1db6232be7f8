"""QA fixes to the words about the rules: the "what beats what" card follows the table's
scoring (no pot at a forfeit-token table without betting; each ``forfeit_tie`` and
``forfeit_mode`` worded as RULES §5 has it), ``variant=casino`` is refused with the command
that plays it (RULES §6), and the help summary does not promise three cards to exchange."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokeroulette_tui.cli import main
from pokeroulette_tui.engine.rules import PRESETS, RuleError, RuleSet
from pokeroulette_tui.ui.hints import beats_text

DOCS = Path(__file__).resolve().parents[1] / "docs"


# 1. the "what beats what" card at forfeit-token tables

def test_draw_preset_card_speaks_of_tokens_not_a_pot():
    text = beats_text(PRESETS["draw"], None).plain
    assert "pot" not in text
    assert "the best hand wins" not in text  # no pot to win: the weakest hand loses an item
    lines = text.splitlines()
    assert lines[-3:] == ["No wild cards: five cards each.",
                          "Forfeit: the weakest hand loses one of the items",
                          ("Equal hands (suits do not count): tied weakest hands play a "
                           "deciding hand.")]


def test_draw_card_words_each_forfeit_tie_option():
    all_lose = beats_text(PRESETS["draw"].replace(forfeit_tie="all_lose"), None).plain
    assert all_lose.endswith("Equal hands (suits do not count): tied weakest hands each lose one.")
    best = beats_text(PRESETS["draw"].replace(forfeit_mode="all_but_winner"), None).plain
    assert "Forfeit: every hand but the best loses one of the items" in best
    assert best.endswith("tied best hands all keep their items.")
    assert "deciding hand" not in best  # all_but_winner has no tie to replay (RULES §5)


def test_roulette_forfeit_card_has_no_pot_to_split():
    text = beats_text(RuleSet(scoring="forfeit", betting="none"), "SHDC").plain
    assert "pot" not in text
    assert text.endswith("; still equal: tied weakest hands play a deciding hand")
    assert "Forfeit: the weakest hand loses one of the tokens" in text
    named = beats_text(RuleSet(scoring="forfeit", betting="none", token_name="beers",
                               forfeit_tie="all_lose"), "SHDC").plain
    assert "loses one of the beers" in named
    assert named.endswith("; still equal: tied weakest hands each lose one")


def test_forfeit_with_betting_names_both_the_pot_and_the_tokens():
    text = beats_text(RuleSet(scoring="forfeit"), "SHDC").plain
    assert text.endswith("still equal: the pot is split; tied weakest hands play a deciding hand")
    chips = beats_text(RuleSet(scoring="forfeit", forfeit_mode="most_chips_lost",
                               forfeit_tie="all_lose"), "SHDC", chain=True).plain
    assert ("Forfeit: whoever lost the most chips in the hand loses one of the tokens; "
            "players tied for it each lose one") in chips
    assert chips.endswith("still equal: the pot is split")
    drawn = beats_text(PRESETS["draw"].replace(betting="each_round"), None).plain
    assert "the best hand wins" in drawn
    assert drawn.endswith("Equal hands (suits do not count): the pot is split; tied weakest "
                          "hands play a deciding hand.")


def test_chip_tables_keep_their_words():
    assert beats_text(RuleSet(), "SHDC").plain.endswith("; still equal: the pot is split")
    draw = beats_text(RuleSet(variant="draw", betting="each_round"), None).plain
    assert "Forfeit" not in draw
    assert draw.endswith("No wild cards: five cards each, the best hand wins.\n"
                         "Equal hands split the pot (suits do not count).")


# 2. variant=casino points to its command

def test_variant_casino_points_to_the_command(capsys):
    with pytest.raises(RuleError) as caught:
        RuleSet(variant="casino")
    assert caught.value.option == "variant"
    assert "pokeroulette casino" in str(caught.value)
    with pytest.raises(RuleError, match="must be one of roulette, draw"):
        RuleSet(variant="texas")  # any other value: the choices, as before
    assert main(["--lang", "en", "play", "--rule", "variant=casino", "--players", "3"]) == 2
    err = capsys.readouterr().err
    assert "the casino game is its own command: pokeroulette casino" in err
    assert "must be one of" not in err


@pytest.mark.parametrize("name", ["RULES.md", "RULES.fi.md", "RULES.sv.md"])
def test_rules_doc_promises_no_casino_variant(name):
    text = (DOCS / name).read_text(encoding="utf-8")
    heading = next(line for line in text.splitlines() if line.startswith("## 6."))
    assert 'variant = "casino"' not in text
    assert "`pokeroulette casino`" in heading


# 3. the help summary

def test_help_summary_does_not_fix_the_draw_at_three_cards():
    from pokeroulette_tui.ui.screens.help import summary_text

    text = " ".join(summary_text().plain.split())
    assert "exchange up to three cards once" not in text
    assert "a table may agree on 0 to 5, and u shows its rules" in text
