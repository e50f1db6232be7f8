"""The rules reference in three languages: ``pokeroulette rules --doc`` prints docs/RULES.md,
RULES.fi.md or RULES.sv.md by the language spoken, and the translations are held to the English
reference so that they cannot drift unseen: the same numbered sections and numbered steps,
every option name and every code span (what a player types is never translated), no English
paragraph left untranslated, and the §6.2 odds table with the figures the program computes."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import fields
from decimal import Decimal
from pathlib import Path

import pytest

from pokeroulette_tui.cli import main
from pokeroulette_tui.engine.rules import RuleSet

DOCS = Path(__file__).resolve().parents[1] / "docs"
TRANSLATIONS = ("fi", "sv")
FENCE = re.compile(r"^```.*?^```[ \t]*$", re.MULTILINE | re.DOTALL)


def read(lang: str) -> str:
    return (DOCS / ("RULES.md" if lang == "en" else f"RULES.{lang}.md")).read_text(
        encoding="utf-8")


def prose(text: str) -> str:
    """The document without its fenced blocks."""
    return FENCE.sub("", text)


def code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", prose(text))


def words(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (lines wrap differently)."""
    return " ".join(text.split())


# -- the command prints the reference of the language spoken --------------------------------

@pytest.mark.parametrize("lang, title, sentence", [
    ("en", "# Rules of play", "Anyone may leave the table at any moment, without penalty"),
    ("fi", "# Pelisäännöt", "Kuka tahansa saa poistua pöydästä milloin vain ilman rangaistusta"),
    ("sv", "# Spelregler", "Vem som helst får lämna bordet när som helst, utan straff"),
])
def test_rules_doc_prints_the_reference_in_the_language(lang, title, sentence, tmp_path,
                                                        monkeypatch, capsys):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    assert main(["--lang", lang, "rules", "--doc"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(title + " ")
    assert sentence in words(out)
    assert out == read(lang) + "\n"  # the whole document, as it is written
    others = {"en": "Anyone may leave", "fi": "Kuka tahansa saa poistua",
              "sv": "Vem som helst får lämna"}
    assert not [o for lg, o in others.items() if lg != lang and o in words(out)]


def test_rules_doc_falls_back_to_english_without_a_translation(tmp_path, monkeypatch, capsys):
    """A package with only RULES.md (a translation missing) still prints the reference."""
    from pokeroulette_tui import paths

    (tmp_path / "RULES.md").write_text("# Rules of play\n\nonly English here\n", encoding="utf-8")
    monkeypatch.setattr(paths, "doc_path", lambda name: tmp_path / name)
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path / "home"))
    assert main(["--lang", "fi", "rules", "--doc"]) == 0
    assert "only English here" in capsys.readouterr().out
    assert paths.translated_doc_path("RULES.md", "sv") == tmp_path / "RULES.md"
    (tmp_path / "RULES.sv.md").write_text("# Spelregler\n", encoding="utf-8")
    assert paths.translated_doc_path("RULES.md", "sv") == tmp_path / "RULES.sv.md"
    assert paths.translated_doc_path("RULES.md", "en") == tmp_path / "RULES.md"


def test_the_language_spoken_picks_the_document():
    from pokeroulette_tui.engine.i18n import set_language
    from pokeroulette_tui.paths import doc_path, translated_doc_path

    assert translated_doc_path("RULES.md") == doc_path("RULES.md")  # tests speak English
    set_language("sv")
    assert translated_doc_path("RULES.md").name == "RULES.sv.md"
    set_language("fi")
    assert translated_doc_path("RULES.md").name == "RULES.fi.md"


# -- the translations keep step with the English reference ----------------------------------

def headings(text: str) -> list[tuple[int, str]]:
    """Each heading's level and section number ("" for an unnumbered one)."""
    found = []
    for line in prose(text).splitlines():
        m = re.match(r"(#{1,6}) +(\d+(?:\.\d+)*\.?)?", line)
        if m:
            found.append((len(m.group(1)), (m.group(2) or "").rstrip(".")))
    return found


