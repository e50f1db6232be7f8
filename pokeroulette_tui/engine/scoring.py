"""Showdown, pots to winners, forfeit tokens, eliminations and the end of the game."""

from __future__ import annotations

from typing import Any

from pokeroulette_tui.engine import betting
from pokeroulette_tui.engine.cards import Card, suit_words
from pokeroulette_tui.engine.events import (BetReturned, DeciderCalled, Event, GameOver, HandOver,
                                            HandShown, PlayerOut, PotWon, SatOut, TokenLost)
from pokeroulette_tui.engine.hands import HandValue, evaluate, suit_key
from pokeroulette_tui.engine.i18n import _, ngettext
from pokeroulette_tui.engine.result import HandResult, PotResult, ShownHand
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.rules import token_words
from pokeroulette_tui.engine.words import and_words
from pokeroulette_tui.engine.state import LEFT, OUT, PLAYING, GameState


def tie_order(state: GameState) -> str | None:
    """The suit ranking that breaks ties, or None when suits never do."""
    if state.rules.variant == "roulette" or state.rules.suit_tiebreak:
        return state.suit_order
    return None


def hand_value(state: GameState, seat: int) -> HandValue:
    """The best hand ``seat`` holds now (stock in roulette, five cards in draw)."""
    r = state.rules
    s = state.seats[seat]
    if r.variant == "roulette":
        return evaluate(s.stock, five_of_a_kind=r.five_of_a_kind, jokers=r.jokers_at_end,
                        suit_order=state.suit_order)
    return evaluate(s.hand, suit_order=tie_order(state))


def strength_key(value: HandValue, order: str | None) -> tuple[Any, ...]:
    """A sort key: category, ranks, then the suit tie-break when ``order`` is given."""
    if order:
        return (value.category, value.ranks, suit_key(value, order))
    return (value.category, value.ranks)


def _by_significance(value: HandValue, order: str) -> list:
    """The hand's cards in the order the suit tie-break compares them (as :func:`suit_key`:
    rank groups in order, within a group the higher suit first, a joker last)."""
    score = {s: 4 - i for i, s in enumerate(order)}
    out, i, n = [], 0, len(value.cards)
    while i < n:
        k = i + 1
        while k < n and value.stands_for[k].rank == value.stands_for[i].rank:
            k += 1
        out += sorted(value.cards[i:k], key=lambda c: score.get(c.suit, 0), reverse=True)
        i = k
    return out


def _suit_explanation(a: HandValue, b: HandValue, order: str) -> str:
    for ca, cb in zip(_by_significance(a, order), _by_significance(b, order)):
        if ca.suit != cb.suit:
            return _("on the suit tie-break: {a} outranks {b} ({suit_a} over {suit_b})").format(
                a=ca.symbol, b=cb.symbol, suit_a=suit_words(ca.suit), suit_b=suit_words(cb.suit))
    return _("on the suit tie-break")



