"""Hints for the seat at this terminal, from its own :class:`SeatView` only: the exact keep
chances of its actives, how often its stock gets better by the end, its equity by the strong
bot's own Monte Carlo estimator, and the "what beats what" card of this table's rules.

Plain logic and Rich text, no Textual: :func:`estimates` is what the hints panel's worker
thread runs (it yields better and better estimates until its time is up or it is told to
stop), the ``*_text`` functions draw them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from typing import TYPE_CHECKING

from pokeroulette_tui.engine.cards import SUIT_SYMBOLS
from pokeroulette_tui.engine.hands import CATEGORY_NAMES, Category
from pokeroulette_tui.engine.i18n import _, ngettext, percent
from pokeroulette_tui.engine.phase import BETWEEN_HANDS
from pokeroulette_tui.engine.rules import RuleSet, token_words
from pokeroulette_tui.engine.view import SeatView

if TYPE_CHECKING:  # the estimators (the bots' playouts, the exact keep odds) load when first
    # asked for, not with the table screen (bench_startup.py, test_startup_path.py)
    from pokeroulette_tui.engine.hints import Improve, KeepOdds

BUDGET = 1.5
"""Seconds of CPU one view's estimates may take (in a worker thread: the table never waits)."""
BATCH = 40
"""Equity playouts between two looks at the clock (and at a request to stop)."""
MAX_SAMPLES = 6000
IMPROVE_SAMPLES = 400


@dataclass(frozen=True)
class Estimate:
    """What the hints panel shows for one view; ``done`` once the estimates are final."""

    keep: KeepOdds | None = None
    improve: Improve | None = None
    win: float | None = None      # the expected share of the pot (a split counts a share)
    last: float | None = None     # the chance of the weakest hand (forfeit scoring)
    samples: int = 0
    seconds: float = 0.0
    done: bool = False
    failed: bool = False  # the estimate broke off with an error (logged): said, not spun


def live_count(view: SeatView) -> int:
    return sum(1 for p in view.players if p.in_hand and not p.folded)


def can_hint(view: SeatView | None) -> bool:
    """True when ``view`` is a seat in a hand (not folded): there is something to estimate."""
    if view is None or view.me is None or view.phase in BETWEEN_HANDS or view.game_over:
        return False
    me = view.me
    if view.rules.variant == "draw" and not me.hand:
        return False  # the cut, before the deal: no cards to estimate (it is no sure loss)
    return me.in_hand and not me.folded and live_count(view) >= 2


def _before_the_deal(view: SeatView) -> bool:
    me = view.me
    return (me is not None and view.rules.variant == "draw" and not me.hand
            and view.phase not in BETWEEN_HANDS and not view.game_over)


_KEEP_CACHE: dict[tuple, KeepOdds | None] = {}


def _keep(view: SeatView) -> KeepOdds | None:
    """:func:`~pokeroulette_tui.engine.hints.keep_odds`, remembered for the same unseen
    cards, actives and match card (a bet changes the view, not these)."""
    from pokeroulette_tui.engine.hints import keep_odds, unseen_cards

    me = view.me
    key = (view.rules, view.phase, view.betting_round, view.match,
           me.actives if me else None, bool(me.added) if me else None,
           frozenset(unseen_cards(view).items()))
    if key not in _KEEP_CACHE:
        if len(_KEEP_CACHE) > 64:
            _KEEP_CACHE.clear()
        _KEEP_CACHE[key] = keep_odds(view)
    return _KEEP_CACHE[key]


def estimates(view: SeatView, rng: random.Random, *, budget: float = BUDGET,
              stop: Callable[[], bool] = lambda: False,
              clock: Callable[[], float] = time.perf_counter) -> Iterator[Estimate]:
    """Better and better estimates for ``view`` (its seat's hints), from the view alone.

    The keep chances first (exact), then the improvement (playouts), then the equity in
    batches of :data:`BATCH` playouts until ``budget`` seconds have passed, :data:`MAX_SAMPLES`
    are done or ``stop()`` says so. The last estimate yielded has ``done`` set (unless
    stopped).
    """
    from pokeroulette_tui.bots.draw_mc import draw_equities
    from pokeroulette_tui.bots.roulette_mc import roulette_equities
    from pokeroulette_tui.engine.hints import improve_odds

    start = clock()
    est = Estimate()
    if not can_hint(view):
        yield replace(est, done=True)
        return
    if view.rules.variant == "roulette":
        est = replace(est, keep=_keep(view))
        if stop():
            return
        yield est
        est = replace(est, improve=improve_odds(view, rng, IMPROVE_SAMPLES))
        if stop():
            return
        yield est
    win = last = 0.0
    n = 0
    eq_start = clock()
    while n < MAX_SAMPLES and not stop():
        if view.rules.variant == "roulette":
            eq = roulette_equities(view, rng, BATCH)[0]
        else:
            eq = draw_equities(view, rng, BATCH)[0]
        win += eq.win * eq.samples
        last += eq.last * eq.samples
        n += eq.samples
        now = clock()
        finished = n >= MAX_SAMPLES or now - start >= budget
        est = replace(est, win=win / n, last=last / n, samples=n, seconds=now - eq_start,
                      done=finished)
        yield est
        if finished:
            return


