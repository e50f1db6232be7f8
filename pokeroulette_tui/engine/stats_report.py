"""Statistics in words and in JSON: the summary the command line prints, and the hand
histories it exports (JSON lines, or readable text).

>>> from pokeroulette_tui.engine.stats import PlayerStats
>>> summary_lines(PlayerStats("Ana"))[:2]
['Ana', '  no hands recorded yet']
"""

from __future__ import annotations

from typing import Any, Iterable

from pokeroulette_tui.engine.cards import parse_card
from pokeroulette_tui.engine.stats import HandRecord, PlayerStats, Tally

COLUMNS = (("games", "games"), ("wins", "games\nwon"), ("hands", "hands"),
           ("hands_won", "hands\nwon"), ("showdowns", "showdowns\nreached"),
           ("showdowns_won", "showdowns\nwon"), ("tokens_lost", "tokens\nlost"))
"""The counts shown, by field, with their column heading (two lines: a narrow table)."""


def percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a whole percentage ("–" of nothing).

    >>> percent(1, 3), percent(0, 0)
    ('33%', '–')
    """
    return f"{round(100 * part / whole)}%" if whole else "–"


def symbols(cards: Iterable[str]) -> str:
    """Card texts with suit symbols: ``As Td`` -> ``A♠ T♦``.

    >>> symbols(["As", "*"])
    'A♠ ★'
    """
    return " ".join(parse_card(c).symbol for c in cards)


def rows(stats: PlayerStats) -> list[tuple[str, Tally]]:
    """(group, counts) for each variant and preset played, most hands first, then the total
    (when more than one was played)."""
    out = sorted(stats.tallies.items(), key=lambda gt: (-gt[1].hands, gt[0]))
    if len(out) > 1:
        out.append(("all", stats.tally()))
    return out


def summary_lines(stats: PlayerStats) -> list[str]:
    """The statistics of one player as plain text lines (the ``stats`` command)."""
    lines = [stats.player]
    total = stats.tally()
    if not total.hands and not total.finished:
        return lines + ["  no hands recorded yet"]
    width = max(len(g) for g, _ in rows(stats))
    widths = [max(5, *(len(part) for part in h.split("\n"))) for _, h in COLUMNS]
    for line in (0, 1):
        parts = [(h.split("\n") + [""])[line] for _, h in COLUMNS]
        lines.append(("  " + "".ljust(width) + "".join(f"  {p:>{w}}" for p, w in
                                                       zip(parts, widths))).rstrip())
    for group, t in rows(stats):
        cells = "".join(f"  {getattr(t, f):>{w}}" for (f, _), w in zip(COLUMNS, widths))
        lines.append("  " + group.ljust(width) + cells)
    lines.append(f"  games won {percent(total.wins, total.finished)} of those finished "
                 f"({total.finished}); showdowns won {percent(total.showdowns_won, total.showdowns)}")
    if stats.best is not None:
        b = stats.best
        lines.append(f"  best hand: {b.name} ({symbols(b.cards)}), {b.at[:16].replace('T', ' ')}, "
                     f"{b.group}")
    if stats.series:
        chips = [c for _, c in stats.series]
        lines.append(f"  chips over the last {len(chips)} hands: {spark(chips)} "
                     f"(low {min(chips)}, high {max(chips)}, last {chips[-1]})")
    return lines


BARS = "▁▂▃▄▅▆▇█"


def spark(values: list[int], width: int = 40) -> str:
    """A one-line sparkline of ``values`` (the newest ``width``... averaged into ``width``).

    >>> spark([0, 5, 10])
    '▁▅█'
    """
    if not values:
        return ""
    if len(values) > width:  # average into width buckets
        step = len(values) / width
        values = [round(sum(values[int(i * step):int((i + 1) * step)] or [0])
                        / max(1, len(values[int(i * step):int((i + 1) * step)])))
                  for i in range(width)]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1
    return "".join(BARS[round((v - lo) / span * (len(BARS) - 1))] for v in values)


def summary_json(stats: PlayerStats) -> dict[str, Any]:
    """The statistics of one player as plain JSON values."""
    from dataclasses import asdict

    return {"player": stats.player,
            "by_variant_preset": {g: asdict(t) for g, t in stats.tallies.items()},
            "total": asdict(stats.tally()),
            "best_hand": stats.best.to_dict() if stats.best else None,
            "chips_over_time": [{"at": a, "chips": c} for a, c in stats.series]}


def hand_json(rec: HandRecord) -> dict[str, Any]:
    """One hand for the JSON-lines export: the record as stored."""
    return rec.to_dict()


def hand_text(rec: HandRecord) -> str:
    """One hand in words: the game, the player's cards, what was shown, who won.

    The player's own cards are the ones they saw during the hand; the others' cards only
    as they were shown at the showdown."""
    r = rec.result
    name = rec.names[rec.seat] if rec.seat < len(rec.names) else rec.player
    lines = [f"Hand {rec.hand_no} · {rec.at[:16].replace('T', ' ')} · {rec.group} · "
             f"{name} in seat {rec.seat + 1} of {len(rec.names)}"]
    if rec.held:
        lines.append(f"  your hand at the end: {symbols(rec.held)}")
    if rec.cards:
        lines.append(f"  your cards seen this hand: {symbols(rec.cards)}")
    if rec.match:
        lines.append(f"  match cards: {symbols(rec.match)}")
    for h in sorted(r.hands, key=lambda h: h.place):
        who = rec.names[h.seat] if h.seat < len(rec.names) else f"seat {h.seat + 1}"
        lines.append(f"  {h.place}. {who}: {h.name} ({symbols(c.text for c in h.cards)})")
    if r.by_fold:
        lines.append("  won without a showdown (everyone else folded)")
    for pot in r.pots:
        winners = " and ".join(rec.names[w] if w < len(rec.names) else str(w) for w in pot.winners)
        lines.append(f"  pot of {pot.amount} to {winners} {pot.why}".rstrip())
    if rec.tokens_lost:
        lines.append(f"  you lost {rec.tokens_lost} token{'s' if rec.tokens_lost > 1 else ''}")
    outcome = "won" if rec.won else "lost"
    after = (f"{rec.chips} chips" if rec.chips is not None
             else f"{rec.tokens} token{'' if rec.tokens == 1 else 's'}")
    lines.append(f"  you {outcome} · {after} after the hand")
    return "\n".join(lines)
