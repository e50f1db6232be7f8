"""The tutorials: the prepared deals on the real engine, and both tutorials played by keys.

Each tutorial is played from its first step to its last through the table screen, by the
keys its notes name; at every step the note is on screen beside the cards and the engine is
where the prepared deal puts it (replayed here with the engine alone). Leaving and resuming,
wrong keys and wrong moves, the command line and the start screen's offer are covered too.
"""

from __future__ import annotations


import json

import pytest

from conftest import state_json
from pokeroulette_tui import cli
from pokeroulette_tui.engine.cards import parse_cards
from pokeroulette_tui.engine.game import apply, check_invariants
from pokeroulette_tui.engine.tutorial_deals import DEALS
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.screens.tutorial import TutorialChoice, TutorialScreen, farewell_text
from pokeroulette_tui.ui.tutorial_app import TutorialApp
from pokeroulette_tui.ui.tutorial import (NOTES, TutorialSession, progress_path,
                                          read_progress)
from ui_pilot import press, screen_text

SIZE = (80, 24)
PLAYER = "Ada"
MOVE_KEYS = {("roulette", "bet"): ("b", "enter"), ("roulette", "result"): ("s",),
             ("draw", "cut"): ("enter",), ("draw", "exchange"): ("2", "4", "5", "enter"),
             ("draw", "result"): ("s",)}
"""The keys each step that is not read-and-go-on asks for (its note names them)."""


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    return tmp_path


def engine_at(name: str, step: int, events: list | None = None):
    """The engine alone, played to the start of ``step`` of the tutorial ``name`` (its
    events' sentences added to ``events``)."""
    deal = DEALS[name]
    state = deal.new_game(PLAYER)
    said = [] if events is None else events
    for i, beat in enumerate(deal.beats[:step + 1]):
        for action in beat.table:
            said += [e.text for e in apply(state, action)]
        if i < step and beat.player is not None:
            said += [e.text for e in apply(state, beat.player)]
        assert not check_invariants(state)
    return state


def cards(text: str):
    return parse_cards(text)


def notes_column(app) -> str:
    """The words of the side panel (right of the seats), as one line."""
    width = app.size[0]
    side = 32 if width < 120 else 48
    lines = screen_text(app).splitlines()
    return " ".join(" ".join(line[width - side:] for line in lines).split())


def note_words(text: str) -> str:
    return " ".join(text.split())


# -- the prepared deals, engine only -----------------------------------------------------------

def test_the_roulette_deal_shows_every_lesson():
    deal = DEALS["roulette"]
    at = {beat.name: i for i, beat in enumerate(deal.beats)}
    you, bo, cy = 0, 1, 2
    s = engine_at("roulette", at["stock"])
    assert s.seats[you].stock == cards("Ks") and s.seats[you].stock_public == [False]
    assert s.match == cards("5s")[0]
    s = engine_at("roulette", at["turn"])
    assert s.seats[you].added == cards("7s 5c")         # by suit and by rank
    assert s.seats[bo].added == [] and s.seats[cy].added == cards("* 8s")  # no match; a joker
    s = engine_at("roulette", at["claim"])
    assert s.match_claimed_by == you and s.seats[you].stock[-3:] == cards("Qc Qd Qh")
    s = engine_at("roulette", at["joker_match"])
    assert s.last_match.is_joker and s.seats[bo].added == cards("Kh 4h")
    s = engine_at("roulette", at["end_of_dealing"])
    assert s.phase == "betting" and s.to_act == you and len(s.deck) == 3
    said: list[str] = []
    s = engine_at("roulette", at["best_five"], said)
    assert s.phase == "hand_over" and s.seats[cy].folded
    assert "Bo shows king-high flush" in said and "Ada shows king-high flush" in said
    assert ("Ada wins the pot of 7 with king-high flush on the suit tie-break: K♠ outranks K♥ "
            "(spades over hearts)") in said


def test_the_draw_deal_cuts_deals_draws_and_costs_the_weakest_a_token():
    deal = DEALS["draw"]
    at = {beat.name: i for i, beat in enumerate(deal.beats)}
    s = engine_at("draw", at["cut"])
    assert s.phase == "cut" and s.to_act == deal.human and len(s.deck) == 52
    s = engine_at("draw", at["exchange"])
    assert s.seats[0].hand == cards("Qs 7d Qh 4c 2s") and s.seats[2].drawn == 3
    s = engine_at("draw", at["forfeit"])
    assert s.seats[0].hand == cards("Qs Qh Qd 8c 3h")
    assert [seat.tokens for seat in s.seats] == [6, 6, 5]


