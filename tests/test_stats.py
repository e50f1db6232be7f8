"""Statistics across games: recorded from real engine games, counted once, private, robust."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.stats import PlayerStats
from pokeroulette_tui.engine.stats_store import StatsStore
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.session import Update
from pokeroulette_tui.table import Table
from pokeroulette_tui.ui.stats_recorder import StatsRecorder
from stats_helpers import TableSession, new_table, play


@pytest.fixture
def store(tmp_path: Path) -> StatsStore:
    return StatsStore(tmp_path / "stats")


class Results:
    """What the engine decided, hand by hand (a spy on the table)."""

    def __init__(self) -> None:
        self.results = {}

    def __call__(self, table: Table) -> None:
        r = table.state.result
        if r is not None:
            self.results[r.hand_no] = r


@pytest.mark.parametrize("preset", ["classic", "swedish", "draw"])
def test_a_whole_game_is_counted_as_the_engine_decided_it(store, preset):
    table = new_table(PRESETS[preset], humans=[0], seed=3)
    spy = Results()
    assert play(table, TableSession(table, [0]), StatsRecorder(store), spy=spy) == []
    stats = store.load("Ana")
    t = stats.tally(f"{PRESETS[preset].variant} · {preset}")
    results = spy.results.values()
    assert t.hands == len(spy.results)
    assert t.showdowns == sum(not r.by_fold and r.hand(0) is not None for r in results)
    assert t.showdowns_won == sum(not r.by_fold and r.hand(0) is not None and 0 in r.winners
                                  for r in results)
    assert t.hands_won == sum(0 in r.winners for r in results)
    assert t.tokens_lost == sum(r.token_losers.count(0) for r in results)
    assert (t.games, t.finished) == (1, 1)
    standings = [s for s in __import__("pokeroulette_tui.engine.scoring", fromlist=["x"])
                 .standings(table.state)]
    assert t.wins == (standings[0]["seat"] == 0)
    assert store.players() == ["Ana"]  # the bots are not recorded
    if PRESETS[preset].uses_chips:
        assert stats.series[-1][1] == table.state.seats[0].chips
    shown = [r.hand(0) for r in results if not r.by_fold and r.hand(0) is not None]
    if shown:
        assert stats.best is not None and stats.best.name in {h.name for h in shown}


def test_games_wins_and_the_best_hand_add_up_over_games(store):
    for seed in (1, 2, 3):
        table = new_table(replace(PRESETS["draw"]), humans=[0], seed=seed)
        play(table, TableSession(table, [0]), StatsRecorder(store), seed=seed)
    t = store.load("Ana").tally("draw · draw")
    assert (t.games, t.finished) == (3, 3)
    assert 0 <= t.wins <= 3


def _cards_in(rec: dict) -> set[str]:
    cards = set(rec["cards"]) | set(rec["held"]) | set(rec["match"])
    for hand in rec["result"]["hands"].values():
        cards |= set(hand["cards"]) | set(hand["shown"]) | set(hand["jokers"])
    return cards - {"*"}


@pytest.mark.parametrize("preset", ["classic", "swedish", "draw"])
@pytest.mark.parametrize("wire", [False, True], ids=["hot-seat", "network"])
def test_no_other_seats_hidden_cards_are_ever_recorded(store, preset, wire):
    """Every card in a player's file was on that player's own screen during that hand (their
    own cards, public cards, the hands shown): another seat's unshown cards never are."""
    rules = PRESETS[preset]
    humans = [1] if wire else [0, 1]
    table = new_table(rules, humans=humans, n=4, seed=11)
    seen: dict[int, dict[int, set[str]]] = {s: {} for s in humans}
    hidden_once: dict[int, set[str]] = {s: set() for s in humans}

    def spy(t: Table) -> None:
        for s in humans:
            mine = {c.text for c in view_for(t.state, s).all_cards()}
            hand = seen[s].setdefault(t.state.hand_no, set())
            hand |= mine
            if t.state.result is not None:
                for h in t.state.result.hands:
                    hand |= {c.text for c in h.shown}
            for other, seat in enumerate(t.state.seats):
                if other != s:
                    held = {c.text for c in (*seat.stock, *seat.actives, *seat.hand)}
                    hidden_once[s] |= held - mine

    play(table, TableSession(table, humans, wire=wire), StatsRecorder(store), spy=spy)
    assert sorted(store.players()) == sorted(table.seats[s].name for s in humans)
    for s in humans:
        lines = store.path(table.seats[s].name).read_text().splitlines()[1:]
        hands = [json.loads(line) for line in lines if '"kind":"hand"' in line]
        assert hands
        for rec in hands:
            assert rec["player"] == table.seats[s].name and rec["seat"] == s
            assert _cards_in(rec) <= seen[s][rec["hand_no"]], rec["hand_no"]
        assert any(hidden_once[s]), "the test saw no hidden card at all"


