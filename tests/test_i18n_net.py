"""The card table's network sentences in Finnish and Swedish (issue 12): what a host says about
turns (refusals, notices, byes) in its own language, what a client makes of it in its player's
language (:func:`~pokeroulette_tui.net.messages.heard`), and the client's own deck check.
(conftest puts English back after each test.)
"""

from __future__ import annotations

import pytest
from net_helpers import Harness, make_host

from pokeroulette_tui.engine.actions import ACTION_TYPES
from pokeroulette_tui.engine.cards import Card, parse_card
from pokeroulette_tui.engine.i18n import _, ngettext, set_language
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net.commit import DeckCommitter, DeckVerifier
from pokeroulette_tui.net.messages import HOST_PLURALS, HOST_SENTENCES, heard
from pokeroulette_tui.net.turns import TIMED_OUT

STALE = "stale action: the table has moved on since that view, nothing was done"


def started(n: int = 3, **kw) -> tuple[Harness, list]:
    h = Harness(make_host(RuleSet(suit_order="SHDC", betting="each_round"), **kw))
    peers = [h.join(f"P{i}") for i in range(n)]
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    assert h.host.started
    h.run()
    return h, peers


def a_betting_turn(h: Harness, peers):
    for __ in range(400):
        if h.host.table.state.phase == "betting" and h.host.table.waiting_for_human() is not None:
            seat = h.host.table.waiting_for_human()
            return next(p for p in peers if p.seat == seat)
        seat = h.host.table.waiting_for_human()
        if seat is None:
            h.run()
            continue
        p = next(q for q in peers if q.seat == seat)
        h.send(p, {"type": "act", "id": 10_000 + h.host.version, "version": h.host.version,
                   "action": {"type": "stock_to_active", "index": None}})
    raise AssertionError("no betting turn")


def test_a_finnish_hosts_stale_action_error_is_shown_in_swedish():
    set_language("fi")  # the host speaks Finnish
    h, peers = started()
    mover = a_betting_turn(h, peers)
    h.send(mover, {"type": "act", "id": 50, "version": h.host.version,
                   "action": {"type": "check"}})
    h.send(mover, {"type": "act", "id": 51, "version": h.host.version - 1,
                   "action": {"type": "check"}})
    said = mover.errors()[-1]
    assert said == ("vanhentunut siirto: pöytä on edennyt tuon näkymän jälkeen, "
                    "mitään ei tehty")
    set_language("sv")  # the player reads Swedish
    assert heard(said) == "inaktuell handling: bordet har gått vidare sedan den vyn, inget gjordes"
    set_language("en")
    assert heard(said) == STALE


def test_the_turn_timer_speaks_the_hosts_language_and_the_client_its_own():
    set_language("sv")
    h, peers = started(turn_timeout=30)
    slow = a_betting_turn(h, peers)
    h.poll(30.1)
    other = next(p for p in peers if p is not slow)
    notes = [m["text"] for m in other.of("notice")]
    timed = [n for n in notes if n.startswith("Tiden tog slut för")]
    assert timed and timed[-1].endswith("(1 av 3 innan hen markeras som borta)"), notes
    assert "_" not in timed[-1]  # words, not an identifier
    set_language("fi")
    assert heard(timed[-1]).startswith("Aika loppui pelaajalta P")
    assert heard(timed[-1]).endswith(" (1/3 ennen poissaoloksi merkitsemistä)")


def test_every_action_the_timer_may_play_has_a_whole_sentence_a_client_knows():
    played_by_people = set(ACTION_TYPES) - {"start_hand", "advance", "leave"}
    assert set(TIMED_OUT) == played_by_people
    assert set(TIMED_OUT.values()) <= set(HOST_SENTENCES)
    for kind, words in TIMED_OUT.items():
        assert words == f"Time ran out for {{name}}: {kind.replace('_', ' ')} " \
                        f"({{n}} of {{limit}} before being marked away)"  # English as it was


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Cy ylitti vuoroajan 3 kertaa ja on poissa: pöytä sököttää tai luovuttaa hänen "
            "puolestaan, kunnes hän palaa")),
    ("sv", ("Cy har dragit över tiden 3 gånger och är borta: bordet passar eller lägger sig åt "
            "hen tills hen är tillbaka")),
])
def test_the_away_notice_follows_its_number_in_every_language(lang, words):
    english = ("Cy timed out 3 times and is away: the table checks or folds for them until "
               "they are back")
    set_language(lang)
    assert heard(english) == words
    set_language("en")
    assert heard(words) == english
    assert heard(words.replace("3", "1").replace("kertaa", "kerran").replace("gånger", "gång")) \
        == english.replace("3 times", "1 time")