# -- drawing ------------------------------------------------------------------------------

def pct(p: float | Fraction) -> str:
    """A chance for the eye, written the player's way: whole percent, or one decimal below 1%
    (never a bare 0 or 100 for what may still happen).

    >>> pct(Fraction(1, 3)), pct(0.004), pct(0), pct(1), pct(0.9996)
    ('33%', '0.4%', '0%', '100%', '>99.9%')
    """
    p = float(p)
    if p <= 0:
        return percent(0, 0)
    if p >= 1:
        return percent(1, 0)
    if p < 0.001:
        return "<" + percent(0.001, 1)
    if p > 0.999:
        return ">" + percent(0.999, 1)
    return percent(p, 1 if p < 0.01 or p > 0.99 else 0)


class Unbroken:
    """Rich text drawn wrapped at the width it gets, but never at a no-break space: Rich and
    Textual break a line at any space, so a Finnish "41 %" could leave its sign alone on the
    next line. Each line it yields fits, so nothing wraps it again.

    >>> from rich.console import Console
    >>> console = Console(width=12, color_system=None)
    >>> with console.capture() as out:
    ...     console.print(Unbroken(Text("Paranee: 41\\u00a0%")))
    >>> [line.rstrip() for line in out.get().splitlines()]
    ['Paranee:', '41\\xa0%']
    """

    GUARD = "\ue000"  # (a private-use character: one cell, not a space, never in the text)

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        guarded = self.text.copy()
        guarded.plain = self.text.plain.replace("\u00a0", self.GUARD)  # same length: styles kept
        lines = guarded.wrap(console, options.max_width)
        for line in lines:
            line.plain = line.plain.replace(self.GUARD, "\u00a0")
        yield lines

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)


def keep_text(keep: KeepOdds | None, view: SeatView, *, compact: bool = False) -> Text:
    out = Text()
    if keep is None:
        if view.rules.variant == "roulette":
            out.append(_("No more actives this hand") + "\n", style="dim")
        return out
    n = keep.count
    if keep.next_round:
        out.append(ngettext("Next round: {n} new active", "Next round: {n} new actives", n)
                   .format(n=n), style="bold")
        out.append("" if compact else " " + _("(if dealt)"), style="dim")
    elif keep.match_known:
        out.append(ngettext("Face-down active vs match", "Face-down actives vs match", n)
                   .format(n=n), style="bold")
    else:
        out.append(ngettext("Face-down active vs next match", "Face-down actives vs next match", n)
                   .format(n=n), style="bold")
    if keep.count == 1:
        out.append("\n " + _("kept {chance}").format(chance=pct(keep.each[0])) + "\n")
    elif keep.each[0] == keep.each[1]:
        out.append("\n " + _("each kept {chance} · one+ {some}").format(
            chance=pct(keep.each[0]), some=pct(keep.some)) + "\n")
    else:
        out.append("\n " + _("1st {first} · 2nd {second} · one+ {some}").format(
            first=pct(keep.each[0]), second=pct(keep.each[1]), some=pct(keep.some)) + "\n")
    if keep.claim and (not compact or keep.claim >= Fraction(1, 100)):
        out.append(" " + _("claims the match card {chance}").format(chance=pct(keep.claim)) + "\n",
                   style="dim")
    return out


def _cat(c: Category) -> str:
    return _(CATEGORY_NAMES[c])