def test_a_resumed_game_counts_no_hand_twice(store, tmp_path):
    path = tmp_path / "autosave.json"
    table = new_table(PRESETS["draw"], humans=[0], seed=4, save_path=path)
    table.autosave()
    spy = Results()
    play(table, TableSession(table, [0]), StatsRecorder(store), hands=2, spy=spy)
    table.close()
    resumed = Table.resume(path)
    recorder = StatsRecorder(store)  # a new run of the program
    session = TableSession(resumed, [0])
    if resumed.state.result is not None:  # the last result again, as a screen may show it
        assert recorder.on_update(session, Update(events=(), result=resumed.state.result)) is None
        recorder.on_update(session, Update(events=(), result=resumed.state.result))
    play(resumed, session, recorder, spy=spy)
    t = store.load("Ana").tally()
    assert t.hands == len(spy.results)
    assert (t.games, t.finished) == (1, 1)


def test_the_same_table_dealt_again_is_a_new_game(store):
    for seed in (8, 9):  # (the very same seeded deal again would look like a resume)
        table = new_table(PRESETS["classic"], humans=[0], seed=seed)
        play(table, TableSession(table, [0]), StatsRecorder(store), hands=1)
    assert store.load("Ana").tally().games == 2


def test_a_spectator_records_nothing(store):
    table = new_table(PRESETS["classic"], humans=[], seed=2)
    play(table, TableSession(table, []), StatsRecorder(store), hands=2)
    assert store.players() == []


# -- the file -------------------------------------------------------------------------------

def _record_some(store: StatsStore, hands: int = 4) -> Table:
    table = new_table(PRESETS["classic"], humans=[0], seed=6)
    play(table, TableSession(table, [0]), StatsRecorder(store), hands=hands)
    return table


def test_a_damaged_file_is_set_aside_with_a_message_and_its_good_lines_kept(store):
    _record_some(store)
    path = store.path("Ana")
    before = store.load("Ana").tally()
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:2]) + "{not json\n" + "".join(lines[2:]))
    assert store.load("Ana").tally() == before  # every readable line is kept
    [problem] = store.problems
    assert "damaged (line 3" in problem and "set aside" in problem
    aside = list(path.parent.glob("*.damaged-*.jsonl"))
    assert len(aside) == 1 and "{not json" in aside[0].read_text()
    store.problems.clear()
    assert store.load("Ana").tally() == before and store.problems == []


def test_a_file_that_is_not_ours_is_set_aside(store):
    store.folder.mkdir(parents=True)
    store.path("Ana").write_text("hello\nworld\n")
    assert store.load("Ana").tally().hands == 0
    assert "line 1" in store.problems[0]
    assert not store.path("Ana").exists()


def test_a_file_set_aside_is_not_listed_as_a_player_again(store):
    _record_some(store)
    path = store.path("Ana")
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:2]) + "{not json\n" + "".join(lines[2:]))
    store.load("Ana")  # sets the damaged file aside (its good lines kept in a fresh one)
    assert list(path.parent.glob("*.damaged-*.jsonl"))
    assert store.players() == ["Ana"]


@pytest.mark.parametrize("first_line", [b"\xff\xfe not text\n", b"[1, 2]\n",
                                        b'{"format": "something else"}\n'])
