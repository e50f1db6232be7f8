"""The wire protocol on plain values: framing, validation, text cleaning, secrets, commitments."""

from __future__ import annotations

import json
import random
import sys

import pytest

from pokeroulette_tui.engine.actions import StartHand
from pokeroulette_tui.engine.game import apply, new_game
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.commit import (DeckCommitter, DeckVerifier, TrackingRandom,
                                         commitment, install_tracking, shown_cards)


# -- framing -------------------------------------------------------------------------

def test_encode_is_one_line_even_with_newlines_and_unicode_in_strings():
    line = P.encode({"type": "chat", "text": "a\nb\u2028c ♠"})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert P.decode(line) == {"type": "chat", "text": "a\nb\u2028c ♠"}


@pytest.mark.parametrize("raw, why", [
    (b"\x00\xff\xfe garbage", "UTF-8"),
    (b"{not json}", "not valid JSON"),
    (b"[1, 2, 3]", "JSON object"),
    (b'{"type": 5}', '"type"'),
    (b'{"kind": "hello"}', '"type"'),
    (b'{"type": "act", "amount": NaN}', "not valid JSON"),
    (b'{"type": "act", "amount": Infinity}', "not valid JSON"),
    (b"[" * 50_000, "nested too deeply"),
    (b'{"type": "act", "amount": ' + b"9" * 5000 + b"}", "not valid JSON"),
    (b"\"just a string\"", "JSON object"),
])
def test_decode_refuses_garbage_with_a_reason(raw, why):
    with pytest.raises(P.ProtocolError) as err:
        P.decode(raw)
    assert why in err.value.message


def test_decode_refuses_oversized_lines():
    with pytest.raises(P.ProtocolError) as err:
        P.decode(b'{"type":"chat","text":"' + b"x" * (P.MAX_LINE + 10) + b'"}')
    assert err.value.fatal


# -- cleaning --------------------------------------------------------------------------

@pytest.mark.parametrize("raw, clean", [
    ("Ana", "Ana"),
    ("  spaced   out  ", "spaced out"),
    ("\x1b[2J\x1b[31mred", "[2J[31mred"),              # ESC removed: no escape sequence left
    ("\x9b31m", "31m"),                               # C1 CSI removed
    ("evil\u202eeman", "evileman"),                   # right-to-left override
    ("a\u2066b\u2067c\u2068d\u2069e", "abcde"),        # bidi isolates
    ("zero\u200bwidth\u200djoin\ufeff", "zerowidthjoin"),
    ("line\u2028para\u2029end", "line para end"),
    ("tab\tnew\nline\rret", "tab new line ret"),
    ("bell\x07del\x7f", "belldel"),
    ("[bold red]loud[/]", "[bold red]loud[/]"),        # kept literally; screens never parse it
    ("e\u0301\u0301\u0301\u0301\u0301", "\u00e9\u0301\u0301"),  # NFC, then two marks at most
    ("\u0301lead", "lead"),
    ("private\ue000use", "privateuse"),
])
def test_clean_text_removes_control_and_format_characters(raw, clean):
    assert P.clean_text(raw, 100) == clean


def test_clean_text_caps_length_and_name_rules():
    assert len(P.clean_text("x" * 500, 24)) == 24
    assert P.clean_name("  Bo  ") == "Bo"
    for bad in ("", "   ", "\x1b\u202e", None, 42, "x" * 10_000):
        with pytest.raises(P.ProtocolError):
            P.clean_name(bad)


