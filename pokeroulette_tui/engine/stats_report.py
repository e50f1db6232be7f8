"""Statistics in words and in JSON: the summary the command line prints, and the hand
histories it exports (JSON lines, or readable text).

>>> from pokeroulette_tui.engine.stats import PlayerStats
>>> summary_lines(PlayerStats("Ana"))[:2]
['Ana', '  no hands recorded yet']
"""

from __future__ import annotations

import re
import textwrap
from fractions import Fraction
from typing import Any, Iterable

from pokeroulette_tui.engine.cards import parse_card, suit_words
from pokeroulette_tui.engine.hands import describe_ranks
from pokeroulette_tui.engine.i18n import N_, _, language, ngettext, pgettext
from pokeroulette_tui.engine.i18n import percent as share
from pokeroulette_tui.engine.result import PotResult, ShownHand
from pokeroulette_tui.engine.stats import HandRecord, PlayerStats, Tally, hand_score
from pokeroulette_tui.engine.words import and_words, value_words

COLUMNS = (("games", N_("games")), ("wins", N_("games\nwon")), ("hands", N_("hands")),
           ("hands_won", N_("hands\nwon")), ("showdowns", N_("showdowns\nreached")),
           ("showdowns_won", N_("showdowns\nwon")), ("tokens_lost", N_("tokens\nlost")))
"""The counts shown, by field, with their column heading (two lines: a narrow table; marked
for translation, shown with ``_()``)."""


def percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a whole percentage, written the player's way ("–" of nothing).

    >>> from pokeroulette_tui.engine.i18n import set_language
    >>> set_language("en"); percent(1, 3), percent(0, 0)
    ('33%', '–')
    >>> set_language("sv"); percent(1, 3); set_language("en")
    '33\xa0%'
    """
    return share(Fraction(part, whole), 0) if whole else "–"


def symbols(cards: Iterable[str]) -> str:
    """Card texts with suit symbols: ``As Td`` -> ``A♠ T♦``.

    >>> symbols(["As", "*"])
    'A♠ ★'
    """
    return " ".join(parse_card(c).symbol for c in cards)


def score_words(score: tuple[int, ...], kept: str) -> str:
    """A recorded hand's name in the player's language (English too), rebuilt from its score
    (category, then its cards' ranks in order, a joker as what it stood for): never the words
    stored with it, which are in the language the hand was played in. ``kept``, the name
    recorded, only when the score names no category (a record of another version).

    >>> from pokeroulette_tui.engine.i18n import set_language
    >>> set_language("en"); score_words((1, 8, 8, 13, 10), "pari, kasit")
    'pair of eights'
    >>> set_language("sv"); score_words((2, 13, 13, 5, 5, 9), "two pair, kings and fives")
    'två par, kungar och femmor'
    >>> set_language("en"); score_words((-1,), "kept")
    'kept'
    """
    from pokeroulette_tui.engine.hands import Category, category_words

    if not score or not 0 <= score[0] <= max(Category):
        return kept
    ranks = list(dict.fromkeys(score[1:]))
    if not ranks:  # (no cards recorded: the category alone)
        return category_words(Category(score[0]))
    return describe_ranks(score[0], ranks)


def shown_words(hand: ShownHand) -> str:
    """A hand shown at a showdown (as recorded) in the player's language, rebuilt from its
    category and cards (see :func:`score_words`).

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> shown_words(ShownHand(0, tuple(parse_cards("Ts Tc Kh 7h")), "par i tior", "PAIR"))
    'pair of tens'
    """
    return score_words(hand_score(hand.category, [c.text for c in hand.cards],
                                  [j.text for j in hand.jokers]), hand.name)


def variant_words(variant: str) -> str:
    """A recorded variant (``roulette``, ``draw``) as the game is named in the player's
    language. English says the recorded name (the words ``--variant`` takes); a variant
    of another version keeps its name.

    >>> from pokeroulette_tui.engine.i18n import set_language
    >>> set_language("fi"); variant_words("roulette"), variant_words("draw"); set_language("en")
    ('Pokeriruletti', 'Vaihtopokeri')
    >>> variant_words("roulette")
    'roulette'
    """
    if language() == "en":
        return variant
    return value_words("variant", variant)  # (the rules' "Game: …"; another: its name)


def preset_words(preset: str) -> str:
    """A recorded preset as the rest of the game names it: a built-in or saved preset by its
    name (what ``--preset`` takes; the start screen says it so too), rules that are no
    preset (``custom``) in the player's language.

    >>> from pokeroulette_tui.engine.i18n import set_language
    >>> preset_words("classic"), preset_words("custom")
    ('classic', 'custom')
    """
    if preset == "custom":
        # TRANSLATORS: the statistics' word for rules that equal no preset, after the game's
        # name ("Poker Roulette · custom"); short: a narrow table's column
        return pgettext("statistics: rules that are no preset", "custom")
    return preset


def group_words(group: str, *, short: bool = False) -> str:
    """A recorded ``variant · preset`` group in the player's language (see
    :func:`variant_words`, :func:`preset_words`); ``short``: a preset named after its
    variant is left out. Anything else (the total's word) as it is.

    >>> from pokeroulette_tui.engine.i18n import set_language
    >>> set_language("sv"); group_words("roulette · classic")
    'Pokerroulette · classic'
    >>> group_words("draw · draw", short=True)
    'Mörkpoker'
    >>> set_language("en"); group_words("roulette · custom"), group_words("all")
    ('roulette · custom', 'all')
    """
    variant, sep, preset = group.partition(" · ")
    if not sep:
        return group
    if short and preset == variant:
        return variant_words(variant)
    return f"{variant_words(variant)} · {preset_words(preset)}"


def rows(stats: PlayerStats) -> list[tuple[str, Tally]]:
    """(group, counts) for each variant and preset played, most hands first, then the total
    (when more than one was played)."""
    out = sorted(stats.tallies.items(), key=lambda gt: (-gt[1].hands, gt[0]))
    if len(out) > 1:
        out.append((_("all"), stats.tally()))
    return out


def summary_lines(stats: PlayerStats, width: int | None = None) -> list[str]:
    """The statistics of one player as plain text lines (the ``stats`` command).

    ``width``: the terminal's columns. Lines longer than that wrap at their spaces (a word
    longer than the width, a folder say, keeps its line), and a table wider than that
    becomes a list of counts by variant and preset. ``None``: no limit.

    >>> from pokeroulette_tui.engine.stats import Tally
    >>> s = PlayerStats("Ana", tallies={"draw · draw": Tally(games=1, wins=1, hands=3)})
    >>> print("\\n".join(summary_lines(s, width=40)[1:4]))
      draw · draw
        games 1 · games won 1 · hands 3 ·
        hands won 0 · showdowns reached 0 ·
    """
    lines = [stats.player]
    total = stats.tally()
    if not total.hands and not total.finished:
        return lines + ["  " + _("no hands recorded yet")]
    table = _counts_table(stats)
    if width is not None and max(len(line) for line in table) > width:
        table = []
        for group, t in rows(stats):
            table.append("  " + group_words(group))
            table += _wrap(" · ".join(f"{_(h).replace(chr(10), ' ')} {getattr(t, f)}"
                                      for f, h in COLUMNS), width, "    ")
    lines += table
    said = [_("games won {games} of those finished ({finished}); showdowns won "
              "{showdowns}").format(games=percent(total.wins, total.finished),
                                    finished=total.finished,
                                    showdowns=percent(total.showdowns_won, total.showdowns))]
    if stats.best is not None:
        b = stats.best
        said.append(_("best hand: {hand} ({cards}), {at}, {group}").format(
            hand=score_words(b.score, b.name), cards=symbols(b.cards),
            at=b.at[:16].replace("T", " "), group=group_words(b.group)))
    if stats.series:
        chips = [c for __, c in stats.series]
        said.append(ngettext(
            "chips over the last {n} hands: {spark} (low {low}, high {high}, last {last})",
            "chips over the last {n} hands: {spark} (low {low}, high {high}, last {last})",
            len(chips)).format(n=len(chips), low=min(chips), high=max(chips), last=chips[-1],
                               spark=spark(chips, 40 if width is None
                                           else max(8, min(40, width - 6)))))
    for line in said:
        lines += _wrap(line, width, "  ", "    ")
    return lines


def _counts_table(stats: PlayerStats) -> list[str]:
    """The counts by variant and preset as a table: two heading lines, a line a row."""
    width = max(len(group_words(g)) for g, __ in rows(stats))
    headings = [_(h) for __, h in COLUMNS]
    widths = [max(5, *(len(part) for part in h.split("\n"))) for h in headings]
    lines = []
    for line in (0, 1):
        parts = [(h.split("\n") + [""])[line] for h in headings]
        lines.append(("  " + "".ljust(width) + "".join(f"  {p:>{w}}" for p, w in
                                                       zip(parts, widths))).rstrip())
    for group, t in rows(stats):
        cells = "".join(f"  {getattr(t, f):>{w}}" for (f, __), w in zip(COLUMNS, widths))
        lines.append("  " + group_words(group).ljust(width) + cells)
    return lines


def _wrap(text: str, width: int | None, indent: str, more: str | None = None) -> list[str]:
    """``text`` indented, in lines of at most ``width`` columns broken at spaces only (the
    lines after the first indented by ``more``, ``indent`` unless given).

    >>> _wrap("games 1 · hands 3", 12, "  ")
    ['  games 1 ·', '  hands 3']
    """
    if width is None:
        return [indent + text]
    return textwrap.wrap(text, max(len(indent) + 8, width), initial_indent=indent,
                         subsequent_indent=indent if more is None else more,
                         break_long_words=False, break_on_hyphens=False) or [indent]


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


_CARD_SYMBOL = re.compile(r"[2-9TJQKA][♠♥♦♣]|★")


def pot_words(pot: PotResult, rec: HandRecord) -> str:
    """Why ``pot`` went to its winners, in the player's language, rebuilt from the record's
    result (a fold, the winner's shown hand, a split, a suit tie-break against an equal
    hand) rather than taken from its stored words, which are in the language the hand was
    played in. The two cards a suit tie-break compared are not in the result: they are
    read from the stored words (card symbols, alike in every language); without them the
    tie-break is named alone. A pot the result cannot explain (a record of another version)
    is given no reason: its stored words may be in another language.

    >>> from pokeroulette_tui.engine.i18n import set_language
    >>> from pokeroulette_tui.engine.result import HandResult
    >>> from pokeroulette_tui.engine.stats import HandRecord
    >>> pot = PotResult(10, (0,), (0, 1), {0: 10}, "as everyone else folded")
    >>> rec = HandRecord("Ana", "", "roulette", "classic", "", 0, ("Ana", "Bo"), 1, (), (),
    ...                  (), 10, 3, HandResult(1, by_fold=True, pots=(pot,), winners=(0,)))
    >>> set_language("sv"); pot_words(pot, rec)
    'eftersom alla andra lade sig'
    >>> set_language("en")
    """
    r = rec.result
    if r.by_fold:
        return _("as everyone else folded")
    first = r.hand(pot.winners[0]) if pot.winners else None
    if first is None:
        return ""

    def score(h: Any) -> tuple[int, ...]:
        return hand_score(h.category, [c.text for c in h.cards], [j.text for j in h.jokers])

    hand = shown_words(first)
    if len(pot.winners) > 1:
        return _("with {hand} (split)").format(hand=hand)
    equal = [h for h in r.hands if h.seat in pot.eligible and h.seat not in pot.winners
             and score(h) == score(first)]
    if not equal:
        return _("with {hand}").format(hand=hand)
    cards = [parse_card("*" if t == "★" else t) for t in _CARD_SYMBOL.findall(pot.why)]
    if len(cards) == 2:
        a, b = cards
        tie_break = _("on the suit tie-break: {a} outranks {b} ({suit_a} over {suit_b})").format(
            a=a.symbol, b=b.symbol, suit_a=suit_words(a.suit), suit_b=suit_words(b.suit))
    else:
        tie_break = _("on the suit tie-break")
    return _("with {hand} {tie_break}").format(hand=hand, tie_break=tie_break)


def hand_text(rec: HandRecord) -> str:
    """One hand in words: the game, the player's cards, what was shown, who won.

    The player's own cards are the ones they saw during the hand; the others' cards only
    as they were shown at the showdown."""
    r = rec.result
    name = rec.names[rec.seat] if rec.seat < len(rec.names) else rec.player
    lines = [_("Hand {n} · {at} · {group} · {name} in seat {seat} of {seats}").format(
        n=rec.hand_no, at=rec.at[:16].replace("T", " "), group=group_words(rec.group), name=name,
        seat=rec.seat + 1, seats=len(rec.names))]
    if rec.held:
        lines.append("  " + _("your hand at the end: {cards}").format(cards=symbols(rec.held)))
    if rec.cards:
        lines.append("  " + _("your cards seen this hand: {cards}").format(cards=symbols(rec.cards)))
    if rec.partial:  # (watched from part way: a resumed game, or a table joined mid-hand)
        lines.append("  " + _("the game was resumed (or joined) during this hand: your cards "
                              "before that are not known"))
    if rec.match:
        lines.append("  " + _("match cards: {cards}").format(cards=symbols(rec.match)))
    for h in sorted(r.hands, key=lambda h: h.place):
        who = (rec.names[h.seat] if h.seat < len(rec.names)
               else _("seat {n}").format(n=h.seat + 1))
        lines.append(f"  {h.place}. {who}: {shown_words(h)} "
                     f"({symbols(c.text for c in h.cards)})")
    if r.by_fold:
        lines.append("  " + _("won without a showdown (everyone else folded)"))
    for pot in r.pots:
        winners = and_words([rec.names[w] if w < len(rec.names) else str(w) for w in pot.winners])
        lines.append(("  " + _("pot of {amount} to {winners} {why}").format(
            amount=pot.amount, winners=winners, why=pot_words(pot, rec))).rstrip())
    if rec.tokens_lost:
        lines.append("  " + ngettext("you lost {n} token", "you lost {n} tokens",
                                     rec.tokens_lost).format(n=rec.tokens_lost))
    if rec.chips is not None:
        # TRANSLATORS: the English says "chips" for 1 too (kept as it always was)
        text = (ngettext("you won · {n} chips after the hand", "you won · {n} chips after the hand",
                         rec.chips) if rec.won else
                ngettext("you lost · {n} chips after the hand", "you lost · {n} chips after the hand",
                         rec.chips))
        lines.append("  " + text.format(n=rec.chips))
    else:
        text = (ngettext("you won · {n} token after the hand", "you won · {n} tokens after the hand",
                         rec.tokens) if rec.won else
                ngettext("you lost · {n} token after the hand", "you lost · {n} tokens after the hand",
                         rec.tokens))
        lines.append("  " + text.format(n=rec.tokens))
    return "\n".join(lines)