def test_a_players_file_with_an_unreadable_header_is_set_aside_and_said(store, first_line):
    _record_some(store)
    good = store.path("Ana")
    bad = store.folder / "Bo-12345678.jsonl"
    bad.write_bytes(first_line + good.read_bytes().split(b"\n", 1)[1])
    store.problems.clear()
    assert store.players() == ["Ana"]
    [problem] = store.problems
    assert "Bo-12345678" in problem and "set aside" in problem
    assert not bad.exists() and len(list(store.folder.glob("Bo-*.damaged-*.jsonl"))) == 1
    store.problems.clear()
    assert store.players() == ["Ana"] and store.problems == []  # said once


@pytest.mark.parametrize("content", [b"", b'{"format":"pokeroulette-stats","ver'])
def test_a_file_being_written_is_neither_listed_nor_set_aside(store, content):
    """Another game may have just made the file and not yet written its first line (or a
    crash cut that first write short: the next append mends it): it is left alone."""
    _record_some(store)
    other = store.folder / "Bo-12345678.jsonl"
    other.write_bytes(content)
    store.problems.clear()
    assert store.players() == ["Ana"] and store.problems == []
    assert other.read_bytes() == content


def test_the_recorder_says_so_once_and_the_game_goes_on(tmp_path):
    (tmp_path / "stats").write_text("a file where the folder should be")
    table = new_table(PRESETS["classic"], humans=[0], seed=6)
    notes = play(table, TableSession(table, [0]), StatsRecorder(StatsStore(tmp_path / "stats")),
                 hands=3)
    assert len(notes) == 1 and "could not be saved" in notes[0]


def test_a_damaged_file_found_while_playing_is_told_to_the_screen(store):
    _record_some(store, hands=1)
    path = store.path("Ana")
    path.write_text(path.read_text().replace('"kind":"hand"', '"kind":"hnd"', 1))
    table = new_table(PRESETS["classic"], humans=[0], seed=9)
    notes = play(table, TableSession(table, [0]), StatsRecorder(store), hands=1)
    assert len(notes) == 1 and "set aside" in notes[0]
    assert store.load("Ana").tally().hands == 1  # the hand just played; the other is aside


def test_a_torn_last_line_is_ignored_and_cut_before_the_next_write(store):
    _record_some(store, hands=3)
    path = store.path("Ana")
    before = store.load("Ana").tally().hands
    data = path.read_bytes()
    path.write_bytes(data[:-40])  # killed in the middle of writing the last hand
    assert store.load("Ana").tally().hands == before - 1 and store.problems == []
    table = new_table(PRESETS["classic"], humans=[0], seed=12)
    play(table, TableSession(table, [0]), StatsRecorder(store), hands=1)
    assert store.load("Ana").tally().hands == before and store.problems == []
    assert all(json.loads(line) for line in path.read_text().splitlines())


WRITER = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    from pathlib import Path
    from dataclasses import replace
    from pokeroulette_tui.engine.stats_store import StatsStore
    from pokeroulette_tui.engine.stats import HandRecord
    import json
    store = StatsStore(Path({folder!r}))
    rec = HandRecord.from_dict(json.loads(Path({sample!r}).read_text()))
    rec = replace(rec, cards=tuple(rec.cards) * 2000)  # a long line: a write takes a while
    n = 0
    print("ready", flush=True)
    while True:
        n += 1
        store.append("Ana", [replace(rec, key=str(n), hand_no=n)])