def numbered_steps(text: str) -> list[tuple[str, list[str]]]:
    """For each numbered section, the numbers of its ordered-list items, in order."""
    out: list[tuple[str, list[str]]] = []
    for line in prose(text).splitlines():
        m = re.match(r"#{1,6} +(\d+(?:\.\d+)*)", line)
        if m:
            out.append((m.group(1), []))
        elif out and (step := re.match(r"(\d+)\. ", line)):
            out[-1][1].append(step.group(1))
    return out


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translation_has_the_same_sections_and_steps(lang):
    english, translated = read("en"), read(lang)
    assert len(headings(english)) >= 12 and (3, "2.3") in headings(english)
    assert headings(translated) == headings(english)
    assert numbered_steps(translated) == numbered_steps(english)
    assert dict(numbered_steps(english))["2.2"] == [str(n) for n in range(1, 10)]


def option_names(text: str) -> set[str]:
    """The rule options a document names in backticks: ``stock_to_active`` or the left side of
    ``betting = "each_round"`` (a name of the rule set's fields)."""
    known = {f.name for f in fields(RuleSet)}
    names = set()
    for span in code_spans(text):
        m = re.fullmatch(r"([a-z][a-z0-9_]*)(?: *=.*)?", span)
        if m and m.group(1) in known:
            names.add(m.group(1))
    return names


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translation_names_every_option_and_keeps_every_code_span(lang):
    english, translated = read("en"), read(lang)
    options = option_names(english)
    assert {"stock_to_active", "claim_match_card", "suit_order", "betting", "forfeit_mode",
            "game_end", "sit_out", "max_draw", "ante"} <= options and len(options) >= 20
    assert not options - option_names(translated), "options the translation does not name"
    # options, values, presets, commands: typed by players, so never translated
    missing = Counter(code_spans(english)) - Counter(code_spans(translated))
    assert not missing, f"code spans of RULES.md missing from RULES.{lang}.md: {missing}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translation_leaves_no_english_line_untranslated(lang):
    translated = words(prose(read(lang)))
    for line in prose(read("en")).splitlines():
        text = re.sub(r"`[^`]*`", "", line).strip(" -#*0123456789.")
        if len(re.findall(r"(?<![-\w])[A-Za-z]{2,}\b(?!-)", text)) >= 5:  # prose, not a command
            assert words(text) not in translated, f"left in English: {text!r}"


# -- the §6.2 odds table: the figures the program computes ----------------------------------

def odds_block(text: str) -> list[str]:
    section = text.split("### 6.2", 1)[1]
    block = FENCE.search(section)
    assert block, "no odds table under 6.2"
    return block.group(0).splitlines()[1:-1]


ROW = re.compile(r"\d\s?%\s+\d[\d.,]*\s?%\s*$")  # ends with the return and the house edge


def numbers(line: str, lang: str) -> list[Decimal]:
    """The figures of a line: 1,234.5 in English; 1 234,5 (a no-break space) in fi and sv."""
    if lang == "en":
        return [Decimal(n.replace(",", "")) for n in re.findall(r"\d+(?:,\d{3})*(?:\.\d+)?",
                                                                line)]
    found = re.findall(r"\d{1,3}(?:\u00a0\d{3})+(?:,\d+)?|\d+(?:,\d+)?", line)
    return [Decimal(n.replace("\u00a0", "").replace(",", ".")) for n in found]


def english_figures(line: str) -> list[Decimal]:
    """An English report row's figures: its last four columns (42 characters), after the
    bet's name."""
    return numbers(line[-42:], "en")


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translation_shows_the_computed_odds(lang):
    from pokeroulette_tui.engine.casino.odds import report
    from pokeroulette_tui.engine.casino.paytable import DEFAULT

    computed = report(DEFAULT).splitlines()
    lines = odds_block(read(lang))
    en_rows = [line for line in computed if ROW.search(line)]
    rows = [line for line in lines if ROW.search(line)]
    assert len(en_rows) >= 20 and len(rows) == len(en_rows)
    for en_row, row in zip(en_rows, rows):
        figures = english_figures(en_row)
        assert numbers(row, lang)[-len(figures):] == figures, (en_row, row)
    # the notes under the table: every figure the program prints is there (in any order: the
    # word order differs), none changed
    en_notes = [n for line in computed if not ROW.search(line) for n in numbers(line, "en")]
    notes = [n for line in lines if not ROW.search(line) for n in numbers(line, lang)]
    assert Decimal(373675) in en_notes
    assert not Counter(en_notes) - Counter(notes), Counter(en_notes) - Counter(notes)
