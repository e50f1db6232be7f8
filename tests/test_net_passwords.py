"""The table's password: a salted, slow hash in the save; fast checks in memory; older saves'
unsalted digests still work (issue 9)."""

from __future__ import annotations

import hashlib

from net_helpers import Harness, make_host

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import protocol as P


def test_the_saved_digest_is_salted_and_slow():
    a, b = P.password_digest("hunter2"), P.password_digest("hunter2")
    assert a != b and a.startswith(f"scrypt${P.SCRYPT_N}$")  # a fresh salt each time
    assert P.password_matches("hunter2", a) and P.password_matches("hunter2", b)
    assert not P.password_matches("hunter3", a) and not P.password_matches(None, a)
    assert "hunter2" not in a


def test_older_unsalted_digests_still_match():
    old = hashlib.sha256(b"pokeroulette-password:hunter2").hexdigest()
    assert P.password_matches("hunter2", old) and not P.password_matches("x", old)


def test_damaged_digests_never_match():
    for bad in ("scrypt$x$8$1$AAAA$AAAA", "scrypt$99999999999$8$1$AAAA$AAAA", "", "scrypt$"):
        assert not P.password_matches("hunter2", bad)


def test_the_host_checks_hellos_fast_and_keeps_only_the_hash():
    h = Harness(make_host(RuleSet(suit_order="SHDC"), password="hunter2"))
    assert h.join("Ana", password="hunter2").of("welcome")
    wrong = h.join("Bo", password="nope", peer=("10.0.0.9", 1))
    assert wrong.closed and "wrong password" in wrong.errors()[0]
    meta = h.host._net_meta()
    assert meta["password"].startswith("scrypt$") and "hunter2" not in str(meta)


def test_a_resumed_check_knows_only_the_hash_and_learns_the_password_once():
    check = P.PasswordCheck(P.password_digest("hunter2"))
    assert not check.matches("nope") and check._known is None
    assert check.matches("hunter2") and check._known is not None
    assert check.matches("hunter2") and not check.matches("hunter3")