""")


def test_kill_9_while_writing_leaves_a_file_that_loads(store, tmp_path):
    _record_some(store, hands=1)
    sample = tmp_path / "sample.json"
    line = store.path("Ana").read_text().splitlines()[1]
    sample.write_text(line)
    script = WRITER.format(tests=str(Path(__file__).parent), folder=str(store.folder),
                           sample=str(sample))
    for delay in (0.05, 0.2, 0.35):
        proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        time.sleep(delay)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        hands = store.load("Ana").tally().hands
        assert store.problems == [] and hands >= 1
        table = new_table(PRESETS["classic"], humans=[0], seed=13 + int(delay * 100))
        assert play(table, TableSession(table, [0]), StatsRecorder(store), hands=1) == []
        assert store.load("Ana").tally().hands == hands + 1 and store.problems == []


def test_compaction_keeps_the_totals_and_the_newest_hands(store):
    _record_some(store, hands=12)
    before = store.load("Ana")
    oldest = next(store.hands("Ana"))
    store.compact("Ana", keep=3)
    after = store.load("Ana")
    assert after.tallies == before.tallies and after.best == before.best
    assert list(after.series) == list(before.series)
    assert len(list(store.hands("Ana"))) == 3
    assert after.add_hand(oldest) is None  # folded into the totals: still counted once


def test_compaction_happens_on_its_own_when_the_file_grows(store, monkeypatch):
    from pokeroulette_tui.engine import stats_store

    monkeypatch.setattr(stats_store, "COMPACT_BYTES", 5000)
    table, spy = new_table(PRESETS["classic"], humans=[0], seed=6), Results()
    play(table, TableSession(table, [0]), StatsRecorder(store), spy=spy)
    assert len(spy.results) > 5
    assert store.path("Ana").stat().st_size <= 5000 + 3000
    assert '"kind":"totals"' in store.path("Ana").read_text()
    assert store.load("Ana").tally().hands == len(spy.results)


def test_a_player_stats_round_trips_through_its_totals_line():
    stats = PlayerStats("Ana")
    again = PlayerStats("Ana")
    again.load_totals(json.loads(json.dumps(stats.totals_dict())))
    assert again.tallies == stats.tallies


def test_recording_a_hand_is_quick(store):
    """Recording must not slow a hand: a whole game with its file writes, against the same
    game unrecorded (a ratio, not a time bar)."""
    def run(recorder) -> float:
        table = new_table(PRESETS["draw"], humans=[0, 1], seed=21)
        start = time.perf_counter()
        play(table, TableSession(table, [0, 1]), recorder)
        return time.perf_counter() - start

    class Off(StatsRecorder):
        def on_update(self, session, update):
            return None

    bare = min(run(Off(store)) for _ in range(3))
    recorded = min(run(StatsRecorder(StatsStore(store.folder / str(i)))) for i in range(3))
    assert recorded < bare * 4 + 0.05


def test_rules_off_the_presets_are_custom():
    from pokeroulette_tui.engine.stats import preset_of

    assert preset_of(RuleSet(ante=3)) == "custom"
    assert preset_of(RuleSet(ante=3), [("Friday", RuleSet(ante=3))]) == "Friday"


def test_a_player_who_left_plays_no_more_hands(store):
    table = new_table(PRESETS["draw"], humans=[0, 1], seed=7)
    session, recorder, spy = TableSession(table, [0, 1]), StatsRecorder(store), Results()
    play(table, session, recorder, hands=2, spy=spy)
    recorder.on_update(session, Update(events=tuple(table.leave(1))))
    play(table, session, recorder, spy=spy)
    assert len(spy.results) > 3
    assert store.load("Ana").tally().hands == len(spy.results)
    assert store.load("Bo").tally().hands <= 3


APPENDER = textwrap.dedent("""
    import json, sys
    from dataclasses import replace
    from pathlib import Path
    from pokeroulette_tui.engine import stats_store
    from pokeroulette_tui.engine.stats import HandRecord
    stats_store.COMPACT_BYTES = 6000  # compacted every few hands: the race is frequent
    store = stats_store.StatsStore(Path({folder!r}))
    rec = HandRecord.from_dict(json.loads(Path({sample!r}).read_text()))
    print("ready", flush=True)
    sys.stdin.readline()
    for n in range({count}):
        store.append("Ana", [replace(rec, key="{who}" + str(n), hand_no=n)])
""")


def test_two_games_of_one_account_recording_at_once_lose_no_hand(store, tmp_path):
    """Two processes append to one player's file while each compacts it now and then: every
    hand is counted once (a compaction rewrote the file and lost a line appended meanwhile)."""
    _record_some(store, hands=1)
    sample = tmp_path / "sample.json"
    sample.write_text(store.path("Ana").read_text().splitlines()[-1])
    store.reset("Ana")
    count = 150
    procs = [subprocess.Popen([sys.executable, "-c", APPENDER.format(
        folder=str(store.folder), sample=str(sample), count=count, who=who)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE) for who in "ab"]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
    for proc in procs:  # both at once
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
    for proc in procs:
        assert proc.wait(60) == 0
    assert store.load("Ana").tally().hands == 2 * count and store.problems == []
