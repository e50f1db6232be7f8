"""The command line refuses options that cannot go together (one line, status 2) instead of
silently dropping one; ``--rule`` mistakes say the rule once, in one pattern; ``simulate``
and ``play`` say their true seat limits alike; empty and cut save files are told apart, and
the damaged-casino notice wraps only at spaces."""

from __future__ import annotations

import argparse

import pytest

from pokeroulette_tui import cli
from pokeroulette_tui.cli import main


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    return tmp_path


def one_line(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.count("\n") == 1, captured.err
    return captured.err


# -- 1: options that cannot go together --------------------------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["casino", "--odds", "--simulate", "100"], "cannot combine --odds with --simulate"),
    (["casino", "--pay-tables", "--odds"], "cannot combine --pay-tables with --odds"),
    (["casino", "--simulate", "100", "--reset-jackpot"], "cannot combine --simulate with --reset-jackpot"),
    (["casino", "--odds", "--reset-bankroll", "Ana"], "cannot combine --odds with --reset-bankroll"),
    (["casino", "--odds", "Ana"], "cannot combine --odds with player names"),
    (["casino", "--odds", "--seed", "3"], "cannot combine --odds with --seed"),
    (["casino", "--pay-tables", "--pay-table", "tight"], "cannot combine --pay-tables with --pay-table"),
    (["casino", "--reset-jackpot", "--deal-pause", "1"], "cannot combine --reset-jackpot with --deal-pause"),
    (["stats", "--export-text", "-", "--json"], "cannot combine --export-text with --json"),
    (["stats", "--export", "-", "--json"], "cannot combine --export with --json"),
    (["stats", "--reset", "--export", "x.jsonl"], "cannot combine --reset with --export"),
    (["stats", "--reset", "--json", "--yes"], "cannot combine --reset with --json"),
    (["rules", "--doc", "--json"], "cannot combine --doc with --json"),
    (["rules", "--json", "--list"], "cannot combine --json with --list"),
    (["rules", "--doc", "--preset", "draw"], "cannot combine --doc with --preset"),
    (["host", "--stop", "--headless"], "cannot combine --stop with --headless"),
    (["host", "--stop", "--rule", "ante=3"], "cannot combine --stop with --rule"),
    (["host", "--stop", "--resume", "x.json"], "cannot combine --stop with --resume"),
])
def test_options_that_cannot_go_together_are_refused_in_one_line(argv, words, capsys, home):
    assert one_line(capsys, argv) == f"pokeroulette: {words}\n"
    assert not (home / "data" / "casino.json").exists()  # nothing was done (no reset written)


def test_stats_reset_with_json_deletes_nothing(capsys, home, monkeypatch):
    from pokeroulette_tui.ui import stats_cli

    called = []
    monkeypatch.setattr(stats_cli, "_reset", lambda *a, **k: called.append(a) or 0)
    one_line(capsys, ["stats", "--reset", "--yes", "--json"])
    assert called == []


@pytest.mark.parametrize("argv", [
    ["casino", "--odds", "--pay-table", "tight"],
    ["casino", "--simulate", "200", "--seed", "3", "--pay-table", "generous"],
    ["casino", "--reset-bankroll", "Ana", "--reset-jackpot", "--pay-table", "tight"],
    ["casino", "--pay-tables"],
    ["rules", "--list", "--preset", "draw"],
    ["rules", "--json", "--rule", "ante=3"],
])
def test_options_that_go_together_still_work(argv, capsys):
    assert main(argv) == 0
    assert capsys.readouterr().err == ""


def test_the_casino_plays_with_its_defaults_when_no_option_is_given(monkeypatch):
    """``--pay-table`` and ``--deal-pause`` now default to None (given or not is known): the
    table played is still the default one at a 0.6 s pause."""
    import pokeroulette_tui.ui.casino as casino_ui

    seen = []
    monkeypatch.setattr(casino_ui, "run_casino",
                        lambda names, table, path, pause, seed=None: seen.append(
                            (names, table.name, pause, seed)) or 0)
    assert main(["casino", "Ana"]) == 0
    assert main(["casino", "Ana", "--deal-pause", "0", "--pay-table", "tight", "--seed", "4"]) == 0
    assert seen == [(["Ana"], "default", 0.6, None), (["Ana"], "tight", 0.0, 4)]


def test_host_stop_knows_every_host_option():
    """HOST_DEFAULTS lists every ``host`` option but those --stop takes, with the parser's
    defaults (a new option is then refused with --stop too, or listed as allowed here)."""
    parser = cli.build_parser()
    host = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["host"]
    defaults = {a.dest: a.default for a in host._actions
                if a.dest not in ("help", "casino", "pay_table", "unix", "port", "stop")}
    assert defaults == cli.HOST_DEFAULTS


# -- 2: --rule mistakes: the rule named once, one pattern ---------------------------------------

