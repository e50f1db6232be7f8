"""Bot levels head to head: win rates, chips and decision times over seeded games.

Two levels share a table in alternating seats (A B A B, then B A B A on the next seed, so
neither gains from where it sits); every game is reproducible from its seed. Decision
times are wall-clock, printed as milliseconds and as a ratio to the "simple" level
measured in the same run.

    python benchmarks/bench_bots.py              # 20 games a match-up and table (minutes)
    python benchmarks/bench_bots.py --quick      # strong vs simple, 2 short games a table
    python benchmarks/bench_bots.py --games 100 --match strong-simple --table roulette
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from pokeroulette_tui.bots import make_bot
from pokeroulette_tui.engine.game import (apply, check_invariants, dealer_to_act, legal_actions,
                                          new_game)
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.view import view_for

TABLES = {
    "roulette": (RuleSet(), 4),
    "draw-chips": (RuleSet(variant="draw", min_players=2), 4),
    "draw-forfeit": (PRESETS["draw"], 4),
}
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
    bots = [make_bot(lv, random.Random(seed * 1000 + i)) for i, lv in enumerate(levels)]
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
    args = ap.parse_args(argv)
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