def improve_text(improve: Improve | None) -> Text:
    """"Improves by the end: 48%", then today's category and the likeliest better one."""
    out = Text()
    if improve is None:
        return out
    out.append(_("Improves by the end"), style="bold")
    out.append(f": {pct(improve.better)}\n")
    up = [(p, c) for c, p in improve.ends.items() if c > improve.now]
    out.append(" " + _("from {hand}").format(hand=_cat(improve.now)), style="dim")
    if up:
        p, c = max(up)
        out.append(f": {_cat(c)} {pct(p)}", style="dim")
    out.append("\n")
    return out


def equity_text(est: Estimate, view: SeatView) -> Text:
    out = Text()
    if est.win is None:
        out.append((_("Equity: could not be estimated") if est.failed else
                    _("Equity: estimating …")) + "\n", style="dim")
        return out
    from pokeroulette_tui.bots.common import objective

    rivals = live_count(view) - 1
    if objective(view.rules) == "not_last":
        out.append(_("Weakest hand"), style="bold")
        out.append(f": {pct(est.last or 0)}")
        # TRANSLATORS: {tokens} is what this table's forfeit tokens are called (tokens, items,
        # or a name the table typed): "Weakest hand: 32% (loses one of the items)"
        loses = _("(loses one of the {tokens})").format(tokens=token_words(view.rules))
        out.append(f" {loses}\n", style="dim")
    else:
        # TRANSLATORS: "Equity vs 2: 35% (fair 33%)": the share of the pot this hand expects
        out.append(_("Equity"), style="bold")
        out.append(" " + _("vs {rivals}: {chance}").format(rivals=rivals, chance=pct(est.win)))
        out.append(" " + _("(fair {chance})").format(chance=pct(1 / (rivals + 1))) + "\n",
                   style="dim")
    state = "" if est.done else " …"
    out.append(" " + _("{samples:,} samples · {seconds:.1f} s").format(
        samples=est.samples, seconds=est.seconds) + state + "\n", style="dim")
    return out


def hints_text(view: SeatView | None, est: Estimate | None, *, allowed: bool = True,
               hot_seat: bool = False, compact: bool = False) -> Text:
    """The hints panel: whose hints, then each estimate; or why there are none now.
    ``compact``: for the narrow side panel of an 80-column table (the fewest rows)."""
    out = Text()
    if not allowed:
        out.append(_("Hints are off at this table"), style="bold")
        return out
    if view is None or view.me is None:
        # TRANSLATORS: the first word is shown in bold (the panel's title), the rest dim
        sentence = _("Hints show here on your turn") if hot_seat else _("Hints need a seat at the table")
        head, space, rest = sentence.partition(" ")
        out.append(head, style="bold")
        out.append(f"{space}{rest}\n", style="dim")
        return out
    out.append(_("Hints for {name}").format(name=view.me.name), style="bold")
    out.append(" " + _("(i hides)") + "\n", style="dim")
    if not can_hint(view):
        out.append((_("No cards dealt yet: the hints come with your cards")
                    if _before_the_deal(view) else _("No hand in play for you now")) + "\n",
                   style="dim")
        return out
    est = est or Estimate()
    if view.rules.variant == "roulette":
        if est.keep is None and est.improve is None:
            out.append(_("Counting …") + "\n", style="dim")
        else:
            out.append_text(keep_text(est.keep, view, compact=compact))
            out.append_text(improve_text(est.improve))
    out.append_text(equity_text(est, view))
    out.rstrip()
    return out