def finish_hand(state: GameState) -> list[Event]:
    """End the hand: show live hands (unless one player is left), award pots, score."""
    h = state.hand_no
    ev: list[Event] = []
    live = state.live_seats()
    by_fold = len(live) == 1
    order = tie_order(state)
    values: dict[int, HandValue] = {}
    keys: dict[int, tuple[Any, ...]] = {}
    shown: dict[int, tuple[Card, ...]] = {}
    if not by_fold:
        for i in live:
            s = state.seats[i]
            values[i] = hand_value(state, i)
            keys[i] = strength_key(values[i], order)
            s.shown = True
            s.stock_public = [True] * len(s.stock)
            shown[i] = tuple(s.stock if state.rules.variant == "roulette" else s.hand)
            ev.append(HandShown(_("{name} shows {hand}").format(name=s.name, hand=values[i].describe()),
                                seat=i,
                                cards=shown[i], hand_no=h))
    pot_results: list[PotResult] = []
    if state.rules.uses_chips:
        if not by_fold:
            ev.extend(return_uncalled(state))
        for amount, eligible in betting.pots(state):
            if by_fold:
                winners = [live[0]] if live[0] in eligible or not eligible else eligible
                why = _("as everyone else folded")
            else:
                contenders = [i for i in eligible if i in keys] or live
                best = max(keys[i] for i in contenders)
                winners = [i for i in contenders if keys[i] == best]
                hand = values[winners[0]].describe()
                why = _("with {hand}").format(hand=hand)
                if len(winners) > 1:
                    why = _("with {hand} (split)").format(hand=hand)
                else:
                    rest = sorted((i for i in contenders if i not in winners), key=lambda i: keys[i])
                    if rest and order:
                        second = rest[-1]
                        v, w = values[winners[0]], values[second]
                        if (v.category, v.ranks) == (w.category, w.ranks):
                            # TRANSLATORS: {tie_break} is "on the suit tie-break: …"
                            why = _("with {hand} {tie_break}").format(
                                hand=hand, tie_break=_suit_explanation(v, w, order))
            shares = betting.split(amount, winners, state)
            for w, share in shares.items():
                state.seats[w].chips += share
                state.seats[w].won += share
            names = and_words([state.name(w) for w in winners])
            if not pot_results:
                # TRANSLATORS: {why} is "with a pair of sevens", "as everyone else folded" …
                text = ngettext("{names} wins the pot of {amount} {why}",
                                "{names} win the pot of {amount} {why}", len(winners))
            else:
                text = ngettext("{names} wins side pot {n} of {amount} {why}",
                                "{names} win side pot {n} of {amount} {why}", len(winners))
            ev.append(PotWon(text.format(names=names, n=len(pot_results), amount=amount, why=why),
                             seat=winners[0], amount=amount, hand_no=h))
            pot_results.append(PotResult(amount, tuple(winners), tuple(eligible), shares, why))
        for s in state.seats:
            s.contributed = 0
            s.bet = 0
    elif by_fold:
        ev.append(PotWon(_("{name} wins: everyone else folded").format(name=state.name(live[0])),
                         seat=live[0], hand_no=h))
    token_events, losers = ([], [])
    if state.rules.scoring == "forfeit":
        token_events, losers = _forfeit(state, keys, live, by_fold)
        ev.extend(token_events)
    else:
        for i, s in enumerate(state.seats):
            if s.status == PLAYING and s.chips == 0:
                s.status = OUT
                s.out_hand, s.out_score = h, state.hand_start_chips.get(i, 0)
                ev.append(PlayerOut(_("{name} is out of chips").format(name=s.name), seat=i, hand_no=h))
    hands = tuple(ShownHand(
        seat=i, cards=v.cards, name=v.describe(), category=v.category.name, shown=shown[i],
        jokers=tuple(stood for card, stood in zip(v.cards, v.stands_for) if card.is_joker),
        place=1 + sum(k > keys[i] for k in keys.values())) for i, v in values.items())
    state.result = HandResult(
        hand_no=h, by_fold=by_fold, hands=hands, pots=tuple(pot_results),
        token_losers=tuple(losers),
        winners=tuple(sorted({w for p in pot_results for w in p.winners})) or (
            (live[0],) if by_fold else tuple(x.seat for x in hands if x.place == 1)))
    state.to_act = None
    state.pending = []
    state.phase = Phase.HAND_OVER
    ev.append(HandOver(_("Hand {n} is over").format(n=h), hand_no=h))
    ev.extend(check_game_over(state))
    return ev


def return_uncalled(state: GameState) -> list[Event]:
    """Give back the part of the biggest contribution nobody matched (the others all in for
    less): it was never contested, so no hand wins it (RULES.md §4). Returns the event that
    says so, or nothing when every chip in was matched."""
    if not state.seats:
        return []
    top = max(range(state.n), key=lambda i: state.seats[i].contributed)
    s = state.seats[top]
    second = max((o.contributed for j, o in enumerate(state.seats) if j != top), default=0)
    excess = s.contributed - second
    if excess <= 0 or not s.live:  # (a leaver's unmatched chips stay in as dead money)
        return []
    s.contributed -= excess
    s.chips += excess
    # TRANSLATORS: chips that nobody called go back to the player who put them in
    return [BetReturned(_("{amount} uncalled, returned to {name}").format(
        amount=excess, name=s.name), seat=top, amount=excess, hand_no=state.hand_no)]


