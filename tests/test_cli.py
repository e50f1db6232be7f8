"""The command line: rules, simulate, and clear one-line errors for mistakes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pokeroulette_tui.cli import main


def test_rules_classic_prints_plain_words(capsys):
    assert main(["rules", "--preset", "classic"]) == 0
    out = capsys.readouterr().out
    assert "Poker Roulette" in out
    assert "Suit ranking: drawn" in out
    assert "match card" in out


def test_rules_list_shows_every_option(capsys):
    from pokeroulette_tui.engine.rules import RuleSet
    from dataclasses import fields

    assert main(["rules", "--list"]) == 0
    out = capsys.readouterr().out
    for f in fields(RuleSet):
        assert f.name in out


def test_rules_json_round_trips(capsys):
    from pokeroulette_tui.engine.rules import PRESETS, RuleSet

    assert main(["rules", "--preset", "swedish", "--json"]) == 0
    assert RuleSet.from_dict(json.loads(capsys.readouterr().out)) == PRESETS["swedish"]


def test_rule_override_applies(capsys):
    assert main(["rules", "--rule", "suit_order=SHDC", "--rule", "ante=3"]) == 0
    out = capsys.readouterr().out
    assert "♠ > ♥ > ♦ > ♣" in out and "ante 3" in out


@pytest.mark.parametrize("argv, fragment", [
    (["rules", "--preset", "texas"], "unknown preset 'texas'"),
    (["rules", "--rule", "ante"], "name=value"),
    (["rules", "--rule", "colour=red"], "unknown rule option 'colour'"),
    (["rules", "--rule", "ante=lots"], "Ante (ante) must be a whole number"),
    (["rules", "--rule", "tokens=12"], "Forfeit tokens (tokens) must be between 5 and 7"),
    (["rules", "--rule", "claim_match_card=maybe"], "(claim_match_card) must be yes or no"),
    (["rules", "--rule", "suit_order=SSHD"], "Suit order (suit_order) must be drawn"),
    (["simulate", "--players", "1"], "--players must be between"),
    (["simulate", "--games", "0"], "--games must be between"),
    (["simulate", "--max-hands", "-1"], "--max-hands must be between 1"),
    (["stats", "--export", ""], "--export needs a file name"),
    (["stats", "--export-text", " "], "--export-text needs a file name"),
    (["simulate", "--bots", "godlike"], "unknown bot level 'godlike'"),
    (["simulate", "--preset", "draw", "--players", "9"], "--players must be between"),
])
def test_mistakes_give_one_clear_line_and_exit_2(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("preset", ["classic", "swedish", "pagat", "draw"])
def test_simulate_last_line_is_json_summary(preset, capsys):
    assert main(["simulate", "--games", "3", "--players", "4", "--preset", preset, "--seed", "7"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    summary = json.loads(last)
    assert summary["games"] == 3
    assert summary["hands"] >= 3
    assert summary["violations"] == 0
    assert summary["hands_per_s"] > 0


def test_simulate_is_deterministic_for_a_seed(capsys):
    main(["simulate", "--games", "2", "--players", "5", "--seed", "11"])
    a = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    main(["simulate", "--games", "2", "--players", "5", "--seed", "11"])
    b = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (a["hands"], a["leaders"]) == (b["hands"], b["leaders"])


def test_simulate_exits_nonzero_on_violations(monkeypatch, capsys):
    import pokeroulette_tui.simulate as sim

    def broken(state):
        return ["chips not conserved: injected"]

    monkeypatch.setattr(sim, "check_invariants", broken)
    assert main(["simulate", "--games", "1", "--players", "3"]) == 1
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["violations"] >= 1


def test_console_entry_point_runs_as_module():
    out = subprocess.run([sys.executable, "-m", "pokeroulette_tui", "rules", "--preset", "draw"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert "five-card draw" in out.stdout


@pytest.mark.parametrize("argv, fragment", [
    (["play", "--players", "abc"], "--players: expects a whole number, not: 'abc'"),
    (["host", "--delay", "x"], "--delay: expects a number, not: 'x'"),
    (["play", "--bogus"], "unrecognized arguments: --bogus"),
    (["hots"], "invalid choice: 'hots'"),
])
def test_argument_mistakes_are_one_line_not_the_usage(argv, fragment, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert fragment in err and "--help)" in err and "usage:" not in err
    assert len(err.strip().splitlines()) == 1


def test_rules_doc_prints_the_whole_reference(capsys):
    assert main(["rules", "--doc"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("#") and "each_round" in out and "decision" in out.lower()
