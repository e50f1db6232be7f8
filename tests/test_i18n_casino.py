"""The casino in Finnish and Swedish (issue 12): the board at 80×24 (SVG snapshots), the
engine's refusals, the odds report, a network refusal made by the host and what a client
makes of a host's sentence. (conftest puts English back after each test.)
"""

from __future__ import annotations

import json

import pytest
from test_casino_snapshots import app_for, pressing  # the English snapshots' table and keys
from ui_pilot import step

from pokeroulette_tui.engine.casino import game as G
from pokeroulette_tui.engine.casino.game import CasinoError
from pokeroulette_tui.engine.casino.odds import report
from pokeroulette_tui.engine.casino.paytable import DEFAULT
from pokeroulette_tui.engine.i18n import set_language
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.casino_host import CasinoConfig, CasinoHost
from pokeroulette_tui.net.messages import HOST_SENTENCES, heard
from pokeroulette_tui.ui.casino import CasinoScreen

BETS = ("space", "s", "k", "f", *["left"] * 12, "4", "j", "p", *["down"] * 4, "right",
        "space", "down", "space")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.delenv("NO_COLOR", raising=False)




@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_the_casino_board_at_80x24(snap_compare, tmp_path, lang):
    set_language(lang)
    assert snap_compare(app_for(tmp_path), terminal_size=(80, 24), run_before=pressing(*BETS))


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_the_casino_after_the_deal_at_80x24(snap_compare, tmp_path, lang):
    set_language(lang)
    assert snap_compare(app_for(tmp_path), terminal_size=(80, 24),
                        run_before=pressing(*BETS, "d"))


def casino():
    return G.new_casino(DEFAULT, ["Ada"], [10])


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "not enough chips: 10 left, the bet is 25"),
    ("fi", "pelimerkit eivät riitä: jäljellä 10, panos on 25"),
    ("sv", "inte tillräckligt med marker: 10 kvar, insatsen är 25"),
])
def test_a_casino_error_in_each_language(lang, words):
    set_language(lang)
    with pytest.raises(CasinoError) as caught:
        G.place(casino(), 0, "card", "As", 25)
    assert str(caught.value) == words


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", "kasinopöydässä ei ole katsojapaikkoja: liity pelaajana"),
    ("sv", "ett kasinobord har inga åskådarplatser: anslut som spelare"),
])
def test_a_bad_target_and_a_network_refusal_in_finnish_and_swedish(lang, words):
    set_language(lang)
    with pytest.raises(CasinoError, match="2♠" if lang else ""):
        G.place(casino(), 0, "split", "2s 4s", 1)  # not adjoining: the sentence names them
    host = CasinoHost(CasinoConfig(seed=1))
    host.connect(1, 0.0, ("10.0.0.1", 5000))
    hello = {"type": "hello", "version": P.VERSION, "game": "casino", "name": "Bo",
             "spectate": True}
    out = host.receive(1, P.encode(hello), 0.0)
    refusal = json.loads(P.encode(out[0].msg))
    assert refusal["type"] == "error" and refusal["fatal"]
    assert refusal["message"] == words


def test_a_client_says_a_hosts_sentence_in_its_own_language():
    """The host makes its sentences in its language; the client says the known ones in its
    player's language (English, Finnish or Swedish at the host alike), the rest as they came."""
    set_language("sv")
    assert heard("Bo joined the table") == "Bo anslöt till bordet"
    assert heard("Bo liittyi pöytään") == "Bo anslöt till bordet"
    assert heard("Wrong password") == "Fel lösenord"
    assert heard("Not enough chips: 5 left, the bet is 25") == \
        "Inte tillräckligt med marker: 5 kvar, insatsen är 25"
    assert heard("a sentence nobody knows") == "a sentence nobody knows"
    set_language("fi")
    assert heard("A fresh bankroll of 1,000 play chips.") == "Uusi kassa: 1,000 leikkimerkkiä."
    set_language("en")
    assert heard("Fel lösenord") == "Wrong password"


def test_every_host_sentence_is_translated():
    from pokeroulette_tui.engine.i18n import _

    for lang in ("fi", "sv"):
        set_language(lang)
        missing = [s for s in HOST_SENTENCES if _(s) == s]
        assert not missing, (lang, missing)


def test_the_odds_report_in_finnish_keeps_its_columns():
    set_language("fi")
    text = report(DEFAULT)
    head = text.splitlines()[3]
    assert head.split() == ["panos", "voittaa", "maksaa", "palautus", "talon", "etu"]
    assert "kutospari tai parempi" in text and "1/54,0" in text
    assert max(len(line) for line in text.splitlines()) <= 86  # as wide as in English


async def test_switching_language_redraws_the_casino_screen(tmp_path):
    app = app_for(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await step(pilot)
        screen = app.screen
        assert isinstance(screen, CasinoScreen)
        status = str(screen.query_one("#casino-status").render())
        assert "PLAY MONEY ONLY" in status
        set_language("sv")
        await screen.retranslate()
        await step(pilot)
        status = str(screen.query_one("#casino-status").render())
        assert "BARA LEKPENGAR" in status and "kassa 1\u00a0000" in status  # 1 000: Swedish


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_casino_figures_outside_a_sentence_are_written_the_languages_way(lang):
    """A round's nets (in the history, as under the cards) and the break-even jackpot write
    1 000 (a no-break space), never the English 1,000."""
    from pokeroulette_tui.engine.cards import parse_cards
    from pokeroulette_tui.ui.screens.casino_dialogs import odds_notes, round_lines

    set_language(lang)
    r = G.Round(number=3, cards=tuple(parse_cards("As Kd 7c 7h 2s")), hand="pair",
                nets=(-1000, 12500), names=("Ana", "Bo"))
    for narrow in (False, True):
        text = round_lines(r, narrow=narrow).plain
        assert "Ana -1\u00a0000" in text and "Bo +12\u00a0500" in text, text
        assert "1,000" not in text and "12,500" not in text
    notes = odds_notes(DEFAULT, 10_000).plain
    assert "373\u00a0675" in notes and "373,675" not in notes, notes
