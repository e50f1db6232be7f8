"""Names with square brackets (``[/]``, ``[b]x``, ``[@click=app.quit]q[/]``) are shown as typed
on every screen, never read as markup: no MarkupError, no bold, no clickable action; the
settings and the autosave keep them as typed."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from rich.console import Console
from textual.app import App, ComposeResult
from textual.widgets import Input, Static
from ui_pilot import SIZE, local_session, press, screen_text, settle, step, table_screen

from pokeroulette_tui.engine.cards import parse_cards
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig, TableSetup, autosave_path
from pokeroulette_tui.ui.screens.start import StartScreen

NAMES = ("[/]", "[b]x", "[@click=app.quit]q[/]")
TOKENS = "[/i]"  # a forfeit table's own name for its tokens (a rule option, typed freely)
BIG = (160, 50)  # room for every name in full


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "tester")
    return tmp_path


def shown(app: App, selector: str) -> str:
    """A Static's words as drawn (its markup, had it been read, would be gone)."""
    return str(app.screen.query_one(selector, Static).render())


def no_links(app: App) -> None:
    """Nothing on the screen runs an action when clicked (``@click`` read as markup would)."""
    for widget in app.screen.query(Static):
        content = widget.render()
        for span in getattr(content, "spans", []):
            assert "@click" not in str(span.style), (widget, span)


# -- the helper ---------------------------------------------------------------------------------

async def test_plain_shows_markup_as_typed_in_a_widget():
    from pokeroulette_tui.ui.plain import plain

    for name in NAMES:
        assert plain(name).plain == name and not plain(name).spans
    assert plain(3).plain == "3" and plain("[b]x", style="bold").style == "bold"

    class One(App):
        def compose(self) -> ComposeResult:
            yield Static(plain(NAMES[2]), id="one")

    app = One()
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        assert shown(app, "#one") == NAMES[2]
        no_links(app)


# -- the start screen: the remembered table and the resume offer --------------------------------

async def test_a_remembered_table_with_markup_names_starts_and_shows_them():
    rules = RuleSet(scoring="forfeit", token_name=TOKENS, betting="none", min_players=3)
    setup = TableSetup(rules=rules, seats=[], preset="classic")
    config = AppConfig(delay=0, last_setup={**setup.to_dict(), "seats": [
        {"name": NAMES[0], "bot": None}, {"name": NAMES[1], "bot": "random"},
        {"name": NAMES[2], "bot": "random"}]})
    app = make_app(config)
    async with app.run_test(size=BIG) as pilot:
        await step(pilot)
        assert isinstance(app.screen, StartScreen)
        seats = shown(app, "#table-seats")
        for name in NAMES:
            assert name in seats
        assert TOKENS in shown(app, "#table-rules")
        assert all(name in screen_text(app) for name in NAMES)
        no_links(app)
        await press(pilot, "enter")  # deal: the table screen shows them too
        await step(pilot)
        screen = table_screen(app)
        text = screen_text(app)
        assert NAMES[0] in text and NAMES[1] in text
        assert screen.session.view(None).players[2].name == NAMES[2]


async def test_a_name_typed_on_the_setup_screen_is_kept_and_shown_as_typed():
    """The report's steps: ``[/]`` as Seat 1's name, ctrl+s; then every later start."""
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=BIG) as pilot:
        await step(pilot)
        await press(pilot, "s")
        name = app.screen.query_one("#seat-name-0", Input)
        name.value = NAMES[0]
        await step(pilot)
        # two seats of one name: the problem quotes it, literally
        app.screen.query_one("#seat-name-1", Input).value = NAMES[0]
        await step(pilot)
        assert f"both called {NAMES[0]!r}" in shown(app, "#setup-error")
        app.screen.query_one("#seat-name-1", Input).value = NAMES[2]
        await step(pilot)
        await press(pilot, "ctrl+s")  # the table is dealt at once, names as typed
        for _ in range(20):
            if type(app.screen).__name__ == "TableScreen":
                break
            await step(pilot)
        assert type(app.screen).__name__ == "TableScreen"
        text = screen_text(app)
        assert NAMES[0] in text and NAMES[2] in text
        no_links(app)
    kept = AppConfig.load().last_setup["seats"]
    assert [s["name"] for s in kept[:2]] == [NAMES[0], NAMES[2]]  # the settings: as typed
    again = make_app(AppConfig.load())
    async with again.run_test(size=BIG) as pilot:
        await step(pilot)
        assert NAMES[0] in screen_text(again)  # (the table dealt above is offered to resume)
        no_links(again)


