"""Names at a networked table: refused (not cut) when too long, and never a look-alike of a
name already there (issue 9)."""

from __future__ import annotations

import pytest
from net_helpers import Harness, make_host

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import protocol as P

RULES = RuleSet(suit_order="SHDC")


def test_a_long_name_is_refused_not_cut():
    h = Harness(make_host(RULES))
    long = h.join("A" * 25)
    assert long.closed and "too long: a name is at most 24 letters" in long.errors()[0]
    ok = h.join("A" * 24)
    assert not ok.closed


@pytest.mark.parametrize("fake", ["Аna",          # Cyrillic А
                                  "ANA", "Ána", "Ana\u0301",  # case, accents
                                  "Αna",          # Greek Alpha
                                  "A n a"])
def test_look_alikes_of_a_seated_name_are_refused(fake):
    h = Harness(make_host(RULES))
    h.join("Ana")
    peer = h.join(fake)
    assert peer.closed and "taken" in peer.errors()[0]
    watcher = h.join(fake, spectate=True)
    assert watcher.closed and "Ana is seated at this table" in watcher.errors()[0]


def test_digits_for_letters_and_rn_for_m_are_look_alikes_too():
    assert P.same_name("Bo", "B0") and P.same_name("Tom", "Torn") and P.same_name("Al", "A1")
    assert not P.same_name("Ana", "Anna") and not P.same_name("Bo", "Bob")


@pytest.mark.parametrize("version", [2.0, True, "2", None])
def test_the_version_must_be_the_whole_number_two(version):
    with pytest.raises(P.ProtocolError, match="speaks protocol version 2"):
        P.check_hello({"type": "hello", "version": version, "name": "Ana"})


def test_an_account_may_watch_its_own_seat_from_another_terminal():
    from net_helpers import Harness
    from pokeroulette_tui.net.identity import Account

    h = Harness(make_host(RULES))
    alice = Account(1001, "alice")
    h.join("x", peer=alice)
    watcher = h.join("x", peer=alice, spectate=True)
    assert not watcher.closed and watcher.of("welcome")
    other = h.join("alice", peer=("10.0.0.5", 1), spectate=True)
    assert other.closed and "alice is seated" in other.errors()[0]
