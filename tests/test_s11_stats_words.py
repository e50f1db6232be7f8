"""The statistics say hands, pots and games in the reader's language, English included,
whatever language the hands were played in: rebuilt from the recorded result, never the
words stored with it (README "Statistics")."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from pokeroulette_tui.cli import main
from pokeroulette_tui.engine.i18n import set_language
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.stats_report import group_words, hand_text, summary_lines
from pokeroulette_tui.engine.stats_store import StatsStore
from pokeroulette_tui.ui.screens.stats import (best_text, counts_table, game_words,
                                               recent_table)
from pokeroulette_tui.ui.stats_recorder import StatsRecorder
from stats_helpers import TableSession, new_table, play

CLOCK = "2025-03-14T20:15:00+02:00"
GAMES = (("classic", 3), ("classic", 4), ("draw", 5))


def record(folder: Path, lang: str) -> StatsStore:
    """The same seeded games (Ana and Bo hot-seat), played in ``lang``."""
    set_language(lang)
    store = StatsStore(folder)
    for preset, seed in GAMES:
        table = new_table(PRESETS[preset], humans=[0, 1], seed=seed)
        play(table, TableSession(table, [0, 1]), StatsRecorder(store, clock=lambda: CLOCK),
             seed=seed)
    set_language("en")
    return store


@pytest.fixture(scope="module")
def stores(tmp_path_factory) -> dict[str, StatsStore]:
    stores = {lang: record(tmp_path_factory.mktemp(lang), lang) for lang in ("en", "fi", "sv")}
    yield stores
    set_language("en")


def export(store: StatsStore) -> str:
    return "\n".join(hand_text(rec) for player in store.players() for rec in store.hands(player))


def summary(store: StatsStore) -> str:
    return "\n".join(line for player in store.players()
                     for line in summary_lines(store.load(player), width=200))


def test_the_games_were_recorded_in_their_language(stores):
    """(What the tests below read: the stored words are each in the language played.)"""
    names = {lang: {h.name for rec in store.hands("Ana") for h in rec.result.hands}
             for lang, store in stores.items()}
    assert names["en"] and names["fi"] and names["sv"]
    assert not names["en"] & names["fi"] and not names["en"] & names["sv"]
    whys = {p.why for rec in stores["fi"].hands("Ana") for p in rec.result.pots}
    assert any(why.startswith("kädellä") for why in whys)


@pytest.mark.parametrize("reader", ["en", "fi", "sv"])
@pytest.mark.parametrize("played", ["en", "fi", "sv"])
def test_the_export_says_the_hands_in_the_readers_language(stores, played, reader):
    set_language(reader)
    assert export(stores[played]) == export(stores[reader])


@pytest.mark.parametrize("reader", ["en", "fi", "sv"])
@pytest.mark.parametrize("played", ["en", "fi", "sv"])
def test_the_summary_says_the_best_hand_in_the_readers_language(stores, played, reader):
    set_language(reader)
    text = summary(stores[played])
    assert text == summary(stores[reader])
    assert text.count("best hand:" if reader == "en" else
                      "paras käsi:" if reader == "fi" else "bästa hand:") == 2


def test_english_reads_finnish_hands_in_english(stores):
    text = export(stores["fi"])
    assert "pot of" in text and " with " in text
    for finnish in ("pari", "korkein kortti", "kädellä", "väri", "kaksi paria"):
        assert finnish not in text


def rendered(renderable, width: int = 100) -> str:
    console = Console(width=width, file=io.StringIO(), color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("reader", ["en", "fi", "sv"])
def test_the_screen_says_hands_in_the_readers_language(stores, reader):
    set_language(reader)
    for player in ("Ana", "Bo"):
        played, hands = stores["sv"].load_with_hands(player, 14)
        own, own_hands = stores[reader].load_with_hands(player, 14)
        assert best_text(played).plain == best_text(own).plain
        for width in (76, 120):
            assert rendered(recent_table(hands, width), width) == \
                rendered(recent_table(own_hands, width), width)


def test_the_screen_names_the_games_in_the_readers_language(stores):
    ana = stores["en"].load("Ana")
    set_language("fi")
    counts = rendered(counts_table(ana), 120)
    assert "Pokeriruletti · classic" in counts and "Vaihtopokeri · draw" in counts
    assert "roulette" not in counts
    assert "Pokeriruletti · classic" in best_text(ana).plain
    assert game_words("draw · draw") == "Vaihtopokeri"
    set_language("sv")
    assert "Pokerroulette · classic" in rendered(counts_table(ana), 120)
    assert game_words("roulette · classic") == "Pokerroulette · classic"
    set_language("en")  # (English says the recorded names: what --variant and --preset take)
    assert "roulette · classic" in rendered(counts_table(ana), 120)


def test_at_80_columns_the_counts_are_never_cut(stores):
    """The game's name in words is longer: it wraps, the counts keep their digits."""
    set_language("sv")
    text = rendered(counts_table(stores["en"].load("Ana")), 76)
    assert "…" not in text and "Pokerroulette" in text


def test_rules_off_the_presets_keep_the_game_in_words():
    set_language("fi")
    assert group_words("roulette · custom").startswith("Pokeriruletti · ")
    assert group_words("draw · my own") == "Vaihtopokeri · my own"  # a saved preset: its name
    assert group_words("kaikki") == "kaikki"


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")
    record(tmp_path / "data" / "stats", "fi")
    return tmp_path


def test_the_command_says_games_and_hands_in_its_language(home, capsys):
    assert main(["--lang", "en", "stats", "--export-text", "-"]) == 0
    out = capsys.readouterr().out
    assert "roulette · classic" in out and "pari" not in out and "korkein" not in out
    assert main(["--lang", "en", "stats"]) == 0
    out = capsys.readouterr().out
    assert "best hand: " in out and "pari" not in out and "korkein" not in out
    assert main(["--lang", "sv", "stats"]) == 0
    out = capsys.readouterr().out
    assert "Pokerroulette · classic" in out and "Mörkpoker · draw" in out
    assert not re.search(r"\broulette · classic", out)
    assert main(["--lang", "fi", "stats", "--export-text", "-"]) == 0
    out = capsys.readouterr().out
    assert "· Pokeriruletti · classic ·" in out and "· Vaihtopokeri · draw ·" in out


def test_the_machine_formats_keep_their_keys(home, capsys):
    assert main(["--lang", "fi", "stats", "--json", "--player", "Ana"]) == 0
    [ana] = json.loads(capsys.readouterr().out)["players"]
    assert set(ana["by_variant_preset"]) == {"roulette · classic", "draw · draw"}
    assert ana["best_hand"]["group"] == "roulette · classic"
    assert main(["--lang", "fi", "stats", "--export", "-", "--player", "Ana"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {(d["variant"], d["preset"]) for d in lines} == {("roulette", "classic"),
                                                            ("draw", "draw")}