def autosave_table(rules: RuleSet, seats) -> Table:
    table = Table.create(rules, [SeatConfig(n, b) for n, b in seats], seed=4,
                         save_path=autosave_path())
    table.autosave()
    return table


async def test_an_autosave_with_markup_names_is_offered_and_resumed():
    rules = PRESETS["draw"].replace(token_name=TOKENS)
    autosave_table(rules, [(NAMES[0], None), (NAMES[1], "random"), (NAMES[2], "random")])
    saved = json.loads(autosave_path().read_text(encoding="utf-8"))
    assert NAMES[2] in json.dumps(saved)  # the autosave: as typed
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=BIG) as pilot:
        await step(pilot)
        info = shown(app, "#resume-info")
        for name in NAMES:
            assert name in info
        assert TOKENS in info
        no_links(app)
        await press(pilot, "enter")  # resume
        await step(pilot)
        table_screen(app)
        text = screen_text(app)
        assert NAMES[0] in text and NAMES[1] in text


# -- the table's screens: hot-seat privacy, the showdown, the end of the game, leaving ---------

async def test_hot_seat_privacy_screen_passes_to_a_markup_name():
    from pokeroulette_tui.ui.screens.privacy import PrivacyScreen

    session = local_session(RuleSet(), [(NAMES[2], None), (NAMES[0], None), ("Cy", "random")],
                            seed=3)
    app = make_app(AppConfig(delay=0), session)
    async with app.run_test(size=BIG) as pilot:
        await settle(pilot, session)
        assert isinstance(app.screen, PrivacyScreen)
        text = screen_text(app)
        assert f"Pass to {app.screen.player} — press Enter" in text
        assert app.screen.player in NAMES
        no_links(app)
        await press(pilot, "enter")
        assert not isinstance(app.screen, PrivacyScreen)
        assert NAMES[0] in screen_text(app) and NAMES[2] in screen_text(app)


async def test_showdown_and_game_over_show_markup_names_as_typed():
    from pokeroulette_tui.ui.screens.gameover import GameOverScreen
    from pokeroulette_tui.ui.screens.showdown import (
        HandResult,
        ShowdownScreen,
        ShownHand,
    )

    result = HandResult(hand_no=2, shown=[
        ShownHand(0, NAMES[0], tuple(parse_cards("As Ad Kc Qd 2h")), "pair of aces",
                  frozenset({0, 1})),
        ShownHand(1, NAMES[2], tuple(parse_cards("Ks Kd Jc Td 3h")), "pair of kings",
                  frozenset())],
        winners={0}, pots=[f"{NAMES[0]} wins 12"], tokens=[f"{NAMES[1]} loses one of the {TOKENS}"],
        folded=[NAMES[1]])
    table = Table.create(PRESETS["draw"].replace(token_name=TOKENS),
                         [SeatConfig(NAMES[0]), SeatConfig(NAMES[1], "random"),
                          SeatConfig(NAMES[2], "random")], seed=4)

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(ShowdownScreen(result))

    app = Host()
    async with app.run_test(size=BIG) as pilot:
        await pilot.pause()
        text = screen_text(app)
        for name in NAMES:
            assert name in text
        no_links(app)
        app.pop_screen()
        app.push_screen(GameOverScreen(_public_view(table)))
        await pilot.pause()
        text = screen_text(app)
        for name in NAMES:
            assert name in text
        assert TOKENS.capitalize() in text  # the standings' column
        no_links(app)


def _public_view(table: Table):
    """The public view of ``table`` (the game-over screen only reads names and standings)."""
    from pokeroulette_tui.engine.view import view_for

    return view_for(table.state, None)


