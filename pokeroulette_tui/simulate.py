"""Headless games between bots, with the engine's invariants checked after every action."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from pokeroulette_tui.bots import Bot, make_bot
from pokeroulette_tui.engine.actions import Action
from pokeroulette_tui.engine.game import apply, check_invariants, dealer_to_act, legal_actions, new_game
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.scoring import standings
from pokeroulette_tui.engine.state import GameState
from pokeroulette_tui.engine.view import view_for


@dataclass
class GameRecord:
    """What one simulated game did."""

    seed: int
    hands: int = 0
    actions: list[Action] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    standings: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""


def next_action(state: GameState, bots: Sequence[Bot]) -> Action | None:
    """The dealer's step or the bot to act's choice; None if a human must act or it is over."""
    if state.game_over:
        return None
    if dealer_to_act(state):
        return legal_actions(state, None)[0]
    seat = state.to_act
    if seat is None:
        return None
    bot = bots[seat]
    legal = legal_actions(state, seat)
    view = view_for(state, seat) if bot.needs_view else None
    return bot.choose(view, legal)


def play_game(rules: RuleSet, players: int, seed: int, *, levels: Sequence[str] | None = None,
              max_hands: int = 200, check: bool = True, record: bool = False) -> GameRecord:
    """Play one game between bots to its end (or ``max_hands``)."""
    names = [f"Bot{i + 1}" for i in range(players)]
    state = new_game(rules, names, seed=seed, bots=[True] * players)
    levels = levels or ["random"] * players
    bots = [make_bot(levels[i], random.Random(seed * 1000 + i)) for i in range(players)]
    rec = GameRecord(seed=seed)
    while not state.game_over:
        if state.hand_no >= max_hands and state.phase in ("waiting", "hand_over"):
            rec.reason = _("stopped after {n} hands").format(n=max_hands)
            break
        action = next_action(state, bots)
        if action is None:
            rec.violations.append(f"stuck in phase {state.phase}")
            break
        apply(state, action)
        if record:
            rec.actions.append(action)
        if check:
            bad = check_invariants(state)
            if bad:
                rec.violations.extend(f"seed {seed} hand {state.hand_no}: {b}" for b in bad)
                break
    rec.hands = state.hand_no
    rec.reason = rec.reason or state.game_over_reason
    rec.standings = standings(state)
    return rec


def simulate(rules: RuleSet, *, games: int, players: int, seed: int,
             levels: Sequence[str] | None = None, max_hands: int = 200,
             check: bool = True) -> dict[str, Any]:
    """Play ``games`` games and return a summary (the last line of ``pokeroulette simulate``)."""
    start = time.perf_counter()
    hands = 0
    violations: list[str] = []
    wins: dict[str, int] = {}
    for g in range(games):
        rec = play_game(rules, players, seed + g, levels=levels, max_hands=max_hands, check=check)
        hands += rec.hands
        violations.extend(rec.violations)
        if rec.standings:
            top = rec.standings[0]["name"]
            wins[top] = wins.get(top, 0) + 1
    elapsed = time.perf_counter() - start
    return {"games": games, "players": players, "variant": rules.variant, "hands": hands,
            "seconds": round(elapsed, 3), "hands_per_s": round(hands / elapsed, 1) if elapsed else 0.0,
            "violations": len(violations), "violation_examples": violations[:5], "leaders": wins}