def test_a_game_over_notice_is_said_again_with_its_reason():
    set_language("sv")
    assert heard("Peli päättyi: Bo voittaa pelin") == "Spelet är slut: Bo vinner spelet"
    assert heard("Game over: no players are left") == "Spelet är slut: inga spelare är kvar"
    assert heard("Game over: something the engine said") == \
        "Spelet är slut: something the engine said"


def _fill(words: str) -> str:
    numbers = {"n": 3, "seconds": 4, "amount": 25, "left": 5, "limit": 6, "need": 7,
               "number": 8, "stake": 9, "min_bet": 10, "max_bet": 11, "room": 12,
               "version": 2, "theirs": 1, "high": 13, "low": 14, "seated": 15, "least": 16}

    class Values(dict):
        def __missing__(self, key):
            return {"name": "Zed", "names": "Zed, Yu", "kind": "qwz", "hand": "pair_6",
                    "offered": "pair_6, flush", "reason": "qwz", "marks": "( ) ← ▶"}[key]

    return words.format_map(Values(numbers))


@pytest.mark.parametrize("host", ["en", "fi", "sv"])
@pytest.mark.parametrize("player", ["en", "fi", "sv"])
def test_every_host_sentence_comes_back_whole_in_the_players_language(host, player):
    """No sentence is taken for another (a general one such as "{name} left" must not catch
    "no players are left"), in any pair of languages."""
    for template in HOST_SENTENCES:
        set_language(host)
        sent = _fill(_(template))
        set_language(player)
        assert heard(sent) == _fill(_(template)), (host, player, template, sent)
    for singular, plural in HOST_PLURALS:
        set_language(host)
        sent = _fill(ngettext(singular, plural, 3))
        set_language(player)
        assert heard(sent) == _fill(ngettext(singular, plural, 3))


def one_hand():
    """A verifier that has the commitment to a three-card shoe (hand 4) and the opening of its
    bottom card."""
    committer = DeckCommitter()
    shoe = [Card(c.rank, c.suit) for c in map(parse_card, ("As", "Kh", "2c"))]
    committer.hand_no, committer._shoe = 4, shoe
    verifier = DeckVerifier()
    assert verifier.on_commit(committer._add(shoe)) == []
    opened = committer.open(0, [2])
    assert verifier.on_reveals(opened) == []
    return verifier, shoe, opened


def test_the_deck_check_in_finnish():
    set_language("fi")
    assert DeckVerifier().summary([]) == "pakan tarkistus: tälle jaolle ei ole sitoumusta"
    verifier, shoe, opened = one_hand()
    assert verifier.summary([shoe[2]]) == ("pakan tarkistus ✓ jako 4: kaikki sinulle näytetyt "
                                           "kortit (1) vastaavat jakajan sitoumusta")
    assert verifier.summary([shoe[2], shoe[0]]) == \
        "pakan tarkistus: ilman avausta näytettyjä kortteja 1 (As)"
    problems = verifier.on_reveals([[1, opened[0][1], "Kh"]])  # another card's nonce
    assert problems == ["kortti Kh EI vastaa jakajan sitoumusta"]
    assert verifier.summary([shoe[2]]) == ("pakan tarkistus ✗ EPÄONNISTUI (jako 4): kortti Kh "
                                           "EI vastaa jakajan sitoumusta")


def test_the_deck_check_stays_english_in_english():
    assert DeckVerifier().on_commit({"hand_no": 1, "algorithm": "md5", "start": 0,
                                     "commitments": ["0" * 64]}) == \
        ["the dealer committed with 'md5', not 'sha256(nonce || card)'"]
    verifier, shoe, opened = one_hand()
    assert verifier.summary([shoe[2]]) == ("deck check ✓ hand 4: all 1 cards you were shown "
                                           "match the dealer's commitment")
    assert verifier.summary([shoe[2], shoe[0], shoe[1]]) == \
        "deck check: 2 card(s) shown without an opening (As Kh)"
    verifier.on_reveals([[1, opened[0][1], "Kh"]])
    assert verifier.summary([]) == ("deck check FAILED (hand 4): card Kh does NOT match the "
                                    "dealer's commitment")