def test_every_step_has_a_note_and_every_move_a_key():
    for name, deal in DEALS.items():
        assert [b.name for b in deal.beats] == list(NOTES[name])
        for beat in deal.beats:
            note = NOTES[name][beat.name]
            if beat.player is not None or note.actions:
                assert (name, beat.name) in MOVE_KEYS


# -- played by keys ----------------------------------------------------------------------------

async def play_through(name: str, app, session, pilot, *, until: int | None = None) -> list[str]:
    """Press each step's keys, checking the note and the engine at every step."""
    seen = []
    while not session.finished:
        step = session.step
        if until is not None and step >= until:
            break
        beat = session.beat
        seen.append(beat.name)
        assert isinstance(app.screen, TutorialScreen)
        assert note_words(NOTES[name][beat.name].text) in notes_column(app), beat.name
        assert state_json(session.table.state) == state_json(engine_at(name, step)), beat.name
        keys = MOVE_KEYS.get((name, beat.name), ("enter",))
        await press(pilot, *keys)
        if isinstance(app.screen, ShowdownScreen):  # the result, as a game shows it
            # (draw: forfeit tokens, no pot: the best hand is marked BEST, not WINS)
            assert ("BEST" if name == "draw" else "WINS") in screen_text(app)
            await press(pilot, "enter")
        assert session.finished or session.step == step + 1, (beat.name, session.step)
    return seen


@pytest.mark.parametrize("name", ["roulette", "draw"])
async def test_each_tutorial_is_played_to_its_end_by_keys(name):
    session = TutorialSession(name, player=PLAYER)
    app = TutorialApp(AppConfig(delay=0), session)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        seen = await play_through(name, app, session, pilot)
        assert seen == [b.name for b in DEALS[name].beats]
        await pilot.pause()
    assert session.finished and app.return_code == 0
    assert name not in read_progress()  # finished: the next one starts at the top


async def test_leaving_mid_way_and_resuming_replays_to_that_step():
    session = TutorialSession("roulette", player=PLAYER)
    app = TutorialApp(AppConfig(delay=0), session)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        await play_through("roulette", app, session, pilot, until=8)
        await press(pilot, "escape")
        await pilot.pause()
    assert app.farewell == farewell_text(session) and "step 9 of 21" in app.farewell
    assert json.loads(progress_path().read_text()) == {"roulette": 8}
    # the next run carries on there: the same table, the same note, and on to the end
    from pokeroulette_tui.ui.screens.tutorial import start_tutorial

    again = start_tutorial("roulette")
    assert again.step == 8
    assert state_json(again.table.state) == state_json(engine_at("roulette", 8))
    app = TutorialApp(AppConfig(delay=0), again)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        assert "Carrying on at step 9 of 21" in " ".join(n.message for n in app._notifications)
        seen = await play_through("roulette", app, again, pilot)
        assert seen[0] == "round3" and seen[-1] == "the_end"
    assert read_progress() == {}


async def test_the_player_name_is_the_login_and_q_leaves_too():
    from pokeroulette_tui.ui.screens.tutorial import start_tutorial

    session = start_tutorial("draw")
    assert session.table.state.seats[0].name == "Ada"
    app = TutorialApp(AppConfig(delay=0), session)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "q")
        await pilot.pause()
    assert read_progress() == {"draw": 1}


def hints(app) -> list[str]:
    """The hint the notes show now (a wrong key's), as a list of one or none."""
    from pokeroulette_tui.ui.screens.tutorial import TutorialNotes

    hint = app.screen.query_one(TutorialNotes).hint
    return [hint] if hint else []


async def test_wrong_keys_and_wrong_moves_get_a_hint_and_change_nothing():
    session = TutorialSession("draw", player=PLAYER)
    app = TutorialApp(AppConfig(delay=0), session)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        before = state_json(session.table.state)
        await press(pilot, "x", "c", "l")  # keys of nothing here, a table key, leave the table
        assert session.step == 0 and state_json(session.table.state) == before
        assert hints(app) and all("Press Enter to go on" in h for h in hints(app))
        assert "Press Enter to go on. Esc leaves" in notes_column(app)  # beside the cards
        await press(pilot, "enter")  # Bo deals: the cut
        assert hints(app) == []  # a new step: the hint is gone
        await press(pilot, "right", "enter")  # a cut at 27: not this lesson's
        assert session.step == 1 and session.table.state.phase == "cut"
        assert any("cut in the middle, at 26" in h for h in hints(app))
        await press(pilot, "left", "enter")
        assert session.beat.name == "dealt"
        await press(pilot, "enter")
        before = state_json(session.table.state)
        await press(pilot, "1", "enter")  # the queen is not the card to exchange
        assert session.beat.name == "exchange" and state_json(session.table.state) == before
        assert any("keep the queens" in h for h in hints(app))
        await press(pilot, "1", "2", "4", "5", "enter")
        assert session.beat.name == "drawn"
        assert session.table.state.seats[0].hand == cards("Qs Qh Qd 8c 3h")


