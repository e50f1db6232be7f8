"""The casino game (docs/RULES.md §6): the board's bets, pay tables, exact odds checked
against brute force and simulation, a round's bets and settlement, the jackpot, and the
file that keeps bankrolls and the jackpot between runs."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import textwrap
from fractions import Fraction

import pytest

from pokeroulette_tui.engine.cards import JOKER, SUITS, Card, parse_cards
from pokeroulette_tui.engine.casino import game as G
from pokeroulette_tui.engine.casino.board import (
    DECK,
    BetError,
    Kind,
    covers,
    describe,
    make_bet,
)
from pokeroulette_tui.engine.casino.odds import (
    JACKPOT_CHANCE,
    SETS,
    WILD_CHANCE,
    at_least,
    break_even_jackpot,
    brute_class_counts,
    class_counts,
    odds_table,
    progressive_odds,
    simulate_returns,
    standard_counts,
)
from pokeroulette_tui.engine.casino.paytable import (
    DEFAULT,
    LEVELS,
    PayTableError,
    find,
    load_file,
)
from pokeroulette_tui.engine.casino.store import START_BANKROLL, CasinoStore

# -- the board -------------------------------------------------------------------------------

@pytest.mark.parametrize("kind,target,n", [
    ("card", "As", 1), ("split", "Ks As", 2), ("split", "As Ah", 2),
    ("corner", "As Ks Ah Kh", 4), ("rank", "A", 4), ("ranks2", "2", 8), ("ranks4", "2345", 16),
    ("ranks6", "8", 24), ("suit", "H", 13), ("colour", "red", 26), ("parity", "odd", 24),
    ("parity", "even", 24), ("half", "low", 24), ("half", "high", 24), ("joker", "", 1),
])
def test_each_roulette_bet_covers_its_cards(kind, target, n):
    bet = make_bet(kind, target, 5)
    assert len(covers(bet)) == n


def test_the_ace_is_the_boards_zero_for_odd_even_and_the_halves():
    aces = {c for c in DECK if c.rank == 14}
    for kind, target in (("parity", "odd"), ("parity", "even"), ("half", "low"),
                         ("half", "high")):
        assert not aces & covers(make_bet(kind, target, 1))


@pytest.mark.parametrize("kind,target,message", [
    ("split", "As Qs", "do not adjoin"), ("split", "As Kh", "do not adjoin"),
    ("corner", "As Ks Ah Qh", "2×2 block"), ("card", "*", "joker is its own spot"),
    ("ranks4", "Q", "run off the board"), ("ranks2", "2 4", "neighbouring ranks"),
    ("suit", "X", "names a suit"), ("colour", "green", "'red' or 'black'"),
    ("nonsense", "", "no bet called"), ("card", "Zz", "Zz"),
])
def test_a_bad_bet_says_what_is_wrong(kind, target, message):
    with pytest.raises(BetError, match=message):
        make_bet(kind, target, 1)


def test_targets_are_written_one_way_and_described_in_words():
    assert make_bet("split", "Ah As", 1).target == make_bet("split", "As Ah", 1).target
    assert make_bet("ranks4", "5", 1).target == "5678"
    assert describe(make_bet("ranks6", "8", 1)) == "8–K"
    assert describe(make_bet("card", "Th", 1)) == "T♥"
    assert describe(make_bet("rank", "6", 1)) == "the sixes"


# -- pay tables ------------------------------------------------------------------------------

def test_the_default_table_is_rules_section_6():
    t = DEFAULT
    assert (t.roulette[Kind.CARD], t.roulette[Kind.SPLIT], t.roulette[Kind.CORNER]) == (51, 25, 12)
    assert t.poker["pair_6"] == 1 and t.poker["four_of_a_kind"] == 280 and t.wild == 1250
    assert t.progressive["five_of_a_kind"] == 1000


def test_a_users_table_from_a_file_keeps_the_defaults_it_does_not_name(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('wild = 1000\n[roulette]\ncard = 50\n[poker]\npair_6 = 1\nflush = 80\n')
    t = load_file(f)
    assert t.name == "mine" and t.wild == 1000 and t.roulette[Kind.CARD] == 50
    assert dict(t.poker) == {"pair_6": 1, "flush": 80}
    assert t.roulette[Kind.SPLIT] == 25
    assert find(str(f)) == t


@pytest.mark.parametrize("text,message", [
    ("wild = -3", "wild must be a whole payout"),
    ("[roulette]\nsplat = 3", "no such bet 'splat'"),
    ("[poker]\nthree_pair = 3", "no such hand 'three_pair'"),
    ("colour = 3", "unknown key 'colour'"),
    ("jackpot_share = 120", "0 to 100"),
    ("min_bet = 10\nmax_bet = 5", "max_bet must be at least min_bet"),
    ("wild = ", "not valid TOML"),
    ("[poker]\npair_6 = 1.5", "pair_6 must be a whole payout"),
])
def test_a_bad_table_file_is_one_clear_line(tmp_path, text, message):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(PayTableError, match=message) as exc:
        load_file(f)
    assert "\n" not in str(exc.value) or "TOML" in str(exc.value)


def test_an_unknown_table_name_lists_the_known_ones():
    with pytest.raises(PayTableError, match="default"):
        find("no-such-table")


# -- exact odds ------------------------------------------------------------------------------

def test_every_five_card_set_is_counted_once():
    counts = standard_counts()
    assert sum(counts.values()) == SETS == math.comb(54, 5) == 3_162_510
    # by hand: five of a kind is four of a rank and a joker (13 × 1 × 2), or three and both
    # jokers (13 × 4 × 1)
    assert counts["five_of_a_kind"] == 13 * 2 + 13 * 4
    # no joker: the 4 natural royal flushes; one joker: 4 suits × 5 missing cards × 2
    # jokers; two jokers: 4 suits × C(5, 3)
    assert counts["royal_flush"] == 4 + 4 * 5 * 2 + 4 * 10


@pytest.mark.parametrize("ranks,suits,jokers", [
    ((9, 10, 11, 12, 13, 14), SUITS, 2),   # straights to the ace, royals, flushes
    ((2, 3, 4, 5, 14), "SH", 2),            # the wheel, two suits
    ((5, 6, 7, 8, 9, 10, 11), "SHD", 1),    # one joker, three suits
])
def test_counting_rank_patterns_agrees_with_evaluating_every_set(ranks, suits, jokers):
    deck = [Card(r, s) for r in ranks for s in suits] + [JOKER] * jokers
    assert class_counts(ranks, suits, jokers) == brute_class_counts(deck)


def test_roulette_and_joker_bet_chances():
    rows = {b.kind: o for b, o in odds_table(DEFAULT)}
    assert rows[Kind.CARD].chance == Fraction(1, 54)
    assert rows[Kind.COLOUR].chance == Fraction(26, 54)
    assert rows[Kind.PARITY].chance == Fraction(24, 54)
    assert rows[Kind.JOKER].chance == Fraction(2, 54)
    assert rows[Kind.CARD].edge == Fraction(2, 54)  # 52/54 back: 3.70%
    assert WILD_CHANCE == Fraction(1, 1431)
    assert JACKPOT_CHANCE == Fraction(2, 54 * 53) * Fraction(40, math.comb(52, 3))


def test_poker_bets_pay_less_than_they_take_and_more_or_better_is_less_likely():
    chances = [at_least(h) for h in LEVELS]
    assert chances[0] == 1 and all(a > b for a, b in zip(chances, chances[1:]))
    for bet, odds in odds_table(DEFAULT):
        if bet.kind is not Kind.PROGRESSIVE:
            assert 0 < odds.edge < Fraction(1, 5), bet


def test_the_progressive_return_grows_with_the_jackpot_and_breaks_even():
    be = break_even_jackpot(DEFAULT)
    assert progressive_odds(DEFAULT, 0).returns < progressive_odds(DEFAULT, 10_000).returns < 1
    assert progressive_odds(DEFAULT, math.ceil(be)).returns >= 1 > \
        progressive_odds(DEFAULT, math.ceil(be) - 1).returns


def test_simulated_returns_agree_with_the_exact_ones():
    results = simulate_returns(DEFAULT, 6000, seed=7)
    assert len(results) == len(odds_table(DEFAULT))
    off = [(s.odds.bet, s.mean, float(s.odds.returns)) for s in results if not s.agrees]
    assert not off


# -- a round ---------------------------------------------------------------------------------

def casino(bankroll=100, players=1, **kw):
    return G.new_casino(DEFAULT, [f"P{i}" for i in range(players)], [bankroll] * players, **kw)


def rig(c, cards):
    """Close the bets and deal exactly ``cards`` (first to fifth)."""
    G.close(c)
    c.deck = list(reversed(parse_cards(cards)))
    G.deal_all(c)


def test_chips_leave_the_bankroll_when_placed_and_come_back_with_undo_and_clear():
    c = casino()
    G.place(c, 0, "card", "As", 10)
    G.place(c, 0, "card", "As", 5)  # the same spot: one bet of 15
    G.place(c, 0, "colour", "red", 20)
    p = c.players[0]
    assert p.bankroll == 65 and [b.amount for b in p.bets] == [15, 20]
    assert G.undo(c, 0) is None and p.bankroll == 85
    assert G.undo(c, 0).amount == 10 and p.bankroll == 90
    assert G.clear(c, 0) == 10 and p.bankroll == 100 and not p.bets


@pytest.mark.parametrize("kind,target,amount,message", [
    ("card", "As", 101, "not enough chips"), ("card", "As", 501, "at most 500"),
    ("poker", "pair", 1, "no poker bet on 'pair'"), ("split", "As 2s", 1, "do not adjoin"),
])
def test_an_illegal_bet_changes_nothing_and_says_why(kind, target, amount, message):
    c = casino(bankroll=100 if "chips" in message else 10_000)
    before = c.players[0].bankroll
    with pytest.raises(G.CasinoError, match=message):
        G.place(c, 0, kind, target, amount)
    assert c.players[0].bankroll == before and not c.players[0].bets


def test_bets_close_before_the_deal_and_the_progressive_is_one_stake():
    c = casino()
    with pytest.raises(G.CasinoError, match="place a bet first"):
        G.close(c)
    G.place(c, 0, "progressive", "", 50)
    assert c.players[0].bets[0].amount == DEFAULT.progressive_stake
    with pytest.raises(G.CasinoError, match="already placed"):
        G.place(c, 0, "progressive", "", 1)
    G.close(c)
    with pytest.raises(G.CasinoError, match="bets are closed"):
        G.place(c, 0, "card", "As", 1)


def test_roulette_bets_are_settled_on_the_fifth_card():
    c = casino(bankroll=1000)
    for kind, target in (("card", "Kh"), ("split", "Kh Qh"), ("colour", "black"),
                         ("half", "high"), ("rank", "K"), ("suit", "H")):
        G.place(c, 0, kind, target, 10)
    rig(c, "2c 5d 9s Jc Kh")
    paid = {r.bet.kind: r.paid for r in c.players[0].results}
    assert paid == {Kind.CARD: 520, Kind.SPLIT: 260, Kind.COLOUR: 0, Kind.HALF: 20,
                    Kind.RANK: 130, Kind.SUIT: 40}
    assert c.players[0].bankroll == 1000 - 60 + 970
    assert c.stage is G.Stage.SETTLED and c.history[-1].nets == (910,)


def test_a_joker_fifth_loses_every_roulette_bet_but_the_joker_spot():
    c = casino(bankroll=1000)
    for kind, target in (("colour", "red"), ("colour", "black"), ("parity", "odd"),
                         ("joker", "")):
        G.place(c, 0, kind, target, 10)
    rig(c, "2c 5d 9s Jc *")
    results = {(r.bet.kind, r.bet.target): r for r in c.players[0].results}
    assert results[(Kind.JOKER, "")].paid == 260
    assert all(r.paid == 0 and "joker" in r.why for k, r in results.items() if k[0] != Kind.JOKER)


def test_poker_bets_are_settled_on_all_five_cards_jokers_wild():
    c = casino(bankroll=1000)
    G.place(c, 0, "poker", "pair_6", 10)
    G.place(c, 0, "poker", "three_of_a_kind", 10)
    G.place(c, 0, "poker", "straight", 10)
    rig(c, "7s * 2d 9c Kd")  # the joker makes a pair of kings
    paid = [r.paid for r in c.players[0].results]
    assert paid == [20, 0, 0]
    assert c.history[-1].hand == "pair_6"


def test_the_joker_bet_wants_jokers_first_and_fifth():
    c = casino(bankroll=1000)
    G.place(c, 0, "wild", "", 2)
    rig(c, "* 5d 9s Jc *")
    assert c.players[0].results[0].paid == 2 * 1251


def test_the_jackpot_grows_by_its_share_and_a_royal_with_jokers_first_and_fifth_wins_it():
    c = casino(bankroll=1000, players=2, jackpot=5000)
    for seat in (0, 1):
        G.place(c, seat, "progressive", "", 1)
    rig(c, "* Qs Ks As *")
    share = 5000 + 2 * DEFAULT.jackpot_share // 100  # 2 stakes × 20% of 1 chip = 0.4: 5000
    assert c.jackpot_hundredths == (5000 * 100 + 2 * 20) - (share // 2) * 2 * 100 \
        + DEFAULT.jackpot_seed * 100
    assert [r.paid for p in c.players for r in p.results] == [1 + 2500, 1 + 2500]
    assert c.history[-1].jackpot_won == 5000


def test_a_royal_without_jokers_first_and_fifth_pays_the_table_not_the_jackpot():
    c = casino(bankroll=1000, jackpot=5000)
    G.place(c, 0, "progressive", "", 1)
    rig(c, "Qs * Ks As *")
    assert c.players[0].results[0].paid == 251 and c.jackpot == 5000


def test_rebet_places_last_rounds_bets_again_or_none():
    c = casino(bankroll=100)
    G.place(c, 0, "colour", "red", 30)
    G.place(c, 0, "card", "2c", 30)
    rig(c, "3c 4c 5c 6c 7s")  # both lose: 40 left
    G.next_round(c)
    with pytest.raises(G.CasinoError, match="need 60 chips; 40 left"):
        G.rebet(c, 0)
    assert c.players[0].bankroll == 40 and not c.players[0].bets
    c.players[0].bankroll = 100
    assert [b.amount for b in G.rebet(c, 0)] == [30, 30]


# -- the store -------------------------------------------------------------------------------

def test_bankrolls_jackpot_and_history_survive_a_restart(tmp_path):
    path = tmp_path / "casino.json"
    store = CasinoStore.open(path)
    assert store.bankroll("Ana") == START_BANKROLL and store.jackpot(DEFAULT) == 1_000_000
    c = G.new_casino(DEFAULT, ["Ana"], [store.bankroll("Ana")], jackpot=store.jackpot(DEFAULT) // 100)
    G.place(c, 0, "colour", "red", 100)
    G.place(c, 0, "progressive", "", 1)
    rig(c, "2c 3c 4c 5c 9s")
    store.record(c)
    again = CasinoStore.open(path)
    assert again.bankroll("Ana") == c.players[0].bankroll == START_BANKROLL - 101
    assert again.jackpot(DEFAULT) == 1_000_000 + 20
    assert [r.cards for r in again.history] == [tuple(parse_cards("2c 3c 4c 5c 9s"))]
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    again.reset_bankroll("Ana")
    assert CasinoStore.open(path).bankroll("Ana") == START_BANKROLL


def test_two_casinos_of_one_account_at_once_lose_nothing(tmp_path):
    """Two terminals (or the SSH room) play at once on one casino file: each write keeps
    the other's players, adds its own change to the shared jackpot, and a reset from the
    command line meanwhile is not undone."""
    path = tmp_path / "casino.json"
    one, two = CasinoStore.open(path), CasinoStore.open(path)
    a = G.new_casino(DEFAULT, ["Ana"], [one.bankroll("Ana")], jackpot=one.jackpot(DEFAULT) // 100)
    b = G.new_casino(DEFAULT, ["Bo"], [two.bankroll("Bo")], jackpot=two.jackpot(DEFAULT) // 100)
    for c, store, stake in ((a, one, 100), (b, two, 50)):
        G.place(c, 0, "colour", "red", stake)
        G.place(c, 0, "progressive", "", 1)
        rig(c, "2c 3c 4c 5c 9s")
        store.record(c)
    CasinoStore.open(path).reset_bankroll("Cy")  # the command line, meanwhile
    one.record(a)  # Ana quits: her casino writes last
    final = CasinoStore.open(path)
    assert final.bankroll("Ana") == START_BANKROLL - 101
    assert final.bankroll("Bo") == START_BANKROLL - 51
    assert "Cy" in final.bankrolls
    assert final.jackpot(DEFAULT) == 1_000_000 + 20 + 20  # both side bets' shares
    assert b.jackpot_hundredths == 1_000_000 + 40  # the second casino shows the shared one
    assert len(final.history) == 2


def test_a_second_damaged_casino_file_does_not_replace_the_first(tmp_path):
    path = tmp_path / "casino.json"
    for text in ("{one", "{two"):
        path.write_text(text)
        assert "moved to" in CasinoStore.open(path).warning
    kept = sorted(p.read_text() for p in tmp_path.glob("casino.json.damaged*"))
    assert kept == ["{one", "{two"]


@pytest.mark.parametrize("text", ["{not json", '{"format": "x"}', json.dumps(
    {"format": "pokeroulette-casino", "version": 1, "bankrolls": {"Ana": -5}, "jackpots": {}})])
def test_a_damaged_casino_file_is_set_aside_with_a_message(tmp_path, text):
    path = tmp_path / "casino.json"
    path.write_text(text)
    store = CasinoStore.open(path)
    assert "damaged" in store.warning and str(path) in store.warning
    assert (tmp_path / "casino.json.damaged").read_text() == text
    assert store.bankroll("Ana") == START_BANKROLL


def test_kill_9_while_writing_never_leaves_half_a_file(tmp_path):
    path = tmp_path / "casino.json"
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {os.getcwd()!r})
        from pathlib import Path
        from pokeroulette_tui.engine.casino.store import CasinoStore
        s = CasinoStore.open(Path({str(path)!r}))
        n = 0
        print("go", flush=True)
        while True:
            n += 1
            s.bankrolls = {{f"player{{i}}": n for i in range(300)}}
            s.write()
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    assert proc.stdout.readline().strip() == b"go"
    import time
    for _ in range(5):
        time.sleep(0.05)
        store = CasinoStore.open(path) if path.exists() else None
        assert store is None or not store.warning
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    store = CasinoStore.open(path)
    assert not store.warning and len(store.bankrolls) == 300


def test_the_rules_document_shows_the_odds_the_program_computes():
    from pathlib import Path

    from pokeroulette_tui.engine.casino.odds import report

    text = (Path(__file__).resolve().parents[1] / "docs" / "RULES.md").read_text()
    assert report(DEFAULT) in text


# -- the command line ------------------------------------------------------------------------

def test_cli_prints_the_odds_and_checks_a_simulation(tmp_path, monkeypatch, capsys):
    from pokeroulette_tui.cli import main

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    assert main(["casino", "--odds"]) == 0
    out = capsys.readouterr().out
    assert "pair of sixes or better" in out and "3.74%" in out and "373,675" in out
    assert main(["casino", "--simulate", "2000", "--seed", "3"]) == 0
    assert "21 of 21 bets agree" in capsys.readouterr().out


def test_cli_casino_mistakes_are_one_line(tmp_path, monkeypatch, capsys):
    from pokeroulette_tui.cli import main

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    bad = tmp_path / "bad.toml"
    bad.write_text("wild = 0\n")
    for argv, words in ((["--pay-table", "nope"], "no pay table called 'nope'"),
                        (["--pay-table", str(bad)], "wild must be a whole payout"),
                        (["Ana", ""], "a player's name is 1 to 24 characters"),
                        (["Ana", "Ana"], "'Ana' is there twice"),
                        (list("ABCDEFG"), "at most 6 players"),
                        (["--simulate", "5"], "100 to 10000000 rounds")):
        assert main(["casino", *argv]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err


def test_cli_resets_a_bankroll_and_the_jackpot(tmp_path, monkeypatch, capsys):
    from pokeroulette_tui.cli import main

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    store = CasinoStore.open(tmp_path / "data" / "casino.json")
    store.bankrolls["Ana"] = 3
    store.jackpots["default"] = 77
    store.write()
    assert main(["casino", "--reset-bankroll", "Ana", "--reset-jackpot"]) == 0
    again = CasinoStore.open(tmp_path / "data" / "casino.json")
    assert again.bankroll("Ana") == START_BANKROLL and again.jackpot(DEFAULT) == 1_000_000


# -- named pay tables --------------------------------------------------------------------------

def test_named_pay_tables_are_found_by_name_and_the_variants_say_what_they_are():
    from pokeroulette_tui.engine.casino.odds import edge_range
    from pokeroulette_tui.engine.casino.paytable import NAMED, PayTableError, find

    assert set(NAMED) == {"default", "generous", "tight"}
    for name, table in NAMED.items():
        assert find(name) is table and table.name == name
        table.check()
    for name in ("generous", "tight"):
        assert "house variant, not from a source" in NAMED[name].note
    assert "pokeroulette rules --doc" in NAMED["default"].note
    # what makes them what they are: every bet of generous pays at least the default's, of
    # tight at most; and the house keeps an edge on every bet of all three
    d, g, t = NAMED["default"], NAMED["generous"], NAMED["tight"]
    for table, better in ((g, True), (t, False)):
        pairs = [(table.roulette[k], d.roulette[k]) for k in d.roulette]
        pairs += [(table.poker[h], d.poker[h]) for h in d.poker]
        pairs += [(table.wild, d.wild)]
        assert all((a >= b) if better else (a <= b) for a, b in pairs)
        assert any(a != b for a, b in pairs)
    for table in NAMED.values():
        low, high = edge_range(table)
        assert 0 < low <= high < 1
    assert edge_range(g)[0] < edge_range(d)[0] or edge_range(g)[1] < edge_range(d)[1]
    assert edge_range(t)[1] > edge_range(d)[1]
    with pytest.raises(PayTableError, match="use one of default, generous, tight or a .toml"):
        find("loose")


def test_cli_lists_the_pay_tables_and_prints_any_tables_odds(tmp_path, monkeypatch, capsys):
    from pokeroulette_tui.cli import main
    from pokeroulette_tui.engine.casino.odds import report
    from pokeroulette_tui.engine.casino.paytable import NAMED

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    assert main(["casino", "--pay-tables"]) == 0
    out = capsys.readouterr().out
    for name in NAMED:
        assert f"\n{name}\n" in out and f"--odds --pay-table {name}" in out
    assert "house edge 1.12% to 11.11% (exact)" in out  # generous
    assert "house edge 3.70% to 30.05% (exact)" in out  # tight
    assert out.count("a house variant, not from a source") == 2
    assert max(map(len, out.splitlines())) <= 88
    assert main(["casino", "--odds", "--pay-table", "tight"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == report(NAMED["tight"]).strip()
    assert "Pay table: tight (a house variant" in out and "49:1" in out and "1000:1" in out


@pytest.mark.parametrize("text, file", [('name = "default"\njackpot_seed = 5\n', "my.toml"),
                                        ("jackpot_seed = 5\n", "generous.toml")])
def test_a_pay_table_file_cannot_take_a_built_in_tables_jackpot(tmp_path, text, file):
    from pokeroulette_tui.engine.casino.paytable import PayTableError, load_file

    path = tmp_path / file
    path.write_text(text)
    with pytest.raises(PayTableError, match="built-in pay table's name"):
        load_file(path)
    path.write_text('name = "mine"\n' + text.split("\n", 1)[-1] if "name" in text
                    else 'name = "mine"\n' + text)
    assert load_file(path).name == "mine"
