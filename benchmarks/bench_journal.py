"""Saving a long game: the journal's cost per action early and late, against the whole-file save.

One long bot game (classic rules, no betting, deep stacks, so it runs for thousands of
actions) is played three times from the same seed, doing the same work each time:

- ``none``: no saving (the reference for the engine's own cost);
- ``journal``: ``Table`` with its write-ahead journal (one appended line per action);
- ``whole file``: the previous way, the whole save rewritten after every action
  (``engine.save.save``: JSON of every action and the state, atomic, fsync).

For each it reports the mean time of one ``Table.apply`` in a window of actions around
action 100 and around action N (default 8,000), so the ratio late/early shows whether
saving grows with the game. Run: ``python benchmarks/bench_journal.py [--actions N]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from pokeroulette_tui.engine import save as saving
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.table import SeatConfig, Table

SEATS = [SeatConfig("Ana", "random"), SeatConfig("Bo", "random"), SeatConfig("Cy", "random"),
         SeatConfig("Di", "random")]
RULES = PRESETS["classic"].replace(betting="none", starting_chips=1_000_000)
WINDOW = 100


class WholeFileTable(Table):
    """The table as it saved before the journal: the whole file after every action.

    It saves only inside the timed windows (a whole-file save late in the game takes
    ~0.1 s; saving between the windows would change no figure and take minutes)."""

    windows: tuple[int, ...] = ()

    def _record(self, action, events, finished) -> None:  # type: ignore[override]
        n = len(self.actions) - 1
        if self.save_path is not None and any(s <= n < s + WINDOW for s in self.windows):
            saving.save(self.save_path, self.state, self.actions, seed=self.seed,
                        names=[s.name for s in self.seats],
                        meta={**self.meta(), "history": [[e.to_dict() for e in h]
                                                          for h in self.history]})


def run(kind: str, total: int, folder: Path) -> dict[int, float]:
    """Mean µs per apply in the windows starting at 100 and at ``total - WINDOW``."""
    cls = WholeFileTable if kind == "whole file" else Table
    path = None if kind == "none" else folder / f"{kind.replace(' ', '_')}.json"
    table = cls.create(RULES, SEATS, seed=11, save_path=path)
    table.autosave()
    starts = (100, total - WINDOW)
    if isinstance(table, WholeFileTable):
        table.windows = starts
    spent = {s: 0.0 for s in starts}
    while len(table.actions) < total and not table.state.game_over:
        action = table.auto_action()
        n = len(table.actions)
        t0 = time.perf_counter()
        table.apply(action)
        dt = time.perf_counter() - t0
        for s in starts:
            if s <= n < s + WINDOW:
                spent[s] += dt
    if len(table.actions) < total:
        raise SystemExit(f"the game ended after {len(table.actions)} actions; use fewer")
    size = path.stat().st_size if path is not None else 0
    print(f"  {kind:10}  file at the end {size / 1024:8.0f} KiB")
    return {s: spent[s] / WINDOW * 1e6 for s in starts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=8000)
    args = parser.parse_args()
    total = max(args.actions, 400)
    with tempfile.TemporaryDirectory() as tmp:
        results = {kind: run(kind, total, Path(tmp)) for kind in ("none", "journal", "whole file")}
    early, late = 100, total - WINDOW
    print(f"\nmean µs per action (Table.apply, the same game and seed), {WINDOW}-action windows")
    print(f"{'':12}{'at ' + str(early):>12}{'at ' + str(late):>12}{'late/early':>12}"
          f"{'save share late':>17}")
    base = results["none"]
    for kind, r in results.items():
        share = "" if kind == "none" else f"{(r[late] - base[late]) / r[late]:16.0%}"
        print(f"{kind:12}{r[early]:12.1f}{r[late]:12.1f}{r[late] / r[early]:11.2f}×{share}")
    j, w = results["journal"], results["whole file"]
    print(f"\nwhole file / journal at {late}: {w[late] / j[late]:.1f}×")


if __name__ == "__main__":
    main()