async def test_a_bet_of_another_amount_gets_a_hint():
    step = DEALS["roulette"].beat_index("bet")
    session = TutorialSession("roulette", step=step, player=PLAYER)
    app = TutorialApp(AppConfig(delay=0), session)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "c")  # check: not this lesson's move
        assert session.step == step and any("Press b to bet" in h for h in hints(app))
        await press(pilot, "b", "a", "enter")  # all in
        assert session.step == step and any("bet 2 chips" in h for h in hints(app))
        await press(pilot, "b", "enter")
        assert session.beat.name == "showdown"


async def test_the_notes_sit_beside_the_cards_at_160x48():
    session = TutorialSession("roulette", step=DEALS["roulette"].beat_index("claim"),
                              player=PLAYER)
    app = TutorialApp(AppConfig(delay=0), session)
    async with app.run_test(size=(160, 48)) as pilot:
        await press(pilot)
        assert note_words(NOTES["roulette"]["claim"].text) in notes_column(app)
        assert app.screen.query_one("#log").display  # the log has room under them
        assert "Match [Q♥] claimed by Ada" in screen_text(app)


# -- the command line and the start screen -----------------------------------------------------

def test_the_command_line_opens_a_tutorial(monkeypatch):
    import pokeroulette_tui.ui.tutorial_app as tutorial

    calls = []
    monkeypatch.setattr(tutorial, "run_tutorial", lambda name, restart: calls.append((name, restart)) or 0)
    assert cli.main(["tutorial"]) == 0
    assert cli.main(["tutorial", "draw", "--restart"]) == 0
    assert calls == [("roulette", False), ("draw", True)]
    with pytest.raises(SystemExit) as stop:
        cli.main(["tutorial", "poker"])
    assert stop.value.code == 2


async def test_the_start_screen_offers_the_tutorial_once_and_opens_it_on_l():
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        assert "New here? Press l for a tutorial" in screen_text(app)
        await pilot.pause()
    assert AppConfig.load().tutorial_offered
    app = make_app(AppConfig.load())
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        assert "New here?" not in screen_text(app)
        await press(pilot, "l")
        assert isinstance(app.screen, TutorialChoice)
        await press(pilot, "r", "enter")
        assert isinstance(app.screen, TutorialScreen) and app.screen.tutorial.step == 1
        await press(pilot, "escape")
        assert type(app.screen).__name__ == "StartScreen" and app.session is None
        await press(pilot, "l")
        assert "carries on at step 2" in screen_text(app)
        await press(pilot, "R")  # start again
        assert isinstance(app.screen, TutorialScreen) and app.screen.tutorial.step == 0


async def finish_from_the_start_screen(name: str) -> str:
    """Open the tutorial ``name`` with ``l`` on the start screen, play it to its end, then
    press ``s``: the name of the screen that is up then (run by the test below in a
    process of its own, as the player Ada)."""
    import getpass

    getpass.getuser = lambda: "ada"
    app = make_app(AppConfig(delay=0, tutorial_offered=True))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "l")
        await press(pilot, "r" if name == "roulette" else "d", "enter")
        assert isinstance(app.screen, TutorialScreen)
        session = app.screen.tutorial
        await play_through(name, app, session, pilot)  # the last Enter ends it
        for _ in range(20):
            await pilot.pause()
            if type(app.screen).__name__ == "StartScreen":
                break
        assert type(app.screen).__name__ == "StartScreen" and app.session is None
        await press(pilot, "s")
        return type(app.screen).__name__


@pytest.mark.parametrize("name", ["roulette", "draw"])
def test_a_tutorial_finished_from_the_start_screen_leaves_it_working(name, home):
    """Finishing a tutorial opened with ``l`` brings the start screen back, and its keys
    work (the last Enter once left the app waiting on itself: no key did anything, and the
    process had to be killed; hence a process of its own, with a time limit)."""
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parent
    code = ("import asyncio, sys; sys.path.insert(0, sys.argv[1]); import test_tutorial as t; "
            "print(asyncio.run(t.finish_from_the_start_screen(sys.argv[2])))")
    try:
        out = subprocess.run([sys.executable, "-c", code, str(here), name], capture_output=True,
                             text=True, timeout=60, cwd=here.parent)
    except subprocess.TimeoutExpired:
        pytest.fail("the app stopped answering after the tutorial ended")
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[-1] == "SetupScreen"