def test_every_control_and_format_character_is_removed():
    import unicodedata
    dropped = [chr(c) for c in range(0x110000)
               if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zl", "Zp")]
    text = "a" + "".join(dropped) + "b"
    out = P.clean_text(text, 10_000)
    assert out.replace(" ", "") == "ab"


def test_same_name_ignores_case_and_width():
    assert P.same_name("Ana", "aNA")
    assert P.same_name("Ａｎａ", "ana")  # fullwidth letters
    assert not P.same_name("Ana", "Anna")


# -- secrets ---------------------------------------------------------------------------

def test_secrets_compare_by_digest():
    assert P.secret_matches("hunter2", "hunter2")
    assert not P.secret_matches("hunter3", "hunter2")
    assert not P.secret_matches("", "hunter2")
    assert not P.secret_matches(None, "")
    assert not P.secret_matches(["hunter2"], "hunter2")
    d = P.token_digest("abc")
    assert P.token_matches("abc", d) and not P.token_matches("abd", d)
    assert not P.token_matches("", d) and not P.token_matches(None, d)
    assert not P.token_matches("a" * 1000, d)


def test_password_check_uses_hmac_compare_digest(monkeypatch):
    calls = []
    real = P.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(P.hmac, "compare_digest", spy)
    assert P.secret_matches("pw", "pw")
    assert calls and all(len(a) == len(b) == 32 for a, b in calls)


# -- hello -----------------------------------------------------------------------------

def test_hello_checks():
    ok = P.check_hello({"type": "hello", "version": 2, "name": " Ana\x1b "})
    assert ok["name"] == "Ana" and ok["spectate"] is False
    bad = [
        {"type": "chat", "version": 2, "name": "Ana"},
        {"type": "hello", "version": 1, "name": "Ana"},
        {"type": "hello", "version": True, "name": "Ana"},
        {"type": "hello", "version": "1", "name": "Ana"},
        {"type": "hello", "version": 2},
        {"type": "hello", "version": 2, "name": "Ana", "spectate": "yes"},
        {"type": "hello", "version": 2, "name": "Ana", "password": "x" * 1000},
        {"type": "hello", "version": 2, "name": "Ana", "token": 5},
    ]
    for msg in bad:
        with pytest.raises(P.ProtocolError) as err:
            P.check_hello(msg)
        assert err.value.fatal


def test_absurd_amounts_are_refused():
    for key in ("amount", "position", "index", "seat"):
        with pytest.raises(P.ProtocolError):
            P.check_amounts({key: 10**30})
        with pytest.raises(P.ProtocolError):
            P.check_amounts({key: -10**30})
    P.check_amounts({"amount": 500})


def test_net_modules_import_no_textual_or_rich():
    import subprocess
    code = ("import sys; import pokeroulette_tui.net.protocol, pokeroulette_tui.net.host, "
            "pokeroulette_tui.net.commit, pokeroulette_tui.net.server, pokeroulette_tui.net.client;"
            "bad=[m for m in sys.modules if m.split('.')[0] in ('textual','rich')]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- commitments ------------------------------------------------------------------------

def test_commitment_is_sha256_of_nonce_then_card_text():
    import hashlib
    nonce = bytes(range(32))
    assert commitment(nonce, "Td") == hashlib.sha256(nonce + b"Td").hexdigest()


def _dealt(players: int = 7, seed: int = 3):
    g = new_game(RuleSet(suit_order="SHDC", betting="none"), [f"P{i}" for i in range(players)],
                 seed=seed)
    install_tracking(g)
    apply(g, StartHand())
    rng = random.Random(9)
    c = DeckCommitter(lambda n: rng.randbytes(n))
    msgs = c.refresh(g)
    return g, c, msgs


def test_tracking_random_draws_the_same_shuffle_as_plain_random():
    a = new_game(RuleSet(suit_order="SHDC"), ["A", "B", "C"], seed=11)
    b = new_game(RuleSet(suit_order="SHDC"), ["A", "B", "C"], seed=11)
    install_tracking(b)
    assert isinstance(b.rng, TrackingRandom)
    apply(a, StartHand())
    apply(b, StartHand())
    assert a.shoe_order == b.shoe_order and a.deck == b.deck


def test_every_physical_card_is_a_distinct_object_even_with_two_decks():
    g, c, msgs = _dealt(players=7)
    assert g.decks == 2 and len(c.cards) == 108
    assert len({id(x) for x in c.cards}) == 108
    assert msgs[0]["start"] == 0 and len(msgs[0]["commitments"]) == 108


def test_openings_verify_and_never_cover_hidden_cards():
    g, c, msgs = _dealt(players=7)
    for seat in range(7):
        v = view_for(g, seat)
        opened = c.reveal(seat, v.all_cards())
        ver = DeckVerifier()
        ver.on_commit(json.loads(json.dumps(msgs[0])))
        assert ver.on_reveals(json.loads(json.dumps(opened))) == []
        assert ver.unverified(shown_cards(v)) == []
        # exactly the positions of the cards this seat sees: its own stock card and the match
        own = g.seats[seat].stock[0]
        positions = {i for i, _, _ in opened}
        assert c.pos[id(own)] in positions
        for other in range(7):
            if other != seat:
                assert c.pos[id(g.seats[other].stock[0])] not in positions
        assert c.reveal(seat, v.all_cards()) == []  # each opening is sent once


def test_openings_follow_the_physical_joker_not_any_joker():
    """Two jokers are equal values: opening the wrong one would tell where the other went."""
    for seed in range(40):
        g, c, _ = _dealt(players=4, seed=seed)
        jokers = [i for i, card in enumerate(c.cards) if card.is_joker]
        holder = [s for s in range(4) if g.seats[s].stock[0].is_joker]
        if holder and g.match is not None and g.match.is_joker:
            break
    else:
        holder = []
    for s in range(4):
        card = g.seats[s].stock[0]
        opened = c.reveal(s, [card])
        assert opened[0][0] == c.pos[id(card)]
        assert c.cards[opened[0][0]] is card
    assert len(jokers) == 2


def test_tampering_is_detected():
    g, c, msgs = _dealt(players=3)
    v = view_for(g, 0)
    opened = c.reveal(0, v.all_cards())
    ver = DeckVerifier()
    ver.on_commit(msgs[0])
    i, nonce, text = opened[0]
    other = "As" if text != "As" else "Kd"
    assert ver.on_reveals([[i, nonce, other]])            # a different card at that place
    assert ver.on_reveals([[i, "00" * 32, text]])          # a wrong nonce
    assert ver.on_reveals([[10_000, nonce, text]])         # outside the deck
    assert ver.on_reveals([["x", nonce, text]])            # malformed
    assert "FAILED" in ver.summary(v.all_cards())


def test_committer_round_trips_through_a_save():
    g, c, msgs = _dealt(players=6)
    data = json.loads(json.dumps(c.to_dict(g)))
    from pokeroulette_tui.engine.state import GameState
    g2 = GameState.from_dict(json.loads(json.dumps(g.to_dict())))
    c2 = DeckCommitter()
    c2.restore(g2, data)
    assert c2.commitments == c.commitments
    for s in range(6):
        a = c.reveal(s, view_for(g, s).all_cards())
        b = c2.reveal(s, view_for(g2, s).all_cards())
        assert a == b
    assert isinstance(g2.rng, TrackingRandom)
