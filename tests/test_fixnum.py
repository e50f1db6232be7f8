"""Percentages a player reads are written the language's way: ``33%`` and ``0.4%`` in
English, ``33 %`` and ``0,4 %`` (a no-break space before the sign) in Finnish and Swedish,
by one helper (:func:`pokeroulette_tui.engine.i18n.percent`) in the hints, the statistics and
the casino's odds alike."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokeroulette_tui.engine.casino import odds
from pokeroulette_tui.engine.hands import Category
from pokeroulette_tui.engine.hints import Improve
from pokeroulette_tui.engine.i18n import percent, set_language
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.stats import PlayerStats, Tally
from pokeroulette_tui.engine.stats_report import percent as share
from pokeroulette_tui.engine.stats_report import summary_lines
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.hints import Estimate, equity_text, improve_text, pct

NB = "\u00a0"


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_language("en")


@pytest.mark.parametrize("lang,sign,point", [("en", "%", "."), ("fi", NB + "%", ","),
                                             ("sv", NB + "%", ",")])
def test_the_helper(lang, sign, point):
    set_language(lang)
    assert percent(Fraction(37, 1000)) == f"3{point}70{sign}"
    assert percent(1 / 3, 0) == f"33{sign}" and percent(0.125, 1) == f"12{point}5{sign}"
    assert odds.percent is percent  # the casino's figures: the same code


@pytest.mark.parametrize("lang,expected", [
    ("en", ["0%", "<0.1%", "0.4%", "33%", "99.5%", ">99.9%", "100%"]),
    ("fi", ["0 %", "<0,1 %", "0,4 %", "33 %", "99,5 %", ">99,9 %", "100 %"]),
    ("sv", ["0 %", "<0,1 %", "0,4 %", "33 %", "99,5 %", ">99,9 %", "100 %"]),
])
def test_hint_chances(lang, expected):
    set_language(lang)
    got = [pct(p) for p in (0, 0.0005, 0.004, Fraction(1, 3), 0.995, 0.9996, 1)]
    assert got == [e.replace(" ", NB) for e in expected]


@pytest.mark.parametrize("lang", ["en", "fi", "sv"])
def test_the_hints_panel_lines(lang, monkeypatch):
    set_language(lang)
    monkeypatch.setattr("pokeroulette_tui.ui.hints.live_count", lambda view: 3)  # 2 rivals
    sign = "%" if lang == "en" else NB + "%"
    improve = Improve(now=Category.PAIR, better=0.48, samples=400,
                      ends={Category.PAIR: 0.52, Category.TWO_PAIR: 0.305})
    text = improve_text(improve).plain
    assert f": 48{sign}\n" in text and text.rstrip().endswith(f" 30{sign}")
    table = Table.create(PRESETS["classic"], [SeatConfig("Ada"), SeatConfig("Bo", "random"),
                                              SeatConfig("Cy", "random")], seed=1)
    text = equity_text(Estimate(win=0.35, samples=1200, seconds=1.5, done=True),
                       view_for(table.state, 0)).plain
    assert f": 35{sign}" in text and f" 33{sign})" in text
    if lang != "en":
        assert "%" not in text.replace(NB + "%", "")  # no English "35%" left


@pytest.mark.parametrize("lang", ["en", "fi", "sv"])
def test_statistics_shares(lang):
    set_language(lang)
    sign = "%" if lang == "en" else NB + "%"
    assert share(1, 3) == f"33{sign}" and share(0, 0) == "–"
    assert share(23, 40) == f"58{sign}"  # 57.5 exactly: half to even, as round() did
    stats = PlayerStats("Ana", tallies={"draw · draw": Tally(games=3, finished=3, wins=1, hands=8,
                                                              showdowns=4, showdowns_won=3)})
    said = "\n".join(summary_lines(stats))
    assert f"33{sign}" in said and f"75{sign}" in said


def test_a_percentage_is_never_split_across_lines():
    """Rich and Textual break at a no-break space: the hints panel and the statistics screen
    keep "41 %" whole (the panel is 28 columns at 80×24; the screen's line 78)."""
    from rich.console import Console
    from rich.text import Text

    from pokeroulette_tui.ui.hints import Unbroken
    from pokeroulette_tui.ui.screens.stats import fold_parts

    console = Console(width=28, color_system=None)
    with console.capture() as out:
        console.print(Unbroken(Text(f"Paranee loppuun mennessä: 41{NB}%")))
    assert [line.rstrip() for line in out.get().splitlines()] == [
        "Paranee loppuun mennessä:", f"41{NB}%"]
    set_language("fi")
    line = (f"Voitetut pelit 33{NB}% / 3 päättynyttä · voitetut näytöt 33{NB}% · "
            f"voitetut jaot 35{NB}%")
    assert fold_parts(line, 78).split("\n") == [
        f"Voitetut pelit 33{NB}% / 3 päättynyttä · voitetut näytöt 33{NB}% ·",
        f"voitetut jaot 35{NB}%"]
    assert fold_parts(line, 90) == line
