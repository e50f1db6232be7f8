"""Bot levels head to head: win rates, chips and decision times over seeded games.

Two levels share a table in alternating seats (A B A B, then B A B A on the next seed, so
neither gains from where it sits); every game is reproducible from its seed. Decision
times are wall-clock, printed as milliseconds and as a ratio to the "simple" level
measured in the same run.

    python benchmarks/bench_bots.py              # 20 games a match-up and table (minutes)
    python benchmarks/bench_bots.py --quick      # strong vs simple, 2 short games a table
    python benchmarks/bench_bots.py --games 100 --match strong-simple --table roulette

``--trivial`` plays each level (simple, strong) against each trivial strategy
(:mod:`pokeroulette_tui.bots.trivial`) on the tables where that strategy means something, two
seats each in four (seats rotated, seeded), and prints the level's share of the games won
with a 95% Wilson interval against its fair share (one half) and a verdict: strong must sit
above the fair share, simple must not sit below it.

    python benchmarks/bench_bots.py --trivial --games 200 --jobs 2      # the full table
    python benchmarks/bench_bots.py --trivial --games 40 --level simple --strategy always-raise
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from pokeroulette_tui.bots import make_bot
from pokeroulette_tui.bots.trivial import TRIVIAL, make_trivial
from pokeroulette_tui.engine.game import (apply, check_invariants, dealer_to_act, legal_actions,
                                          new_game)
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.view import view_for

TABLES = {
    "roulette": (RuleSet(), 4),
    "draw-chips": (RuleSet(variant="draw", min_players=2), 4),
    "draw-forfeit": (PRESETS["draw"], 4),
}
TRIVIAL_TABLES = {  # the tables where a trivial strategy differs from the others
    "always-raise": ("roulette", "draw-chips"),
    "always-call": ("roulette", "draw-chips"),
    "tight": ("roulette", "draw-chips"),
    "always-stand-pat": ("draw-chips", "draw-forfeit"),
    "always-draw-three": ("draw-chips", "draw-forfeit"),
}
"""The forfeit draw table has no betting (the ``draw`` preset), so only the draw habits
matter there; with betting on, forfeit scoring never lets a bot fold, so the betting habits
would only be the standard draw."""
MATCHES = {"strong-simple": ("strong", "simple"), "simple-random": ("simple", "random"),
           "strong-random": ("strong", "random")}


@dataclass
class Tally:
    """Results of one level in a match-up."""

    seats: int = 0
    wins: float = 0.0          # games this level's seats won (a shared win counts a share)
    score: float = 0.0         # chips (or tokens) at the end, summed over seats
    times: list[float] = field(default_factory=list)


def play(rules: RuleSet, levels: list[str], seed: int, max_hands: int,
         tallies: dict[str, Tally]) -> None:
    """One game; adds its result and decision times to ``tallies``."""
    n = len(levels)
    state = new_game(rules, [f"{lv}{i}" for i, lv in enumerate(levels)], seed=seed, bots=[True] * n)
    bots = [(make_trivial if lv in TRIVIAL else make_bot)(lv, random.Random(seed * 1000 + i))
            for i, lv in enumerate(levels)]
    while not state.game_over:
        if state.hand_no >= max_hands and state.phase in ("waiting", "hand_over"):
            break
        if dealer_to_act(state):
            apply(state, legal_actions(state, None)[0])
            continue
        seat = state.to_act
        bot = bots[seat]
        legal = legal_actions(state, seat)
        view = view_for(state, seat) if bot.needs_view else None
        start = time.perf_counter()
        action = bot.choose(view, legal)
        tallies[levels[seat]].times.append(time.perf_counter() - start)
        apply(state, action)
    bad = check_invariants(state)
    if bad:
        raise SystemExit(f"seed {seed}: {bad}")
    forfeit = rules.scoring == "forfeit"
    scores = [s.tokens if forfeit else s.chips + s.contributed for s in state.seats]
    top = max(scores)
    winners = [i for i in range(n) if scores[i] == top]
    for i, lv in enumerate(levels):
        t = tallies[lv]
        t.seats += 1
        t.score += scores[i]
        if i in winners:
            t.wins += 1 / len(winners)


def match(table: str, a: str, b: str, games: int, seed: int, max_hands: int) -> dict[str, Tally]:
    rules, players = TABLES[table]
    tallies = {a: Tally(), b: Tally()}
    for g in range(games):
        first, second = (a, b) if g % 2 == 0 else (b, a)
        levels = [first if i % 2 == 0 else second for i in range(players)]
        play(rules, levels, seed + g, max_hands, tallies)
    return tallies


# -- levels against trivial strategies ---------------------------------------------------------

def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (shared wins count as shares).

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _trivial_chunk(job: tuple[str, str, str, list[int], int]
                   ) -> tuple[tuple[str, str, str], float, int, list[float], float]:
    """Games ``seeds`` of ``level`` against ``strategy`` on ``table``, two seats each, the
    level in the even seats on even seeds and in the odd seats on odd ones."""
    table, level, strategy, seeds, max_hands = job
    rules, players = TABLES[table]
    tallies = {level: Tally(), strategy: Tally()}
    for seed in seeds:
        first, second = (level, strategy) if seed % 2 == 0 else (strategy, level)
        play(rules, [first if i % 2 == 0 else second for i in range(players)], seed, max_hands,
             tallies)
    t = tallies[level]
    start_score = rules.tokens if rules.scoring == "forfeit" else rules.starting_chips
    return ((table, level, strategy), t.wins, len(seeds), t.times,
            t.score - start_score * t.seats)


def trivial_matchups(levels: list[str], strategies: list[str],
                     tables: list[str]) -> list[tuple[str, str, str]]:
    return [(table, level, strategy) for table in tables for level in levels
            for strategy in strategies if table in TRIVIAL_TABLES[strategy]]


def run_trivial(args: argparse.Namespace) -> int:
    """Each level against each trivial strategy; one verdict line a match-up. Returns the
    number of failed verdicts."""
    games = args.games or 40
    hands = args.hands or 20
    ups = trivial_matchups(args.level or ["simple", "strong"], args.strategy or list(TRIVIAL),
                           args.table or list(TABLES))
    chunk = max(1, min(10, games // max(1, args.jobs)))
    jobs = [(table, level, strategy, list(range(args.seed + k, args.seed + min(games, k + chunk))),
             hands) for table, level, strategy in ups for k in range(0, games, chunk)]
    jobs.sort(key=lambda j: j[1] != "strong")  # the slow level first, for an even finish
    results: dict[tuple[str, str, str], list] = {u: [0.0, 0, [], 0.0] for u in ups}
    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            done = list(pool.imap_unordered(_trivial_chunk, jobs))
    else:
        done = [_trivial_chunk(j) for j in jobs]
    for key, wins, n, times, gain in done:
        r = results[key]
        r[0] += wins
        r[1] += n
        r[2] += times
        r[3] += gain
    took = time.perf_counter() - start
    print(f"levels against trivial strategies: {games} games a match-up of up to {hands} hands, "
          f"4 seats (2 + 2, alternating), seeds {args.seed}.., {args.jobs} process(es), "
          f"{took:.0f} s")
    print(f"{'table':13s} {'level':7s} {'strategy':18s} {'wins':>6s} {'95% interval':>15s} "
          f"{'fair':>5s}  verdict{'':17s} gain/seat  decision ms (mean/max)")
    failed = 0
    for table, level, strategy in ups:
        wins, n, times, gain = results[table, level, strategy]
        fair = 0.5
        lo, hi = wilson(wins, n)
        ok = lo > fair if level == "strong" else hi >= fair
        failed += not ok
        need = "above" if level == "strong" else "not below"
        ms = (f"{1000 * statistics.fmean(times):6.1f} / {1000 * max(times):6.1f}" if times
              else "-")
        print(f"{table:13s} {level:7s} {strategy:18s} {100 * wins / n:5.1f}% "
              f"[{100 * lo:5.1f}, {100 * hi:5.1f}]% {100 * fair:4.0f}%  "
              f"{'holds' if ok else 'FAILS'} ({need} fair){'':{9 - len(need)}s} "
              f"{gain / (2 * n):+8.1f}  {ms}")
    print(f"{len(ups) - failed} of {len(ups)} match-ups hold")
    return failed


def _ms(times: list[float]) -> str:
    if not times:
        return "no decisions"
    times = sorted(times)
    p90 = times[int(0.9 * (len(times) - 1))]
    return (f"{len(times):6d} decisions, mean {1000 * statistics.fmean(times):7.2f} ms, "
            f"p90 {1000 * p90:7.2f} ms, max {1000 * times[-1]:7.2f} ms")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="strong vs simple only, 2 games of 6 hands a table")
    ap.add_argument("--games", type=int, default=None, help="games per match-up and table (20)")
    ap.add_argument("--hands", type=int, default=None, help="hands per game (20)")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--match", choices=sorted(MATCHES), action="append")
    ap.add_argument("--table", choices=sorted(TABLES), action="append")
    ap.add_argument("--trivial", action="store_true",
                    help="each level against each trivial strategy, with verdicts (40 games)")
    ap.add_argument("--level", choices=["simple", "strong"], action="append",
                    help="with --trivial: only this level (repeatable)")
    ap.add_argument("--strategy", choices=list(TRIVIAL), action="append",
                    help="with --trivial: only this strategy (repeatable)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="with --trivial: worker processes (match-ups run in parallel)")
    args = ap.parse_args(argv)
    if args.trivial:
        return 1 if run_trivial(args) else 0
    games = args.games or (2 if args.quick else 20)
    hands = args.hands or (6 if args.quick else 20)
    matches = args.match or (["strong-simple"] if args.quick else list(MATCHES))
    tables = args.table or list(TABLES)
    simple_mean: list[float] = []
    rows = []
    for table in tables:
        rules, players = TABLES[table]
        unit = "tokens" if rules.scoring == "forfeit" else "chips"
        for name in matches:
            a, b = MATCHES[name]
            start = time.perf_counter()
            t = match(table, a, b, games, args.seed, hands)
            took = time.perf_counter() - start
            print(f"\n{table}: {a} vs {b}, {games} games of up to {hands} hands, {players} seats "
                  f"alternating ({took:.1f} s)")
            for lv in (a, b):
                x = t[lv]
                start_score = rules.tokens if unit == "tokens" else rules.starting_chips
                print(f"  {lv:7s} wins {100 * x.wins / games:5.1f}% of games, "
                      f"{x.score / x.seats - start_score:+7.2f} {unit} a seat | {_ms(x.times)}")
                if lv == "simple":
                    simple_mean += x.times
                rows.append((lv, x.times))
    if simple_mean:
        ref = statistics.fmean(simple_mean)
        print("\ndecision time against the 'simple' level (reference, same run):")
        for lv in ("random", "simple", "strong"):
            times = [s for name, ts in rows if name == lv for s in ts]
            if times:
                print(f"  {lv:7s} x{statistics.fmean(times) / ref:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
