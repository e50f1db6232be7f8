"""``pokeroulette stats``: print, --json, --export, --export-text, --reset."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from pokeroulette_tui.cli import main
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.ui.stats_cli import run_stats
from pokeroulette_tui.ui.stats_recorder import StatsRecorder, stats_store
from stats_helpers import TableSession, new_table, play


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    for preset, humans in (("classic", [0]), ("draw", [0, 1])):
        table = new_table(PRESETS[preset], humans=humans, seed=5)
        play(table, TableSession(table, humans), StatsRecorder(stats_store()))
    return tmp_path


def test_stats_prints_every_player(home, capsys):
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert f"Statistics in {home / 'data' / 'stats'}" in out
    assert "\nAna\n" in out and "\nBo\n" in out
    assert "roulette · classic" in out and "draw · draw" in out and "best hand:" in out


def test_stats_json(home, capsys):
    assert main(["stats", "--json", "--player", "Ana"]) == 0
    doc = json.loads(capsys.readouterr().out)
    [ana] = doc["players"]
    assert ana["player"] == "Ana" and ana["total"]["games"] == 2
    assert set(ana["by_variant_preset"]) == {"roulette · classic", "draw · draw"}
    assert doc["problems"] == []


def test_an_unknown_player_is_one_line_and_status_2(home, capsys):
    assert main(["stats", "--player", "Zed"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no statistics for 'Zed'" in err and "Ana" in err


def test_export_json_lines_and_text(home, tmp_path, capsys):
    jsonl, text = tmp_path / "hands.jsonl", tmp_path / "hands.txt"
    assert main(["stats", "--player", "Bo", "--export", str(jsonl),
                 "--export-text", str(text)]) == 0
    hands = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert hands and all(h["player"] == "Bo" and h["kind"] == "hand" for h in hands)
    words = text.read_text()
    assert words.count("Hand ") == len(hands) and "your cards seen this hand" in words
    assert f"{len(hands)} hands written to {jsonl}" in capsys.readouterr().err


def test_export_to_the_screen(home, capsys):
    assert main(["stats", "--export-text", "-"]) == 0
    assert "Hand 1 · " in capsys.readouterr().out


def test_reset_asks_first_and_refuses_without_a_terminal(home, capsys):
    folder = home / "data" / "stats"
    assert main(["stats", "--reset"]) == 2  # no terminal to ask at: say how, delete nothing
    assert "--yes" in capsys.readouterr().err and len(list(folder.glob("*.jsonl"))) == 2
    args = argparse.Namespace(player="Ana", json=False, export=None, export_text=None,
                              reset=True, yes=False)
    out = io.StringIO()
    assert run_stats(args, ask=lambda _q: "n", out=out) == 1
    assert "Nothing was deleted" in out.getvalue() and len(list(folder.glob("*.jsonl"))) == 2
    assert run_stats(args, ask=lambda _q: "y", out=out) == 0
    assert [p.name.split("-")[0] for p in folder.glob("*.jsonl")] == ["Bo"]


def test_reset_yes_deletes_everything(home, capsys):
    assert main(["stats", "--reset", "--yes"]) == 0
    assert "Deleted all statistics (Ana, Bo) (2 files)" in capsys.readouterr().out
    assert main(["stats"]) == 0
    assert "No games recorded yet" in capsys.readouterr().out


def test_yes_alone_is_a_mistake(home, capsys):
    assert main(["stats", "--yes"]) == 2


def test_ctrl_d_at_the_reset_question_ends_the_line_first(home):
    """Ctrl-D answers the question with nothing: "Nothing was deleted." starts a line of its
    own, not the end of the question's."""
    args = argparse.Namespace(player="Ana", json=False, export=None, export_text=None,
                              reset=True, yes=False)
    out = io.StringIO()

    def ctrl_d(_question):
        raise EOFError

    assert run_stats(args, ask=ctrl_d, out=out) == 1
    assert out.getvalue().startswith("\nNothing was deleted"), repr(out.getvalue())


def test_ctrl_c_at_a_command_ends_the_line(home, capsys, monkeypatch):
    """Ctrl-C at a question (a KeyboardInterrupt out of a command): status 130, and a new
    line, so the shell's prompt does not follow the question on its line."""
    import pokeroulette_tui.cli as cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setitem(cli.COMMANDS, "stats", interrupted)
    assert main(["stats"]) == 130
    assert capsys.readouterr().err == "\n"