async def test_the_leave_question_and_the_chat_keep_markup_names():
    from pokeroulette_tui.ui.screens.chat import ChatScreen
    from pokeroulette_tui.ui.screens.leave import LeaveScreen

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(LeaveScreen(NAMES[2]))

    app = Host()
    async with app.run_test(size=BIG) as pilot:
        await pilot.pause()
        assert f"Leave the table, {NAMES[2]}?" in screen_text(app)
        no_links(app)
        app.pop_screen()
        app.push_screen(ChatScreen([{"name": NAMES[0], "text": NAMES[2]},
                                    {"name": NAMES[1], "text": "[red]hi", "spectator": True}]))
        await pilot.pause()
        text = screen_text(app)
        assert f"{NAMES[0]}: {NAMES[2]}" in text and f"{NAMES[1]} (watching): [red]hi" in text
        no_links(app)


async def test_the_statistics_screen_names_markup_players_as_typed():
    from stats_helpers import TableSession, play

    from pokeroulette_tui.ui.screens.stats import StatsScreen
    from pokeroulette_tui.ui.stats_recorder import StatsRecorder, stats_store

    table = Table.create(PRESETS["classic"], [SeatConfig(NAMES[0]), SeatConfig(NAMES[2]),
                                              SeatConfig("Cy", "random")], seed=3)
    play(table, TableSession(table, [0, 1]),
         StatsRecorder(stats_store(), clock=lambda: "2025-03-14T20:15:00+01:00"), seed=3)
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=BIG) as pilot:
        await step(pilot)
        await press(pilot, "t")
        assert isinstance(app.screen, StatsScreen)
        seen = {app.screen.players[app.screen.index]}
        assert f"Statistics · {next(iter(seen))}" in screen_text(app)
        await press(pilot, "right")
        seen.add(app.screen.players[app.screen.index])
        assert f"Statistics · {app.screen.players[app.screen.index]}" in screen_text(app)
        assert seen == {NAMES[0], NAMES[2]}
        no_links(app)


# -- the lobby (names from other people, over a real loopback server) ----------------------------

async def test_lobby_shows_markup_names_from_the_server():
    import asyncio

    from net_helpers import RawClient, Served

    from pokeroulette_tui.net.client import RemoteSession
    from pokeroulette_tui.ui.screens.lobby import LobbyApp, LobbyScreen

    async with Served(RuleSet(), bots=0, delay=0.0) as srv:
        other = RawClient(NAMES[2])
        await other.connect(srv.port)
        session = RemoteSession("127.0.0.1", srv.port, NAMES[1])
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=[f"table {NAMES[0]}"])
        async with app.run_test(size=BIG) as pilot:
            loop = asyncio.get_running_loop()
            end = loop.time() + 10
            while not (isinstance(app.screen, LobbyScreen)
                       and len(app.screen.lobby.get("seats", [])) == 2):
                assert loop.time() < end, "timed out"
                await pilot.pause(0.02)
            await pilot.pause(0.05)
            text = screen_text(app)
            assert NAMES[1] in text and NAMES[2] in text and f"table {NAMES[0]}" in text
            no_links(app)
        await session.close()
        await other.close()


# -- toasts, exit messages and tables of Rich cells ---------------------------------------------

def test_every_toast_of_the_ui_is_sent_without_markup():
    """``notify()`` reads its message as markup unless told not to: every call in the UI says
    ``markup=False`` (a name, a host's notice or an error in a toast stays as it is)."""
    root = Path(__file__).resolve().parents[1] / "pokeroulette_tui" / "ui"
    missing = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "notify"
                    and "session" not in ast.unparse(node.func.value)):  # (a Session's notify)
                given = {k.arg: k.value for k in node.keywords}
                markup = given.get("markup")
                if not (isinstance(markup, ast.Constant) and markup.value is False):
                    missing.append(f"{path.relative_to(root)}:{node.lineno}")
    assert not missing, missing


