"""Benchmark of the hand evaluator against treys, measured in the same run.

Usage::

    python benchmarks/bench_hands.py [--quick] [--hands N] [--repeat R] [--seed S]

For random natural 5- and 7-card hands from one deck, both evaluators rank the
same hands (the same list, the same count, the same denominator; cards are
converted up front, outside the timed loops: treys ints for treys, ``Card``
lists and card-index lists for ours):

* **cold**: each side in a fresh Python process that has never seen a hand:
  its one-time, input-independent setup (``treys.Evaluator()`` builds its
  lookup tables; ours builds its five-card tables, for five cards only: the
  six- and seven-card path needs no table) is timed on its own, then
  one pass over hands never seen before. Reported without and with the setup;
  the best of R such fresh processes a side, interleaved.
* **warm**: in this process, after a first pass over the same hands, the best
  of R interleaved passes (so both see the same machine load). Our 6/7-card
  memo is warm here; treys has no memo.

Every figure is evaluations per second of CPU time of the process
(``time.process_time``, garbage collection off). The order check is complete:
all hands are ranked (ties included) by our ``strength`` and by treys, and
the two rankings must be identical, for Card and index input alike.

Then, ours only: ``evaluate`` on 15-card stocks from two decks with 0, 1 and
2 jokers, and on 7-card hands: a first pass over new stocks (the straight
memo emptied) and the best of R passes.

Targets: cold 5- and 7-card at least 1.0x treys.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_COLD = {5: 1.0, 7: 1.0}


def make_hands(size: int, count: int, seed: int) -> list:
    """``count`` random natural hands of ``size`` cards, the same for a seed in any process."""
    from pokeroulette_tui.engine.cards import STANDARD_DECK

    rng = random.Random(seed * 1000 + size)
    deck = list(STANDARD_DECK)
    return [rng.sample(deck, size) for _ in range(count)]


def to_treys_pairs(hands: list) -> list:
    """Each hand as treys' ``(board, hand)``: the first two cards are the hole cards."""
    import treys
    from pokeroulette_tui.engine.cards import RANK_CHARS

    code = {}
    out = []
    for h in hands:
        t = []
        for c in h:
            v = code.get(c)
            if v is None:
                v = code[c] = treys.Card.new(RANK_CHARS[c.rank] + c.suit.lower())
            t.append(v)
        out.append((t[2:], t[:2]))
    return out


def cpu_time(fn) -> float:
    """CPU seconds of one call of ``fn`` with garbage collection off."""
    gc_was = gc.isenabled()
    gc.disable()
    try:
        t = time.process_time()
        fn()
        return time.process_time() - t
    finally:
        if gc_was:
            gc.enable()


# -- cold: a fresh process a side -------------------------------------------------------------

def cold_child(side: str, size: int, count: int, seed: int) -> None:
    """In a fresh process: time the side's setup, then one pass over never-seen hands."""
    hands = make_hands(size, count, seed)
    if side == "treys":
        import treys

        pairs = to_treys_pairs(hands)
        gc.collect()
        holder = []
        setup = cpu_time(lambda: holder.append(treys.Evaluator()))
        t_eval = holder[0].evaluate

        def run():
            for board, hole in pairs:
                t_eval(board, hole)
    else:
        from pokeroulette_tui.engine import hands as hands_mod

        strength = hands_mod.strength
        if side == "indices":
            hands = [[c.index for c in h] for h in hands]
        assert not hands_mod._TABLE5 and not hands_mod._MEMO, "caches not cold"
        gc.collect()
        # input-independent, as treys.Evaluator(); six and seven cards need no table
        setup = cpu_time(hands_mod._build_tables5 if size == 5 else (lambda: None))

        def run():
            for h in hands:
                strength(h)
    first = cpu_time(run)
    print(json.dumps({"setup": setup, "first": first}))


