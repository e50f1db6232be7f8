"""Card faces and the table's text pieces, without an app."""

from __future__ import annotations

from rich.console import Console

from pokeroulette_tui.engine.actions import StartHand
from pokeroulette_tui.engine.cards import JOKER, Card, parse_card, parse_cards
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.game import apply, new_game
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.ui.renderables import (BOX_WIDTH, boxed_row, card_text, cards_text,
                                             suit_order_text, suit_style)
from pokeroulette_tui.ui.screens.amount import parse_amount
from pokeroulette_tui.ui.screens.showdown import HandResult, result_text
from pokeroulette_tui.ui.widgets.centre import centre_text
from pokeroulette_tui.ui.widgets.hand import panel_content, panel_title, prompt_text
from pokeroulette_tui.ui.widgets.log import event_line
from pokeroulette_tui.ui.widgets.present import (best_visible, positions_of, seat_text,
                                                 standings, status_words)


def plain(renderable, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(renderable)
    return console.export_text()


# -- card faces -----------------------------------------------------------------

def test_compact_faces_carry_rank_and_suit_symbol():
    assert card_text(parse_card("As")).plain == "[A♠]"
    assert card_text(parse_card("Th")).plain == "[T♥]"
    assert card_text(parse_card("2d")).plain == "[2♦]"
    assert card_text(parse_card("9c")).plain == "[9♣]"


def test_back_and_joker():
    assert card_text(None).plain == "[▒▒]"
    assert card_text(JOKER).plain == "[★]"


def test_highlight_is_not_colour_only():
    normal = card_text(parse_card("Kh"))
    marked = card_text(parse_card("Kh"), highlight=True)
    assert normal.plain == marked.plain
    style = marked.style
    assert style.bold and style.underline
    assert not normal.style.underline


def test_four_colour_deck_changes_diamonds_and_clubs_only():
    for suit in "SH":
        assert suit_style(suit).color == suit_style(suit, four_color=True).color
    for suit in "DC":
        assert suit_style(suit).color != suit_style(suit, four_color=True).color
    assert suit_style("H").color == suit_style("D").color  # two colours: red and black
    assert len({suit_style(s, four_color=True).color.name for s in "SHDC"}) == 4


def test_cards_text_highlights_positions():
    row = cards_text(parse_cards("As Kd 7c"), highlight=[1], sep=" ")
    assert row.plain == "[A♠] [K♦] [7♣]"
    underlined = [row.plain[s.start:s.end] for s in row.spans if s.style.underline]
    assert underlined == ["[K♦]"]


def test_boxed_row_shapes():
    text = boxed_row(parse_cards("As Th") + [None, JOKER], labels=["1", "2", "3", "4"])
    lines = text.plain.split("\n")
    assert len(lines) == 4
    assert lines[0] == "╭───╮ ╭───╮ ╭───╮ ╭───╮"
    assert lines[1] == "│ A♠│ │ T♥│ │▒▒▒│ │ ★ │"  # a ten is T on every face
    assert lines[2] == "╰───╯ ╰───╯ ╰───╯ ╰───╯"
    assert lines[3].split() == ["1", "2", "3", "4"]
    assert all(len(line) == 4 * BOX_WIDTH + 3 for line in lines)


def test_boxed_highlight_and_selection_change_the_border():
    text = boxed_row(parse_cards("As Kd 2c"), highlight=[0], selected=[2],
                     labels=["1", "2", "3 out"])
    top = text.plain.split("\n")[0]
    assert top == "┏━━━┓ ╭───╮ ╔═══╗"
    assert text.plain.split("\n")[3].endswith("3 out")


def test_boxed_without_labels_is_three_lines():
    assert boxed_row(parse_cards("2s")).plain.count("\n") == 2


def test_suit_order_text():
    assert suit_order_text("CDHS").plain == "♣ > ♦ > ♥ > ♠"
    assert suit_order_text(None).plain == "not drawn yet"


def test_faces_print_through_a_console():
    out = plain(cards_text([parse_card("Qs"), None]))
    assert "[Q♠][▒▒]" in out


# -- pieces of the table ---------------------------------------------------------

def dealt(rules: RuleSet = PRESETS["classic"], names=("Ana", "Bo", "Cy")):
    g = new_game(rules, list(names), seed=4)
    apply(g, StartHand())
    return g


def test_seat_text_hides_others_private_card_and_names_my_hand():
    g = dealt()
    mine = view_for(g, 0)
    text = seat_text(mine, 0).plain
    own = g.seats[0].stock[0]
    assert own.symbol in text
    other = seat_text(mine, 1).plain
    assert "[▒▒]" in other and g.seats[1].stock[0].symbol not in other
    assert "(you)" in text


def test_status_words_spell_out_states():
    g = dealt(RuleSet(betting="each_round"))
    g.seats[1].folded = True
    g.seats[2].all_in = True
    v = view_for(g, None)
    assert "folded" in status_words(v, v.players[1])
    assert "all in" in status_words(v, v.players[2])
    assert "folded" in seat_text(v, 1).plain


def test_best_visible_uses_only_visible_cards():
    g = dealt()
    g.seats[1].stock = parse_cards("As Ah Kd")
    g.seats[1].stock_public = [False, True, True]
    public = view_for(g, None)
    value, marked = best_visible(public, public.players[1])
    assert value is not None and value.describe() == "ace high"
    own = view_for(g, 1)
    value, marked = best_visible(own, own.players[1])
    assert value.describe() == "pair of aces" and {0, 1} <= marked


def test_positions_of_with_duplicates():
    shown = parse_cards("7s 7s Kd")
    assert positions_of(shown, parse_cards("7s Kd")) == {0, 2}
    assert positions_of([None, *shown], parse_cards("7s 7s")) == {1, 2}


def test_centre_text_shows_match_deck_and_suits():
    g = dealt()
    text = centre_text(view_for(g, None)).plain
    assert "Match [" in text
    assert f"Deck {len(g.deck)}" in text
    assert "Suits" in text and ">" in text
    assert "Pot 3" in text


def test_event_text_is_never_markup():
    e = Event("fold", "[red]Evil[/red] folds", seat=1)
    assert event_line(e).plain == "[red]Evil[/red] folds"
    console = Console(record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(event_line(e))
    assert "[red]Evil[/red]" in console.export_text()


def test_prompts_follow_the_phase():
    g = dealt(RuleSet(betting="each_round"))
    apply(g, __import__("pokeroulette_tui.engine.actions", fromlist=["Advance"]).Advance())
    assert g.phase == "betting"
    seat = g.to_act
    v = view_for(g, seat)
    assert "Your bet" in prompt_text(v, hot_seat=False).plain
    other = view_for(g, (seat + 1) % 3)
    assert "Waiting for" in prompt_text(other, hot_seat=False).plain
    assert "Public view" in prompt_text(view_for(g, None), hot_seat=True).plain
    assert panel_title(view_for(g, None), hot_seat=True) == "Public view"


def test_draw_panel_labels_selected_cards():
    rules = PRESETS["draw"]
    g = new_game(rules, ["Ana", "Bo"], seed=2)
    apply(g, StartHand())
    from pokeroulette_tui.engine.actions import Cut
    apply(g, Cut(seat=g.to_act, position=20))
    assert g.phase == "draw"
    v = view_for(g, g.to_act)
    text, zones = panel_content(v, hot_seat=False, width=80, selected=frozenset({1}))
    assert "2 out" in text.plain
    assert [z.index for z in zones if z.kind == "hand"] == [0, 1, 2, 3, 4]


def test_cut_panel_has_a_slider():
    g = new_game(PRESETS["draw"], ["Ana", "Bo"], seed=2)
    apply(g, StartHand())
    v = view_for(g, g.to_act)
    text, zones = panel_content(v, hot_seat=False, width=80, cut=26)
    assert "├" in text.plain and "●" in text.plain and "Cut 26 of 52" in text.plain
    assert zones[0].kind == "cut"


def test_parse_amount_messages():
    assert parse_amount(" 7 ", 2, 9) == (7, "")
    assert parse_amount("", 2, 9)[0] is None
    assert parse_amount("-3", 2, 9)[1] == "enter a whole number from 2 to 9"
    assert parse_amount("99", 2, 9)[1] == "at most 9"


def test_hand_result_from_events_marks_winner_and_made_cards():
    from pokeroulette_tui.engine.events import HandOver, HandShown, PotWon
    from pokeroulette_tui.engine.result import HandResult as Decided, ShownHand

    g = dealt()
    v = view_for(g, None)
    events = [
        HandShown("Ana shows pair of aces", seat=0, cards=tuple(parse_cards("As Ah 2c 7d"))),
        HandShown("Bo shows king high", seat=1, cards=tuple(parse_cards("Kd 3c"))),
        PotWon("Ana wins the pot of 6 with pair of aces", seat=0, amount=6),
        HandOver("Hand 1 is over", hand_no=1),
    ]
    decided = Decided(hand_no=1, by_fold=False, winners=(0,), hands=(  # as the engine decides
        ShownHand(0, tuple(parse_cards("As Ah 7d 2c")), "pair of aces", "PAIR",
                  shown=tuple(parse_cards("As Ah 2c 7d")), place=1),
        ShownHand(1, tuple(parse_cards("Kd 3c")), "king high", "HIGH_CARD",
                  shown=tuple(parse_cards("Kd 3c")), place=2)))
    res = HandResult.from_events(events, v, decided)
    assert res.is_showdown and res.winners == {0}
    assert res.shown[0].hand_name == "pair of aces"
    assert res.shown[0].made == frozenset({0, 1, 2, 3})  # a stock of four plays every card
    text = result_text(res).plain
    assert "★ Ana — pair of aces  WINS" in text and "Bo — king high" in text
    assert "Ana wins the pot of 6" in text


def test_fold_only_result_is_a_note():
    g = dealt()
    from pokeroulette_tui.engine.events import PotWon

    res = HandResult.from_events([PotWon("Bo wins the pot of 3 as everyone else folded",
                                         seat=1, amount=3)], view_for(g, None))
    assert not res.is_showdown and "Bo wins" in res.summary()


def test_standings_from_a_view():
    g = dealt()
    g.seats[2].chips += 50
    g.seats[0].chips -= 50
    rows = standings(view_for(g, None))
    assert [r["name"] for r in rows][0] == "Cy"
    assert rows[-1]["name"] == "Ana"


def test_joker_face_in_a_row():
    assert cards_text([JOKER, Card(14, "S")]).plain == "[★][A♠]"


def turned_up():
    """A roulette hand after the actives were turned up, seen by the seat to act first."""
    from pokeroulette_tui.engine.actions import Advance
    g = dealt(RuleSet(betting="each_round"))
    apply(g, Advance())
    assert g.phase == "betting"
    return g


def test_roulette_panel_names_the_stock_and_marks_turned_actives():
    g = turned_up()
    seat = g.to_act
    s = g.seats[seat]
    v = view_for(g, seat)
    text, _ = panel_content(v, hot_seat=False, width=76)
    lines = text.plain.split("\n")
    assert lines[-1].startswith("stock")  # the row under the stock says what it is
    assert "out" not in lines[-1] and "kept" not in lines[-1]
    marks = lines[-1].split()[1:]
    assert marks == ["✓"] * len(s.added) + ["✗"] * len(s.actives)
    assert s.reason and s.reason[:20] in text.plain  # why, beside the turned cards
    assert all(len(line) <= 76 for line in lines)


def test_long_reasons_wrap_under_the_seat_not_at_the_margin():
    g = turned_up()
    g.seats[1].reason = "a joker with a card that does not match: both discarded"
    v = view_for(g, None)
    lines = seat_text(v, 1, width=30).plain.split("\n")
    assert all(len(line) <= 30 for line in lines)
    assert all(line.startswith(" ") for line in lines[1:])  # continuation lines are indented


def test_centre_wraps_a_long_suit_draw_under_itself():
    from dataclasses import replace

    v = replace(view_for(dealt(), None), suit_draw=tuple(parse_cards("7d 3c * Qd 9s 2c 9d 6d 6s 4c Ks 6c 8s 2d Kc Qh")))
    lines = centre_text(v, width=28).plain.split("\n")
    drawn = [line for line in lines if "drawn" in line or line.startswith("      ")]
    assert len(drawn) >= 2 and all(len(line) <= 28 for line in drawn)


def test_joker_in_a_shown_hand_says_what_it_stands_for():
    from pokeroulette_tui.engine.events import HandShown, PotWon
    from pokeroulette_tui.engine.result import HandResult as Decided, ShownHand

    g = dealt()
    v = view_for(g, None)
    events = [HandShown("Ana shows", seat=0, cards=tuple(parse_cards("Js Jh *"))),
              PotWon("Ana wins", seat=0, amount=3)]
    jacks = ShownHand(0, tuple(parse_cards("Js Jh *")), "three of a kind, jacks",
                      "THREE_OF_A_KIND", shown=tuple(parse_cards("Js Jh *")),
                      jokers=tuple(parse_cards("Jd")), place=1)
    res = HandResult.from_events(events, v, Decided(hand_no=v.hand_no, by_fold=False,
                                                    hands=(jacks,), winners=(0,)))
    assert "(★ as J" in res.shown[0].hand_name


def _pots_view(contrib, all_in=(), folded=()):
    """A betting view with these contributions (seat → chips put in this hand)."""
    from pokeroulette_tui.engine.game import new_game
    from pokeroulette_tui.engine.rules import PRESETS as P
    from pokeroulette_tui.engine.view import view_for

    g = new_game(P["classic"], ["Ana", "Bo", "Cy"], seed=1)
    apply(g, StartHand())
    for i, s in enumerate(g.seats):
        s.contributed = contrib[i]
        s.all_in = i in all_in
        s.folded = i in folded
    return view_for(g, None)


def test_an_ordinary_bet_is_one_pot_not_a_side_pot():
    from pokeroulette_tui.ui.widgets.present import pots_text, shown_pots

    v = _pots_view([1, 13, 1])  # Bo bet 12 over the antes; nobody has called yet
    assert shown_pots(v) == [(15, (0, 1, 2))]
    assert pots_text(v).plain == "Pot 15"


def test_a_short_all_in_splits_a_side_pot_off():
    from pokeroulette_tui.ui.widgets.present import pots_text, shown_pots

    v = _pots_view([5, 20, 20], all_in=(0,))  # Ana all in for 5, Bo and Cy went on to 20
    assert shown_pots(v) == [(15, (0, 1, 2)), (30, (1, 2))]
    assert pots_text(v).plain == "Main pot 15 (Ana, Bo, Cy)\nSide pot 30 (Bo, Cy)"


def test_folded_money_stays_in_the_pots_but_not_their_seats():
    from pokeroulette_tui.ui.widgets.present import shown_pots

    v = _pots_view([8, 3, 20], all_in=(0,), folded=(1,))
    assert shown_pots(v) == [(19, (0, 2)), (12, (2,))]


def test_a_long_stock_wraps_between_cards_never_inside_one():
    """Issue 10: a stock of 10+ cards at 80×24 broke a card across lines (`[6` / `♥]`)."""
    from pokeroulette_tui.engine.game import new_game
    from pokeroulette_tui.engine.rules import RuleSet
    from pokeroulette_tui.engine.view import view_for
    from pokeroulette_tui.ui.widgets.present import seat_text

    g = new_game(RuleSet(betting="none", suit_order="SHDC"), ["Ana", "Bo", "Cy"], seed=1)
    s = g.seats[0]
    s.stock = [Card(r, suit) for r in range(2, 9) for suit in "SH"]  # 14 cards
    s.stock_public = [True] * len(s.stock)
    for width in (30, 37, 44, 52):
        lines = seat_text(view_for(g, 0), 0, width=width).plain.split("\n")
        rows = [ln for ln in lines if "[" in ln and "turned" not in ln]
        assert len(rows) >= 2
        for ln in rows:
            assert len(ln) <= width, (width, ln)
            inner = ln.strip().removeprefix("stock").strip()
            assert inner.startswith("[") and inner.endswith("]"), (width, ln)
            assert inner.count("[") == inner.count("]")