def test_rich_tables_of_names_render_literally():
    """The standings and the statistics' counts are Rich tables: a ``str`` cell is markup."""
    from pokeroulette_tui.engine.stats import PlayerStats, Tally
    from pokeroulette_tui.ui.screens.gameover import standings_table
    from pokeroulette_tui.ui.screens.stats import counts_table

    table = Table.create(PRESETS["draw"].replace(token_name=TOKENS),
                         [SeatConfig(n, None) for n in NAMES], seed=1)
    console = Console(width=160, record=True, color_system=None)
    console.print(standings_table(_public_view(table)))
    console.print(counts_table(PlayerStats(NAMES[1], tallies={"draw · [/]": Tally(),
                                                              "roulette · [b]x": Tally()})))
    text = console.export_text()
    assert all(name in text for name in NAMES) and TOKENS.capitalize() in text
    assert "draw · [/]" in text and "roulette · [b]x" in text


async def test_a_damaged_preset_file_with_brackets_in_its_name_is_listed_as_it_is(home):
    from pokeroulette_tui.ui.screens.presets import PresetScreen

    folder = home / "data" / "presets"
    folder.mkdir(parents=True)
    (folder / "[b]Bad.json").write_text("{not json", encoding="utf-8")
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=BIG) as pilot:
        await step(pilot)
        await press(pilot, "p")
        assert isinstance(app.screen, PresetScreen)
        assert "[b]Bad.json" in shown(app, "#preset-problems")


async def test_the_network_casino_says_its_address_and_a_host_s_refusal_as_they_are(capsys):
    """The connecting screen's lines (an address, the host's lines) and the host's refusal,
    said as the app closes (``App.exit(message=...)``, printed by Textual after the app)."""
    import asyncio

    from pokeroulette_tui.net.client import ConnectError
    from pokeroulette_tui.ui.casino_net import CasinoNetApp

    class Refused:
        address = f"host{NAMES[1]}:7777"
        tls_note = ""

        def __init__(self) -> None:
            self.go = asyncio.Event()

        async def connect(self) -> None:
            await self.go.wait()
            raise ConnectError(f"the host said: {NAMES[2]} {NAMES[0]}")

    session = Refused()
    app = CasinoNetApp(session, info=[f"table {NAMES[0]}"])  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        words = str(app.screen.query_one("#casino-connecting", Static).render())
        assert f"table {NAMES[0]}" in words and f"host{NAMES[1]}:7777" in words
        no_links(app)
        session.go.set()
        await pilot.pause(0.05)
    assert app.return_code == 1
    said = capsys.readouterr().err
    assert f"the host said: {NAMES[2]} {NAMES[0]}" in said.replace("\n", "")


# -- the amount box: a key it cannot take is said, never dropped in silence ---------------------

class AmountHost(App):
    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[int | None] = []

    def on_mount(self) -> None:
        from pokeroulette_tui.ui.screens.amount import AmountScreen

        self.push_screen(AmountScreen("Bet", 2, 97, presets=[("min", 2), ("½ pot", 6),
                                                               ("pot", 12), ("all in", 97)]),
                         self.chosen.append)


async def test_a_letter_typed_in_the_bet_box_is_said_and_enter_asks_again():
    from pokeroulette_tui.ui.screens.amount import AmountScreen

    app = AmountHost()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        box = app.screen.query_one("#amount-input", Input)
        await pilot.press("1", "e", "3")
        assert box.value == "13"
        assert shown(app, "#amount-error") == "Digits only: 'e' was left out."
        await pilot.press("enter")  # the box does not say what was typed: not yet
        assert isinstance(app.screen, AmountScreen) and app.chosen == []
        assert shown(app, "#amount-error") == (
            "'e' was left out: the box says 13. Enter again to confirm.")
        await pilot.press("enter")
        assert app.chosen == [13]


async def test_a_bet_box_emptied_or_set_by_a_preset_starts_afresh():
    app = AmountHost()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        box = app.screen.query_one("#amount-input", Input)
        await pilot.press("4", "x")
        assert "'x' was left out" in shown(app, "#amount-error")
        await pilot.press("p")  # the pot preset: the box says what Enter bets
        assert box.value == "12" and shown(app, "#amount-error") == ""
        await pilot.press("enter")
        assert app.chosen == [12]
    app = AmountHost()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        box = app.screen.query_one("#amount-input", Input)
        await pilot.press("5", "x", "backspace")
        assert box.value == "" and shown(app, "#amount-error") == ""
        await pilot.press("7", "enter")
        assert app.chosen == [7]