def cold(side: str, size: int, count: int, seed: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--cold-child", side, str(size), str(count),
                          str(seed)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


# -- warm, order, in this process -------------------------------------------------------------

def dense_ranks(values: list, reverse: bool = False) -> list[int]:
    """Each value's rank among the distinct values (0 = best); ties share a rank."""
    distinct = sorted(set(values), reverse=reverse)
    at = {v: i for i, v in enumerate(distinct)}
    return [at[v] for v in values]


def bench_vs_treys(size: int, count: int, repeat: int, seed: int) -> dict:
    import treys
    from pokeroulette_tui.engine.hands import strength

    # cold first, each side alone in fresh processes (the parent's caches stay out of it),
    # interleaved; the best of ``repeat`` fresh processes a side (like the warm best of R)
    runs: dict[str, list[dict]] = {"cards": [], "indices": [], "treys": []}
    for _ in range(repeat):
        for side, out in runs.items():
            out.append(cold(side, size, count, seed))
    c_ours, c_idx, c_treys = (
        {key: min(r[key] for r in runs[side]) for key in ("setup", "first")}
        for side in ("cards", "indices", "treys"))

    hands = make_hands(size, count, seed)
    indices = [[c.index for c in h] for h in hands]
    pairs = to_treys_pairs(hands)
    t_eval = treys.Evaluator().evaluate

    def run_treys():
        for board, hole in pairs:
            t_eval(board, hole)

    def run_ours():
        for h in hands:
            strength(h)

    def run_indices():
        for h in indices:
            strength(h)

    for fn in (run_treys, run_ours, run_indices):  # first passes: warm-up, not timed
        fn()
    tt = to = ti = float("inf")
    for _ in range(repeat):  # interleaved, so both see the same machine load
        tt = min(tt, cpu_time(run_treys))
        to = min(to, cpu_time(run_ours))
        ti = min(ti, cpu_time(run_indices))

    # the complete order: rank every hand by each evaluator, ties included
    ours_s = [strength(h) for h in hands]
    treys_s = [t_eval(b, h) for b, h in pairs]  # lower is better in treys
    same_order = dense_ranks(ours_s, reverse=True) == dense_ranks(treys_s)
    same_order = same_order and ours_s == [strength(h) for h in indices]
    return {
        "size": size, "count": count, "classes": len(set(ours_s)), "same_order": same_order,
        "treys_setup": c_treys["setup"], "ours_setup": c_ours["setup"],
        "treys_cold": count / c_treys["first"], "ours_cold": count / c_ours["first"],
        "idx_cold": count / c_idx["first"],
        "treys_cold_setup": count / (c_treys["first"] + c_treys["setup"]),
        "ours_cold_setup": count / (c_ours["first"] + c_ours["setup"]),
        "treys_warm": count / tt, "ours_warm": count / to, "idx_warm": count / ti,
    }


def bench_stocks(size: int, jokers: int, count: int, repeat: int, rng: random.Random,
                 suit_order: str | None = None) -> tuple[float, float]:
    """(first pass, best of ``repeat``) evaluations/s of ``evaluate`` on new stocks."""
    from pokeroulette_tui.engine import hands as hands_mod
    from pokeroulette_tui.engine.cards import JOKER, STANDARD_DECK

    shoe = list(STANDARD_DECK) * 2
    stocks = []
    for _ in range(count):
        stock = rng.sample(shoe, size - jokers) + [JOKER] * jokers
        rng.shuffle(stock)
        stocks.append(stock)
    evaluate = hands_mod.evaluate

    def run():
        for s in stocks:
            evaluate(s, suit_order=suit_order)

    hands_mod._STRAIGHT_MEMO.clear()
    first = cpu_time(run)
    best = min(cpu_time(run) for _ in range(repeat))
    return count / first, count / best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a smaller, faster run")
    ap.add_argument("--hands", type=int, default=None, help="hands per test")
    ap.add_argument("--repeat", type=int, default=None, help="warm timed passes (best is kept)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--cold-child", nargs=4, metavar=("SIDE", "SIZE", "COUNT", "SEED"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.cold_child:
        side, size, count, seed = args.cold_child
        cold_child(side, int(size), int(count), int(seed))
        return 0
    import treys

    count = args.hands or (5_000 if args.quick else 50_000)
    repeat = args.repeat or (3 if args.quick else 5)
    stock_count = max(200, count // 20)

    print(f"Python {sys.version.split()[0]}, treys {getattr(treys, '__version__', '0.1.x')}: "
          f"{count:,} random hands a size, the same list and count for both; evaluations/s "
          f"of CPU time")
    print(f"cold = best of {repeat} fresh processes, one pass over hands never seen (one-time "
          f"setup timed apart); warm = best of {repeat} passes after a first pass")
    results = [bench_vs_treys(size, count, repeat, args.seed) for size in (5, 7)]
    ok = all(r["same_order"] for r in results)
    met = True
    head = f"{'':<30}{'treys':>12}{'ours':>12}{'ours/treys':>12}"
    for r in results:
        order = ("order identical to treys (complete ranking, ties included)"
                 if r["same_order"] else "ORDER MISMATCH")
        print(f"\n{r['size']}-card natural hands ({r['classes']:,} distinct strengths): {order}")
        print(head)
        rows = [
            ("one-time setup, ms", r["treys_setup"] * 1e3, r["ours_setup"] * 1e3, None),
            ("cold (after setup)", r["treys_cold"], r["ours_cold"],
             r["ours_cold"] / r["treys_cold"]),
            ("cold, card indices", r["treys_cold"], r["idx_cold"], r["idx_cold"] / r["treys_cold"]),
            ("cold incl. setup", r["treys_cold_setup"], r["ours_cold_setup"],
             r["ours_cold_setup"] / r["treys_cold_setup"]),
            ("warm", r["treys_warm"], r["ours_warm"], r["ours_warm"] / r["treys_warm"]),
            ("warm, card indices", r["treys_warm"], r["idx_warm"], r["idx_warm"] / r["treys_warm"]),
        ]
        for label, theirs, ours, ratio in rows:
            if ratio is None:
                print(f"  {label:<28}{theirs:>12.1f}{ours:>12.1f}")
            else:
                print(f"  {label:<28}{theirs:>12,.0f}{ours:>12,.0f}{ratio:>11.2f}x")
        cold_ratio = r["ours_cold"] / r["treys_cold"]
        target = TARGET_COLD[r["size"]]
        met &= cold_ratio >= target
        print(f"  target: cold >= {target:g}x treys: "
              f"{'ok' if cold_ratio >= target else 'MISSED'} ({cold_ratio:.2f}x)")

    from pokeroulette_tui.engine import hands as hands_mod

    print(f"\n  memo entries after the runs: {len(hands_mod._MEMO):,} "
          f"(bounded at {hands_mod._MEMO_LIMIT:,}); five-card tables: "
          f"{len(hands_mod._TABLE5):,} + {len(hands_mod._FLUSH5):,} flushes")
    rng = random.Random(args.seed)
    print(f"\nevaluate(), ours only, {stock_count:,} new stocks each{'':<4}{'first pass':>12}"
          f"{'best of ' + str(repeat):>12}")
    cases = [(f"15-card stock, {j} joker(s)", 15, j, None) for j in (0, 1, 2)]
    cases += [("15-card, 1 joker, suit_order", 15, 1, "SHDC"), ("7-card natural", 7, 0, None)]
    for label, size, jokers, order in cases:
        first, best = bench_stocks(size, jokers, stock_count, repeat, rng, suit_order=order)
        print(f"  {label:<44}{first:>12,.0f}{best:>12,.0f}")
    print("\norder: " + ("identical to treys" if ok else "MISMATCH")
          + "; targets: " + ("met" if met else "SOME MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
