"""Hot-seat privacy, frame by frame: a seat's private cards are on screen only between that
seat's privacy screen and its decision (or once the rules have shown them).

Every frame Textual draws is checked (the app's ``_display`` is wrapped), against the
engine's truth at that moment: after an action, behind a dialog, between hands, while a
bot thinks — not only when a human decides.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.events import redact_all
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.ui.screens import seating as seating_module
from pokeroulette_tui.ui.screens import table as table_module
from pokeroulette_tui.ui.screens.gameover import GameOverScreen
from pokeroulette_tui.ui.screens.privacy import PrivacyScreen
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from ui_pilot import SIZE, app_for, local_session, press, screen_text, settle, table_screen


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def faces(card: Card) -> list[str]:
    """Every way the UI writes this card: [A♠] compact, 10♥ boxed, T♥ in sentences."""
    out = [card.symbol]
    if card.rank == 10:
        out.append("10" + card.symbol[1:])
    return out


def card_faces(cards) -> set[str]:
    # jokers all look alike (★), so a joker's face cannot be told apart from another's
    return {f for c in cards if c is not None and not c.is_joker for f in faces(c)}


class FrameWatcher:
    """Checks every drawn frame against the engine's truth at that moment.

    ``window`` is the seat whose privacy screen was passed and who has not acted yet: the
    only seat whose private cards a frame may show. ``secret[seat]`` holds the faces that
    seat has seen and that were never public since.
    """

    def __init__(self, app, session) -> None:
        self.app = app
        self.table = session.table
        self.humans = tuple(session.local_seats)
        self.window: int | None = None
        self.secret: dict[int, set[str]] = {h: set() for h in self.humans}
        self.allowed: set[str] = set()
        self.violations: list[str] = []
        self.frames = 0
        self.private_frames = 0  # positive control: the player with the keyboard sees their cards
        self._learn([])
        apply, display = self.table.apply, app._display

        def watched_apply(action):
            events = apply(action)
            if action.seat is not None and action.seat == self.window:
                self.window = None  # the decision is made: from now on, public only
            self._learn(events)
            return events

        def watched_display(screen, renderable) -> None:
            display(screen, renderable)
            if renderable is not None:
                self.frame()

        self.table.apply = watched_apply
        app._display = watched_display

    def _learn(self, events) -> None:
        state = self.table.state
        pub = view_for(state, None)
        public = card_faces(pub.all_cards())
        for e in redact_all(events, None):
            public |= card_faces(e.cards)
        for h in self.humans:
            mine = Counter(view_for(state, h).all_cards()) - Counter(pub.all_cards())
            self.secret[h] |= card_faces(mine) - card_faces(pub.all_cards())
        for h in self.humans:
            self.secret[h] -= public
        self.allowed = (card_faces(c for c in view_for(state, self.window).all_cards())
                        if self.window is not None else set())

    def open(self, seat: int) -> None:
        """The test passes ``seat``'s privacy screen."""
        self.window = seat
        self._learn([])

    def frame(self) -> None:
        # "★ as 6♣" names what a joker stands for, not a card anyone holds
        text = re.sub(r"as (?:10|[2-9TJQKA])[♠♥♦♣]", "as ?", screen_text(self.app))
        self.frames += 1
        for h in self.humans:
            if h == self.window:
                continue
            for face in sorted(self.secret[h] - self.allowed):
                if face in text:
                    who = "nobody" if self.window is None else self.table.state.seats[self.window].name
                    self.violations.append(
                        f"frame {self.frames}: {self.table.state.seats[h].name}'s private {face} "
                        f"on screen while {who} has the keyboard "
                        f"(hand {self.table.state.hand_no}, {self.table.state.phase})\n{text}")
        if self.window is not None and self.secret.get(self.window, set()) & self.allowed:
            if any(face in text for face in self.secret[self.window] & self.allowed):
                self.private_frames += 1


