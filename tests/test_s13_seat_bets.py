"""A seat's line says its bet while the betting round is open; once the round is over (the
matching, the next deal, the draw) the bets are the pot's and the seat lines no longer show
last round's amounts as if a bet were open."""

from __future__ import annotations

from dataclasses import replace

from pokeroulette_tui.engine.game import new_game
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.ui.widgets.present import seat_text


def test_a_seat_shows_its_bet_only_while_the_betting_round_is_open():
    view = view_for(new_game(RuleSet(), ["Ana", "Bo", "Cy"], seed=3), None)
    players = list(view.players)
    players[1] = replace(players[1], bet=2)
    betting = replace(view, players=tuple(players), phase=Phase.BETTING, to_act=2, hand_no=1)
    assert "bet 2" in seat_text(betting, 1).plain
    for phase in (Phase.MATCHED, Phase.DEALT, Phase.DRAW):
        later = replace(betting, phase=phase, to_act=None)
        assert "bet 2" not in seat_text(later, 1).plain, phase
