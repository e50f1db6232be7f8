"""QA findings on the command line: stats exports that overwrote files, English inside the
Finnish and Swedish text export and casino figures, a damaged casino file moved aside in
silence, a wrong --lang always in English, and small messages that named the wrong thing."""

from __future__ import annotations

import argparse
import json
import os

import pytest
from stats_helpers import TableSession, new_table, play

from pokeroulette_tui.cli import main
from pokeroulette_tui.engine.i18n import _, language, set_language
from pokeroulette_tui.engine.result import HandResult
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.stats import HandRecord
from pokeroulette_tui.engine.stats_report import hand_text
from pokeroulette_tui.errors import CliError
from pokeroulette_tui.ui.stats_recorder import StatsRecorder, stats_store


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    table = new_table(PRESETS["classic"], humans=[0], seed=5)
    play(table, TableSession(table, [0]), StatsRecorder(stats_store()))
    return tmp_path


# -- 1. stats exports never overwrite a file unasked -------------------------------------------

@pytest.mark.parametrize("flag", ["--export", "--export-text"])
def test_an_export_refuses_a_file_that_is_there(home, tmp_path, capsys, flag):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert main(["stats", flag, str(notes)]) == 2
    err = capsys.readouterr().err
    assert err == f"pokeroulette: {notes} already exists (add --replace to overwrite it)\n"
    assert notes.read_text() == "my notes\n"
    assert main(["stats", flag, str(notes), "--replace"]) == 0
    assert notes.read_text() != "my notes\n" and "Ana" in notes.read_text()


def test_nothing_is_written_when_one_of_two_exports_is_refused(home, tmp_path, capsys):
    fresh, notes = tmp_path / "hands.jsonl", tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert main(["stats", "--export", str(fresh), "--export-text", str(notes)]) == 2
    assert not fresh.exists() and notes.read_text() == "my notes\n"
    assert main(["stats", "--export-text", str(tmp_path)]) == 2  # a folder
    assert "is a folder: give a file name in it" in capsys.readouterr().err
    assert main(["stats", "--replace"]) == 2
    assert "--replace goes with --export or --export-text" in capsys.readouterr().err


def test_the_count_of_hands_written_is_said(home, tmp_path, capsys):
    out = tmp_path / "hands.txt"
    assert main(["stats", "--export-text", str(out)]) == 0
    n = out.read_text().count("Hand ")
    word = "hand" if n == 1 else "hands"
    assert f"{n} {word} written to {out}" in capsys.readouterr().err


# -- 2. the text export words each pot's reason in the reader's language ------------------------

TIE = {"hand_no": 1, "by_fold": False,
       "hands": {"1": {"cards": ["4h"], "name": "four high", "category": "HIGH_CARD",
                       "shown": ["4h"], "jokers": [], "place": 2},
                 "3": {"cards": ["4s"], "name": "four high", "category": "HIGH_CARD",
                       "shown": ["4s"], "jokers": [], "place": 1}},
       "pots": [{"amount": 203, "winners": [3], "eligible": [1, 3], "shares": {"3": 203},
                 "why": "with four high on the suit tie-break: 4♠ outranks 4♥ (spades over "
                        "hearts)"}],
       "token_losers": [], "winners": [3]}


def _record(result: dict) -> HandRecord:
    return HandRecord(player="Ana", at="2026-01-01T20:00", variant="roulette", preset="classic",
                      sig="", seat=3, names=("Ana", "Bo", "Cy", "Di"), hand_no=1, cards=(),
                      held=(), match=(), chips=500, tokens=3,
                      result=HandResult.from_dict(result))


class OneHand:
    """A statistics store holding one hand of Ana's."""

    folder = "nowhere"
    problems = ()

    def players(self) -> list[str]:
        return ["Ana"]

    def hands(self, player: str) -> list[HandRecord]:
        return [_record(TIE)]


def test_one_hand_written_is_singular(tmp_path, capsys):
    from pokeroulette_tui.ui.stats_cli import run_stats

    target = tmp_path / "one.txt"
    args = argparse.Namespace(player=None, json=False, export=None, export_text=str(target),
                              reset=False, yes=False, replace=False)
    assert run_stats(args, store=OneHand()) == 0  # type: ignore[arg-type]
    assert capsys.readouterr().err == f"1 hand written to {target}\n"


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_the_pot_reason_follows_the_reader(lang):
    rec = _record(TIE)
    set_language(lang)
    text = hand_text(rec)
    assert "with four high" not in text and "outranks" not in text and "spades" not in text
    assert _("on the suit tie-break: {a} outranks {b} ({suit_a} over {suit_b})").split("{")[0] \
        in text
    assert "4♠" in text and "4♥" in text