def beats_text(rules: RuleSet, suit_order: str | None, *, chain: bool = False) -> Text:
    """The "what beats what" card of this table: the categories high to low with this
    table's five-of-a-kind and joker options, who loses a forfeit token (forfeit scoring),
    and how ties go: a pot split only where chips are played, RULES §5 ``forfeit_tie``
    where tokens are.

    >>> "five of a kind" in beats_text(RuleSet(), "SHDC").plain
    True
    >>> "five of a kind" in beats_text(RuleSet(five_of_a_kind="as_four"), None).plain.split("\\n")[1]
    False
    """
    roulette = rules.variant == "roulette"
    high = roulette and rules.five_of_a_kind == "high"
    cats = [c for c in reversed(Category) if c != Category.FIVE_OF_A_KIND or high]
    notes = {
        # TRANSLATORS: said beside "five of a kind" (its subject: agree with it)
        Category.FIVE_OF_A_KIND: _("beats a straight flush"),
        Category.STRAIGHT_FLUSH: _("ace high: the royal flush"),
        Category.STRAIGHT: _("A-2-3-4-5 is the lowest"),
    }
    out = Text()
    if chain:  # one sentence, for a side panel
        out.append(" > ".join(_cat(c) for c in cats) + "\n")
    else:  # a list, best first (the dialog's title says so)
        for i, c in enumerate(cats, 1):
            out.append(f"{i}. {_cat(c)}")
            if c in notes:
                out.append(f"  {notes[c]}", style="dim")
            out.append("\n")
    if roulette:
        if rules.jokers_at_end == "wild":
            out.append(_("Jokers wild:") + " ", style="bold")
            out.append(_("each stands for any rank and suit") + "\n")
        else:
            out.append(_("Jokers removed:") + " ", style="bold")
            out.append(_("taken out of every stock before hands are made") + "\n")
        if not high:
            # TRANSLATORS: bold, followed by "counts as four of a kind"
            out.append(_("Five of a kind") + " ", style="bold")
            out.append(_("counts as four of a kind") + "\n")
        if not chain:
            out.append(_("Hands: best five stock cards (all of 4 or fewer); a missing kicker "
                         "loses") + "\n")
    elif rules.uses_chips:
        out.append(_("No wild cards: five cards each, the best hand wins.") + "\n")
    else:  # forfeit tokens, no betting: no pot to win (the token line below says who loses)
        out.append(_("No wild cards: five cards each.") + "\n")
    if rules.scoring == "forfeit":
        out.append(_("Forfeit:") + " ", style="bold")
        out.append(_forfeit_words(rules) + "\n")
    ties = _tie_words(rules)
    if roulette or rules.suit_tiebreak:
        order = suit_order or (rules.suit_order if rules.suit_order != "drawn" else None)
        out.append(_("Ties:") + " ", style="bold")
        out.append(" > ".join(SUIT_SYMBOLS[s] for s in order) if order
                   else _("the suit order drawn before the first hand"))
        out.append("\n " + _("suit against suit, card by card, the most significant first"))
        if roulette and rules.jokers_at_end == "wild":
            out.append("; " + _("a joker's suit is below them all"))
        # TRANSLATORS: {ties} is one or two clauses ("the pot is split; tied weakest hands
        # play a deciding hand")
        out.append("; " + _("still equal: {ties}").format(ties=ties))
    elif rules.scoring == "chips":
        out.append(_("Equal hands split the pot (suits do not count)."))
    else:
        # TRANSLATORS: {ties} is one or two clauses ("tied weakest hands play a deciding hand")
        out.append(_("Equal hands (suits do not count): {ties}.").format(ties=ties))
    return out


def _forfeit_words(rules: RuleSet) -> str:
    """Who loses a forfeit token after the showdown (RULES §5 ``forfeit_mode``), with the
    tie rule when it is not about hands (``most_chips_lost``: ties in chips lost)."""
    tokens = token_words(rules)
    if rules.forfeit_mode == "weakest":
        return _("the weakest hand loses one of the {tokens}").format(tokens=tokens)
    if rules.forfeit_mode == "all_but_winner":
        return _("every hand but the best loses one of the {tokens}").format(tokens=tokens)
    tie = (_("players tied for it play a deciding hand") if rules.forfeit_tie == "replay"
           else _("players tied for it each lose one"))
    # TRANSLATORS: {tie} is a clause of its own ("players tied for it play a deciding hand")
    return _("whoever lost the most chips in the hand loses one of the {tokens}; {tie}").format(
        tokens=tokens, tie=tie)


def _tie_words(rules: RuleSet) -> str:
    """What happens to hands still equal (after the suits, where suits count): the pot is
    split (when chips are played) and, with forfeit tokens, RULES §5 ``forfeit_tie``.

    >>> _tie_words(RuleSet())
    'the pot is split'
    >>> _tie_words(RuleSet(scoring="forfeit", betting="none", forfeit_tie="all_lose"))
    'tied weakest hands each lose one'
    """
    clauses = [_("the pot is split")] if rules.uses_chips else []
    if rules.scoring == "forfeit":
        if rules.forfeit_mode == "weakest":
            clauses.append(_("tied weakest hands play a deciding hand")
                           if rules.forfeit_tie == "replay"
                           else _("tied weakest hands each lose one"))
        elif rules.forfeit_mode == "all_but_winner":
            clauses.append(_("tied best hands all keep their {tokens}").format(
                tokens=token_words(rules)))
    return "; ".join(clauses)
