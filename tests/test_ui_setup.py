"""The start and setup screens: one key to deal, the table agreement, remembered tables, resume."""

from __future__ import annotations

from dataclasses import fields

import pytest
from textual.app import App
from textual.widgets import Input, Select, Static, Switch

from pokeroulette_tui.bots import LEVELS
from pokeroulette_tui.engine.rules import OPTION_HELP, PRESETS, RuleSet
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.config import (
    AppConfig,
    LaunchOptions,
    TableSetup,
    autosave_path,
    default_bot_level,
    default_seats,
)
from pokeroulette_tui.ui.tables import clear_autosave, read_autosave
from pokeroulette_tui.ui.screens.setup import SetupScreen
from pokeroulette_tui.ui.screens.start import StartScreen

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "tester")
    return tmp_path


class StubApp(App):
    """Stands in for PokerApp: pushes the start screen, records the sessions it is given."""

    def __init__(self, config: AppConfig) -> None:
        super().__init__()
        self.config = config
        self.opened: list[LocalSession] = []

    def on_mount(self) -> None:
        self.push_screen(StartScreen())

    def open_table(self, session: LocalSession) -> None:
        self.opened.append(session)


def text_of(app: App, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def focus(pilot, widget_id: str) -> None:
    """Move the focus straight to a control (the tab order itself has its own test)."""
    pilot.app.screen.query_one(f"#{widget_id}").focus()
    await pilot.pause()


async def choose(pilot, widget_id: str, value) -> None:
    """Open a Select with Enter, walk to ``value`` with the arrow keys, pick it with Enter."""
    await focus(pilot, widget_id)
    select = pilot.app.screen.query_one(f"#{widget_id}", Select)
    values = [v for _, v in select._options]
    steps = values.index(value) - values.index(select.value)
    await pilot.press("enter", *(["down"] * steps if steps > 0 else ["up"] * -steps), "enter")
    await pilot.pause()
    assert select.value == value


async def type_into(pilot, widget_id: str, text: str) -> None:
    """Focus an Input (which selects its text) and type over it."""
    if pilot.app.focused is not None and pilot.app.focused.id == widget_id:
        await pilot.press("home", "shift+end")  # already focused: select the text by keys
    else:
        await focus(pilot, widget_id)
    await pilot.press(*text) if text else await pilot.press("backspace")
    await pilot.pause()


def play_a_little(table: Table, steps: int) -> None:
    """Dealer, bots and the human (who checks, else folds) take ``steps`` actions."""
    for _ in range(steps):
        action = table.auto_action()
        if action is None:
            seat = table.waiting_for_human()
            assert seat is not None, "the game ended early"
            legal = table.legal(seat)
            action = next((a for a in legal if type(a).__name__ in ("Check", "Fold")), legal[0])
        table.apply(action)


# -- the start screen ------------------------------------------------------------------------

async def test_enter_deals_the_default_table():
    config = AppConfig(delay=0)
    app = StubApp(config)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "A new table" in text_of(app, "#table-heading")
        assert "Tester, Bot 1" in text_of(app, "#table-seats")
        assert "Game: Poker Roulette" in text_of(app, "#table-rules")  # the agreement, before dealing
        await pilot.press("enter")
        await pilot.pause()
    assert len(app.opened) == 1
    table = app.opened[0].table
    assert table.state.rules == RuleSet()
    assert [s.bot for s in table.seats] == [None] + [default_bot_level()] * 3
    assert table.save_path == autosave_path() and autosave_path().exists()
    assert app.opened[0].driver.pace.delay == 0
    assert AppConfig.load().last_setup == TableSetup.default().to_dict()  # remembered


async def test_command_line_table_is_prefilled_and_seeded():
    setup = TableSetup(rules=PRESETS["swedish"], preset="swedish", seed=7,
                       seats=[SeatConfig("Ana"), SeatConfig("Bo"), SeatConfig("Cy", "random")])
    config = AppConfig(delay=0, launch=LaunchOptions(setup=setup))
    app = StubApp(config)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Your table" in text_of(app, "#table-heading")
        assert "seed 7" in text_of(app, "#table-seats")
        assert "swedish" in text_of(app, "#table-rules-title")
        await pilot.press("enter")
        await pilot.pause()
    table = app.opened[0].table
    assert table.seed == 7 and [s.name for s in table.seats] == ["Ana", "Bo", "Cy"]
    assert table.human_seats == [0, 1]
    twin = Table.create(PRESETS["swedish"], setup.seats, seed=7)
    assert table.state.to_dict() == twin.state.to_dict()


async def test_no_autosave_when_the_config_says_so():
    app = StubApp(AppConfig(delay=0, autosave=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
    assert app.opened[0].table.save_path is None
    assert not autosave_path().exists()


async def test_setup_flag_opens_the_setup_screen_and_escape_goes_back():
    app = StubApp(AppConfig(delay=0, launch=LaunchOptions(open_setup=True)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert not app.opened


# -- the setup screen ------------------------------------------------------------------------

async def test_setup_shows_every_rule_option_with_its_help():
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        for f in fields(RuleSet):
            control = screen.query_one(f"#opt-{f.name}")
            row_text = " ".join(str(s.render()) for s in screen.query(f"#row-{f.name} Static"))
            assert OPTION_HELP[f.name] in row_text
            if isinstance(f.default, bool):
                assert isinstance(control, Switch)
            elif f.name in ("variant", "betting", "scoring"):
                assert isinstance(control, Select)
            else:
                assert isinstance(control, (Select, Input))
        kinds = [v for _, v in screen.query_one("#seat-kind-0", Select)._options]
        assert kinds == ["human", *LEVELS]  # every bot level is offered


async def test_setup_by_keys_preset_option_seats_and_start():
    config = AppConfig(delay=0)
    app = StubApp(config)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        # a preset resets the options to it
        await choose(pilot, "preset", "draw")
        assert screen.query_one("#opt-variant", Select).value == "draw"
        assert screen.query_one("#opt-min_players", Input).value == "2"
        assert screen.query_one("#opt-token_name", Input).value == "items"
        assert screen.query_one("#opt-betting", Select).value == "none"
        # a bad value shows the rule's own message, never a crash, and Start refuses
        await type_into(pilot, "opt-tokens", "9")
        assert "tokens must be between 5 and 7 (got 9)" in text_of(app, "#setup-error")
        assert screen.query_one("#row-tokens").has_class("-error")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen and app.focused.id == "opt-tokens"
        await pilot.press("backspace", "5")
        await pilot.pause()
        assert text_of(app, "#setup-error") == ""
        # a switch, by keys
        await focus(pilot, "opt-suit_tiebreak")
        await pilot.press("space")
        await pilot.pause()
        assert screen.query_one("#opt-suit_tiebreak", Switch).value is True
        assert "Changed: suits break ties, forfeit tokens" in text_of(app, "#preset-note")
        assert "no betting" not in text_of(app, "#preset-note")  # the blurb goes once changed
        # seats: three, the second a person called Ada
        await choose(pilot, "seat-count", 3)
        await choose(pilot, "seat-kind-1", "human")
        assert screen.query_one("#seat-name-1", Input).value == "Player 2"  # renamed with its kind
        await type_into(pilot, "seat-name-1", "Ada")
        assert not screen.query_one("#seat-row-3").display
        await focus(pilot, "start")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "Your table" in text_of(app, "#table-heading")
        assert "5 items each" in text_of(app, "#table-rules")  # the agreement, shown before dealing
        await pilot.press("enter")
        await pilot.pause()
    table = app.opened[0].table
    rules = table.state.rules
    assert rules == PRESETS["draw"].replace(tokens=5, suit_tiebreak=True)
    assert [(s.name, s.bot) for s in table.seats] == [
        ("Tester", None), ("Ada", None), ("Bot 2", default_bot_level())]
    remembered = TableSetup.from_dict(AppConfig.load().last_setup)
    assert remembered is not None and remembered.rules == rules and remembered.preset == "draw"


async def test_invalid_combination_and_seat_problems_are_reported():
    setup = TableSetup.default(PRESETS["draw"], "draw")  # forfeit scoring, no betting
    app = StubApp(AppConfig(delay=0, launch=LaunchOptions(setup=setup, open_setup=True)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        await choose(pilot, "opt-forfeit_mode", "most_chips_lost")
        assert "“Who lost most chips pays” needs betting" in text_of(app, "#setup-error")
        # while the rules are wrong, the words beside a typed option follow the box (not
        # the last good rules' "no limit")
        assert str(screen._echo["hand_limit"].render()) == "no limit"
        await type_into(pilot, "opt-hand_limit", "5")
        assert str(screen._echo["hand_limit"].render()) == ""
        await choose(pilot, "opt-betting", "each_round")
        assert text_of(app, "#setup-error") == ""
        assert str(screen._echo["hand_limit"].render()) != "no limit"
        await type_into(pilot, "opt-hand_limit", "0")
        await type_into(pilot, "seat-name-2", "tester")  # seat 1 has the login name
        assert "both called 'tester'" in text_of(app, "#setup-error")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen
        await type_into(pilot, "seat-name-2", "")
        assert "Seat 3 needs a name" in text_of(app, "#setup-error")
        await type_into(pilot, "opt-ante", "")
        assert "Ante must be a whole number (you typed nothing)" in text_of(app, "#setup-error")
        await pilot.press("1")
        await pilot.pause()
        assert "Seat 3 needs a name" in text_of(app, "#setup-error")


async def test_variant_limits_the_seats():
    setup = TableSetup(seats=[SeatConfig("You")] + [SeatConfig(f"B{i}", "random") for i in range(9)])
    app = StubApp(AppConfig(delay=0, launch=LaunchOptions(setup=setup)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        count = screen.query_one("#seat-count", Select)
        assert count.value == 10
        await choose(pilot, "opt-variant", "draw")
        await pilot.pause()
        assert count.value == 7
        assert "These rules seat 2 to 7 players: the table now has 7 seats." in [
            n.message for n in app._notifications]  # (three seats went: said)
        assert [v for _, v in count._options] == list(range(2, 8))  # (RULES §3: draw deals for 2–7)
        assert not screen.query_one("#seat-row-7").display
        assert "not used in five-card draw" in text_of(app, "#group-matching-poker-roulette")


async def test_setup_tab_order_and_scrolling_at_80x24():
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        chain = [w.id for w in screen.focus_chain]
        rule_ids = [f"opt-{f.name}" for f in fields(RuleSet)]
        assert set(rule_ids) <= set(chain)
        assert chain[0] == "preset" and chain[-2:] == ["cancel", "start"]
        assert chain.index("seat-count") < chain.index("seat-name-0") < chain.index("seat-kind-0")
        assert "seat-name-4" not in chain  # hidden seats are skipped
        assert app.focused.id == "preset"
        await pilot.press("shift+tab")  # Start is one key away from the top
        assert app.focused.id == "start"
        await pilot.press("tab", "tab")
        assert app.focused.id == "preset-name"  # the row that saves the rules as a preset
        await pilot.press("tab", "tab")
        assert app.focused.id == "opt-variant"
        body = screen.query_one("#setup-body")
        assert body.max_scroll_y > 0 and body.scroll_y == 0
        await focus(pilot, "opt-hand_limit")
        await pilot.press("shift+tab", "tab")  # the last option, reached by keys
        await pilot.pause()
        assert app.focused.id == "opt-hand_limit"
        assert body.scroll_y > 0
        assert body.region.contains_region(app.focused.region)


async def test_remembered_table_is_offered_next_time():
    setup = TableSetup(rules=PRESETS["pagat"].replace(ante=2), preset="pagat",
                       seats=[SeatConfig("Me"), SeatConfig("Robo", "random"), SeatConfig("Zed", "random")])
    config = AppConfig(delay=0, last_setup=setup.to_dict())
    config.save()
    app = StubApp(AppConfig.load())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Your last table" in text_of(app, "#table-heading")
        assert "pagat, changed: ante" in text_of(app, "#table-rules-title")
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert screen.query_one("#preset", Select).value == "pagat"
        assert screen.query_one("#opt-ante", Input).value == "2"
        assert screen.query_one("#seat-name-1", Input).value == "Robo"
        await pilot.press("escape", "d")  # back, then the default table instead
        await pilot.pause()
        assert "A new table" in text_of(app, "#table-heading")


# -- the autosave ----------------------------------------------------------------------------

def saved_table(steps: int = 25) -> Table:
    seats = [SeatConfig("You"), SeatConfig("Bo", "random"), SeatConfig("Cy", "random")]
    table = Table.create(RuleSet(), seats, seed=11, save_path=autosave_path())
    play_a_little(table, steps)
    return table


async def test_resume_continues_exactly_where_it_was():
    table = saved_table()
    before = table.state.to_dict()
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        info = text_of(app, "#resume-info")
        assert "Resume the game in progress" in info
        assert f"hand {table.state.hand_no}" in info and "You" in info and "Bo" in info
        await pilot.press("enter")
        await pilot.pause()
    resumed = app.opened[0].table
    assert resumed.state.to_dict() == before
    assert resumed.actions == table.actions
    # the same actions deal the same cards from here on (the shuffle state was saved)
    done = len(table.actions)
    play_a_little(table, 12)
    for action in table.actions[done:]:
        resumed.apply(action)
    assert resumed.state.to_dict() == table.state.to_dict()


async def test_new_game_instead_of_resuming():
    saved_table(5)
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#resume-box").display
        await pilot.press("n")
        await pilot.pause()
        assert not app.screen.query_one("#resume-box").display
        await pilot.press("enter")
        await pilot.pause()
    table = app.opened[0].table
    assert table.state.hand_no == 0 and table.seats[0].name == "Tester"
    assert read_autosave().table.state.hand_no == 0  # the new game replaced the old save


async def test_new_flag_skips_the_resume_offer():
    saved_table(5)
    app = StubApp(AppConfig(delay=0, launch=LaunchOptions(new=True)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#resume-box").display
        assert app.screen.query_one("#new-box").display


@pytest.mark.parametrize("content", ["{not json", '{"format": "pokeroulette-save", "version": 1}', ""])
async def test_corrupt_autosave_is_kept_aside_and_reported(home, content):
    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        notice = text_of(app, "#start-notice")
        assert "could not be read" in notice and "corrupt-" in notice
        assert app.screen.query_one("#new-box").display
        await pilot.press("enter")
        await pilot.pause()
    assert app.opened
    kept = list(path.parent.glob("autosave.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == content


async def test_an_autosave_damaged_in_the_middle_resumes_from_before_the_damage(home):
    """A bad line in the middle of the autosave no longer costs the game: the start screen
    offers it from before the damage, says so, and names the whole copy it kept."""
    table = saved_table(40)
    table.close()
    path = autosave_path()
    lines = path.read_text(encoding="utf-8").split("\n")
    at = len(lines) - 6
    lines[at] = lines[at][:-4]  # (a line cut short in the middle of the file)
    damaged = "\n".join(lines)
    path.write_text(damaged, encoding="utf-8")
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        notice = text_of(app, "#start-notice")
        assert "resumes from before the damage" in notice and f"line {at + 1}" in notice
        kept = list(path.parent.glob("autosave.json.corrupt-*"))
        assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == damaged
        assert str(kept[0]) in notice.replace("\n", "")
        assert "Resume the game in progress" in text_of(app, "#resume-info")
        await pilot.press("enter")
        await pilot.pause()
    resumed = app.opened[0].table
    n = len(resumed.actions)
    assert 0 < n < len(table.actions) and resumed.actions == table.actions[:n]


def test_finished_game_save_is_cleared_and_clear_autosave():
    table = saved_table(3)
    table.state.game_over = True
    table.autosave()
    assert read_autosave().table is None and not autosave_path().exists()
    saved_table(3)
    clear_autosave()
    assert not autosave_path().exists()
    clear_autosave()  # nothing to clear is fine


def test_remembered_setup_that_no_longer_fits_is_ignored():
    assert TableSetup.from_dict({"rules": {"tokens": 99}, "seats": []}) is None
    assert TableSetup.from_dict({"rules": {}, "seats": [{"name": "A"}]}) is None
    assert TableSetup.from_dict("garbage") is None
    good = TableSetup.default()
    assert TableSetup.from_dict(good.to_dict()) == good


# -- with the real app -------------------------------------------------------------------------

async def test_real_app_deals_and_resumes():
    from pokeroulette_tui.ui.app import make_app
    from pokeroulette_tui.ui.screens.table import TableScreen

    app = make_app(AppConfig(delay=0, launch=LaunchOptions(
        setup=TableSetup(seed=5, seats=[SeatConfig("You"), SeatConfig("Bo", "random"),
                                        SeatConfig("Cy", "random")]))))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session.table.seed == 5
        await app.close_session()
    saved = read_autosave()
    assert saved.table is not None and saved.table.seed == 5
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Resume the game in progress" in text_of(app, "#resume-info")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session.table.state.to_dict() == saved.table.state.to_dict()
        await app.close_session()


async def test_mouse_works_on_both_screens():
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#setup")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        await pilot.click("#opt-variant")
        await pilot.pause()
        assert app.screen.query_one("#opt-variant", Select).expanded
        await pilot.press("escape")
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        await pilot.click("#deal")
        await pilot.pause()
    assert len(app.opened) == 1


async def test_q_quits_from_the_start_screen():
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        assert app.return_code is None
        await pilot.press("q")
        assert app.return_code == 0  # exiting, before the test harness closes the app
    assert not app.opened


# -- the default name ------------------------------------------------------------------------

def test_login_name_is_the_default_name(monkeypatch):
    from pokeroulette_tui.ui.config import default_name, default_seats, login_name

    monkeypatch.setattr("getpass.getuser", lambda: "mary_ann.o'neil")
    assert login_name() == "Mary_ann.o'neil"
    assert default_name(0, None) == "Mary_ann.o'neil" and default_name(2, None) == "Player 3"
    assert [s.name for s in default_seats(3)][0] == "Mary_ann.o'neil"
    monkeypatch.setattr("getpass.getuser", lambda: "x" * 40)
    assert login_name() == "X" + "x" * 23  # names are at most 24 characters
    monkeypatch.setattr("getpass.getuser", lambda: "\x1b[2J")
    assert login_name() == "2J"  # control characters and brackets go

    def nobody():
        raise OSError("no login name")

    monkeypatch.setattr("getpass.getuser", nobody)
    assert login_name() == "Player 1"
    monkeypatch.setattr("getpass.getuser", lambda: " .. ")
    assert login_name() == "Player 1"


async def test_seat_one_renamed_with_its_kind():
    setup = TableSetup.default()
    app = StubApp(AppConfig(delay=0, launch=LaunchOptions(setup=setup, open_setup=True)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#seat-name-0", Input).value == "Tester"
        await choose(pilot, "seat-kind-0", "random")
        assert screen.query_one("#seat-name-0", Input).value == "Bot 4"  # Bots 1-3 are taken
        await choose(pilot, "seat-kind-0", "human")
        assert screen.query_one("#seat-name-0", Input).value == "Tester"


async def test_a_person_turned_bot_takes_a_bot_name_no_other_seat_has():
    setup = TableSetup(seats=default_seats(4, humans=2))  # Player 1, Player 2, Bot 1, Bot 2
    app = StubApp(AppConfig(delay=0, launch=LaunchOptions(setup=setup, open_setup=True)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        names = lambda: [screen.query_one(f"#seat-name-{i}", Input).value for i in range(4)]
        assert names() == ["Player 1", "Player 2", "Bot 1", "Bot 2"]
        await choose(pilot, "seat-kind-1", "random")
        assert names() == ["Player 1", "Bot 3", "Bot 1", "Bot 2"]  # not a second "Bot 1"
        await choose(pilot, "seat-kind-2", "human")
        assert names() == ["Player 1", "Bot 3", "Player 3", "Bot 2"]
        await choose(pilot, "seat-kind-0", "random")
        assert names() == ["Bot 1", "Bot 3", "Player 3", "Bot 2"]


@pytest.mark.parametrize(("lang", "drawn", "tokens"), [
    ("en", "", ""),  # (the help line says what drawn is; "items" is its own word)
    ("fi", "arvotaan ennen 1. jakoa", "esineet"),  # (the draw preset's "items")
])
async def test_a_typed_value_in_english_has_its_words_beside_it_in_another_language(
        lang, drawn, tokens):
    from pokeroulette_tui.engine.i18n import set_language

    set_language(lang)
    setup = TableSetup.default(PRESETS["draw"], "draw")
    app = StubApp(AppConfig(delay=0, launch=LaunchOptions(setup=setup, open_setup=True)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert str(screen._echo["suit_order"].render()) == drawn
        assert str(screen._echo["token_name"].render()) == tokens
        await type_into(pilot, "opt-token_name", "beers")  # a name of the table's own
        assert str(screen._echo["token_name"].render()) == ""