@pytest.mark.parametrize("lang, rule, words", [
    ("en", "ante=-5", "Ante (ante) must be between 0 and 1000000 (got -5)"),
    ("fi", "ante=-5", "Ante (ante): on oltava väliltä 0–1000000 (nyt -5)"),
    ("en", "betting=sometimes",
     "Betting (betting) must be one of none, final_only, each_round (got 'sometimes')"),
    ("en", "suit_order=SSHD", "Suit order (suit_order) must be drawn, or the four suits"),
    ("en", "hand_limit=-1", "Hand limit (hand_limit) must be 0 (no limit) to 1,000,000 (got -1)"),
    ("en", "token_name=", "Tokens are called (token_name): the name must be 1 to 20 characters"),
    ("en", "ante=lots", "Ante (ante) must be a whole number (got 'lots')"),
    ("en", "sit_out=maybe", "Sit out at zero (sit_out) must be yes or no (got 'maybe')"),
    ("en", "tokens=9", "Forfeit tokens (tokens) must be between 5 and 7 (got 9)"),
])
def test_a_rule_mistake_names_the_rule_once(lang, rule, words, capsys):
    err = one_line(capsys, ["--lang", lang, "rules", "--rule", rule])
    assert err.startswith(f"pokeroulette: {words}"), err
    name = rule.partition("=")[0]
    assert err.count(f"({name})") == 1  # the name --rule takes, once
    assert not err.startswith(f"pokeroulette: {name}:")  # not "ante: Ante …" as it was
    assert "--rule" not in err and "takes" not in err  # one pattern, not a second one


def test_a_rule_mistake_between_two_rules_names_the_one_to_blame(capsys):
    err = one_line(capsys, ["rules", "--rule", "betting=none", "--rule", "ante=0"])
    assert err.startswith("pokeroulette: Ante (ante): Chip scoring with no betting needs an ante")


# -- 2: --players: the true limit of each command, said alike -----------------------------------

@pytest.mark.parametrize("argv, words", [
    (["simulate", "--players", "2"],
     "--players must be between 3 and 52 for these rules (got 2); --rule min_players=2 allows 2"),
    (["simulate", "--players", "53"], "--players must be between 3 and 52 for these rules (got 53)"),
    (["simulate", "--preset", "draw", "--players", "8"],
     "--players must be between 2 and 7 for these rules (got 8)"),
    (["play", "--players", "2"],
     "--players must be between 3 and 10 for these rules (got 2); --rule min_players=2 allows 2"),
])
def test_players_out_of_range_says_the_commands_true_limit(argv, words, capsys):
    assert one_line(capsys, argv) == f"pokeroulette: {words}\n"


def test_simulate_really_deals_for_the_limits_it_names(capsys):
    assert main(["simulate", "--games", "1", "--players", "52", "--max-hands", "1"]) == 0
    assert main(["simulate", "--games", "1", "--players", "2", "--rule", "min_players=2",
                 "--max-hands", "1"]) == 0


# -- 5: empty and cut files; the damaged-casino notice ------------------------------------------

def test_an_empty_save_says_it_is_empty(tmp_path):
    from pokeroulette_tui.engine import journal, save

    for text in ("", "  \n"):
        with pytest.raises(save.SaveError) as caught:
            save.loads(text, source="autosave.json")
        assert str(caught.value) == "autosave.json is empty (not valid JSON: no game was saved in it)"
        with pytest.raises(save.SaveError) as caught:
            journal.loads(text, source="autosave.json")
        assert str(caught.value).startswith("autosave.json is empty")
    path = tmp_path / "autosave.json"
    path.write_text("")
    from pokeroulette_tui.table import Table

    with pytest.raises(save.SaveError, match="is empty") as caught:
        Table.resume(path)
    assert "corrupt or truncated" not in str(caught.value)


def test_a_journal_cut_inside_its_first_line_says_it_was_cut(tmp_path):
    from pokeroulette_tui.engine import journal
    from pokeroulette_tui.engine.save import SaveError
    from pokeroulette_tui.table import SeatConfig, Table
    from pokeroulette_tui.engine.rules import RuleSet

    path = tmp_path / "autosave.json"
    table = Table.create(RuleSet(), [SeatConfig("Ana"), SeatConfig("Bo", "simple"),
                                     SeatConfig("Cy", "simple")], seed=3, save_path=path)
    table.autosave()
    table.close()
    text = path.read_text()
    path.write_text(text[:len(text.split("\n")[0]) // 2])  # cut mid-line
    with pytest.raises(SaveError) as caught:
        Table.resume(path)
    said = str(caught.value)
    assert "cut short inside its first line" in said and "empty" not in said
    with pytest.raises(SaveError, match="cut short inside its first line"):
        journal.loads(text[:40], source="x")


def test_the_damaged_casino_notice_wraps_at_spaces_only(home, monkeypatch, capsys):
    from pokeroulette_tui.paths import data_home
    from pokeroulette_tui.ui import terminal

    data = data_home()
    data.mkdir(parents=True, exist_ok=True)
    (data / "casino.json").write_text("garbage")
    (data / "casino.json.damaged").write_text("older")
    monkeypatch.setattr(terminal, "terminal_width", lambda: 80)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    assert main(["casino", "--odds"]) == 0
    err = capsys.readouterr().err
    aside = str(data / "casino.json.damaged-2")
    lines = err.splitlines()
    assert len(lines) > 1 and all(len(line) <= 80 or line.startswith(aside) for line in lines), err
    assert any(line.startswith(aside) for line in lines)  # the path whole, at a line's start
    assert " ".join(lines) == (f"pokeroulette: The casino file is damaged: it was moved to {aside}; "
                               "bankrolls and the jackpot start afresh.")
