"""Benchmark of the hand evaluator against treys, measured in the same run.

Usage::

    python benchmarks/bench_hands.py [--quick] [--hands N] [--repeat R] [--seed S]

Prints, for random natural 5- and 7-card hands from one deck, the evaluations
per second of ``treys.Evaluator().evaluate(board, hand)`` and of our
``strength`` on the same hands, as Card lists and as card-index lists (cards
converted up front, outside the timed loops, for all; best of R interleaved
timed passes after a warm-up pass), and the ratios; then the evaluations per second of ``evaluate`` on 15-card stocks from
two decks with 0, 1 and 2 jokers. Targets: 7-card ratio >= 2, 5-card ratio
>= 1.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import treys  # noqa: E402

from pokeroulette_tui.engine import hands as hands_mod  # noqa: E402
from pokeroulette_tui.engine.cards import JOKER, RANK_CHARS, STANDARD_DECK  # noqa: E402
from pokeroulette_tui.engine.hands import evaluate, strength  # noqa: E402


def to_treys(card) -> int:
    return treys.Card.new(RANK_CHARS[card.rank] + card.suit.lower())


def best_time(fn, repeat: int) -> float:
    """Best CPU time of ``repeat`` calls of ``fn`` (garbage collection off).

    CPU time of this process, not wall time, so that other work on a busy
    machine counts less.
    """
    best = float("inf")
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            t = time.process_time()
            fn()
            best = min(best, time.process_time() - t)
    finally:
        if gc_was:
            gc.enable()
    return best


def bench_vs_treys(size: int, count: int, repeat: int, rng: random.Random) -> dict:
    deck = list(STANDARD_DECK)
    ours = [rng.sample(deck, size) for _ in range(count)]
    indices = [[c.index for c in h] for h in ours]
    theirs = [[to_treys(c) for c in h] for h in ours]
    pairs = [(h[2:], h[:2]) for h in theirs]  # (board, hand)
    evaluator = treys.Evaluator()
    t_eval = evaluator.evaluate

    def run_treys():
        for board, hand in pairs:
            t_eval(board, hand)

    def run_ours():
        for h in ours:
            strength(h)

    def run_indices():
        for h in indices:
            strength(h)

    t = time.perf_counter()
    run_ours()  # warm-up: fills the rank-multiset memo
    cold = time.perf_counter() - t
    run_treys()
    # interleave the timed passes so both see the same machine load
    tt = to = ti = float("inf")
    for _ in range(repeat):
        tt = min(tt, best_time(run_treys, 1))
        to = min(to, best_time(run_ours, 1))
        ti = min(ti, best_time(run_indices, 1))
    # sanity: same order as treys on consecutive pairs
    s = [strength(h) for h in ours]
    r = [t_eval(b, h) for b, h in pairs]
    agree = all(((s[i] > s[i + 1]) - (s[i] < s[i + 1])) == ((r[i] < r[i + 1]) - (r[i] > r[i + 1]))
                for i in range(count - 1))
    agree = agree and s == [strength(h) for h in indices]
    return {"size": size, "treys": count / tt, "ours": count / to, "ours_cold": count / cold,
            "ratio": tt / to, "indices": count / ti, "ratio_indices": tt / ti, "agree": agree}


def bench_stocks(size: int, jokers: int, count: int, repeat: int, rng: random.Random,
                 suit_order: str | None = None) -> float:
    shoe = list(STANDARD_DECK) * 2
    stocks = []
    for _ in range(count):
        stock = rng.sample(shoe, size - jokers) + [JOKER] * jokers
        rng.shuffle(stock)
        stocks.append(stock)

    def run():
        for s in stocks:
            evaluate(s, suit_order=suit_order)

    run()
    return count / best_time(run, repeat)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a smaller, faster run")
    ap.add_argument("--hands", type=int, default=None, help="hands per test")
    ap.add_argument("--repeat", type=int, default=None, help="timed passes (best is kept)")
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args(argv)
    count = args.hands or (5_000 if args.quick else 50_000)
    repeat = args.repeat or (3 if args.quick else 5)
    stock_count = max(200, count // 20)
    rng = random.Random(args.seed)

    print(f"Python {sys.version.split()[0]}, treys {getattr(treys, '__version__', '0.1.x')}, "
          f"{count} hands per test, best of {repeat}")
    print(f"{'test':<34}{'treys/s':>12}{'ours/s':>12}{'ratio':>8}  target")
    ok = True
    for size, target in ((5, 1.0), (7, 2.0)):
        r = bench_vs_treys(size, count, repeat, rng)
        met = r["ratio"] >= target and r["agree"]
        ok &= met
        print(f"{f'{size}-card natural, strength()':<34}{r['treys']:>12,.0f}{r['ours']:>12,.0f}"
              f"{r['ratio']:>7.2f}x  >= {target:g}x {'ok' if met else 'MISSED'}"
              f"{'' if r['agree'] else ' (ORDER MISMATCH)'}")
        print(f"{'  same hands as card indices':<34}{r['treys']:>12,.0f}{r['indices']:>12,.0f}"
              f"{r['ratio_indices']:>7.2f}x")
        print(f"{'  first pass, memo cold (cards)':<34}{'':>12}{r['ours_cold']:>12,.0f}")
    memo = sum(len(m) for m in hands_mod._MEMO.values()) + len(hands_mod._FLUSH_MEMO)
    print(f"{'  memo entries after the runs':<34}{'':>12}{memo:>12,}")
    for jokers in (0, 1, 2):
        rate = bench_stocks(15, jokers, stock_count, repeat, rng)
        print(f"{f'15-card stock, {jokers} joker(s), evaluate()':<34}{'':>12}{rate:>12,.0f}")
    rate = bench_stocks(15, 1, stock_count, repeat, rng, suit_order="SHDC")
    print(f"{'15-card, 1 joker, with suit_order':<34}{'':>12}{rate:>12,.0f}")
    rate = bench_stocks(7, 0, stock_count, repeat, rng)
    print(f"{'7-card natural, evaluate()':<34}{'':>12}{rate:>12,.0f}")
    print("all targets met" if ok else "SOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
