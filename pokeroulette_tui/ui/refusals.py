"""Why a table key does nothing now, in a sentence: a key a player presses is never met with
silence (a raise when the raises are used up, a digit beyond the stock, the last hand before
any hand ended). Only what the player's own view shows is used, so a reason never tells
anything the table does not already show them."""

from __future__ import annotations

from pokeroulette_tui.engine.i18n import _, ngettext
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.view import SeatView

DIGITS = frozenset("0123456789")
TURN_KEYS = frozenset({"b", "r", "a", "c", "f", "k", "p", "e", "enter"}) | DIGITS
"""The keys of a turn (betting, moving a stock card, drawing, cutting)."""


def refusal(view: SeatView | None, key: str, *, players_here: bool, ended: bool,
            can_chat: bool = False, can_pace: bool = True,
            sorted_hand: bool = False, instant: bool = False,
            can_start_new: bool = True) -> str | None:
    """Why ``key`` does nothing now at a table showing ``view`` (None: it is not one of the
    table's keys, or the screen says why already). ``players_here``: someone plays at this
    terminal (not a spectator's); ``ended``: a hand has ended that ``s`` could show;
    ``can_chat``: the table has a chat; ``can_pace``: this terminal paces the table (a local
    one); ``sorted_hand``: the viewer's hand is shown sorted already; ``instant``: the table
    plays at no pause (speed instant), so ``n`` has nothing to skip; ``can_start_new``: a
    new game can be started here once this one is over (not at a network table)."""
    if key == "s":
        return None if ended else _("No hand has ended yet: s shows the last hand once one has.")
    if key == "m" and not can_chat:
        if _at_cut(view):
            return _cut_letters()
        return _("This table has no chat: chat is for network play.")
    if view is None:
        return None
    if view.game_over:  # (at the table, the standings closed: what the keys do now)
        if key in TURN_KEYS and key != "enter":
            return (_("The game is over: Enter or g shows the standings, n starts a new game.")
                    if can_start_new else
                    _("The game is over: Enter or g shows the standings."))
        return None
    if key in ("n", "v", "l", "L") and not players_here:
        if key == "n":
            return _("You are watching this table: there is no turn of yours to skip to.")
        if key == "v":
            return _("You are watching this table: its host sets the speed.")
        return _("You are watching this table: you have no seat to leave (q quits).")
    if key == "v" and not can_pace:
        return _("The host sets the speed of this table.")
    if key == "n":  # (skip to your turn: bound, and so never here, whenever it works)
        return _skip(view, can_pace=can_pace, instant=instant)
    if key == "o":
        if _at_cut(view):
            return _cut_letters()
        if view.phase == Phase.DRAW and view.me is not None:
            if sorted_hand:
                return _("Your hand is sorted already (for the rest of this hand).")
            return None
        if players_here and view.me is not None:
            return _("o sorts your hand in five-card draw, during the draw.")
        return None
    if key not in TURN_KEYS or view.phase in (Phase.GAME_OVER, Phase.WAITING):
        return None
    if not players_here:
        return _("You are watching this table: only its players act.")
    me = view.me
    if view.phase == Phase.HAND_OVER and key != "enter":
        return _("The hand is over: Enter deals the next one, s shows its result again.")
    if not view.my_turn or me is None:
        if me is not None and me.folded and view.phase not in (Phase.HAND_OVER,):
            return _("You have folded this hand: wait for the next one.")
        if view.phase == Phase.BETTING and view.to_act is not None \
                and 0 <= view.to_act < len(view.players):
            return _("It is not your turn: {name} is to act.").format(
                name=view.players[view.to_act].name)
        return _("It is not your turn.")
    if view.phase == Phase.BETTING:
        return _betting(view, key)
    if view.phase == Phase.STOCK_TO_ACTIVE and key in DIGITS:
        n = len(me.stock)
        return ngettext("Your stock has {n} card: 1 moves it to your actives, k keeps it.",
                        "Your stock has {n} cards: 1–{n} moves one to your actives, k keeps "
                        "them.", n).format(n=n)
    if view.phase == Phase.DRAW and key in DIGITS:
        n = len(me.hand)
        return _("Press 1–{n} to choose the cards to exchange, then Enter.").format(n=n)
    return _("That key does nothing now: the keys you can use are in the bar at the bottom.")


def _betting(view: SeatView, key: str) -> str:
    """Why a betting key is not on offer on the player's own betting turn."""
    o, me = view.options, view.me
    assert me is not None
    if o is None:
        return _("It is not your turn.")
    to_call = view.current_bet - me.bet
    if key == "b":
        if view.current_bet:
            return _("There is a bet already ({amount} to call): c calls, r raises.").format(
                amount=to_call) if o.raise_min else _(
                "There is a bet already ({amount} to call): c calls.").format(amount=to_call)
        return _("Your chips do not cover a bet: a goes all in.") if o.all_in else _(
            "You cannot open the betting now.")
    if key == "r":
        if not view.current_bet:
            return _("Nobody has bet yet: b opens the betting.") if o.bet_min else _(
                "Nobody has bet yet, and your chips do not cover a bet: a goes all in.")
        if me.chips <= to_call or me.bet + me.chips <= view.current_bet + (
                view.rules.bet_unit if view.rules.limit == "fixed" else view.min_raise):
            return _("Your chips do not cover a raise: c calls, a goes all in.") if o.all_in \
                else _("Your chips do not cover a raise.")
        return _no_more_raises(view)
    if key == "a":
        if view.rules.limit == "fixed":
            if not view.current_bet:
                return _("Going all in is not allowed here (fixed limit): c checks, b bets.") \
                    if o.bet_min else _("Going all in is not allowed here (fixed limit): "
                                        "c checks.")
            return _("Going all in is not allowed here (fixed limit): c calls, r raises.") \
                if o.raise_min else _("Going all in is not allowed here (fixed limit): "
                                      "c calls.")
        return _no_more_raises(view)
    return _("That key does nothing now: the keys you can use are in the bar at the bottom.")


def _no_more_raises(view: SeatView) -> str:
    if view.rules.limit == "fixed":
        return _("No more raises for you this betting round (fixed limit: at most three a "
                 "round, and an all-in short of a full raise does not reopen them).")
    return _("You cannot raise again: nobody has raised in full since you last acted.")


def _at_cut(view: SeatView | None) -> bool:
    """True on the viewer's own turn to cut (the letters o, q, m and l are the cut box's)."""
    return view is not None and view.my_turn and view.phase == Phase.CUT


def _cut_letters() -> str:
    """Why a cut box letter does nothing at the table itself."""
    return _("At the cut, o, q, m and l work in the box e opens: e, then o one, q quarter, "
             "m middle or l last.")


def _skip(view: SeatView, *, can_pace: bool, instant: bool) -> str:
    """Why ``n`` (skip to your turn) does nothing now, for someone playing here."""
    if not can_pace:
        return _("The host paces this table: n (skip to your turn) is for tables played "
                 "at this terminal.")
    if view.my_turn:
        return _("It is your turn now: n skips the dealer's and the bots' steps up to your "
                 "next turn.")
    if instant:
        return _("The table plays at no pause (speed instant): n has nothing to skip; v "
                 "changes the speed.")
    # (what is left: no person here will decide anything again this hand or after it)
    return _("There is no turn ahead to skip to: nobody here has a decision left (out of "
             "chips, or all in to the end of this hand).")