def _forfeit(state: GameState, keys: dict[int, tuple[Any, ...]], live: list[int],
             by_fold: bool) -> tuple[list[Event], list[int]]:
    r = state.rules
    h = state.hand_no
    ev: list[Event] = []
    part = [i for i in range(state.n) if state.seats[i].in_hand and state.seats[i].status != LEFT]
    mode = r.forfeit_mode
    if mode == "most_chips_lost":
        start = state.hand_start_chips
        # a player who could not pay the whole ante (or, with no ante, had no chips to bet)
        # counts as losing the most: an empty stack could otherwise never lose a token
        short = [i for i in part if start.get(i, 0) < max(r.ante, 1)]
        lost = {i: start.get(i, 0) - state.seats[i].chips for i in part}
        worst = max(lost.values(), default=0)
        losers = [i for i in part if lost[i] == worst]
        # TRANSLATORS: the reasons ("lost the most chips (5)", "folded" …) follow a player's
        # name: "Ana folded and loses one of their tokens (4 left)"
        why = _("lost the most chips ({amount})").format(amount=worst)
        if short and len(short) < len(part):
            losers = short
            why = _("could not pay the ante") if r.ante else _("had no chips to bet")
        elif short or worst <= 0:  # everyone short, or nobody lost a chip (no ante, all
            mode = "weakest"  # checked, stacks empty): the weakest hand loses (RULES §5)  # the weakest hand loses, as in the main variant
    if mode == "all_but_winner":
        if by_fold:
            winners = live
        else:
            best = max(keys.values())
            winners = [i for i in live if keys[i] == best]
        losers = [i for i in part if i not in winners]
        why = _("did not have the best hand")
    elif mode == "weakest":
        folded = [i for i in part if not state.seats[i].live]
        if folded:
            losers, why = folded, _("folded")
        elif by_fold:
            losers, why = [], ""
        else:
            low = min(keys.values())
            losers, why = [i for i in live if keys[i] == low], _("had the weakest hand")
    if len(losers) > 1 and r.forfeit_mode != "all_but_winner" and r.forfeit_tie == "replay":
        names = ", ".join(state.name(i) for i in losers)
        state.decider = sorted(losers)
        ev.append(DeciderCalled(_("{names} tie ({why}): they play a deciding hand").format(
            names=names, why=why), hand_no=h))
        return ev, []
    state.decider = None
    for i in losers:
        s = state.seats[i]
        before = s.tokens  # (what the seat began this hand with)
        if s.tokens > 0:
            s.tokens -= 1
            ev.append(TokenLost(_("{name} {why} and loses one of their {token_name} ({n} left)").format(
                name=s.name, why=why, token_name=token_words(r), n=s.tokens), seat=i, amount=1,
                hand_no=h))
        elif s.last_life:
            s.status = OUT
            s.out_hand, s.out_score = h, before
            ev.append(PlayerOut(_("{name} {why} on a last life and is out").format(name=s.name, why=why),
                                seat=i, hand_no=h))
            continue
        if s.tokens == 0 and r.game_end == "last_standing":
            others = sum(1 for j, o in enumerate(state.seats) if j != i and o.status == PLAYING)
            if r.sit_out and not s.last_life and others >= 2:
                # sitting out replaces dropping out only while enough players remain
                s.last_life = True
                s.sit_out_hands = 1
                ev.append(SatOut(_("{name} has no {token_name} left: sits out a hand, then plays on a "
                                   "last life").format(name=s.name, token_name=token_words(r)),
                                 seat=i, hand_no=h))
            else:
                s.status = OUT
                s.out_hand, s.out_score = h, before
                ev.append(PlayerOut(_("{name} has no {token_name} left and is out").format(
                                        name=s.name, token_name=token_words(r)),
                                    seat=i, hand_no=h))
    return ev, losers


def check_game_over(state: GameState) -> list[Event]:
    """End the game if the rules say so; fills ``game_over_reason`` and standings."""
    r = state.rules
    playing = state.playing_seats()
    reason = ""
    if r.scoring == "forfeit" and r.game_end == "first_out" and not state.decider:
        busted = [i for i in playing if state.seats[i].tokens == 0]
        if busted:
            reason = ngettext("{names} ran out of {token_name} and loses the game",
                              "{names} ran out of {token_name} and lose the game", len(busted)).format(
                names=and_words([state.name(i) for i in busted]), token_name=token_words(r))
    if not reason and len(playing) <= 1:
        if playing:
            reason = _("{name} wins the game").format(name=state.name(playing[0]))
        else:
            reason = _("no players are left")
    if not reason and r.hand_limit and state.hand_no >= r.hand_limit and not state.decider \
            and state.phase == Phase.HAND_OVER:
        reason = ngettext("the agreed {n} hand has been played",
                          "the agreed {n} hands have been played", r.hand_limit).format(
            n=r.hand_limit)
    if not reason:
        return []
    state.game_over = True
    state.game_over_reason = reason
    state.phase = Phase.GAME_OVER
    state.to_act = None
    return [GameOver(_("Game over: {reason}").format(reason=reason), hand_no=state.hand_no)]


def standing_key(p: Any, forfeit: bool) -> tuple[int, int, int]:
    """Where a seat (a :class:`~pokeroulette_tui.engine.state.Seat` or a view's player: the
    same fields) stands at the end, as a key that sorts best last (RULES.md §5): players
    still in, by chips (tokens under forfeit scoring); then those who are out, the latest
    out first, and of those out in the same hand the one who began it with more; players
    who left the table last, by what they left with. Equal keys share a place."""
    if p.status == PLAYING:
        return (2, p.tokens if forfeit else p.chips + p.contributed, 0)
    if p.status == OUT:
        return (1, p.out_hand, p.out_score)
    return (0, p.tokens if forfeit else p.chips + p.contributed, 0)


def ranked(players: list[tuple[int, Any]], forfeit: bool) -> list[tuple[int, int, Any]]:
    """``(seat, player)`` pairs best first as ``(place, seat, player)``: equal standings share
    a place (1, 2, 2, 4 …); within one the seats keep their order."""
    keys = {i: standing_key(p, forfeit) for i, p in players}
    order = sorted(players, key=lambda ip: keys[ip[0]], reverse=True)
    return [(1 + sum(k > keys[i] for k in keys.values()), i, p) for i, p in order]


def standings(state: GameState) -> list[dict[str, Any]]:
    """Seats best first (:func:`standing_key`), each with its ``place`` (shared when equal)."""
    forfeit = state.rules.scoring == "forfeit"
    return [{"seat": i, "name": s.name, "chips": s.chips + s.contributed, "tokens": s.tokens,
             "status": s.status, "place": place}
            for place, i, s in ranked(list(enumerate(state.seats)), forfeit)]