def test_the_pot_reason_in_english_is_the_one_stored():
    from pokeroulette_tui.engine.stats_report import pot_words

    rec = _record(TIE)
    assert pot_words(rec.result.pots[0], rec) == TIE["pots"][0]["why"]
    split = json.loads(json.dumps(TIE))
    split["pots"][0].update(winners=[1, 3], why="with four high (split)")
    rec = _record(split)
    assert pot_words(rec.result.pots[0], rec) == "with four high (split)"


def test_the_whole_text_export_in_finnish_has_no_english_reason(home, capsys):
    assert main(["--lang", "fi", "stats", "--export-text", "-"]) == 0
    pots = [line for line in capsys.readouterr().out.splitlines() if "potti" in line]
    assert pots and not any(" with " in line or "as everyone" in line for line in pots)


# -- 3. and 4. the casino's figures and where its rules are -------------------------------------

@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_pay_table_figures_are_written_the_languages_way(capsys, lang):
    assert main(["--lang", lang, "casino", "--pay-tables"]) == 0
    out = capsys.readouterr().out
    assert "3,70\u00a0%" in out and "3.70%" not in out and "12.58" not in out


@pytest.mark.parametrize("lang", ["en", "fi", "sv"])
@pytest.mark.parametrize("flag", ["--pay-tables", "--odds"])
def test_the_rules_are_pointed_to_by_a_command(tmp_path, monkeypatch, capsys, lang, flag):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    assert main(["--lang", lang, "casino", flag]) == 0
    out = capsys.readouterr().out
    assert "docs/RULES.md" not in out and "pokeroulette rules --doc" in out


def test_odds_figures_in_finnish(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    assert main(["--lang", "fi", "casino", "--odds"]) == 0
    out = capsys.readouterr().out
    assert "96,30\u00a0%" in out and "3,70\u00a0%" in out and "3.70%" not in out
    assert "1/54,0" in out and "1/54.0" not in out


# -- 5. a damaged casino file moved aside is said -----------------------------------------------

@pytest.mark.parametrize("argv", [["casino", "--reset-bankroll", "Ana"],
                                  ["casino", "--reset-jackpot"]])
def test_a_reset_says_a_damaged_casino_file_was_moved_aside(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    from pokeroulette_tui.paths import data_home

    data_home().mkdir(parents=True, exist_ok=True)
    (data_home() / "casino.json").write_text("{not json")
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "damaged" in err and "it was moved to" in err and err.startswith("pokeroulette: ")
    assert (data_home() / "casino.json.damaged").exists()


# -- 6. a wrong --lang in the locale's language -------------------------------------------------

def test_a_wrong_lang_speaks_the_locale(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    assert main(["--lang", "de"]) == 2
    assert language() == "fi"
    assert capsys.readouterr().err == "pokeroulette: " + _(
        "unknown language {code} (choose {codes} or {last})").format(
        code="'de'", codes="en, fi", last="sv") + "\n"
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main(["--lang", "de"]) == 2
    assert language() == "en"
    assert capsys.readouterr().err == "pokeroulette: unknown language 'de' (choose en, fi or sv)\n"


# -- 7. small messages --------------------------------------------------------------------------

def test_a_password_file_that_is_a_folder_is_said_so(tmp_path):
    from pokeroulette_tui.net.files import read_password

    folder = tmp_path / "adir"
    folder.mkdir()
    os.chmod(folder, 0o755)
    with pytest.raises(CliError) as err:
        read_password(argparse.Namespace(password=None, password_file=str(folder)), env={})
    assert "is a folder" in str(err.value) and "chmod" not in str(err.value)


def test_a_socket_in_a_folder_that_does_not_exist_is_said_so(tmp_path):
    from pokeroulette_tui.net.serve import listen_for

    where = tmp_path / "nonexistent" / "dir"
    with pytest.raises(CliError) as err:
        listen_for(argparse.Namespace(unix=str(where / "x.sock"), allow=None), host=None)
    assert str(err.value) == f"there is no folder {where}"


@pytest.mark.parametrize("argv,points", [(["rules", "--jsn"], "pokeroulette rules --help"),
                                         (["stats", "--jsn"], "pokeroulette stats --help"),
                                         (["preset", "list", "--x"],
                                          "pokeroulette preset list --help")])
def test_an_unknown_option_points_to_its_commands_help(capsys, argv, points):
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments" in err and f"(see: {points})" in err


def test_simulate_says_what_its_options_do(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for flag in ("--games GAMES", "--players PLAYERS", "--seed SEED"):
        after = out.split(flag, 1)[1].lstrip()
        assert not after.startswith("--"), flag  # a help text follows the option
    assert "up to 52 in Poker Roulette" in out