async def answer(pilot, view, rng: random.Random) -> None:
    """The acting human's decision by keys: mostly check/call, sometimes fold; move a stock
    card or keep it; exchange two cards or stand pat; cut in the middle."""
    if view.phase == "betting":
        kinds = view.options.kinds
        if "fold" in kinds and rng.random() < 0.15:
            await press(pilot, "f")
        else:
            await press(pilot, "c" if ("check" in kinds or "call" in kinds) else "a")
    elif view.phase == "stock_to_active":
        await press(pilot, "1" if rng.random() < 0.4 else "k")
    elif view.phase == "cut":
        await press(pilot, "enter")
    elif view.phase == "draw":
        await press(pilot, *(("1", "2", "enter") if rng.random() < 0.6 else ("p",)))
    else:  # pragma: no cover - a phase the test does not know
        raise AssertionError(f"no key for {view.phase}")


async def play_watched(rules, seats, seed: int, hands: int,
                       strict: bool = True) -> tuple[FrameWatcher, dict[str, int]]:
    session = local_session(rules, seats, seed)
    app = app_for(session)
    rng = random.Random(seed)
    seen = Counter()
    async with app.run_test(size=SIZE) as pilot:
        w = FrameWatcher(app, session)
        for _ in range(600):
            await settle(pilot, session)
            state = session.table.state
            screen = app.screen
            if isinstance(screen, PrivacyScreen):
                seen["privacy"] += 1
                seat = next(i for i in w.humans if state.seats[i].name == screen.player)
                assert seat == state.to_act, "the privacy screen asks for the seat to act"
                w.open(seat)
                await press(pilot, "enter")
            elif isinstance(screen, ShowdownScreen):
                seen["results"] += 1
                # the local table waits: nothing of the next hand is dealt behind the result
                assert state.phase in ("hand_over", "game_over")
                assert table_screen(app).view.seat is None or not strict
                if state.game_over or state.hand_no >= hands:
                    break
                await press(pilot, "enter")
            elif isinstance(screen, GameOverScreen) or state.game_over:
                break
            else:
                view = table_screen(app).view
                assert view.my_turn
                assert view.seat == w.window or not strict, \
                    "the acting human sees the table as themselves, after their privacy screen"
                seen["decisions"] += 1
                await answer(pilot, view, rng)
        else:
            raise AssertionError("the game did not get through the hands asked for")
    return w, seen


def assert_private(w: FrameWatcher, seen: Counter) -> None:
    assert not w.violations, w.violations[0]
    assert seen["privacy"] >= 2 and seen["decisions"] >= 2, seen
    assert w.frames > 10
    assert w.private_frames > 0, "the checker never saw a private card at all (it would miss leaks)"


ROULETTE_CASES = [
    pytest.param(PRESETS["classic"].replace(stock_to_active=True, betting=b), id=f"roulette-{b}")
    for b in ("none", "final_only", "each_round")
]


@pytest.mark.parametrize("rules", ROULETTE_CASES)
async def test_roulette_two_humans_and_a_bot(rules):
    w, seen = await play_watched(rules, [("Ana", None), ("Bo", None), ("Cy", "random")],
                                 seed=3, hands=2)
    assert_private(w, seen)
    assert seen["results"] >= 1


async def test_roulette_three_humans_and_two_bots_stock_to_active():
    rules = PRESETS["swedish"].replace(betting="final_only")
    w, seen = await play_watched(rules, [("Ana", None), ("Bo", "random"), ("Cy", None),
                                         ("Di", "simple"), ("Ed", None)], seed=5, hands=2)
    assert_private(w, seen)


@pytest.mark.parametrize("humans", [2, 3])
async def test_draw_hot_seat(humans):
    seats = [("Ana", None), ("Bo", None), ("Cy", None if humans == 3 else "random"), ("Di", "random")]
    w, seen = await play_watched(PRESETS["draw"], seats, seed=6, hands=2)
    assert_private(w, seen)


class KeepsTheLastView(seating_module.Seating):
    """A deliberately broken rule: the last person's view stays after they act, until the
    next human is to act (how the table behaved before)."""

    def acted(self, seat):
        pass

    def look(self, pub):
        seat = seating_module.acting_seat(pub)
        if seat is None or seat not in self.humans:
            return None  # a bot or the dealer: keep whatever view is up
        return super().look(pub)


