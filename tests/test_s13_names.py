"""A player cannot take a name that carries the table's own marks (a player named
"Ana (host)" would pass for the host), and a name already taken says what to do."""

from __future__ import annotations

import pytest
from net_helpers import Harness, make_host

from pokeroulette_tui.engine.i18n import set_language
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net.messages import heard

RULES = RuleSet(suit_order="SHDC")


@pytest.mark.parametrize("name", ["Ana (host)", "Bo (bot)", "Cy ← you", "Di)", "▶ Eve"])
def test_a_name_with_the_tables_marks_is_refused(name):
    h = Harness(make_host(RULES))
    h.join("Ana")
    impostor = h.join(name)
    assert impostor.closed and impostor.seat is None
    assert impostor.errors() == [
        "a name cannot have ( ) ← ▶ in it: the table marks names with them"]
    assert [p.name for p in h.host.players] == ["Ana"]


def test_a_taken_name_says_to_join_under_another():
    h = Harness(make_host(RULES))
    h.join("Bo")
    again = h.join("bo")
    assert again.closed
    assert "join under another name" in again.errors()[0]
    assert "resume token" not in again.errors()[0]


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_the_refusals_are_said_in_the_players_language(lang):
    set_language(lang)
    for sentence in ("a name cannot have ( ) ← ▶ in it: the table marks names with them",
                     "the name Bo is taken: join under another name (a seat of your own is "
                     "taken back by joining from where you first joined)"):
        assert heard(sentence) != sentence


def test_a_host_whose_name_has_the_tables_marks_is_told_before_anything_is_served(
        tmp_path, monkeypatch, capsys):
    from pokeroulette_tui.cli import main

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    code = main(["host", "--name", "Ana (host)", "--no-tls", "--port", "0",
                 "--bind", "127.0.0.1"])
    err = capsys.readouterr().err
    assert code == 2 and "a name cannot have ( ) ← ▶ in it" in err, err
    assert not list(tmp_path.rglob("table-*.json"))  # nothing was served, nothing saved