async def test_the_check_catches_a_screen_that_keeps_the_last_view(monkeypatch):
    monkeypatch.setattr(table_module, "Seating", KeepsTheLastView)
    rules = PRESETS["classic"].replace(stock_to_active=True, betting="final_only")
    w, _ = await play_watched(rules, [("Ana", None), ("Bo", None), ("Cy", "random")],
                              seed=3, hands=2, strict=False)
    assert w.violations, "a broken screen went unnoticed"


async def test_hot_seat_starts_in_public_and_asks_for_the_player():
    rules = PRESETS["draw"]
    session = local_session(rules, [("Ana", None), ("Bo", None)], seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        assert isinstance(app.screen, PrivacyScreen)
        cutter = session.table.state.to_act
        name = session.table.state.seats[cutter].name
        assert f"Pass to {name}" in screen_text(app)
        assert table_screen(app).view.seat is None
        await press(pilot, "enter")
        assert table_screen(app).view.seat == cutter
        assert "Your cut" in screen_text(app)
        await press(pilot, "enter")  # the cut is made: public at once, before the next frame
        assert table_screen(app).view.seat is None


async def test_a_hot_seat_table_resumed_after_one_left_keeps_the_privacy_screen(tmp_path):
    """Bo leaves a hot-seat table; the game is quit and resumed from its journal with Ana
    the only person still playing. Bo (or anyone) may still be at the terminal: Ana's cards
    stay off the screen until she passes her privacy screen, as before the resume."""
    from pokeroulette_tui.engine.state import LEFT
    from pokeroulette_tui.session import LocalSession
    from pokeroulette_tui.table import SeatConfig, Table

    rules = PRESETS["classic"].replace(stock_to_active=True, betting="final_only")
    path = tmp_path / "table.journal"
    table = Table.create(rules, [SeatConfig("Ana"), SeatConfig("Bo"), SeatConfig("Cy", "random")],
                         seed=3, save_path=path)
    session = LocalSession(table, delay=0)
    app = app_for(session)
    rng = random.Random(3)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            await settle(pilot, session)
            if isinstance(app.screen, PrivacyScreen):
                bo = app.screen.player == "Bo"
                await press(pilot, "enter")
                if bo:
                    break
            elif isinstance(app.screen, ShowdownScreen):
                await press(pilot, "enter")
            else:
                await answer(pilot, table_screen(app).view, rng)
        else:
            raise AssertionError("Bo was never to act")
        await press(pilot, "l", "y")  # Bo leaves the table
        await settle(pilot, session)
    assert table.state.seats[1].status == LEFT

    session = LocalSession(Table.resume(path), delay=0)
    app = app_for(session)
    seen = Counter()
    async with app.run_test(size=SIZE) as pilot:
        w = FrameWatcher(app, session)
        for _ in range(60):
            await settle(pilot, session)
            screen = app.screen
            if isinstance(screen, PrivacyScreen):
                assert screen.player == "Ana"
                assert table_screen(app).view.seat is None
                seen["privacy"] += 1
                w.open(0)
                await press(pilot, "enter")
            elif isinstance(screen, ShowdownScreen):
                await press(pilot, "enter")
            elif session.table.state.game_over or session.table.state.hand_no >= 4:
                break
            else:
                assert table_screen(app).view.seat == w.window == 0
                seen["decisions"] += 1
                await answer(pilot, table_screen(app).view, rng)
    assert not w.violations, w.violations[0]
    assert seen["privacy"] >= 2 and seen["decisions"] >= 2, seen
    assert w.private_frames > 0


async def test_an_enter_pressed_just_after_a_move_does_not_pass_the_privacy_screen(monkeypatch):
    """The player who just moved presses Enter again at once (meant for the table, or twice):
    the next player's privacy screen has just appeared and must not take it, or that player's
    cards would be shown to the one still at the keyboard. After its guard it takes Enter."""
    monkeypatch.setattr(PrivacyScreen, "GUARD", 0.7)
    rules = PRESETS["draw"]
    session = local_session(rules, [("Ana", None), ("Bo", None)], seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        assert isinstance(app.screen, PrivacyScreen)
        await press(pilot, "enter")  # at once: too soon
        assert isinstance(app.screen, PrivacyScreen) and table_screen(app).view.seat is None
        await pilot.pause(0.8)
        cutter = session.table.state.to_act
        await press(pilot, "enter")  # now the cutter has the keyboard
        assert table_screen(app).view.seat == cutter
        await press(pilot, "enter", "enter")  # the cut, and at once Enter again
        assert table_screen(app).view.seat is None
        for _ in range(10):
            if isinstance(app.screen, PrivacyScreen):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, PrivacyScreen)
        assert table_screen(app).view.seat is None  # the second Enter showed nobody's cards
        await pilot.pause(0.1)
        # nor did it leave a "That key does nothing now" over the "Pass to" screen
        assert not [n.message for n in app._notifications if n.title == "Not now"]
        await pilot.pause(0.7)
        await press(pilot, "enter")
        assert table_screen(app).view.seat == session.table.state.to_act


async def test_a_dialog_the_last_player_opened_is_closed_before_the_next_one_sits_down():
    """A person acts, then opens the help while the bot after them thinks; when the keyboard
    is handed on, that help goes: past the privacy screen the next person finds the table."""
    from pokeroulette_tui.session import LocalSession
    from pokeroulette_tui.table import SeatConfig, Table
    from pokeroulette_tui.ui.screens.help import HelpScreen

    rules = PRESETS["draw"]
    table = Table.create(rules, [SeatConfig("Ana"), SeatConfig("Cy", "random"),
                                 SeatConfig("Bo")], seed=3)
    session = LocalSession(table, delay=1.0)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        opened = 0
        for __ in range(400):
            await pilot.pause(0.02)
            screen = app.screen
            if isinstance(screen, PrivacyScreen):
                if opened:
                    break
                await press(pilot, "enter")
            elif screen is table_screen(app) and table_screen(app).view.my_turn:
                await answer(pilot, table_screen(app).view, random.Random(1))
                for __ in range(20):  # the move is made: the table shows in public
                    if app.screen is table_screen(app) and table_screen(app).view.seat is None:
                        break
                    await pilot.pause(0.02)
                if app.screen is table_screen(app) and table_screen(app).view.seat is None:
                    await press(pilot, "question_mark")  # while the bot and dealer play
                    opened = isinstance(app.screen, HelpScreen)
        assert opened, "the help never opened behind a move"
        assert isinstance(app.screen, PrivacyScreen)
        assert not any(isinstance(s, HelpScreen) for s in app.screen_stack)
        await press(pilot, "enter")
        assert app.screen is table_screen(app)


async def test_a_key_typed_as_the_keyboard_passes_leaves_no_note_on_the_pass_screen(monkeypatch):
    """A player checks and at once presses Enter (a double tap): the Enter reaches the table
    as the next player's "Pass to" screen comes, and its "That key does nothing now" must not
    sit on that screen (the next player would read "press Enter" and "does nothing" together)."""
    monkeypatch.setattr(PrivacyScreen, "GUARD", 0.3)
    rules = PRESETS["classic"]
    session = local_session(rules, [("Ana", None), ("Bo", None), ("Cy", None)], seed=2)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        tried = 0
        for _ in range(60):
            if isinstance(app.screen, PrivacyScreen):
                await pilot.pause(0.35)
                await press(pilot, "enter")
                continue
            view = table_screen(app).view
            if view.seat is not None and view.my_turn and view.phase == "betting" \
                    and view.options is not None and view.options.check:
                from textual import events  # (both keys queued at once, as typed fast)

                app.post_message(events.Key("c", "c"))
                app.post_message(events.Key("enter", "\r"))
                await pilot.pause(0.05)
                await pilot.pause(0.05)
                tried += 1
                if isinstance(app.screen, PrivacyScreen):
                    notes = [n.message for n in app._notifications if n.title == "Not now"]
                    assert not notes, notes
                    if tried >= 3:
                        break
                continue
            await pilot.pause(0.05)
        assert tried >= 1
