"""The setup and start screens in words, and the table's own presets: saved from the setup
screen, chosen on the start screen, remembered; damaged preset files lose nothing."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList, Select, Static

from pokeroulette_tui.engine.presets import Preset, PresetFolder
from pokeroulette_tui.engine.rules import OPTION_CHOICES, PRESETS, RuleSet
from pokeroulette_tui.engine.words import OPTION_WORDS, value_words
from pokeroulette_tui.ui.config import AppConfig, TableSetup
from pokeroulette_tui.ui.screens.presets import PresetScreen
from pokeroulette_tui.ui.screens.setup import SetupScreen
from pokeroulette_tui.ui.screens.start import StartScreen
from test_ui_setup import SIZE, StubApp, choose, focus, text_of, type_into
from ui_pilot import screen_text


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "tester")
    return tmp_path


@pytest.fixture
def folder(home):
    return PresetFolder(home / "data" / "presets")


async def open_setup(pilot) -> SetupScreen:
    await pilot.pause()
    await pilot.press("s")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, SetupScreen)
    return screen


def label_of(screen, option: str) -> str:
    return str(screen.query_one(f"#row-{option} Label").render())


async def test_setup_shows_options_and_values_in_words():
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_setup(pilot)
        for option, words in OPTION_WORDS.items():
            assert label_of(screen, option) == words
        for option, choices in OPTION_CHOICES.items():
            select = screen.query_one(f"#opt-{option}", Select)
            shown = {value: str(prompt) for prompt, value in select._options}
            assert shown == {c: value_words(option, c) for c in choices}
        forfeit_mode = screen.query_one("#opt-forfeit_mode", Select)
        assert ("Everyone but the winner pays", "all_but_winner") in [
            (str(p), v) for p, v in forfeit_mode._options]
        shown_now = screen.query_one("#opt-betting SelectCurrent")
        assert "After every round" in str(shown_now.query_one(Static).render())
        # the typed options say what a special value means, beside it
        await type_into(pilot, "opt-suit_order", "SHDC")
        assert str(screen.query_one("#row-suit_order .echo", Static).render()) == "♠ > ♥ > ♦ > ♣"
        assert str(screen.query_one("#row-hand_limit .echo", Static).render()) == "no limit"


async def test_setup_messages_say_the_option_in_words():
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_setup(pilot)
        await type_into(pilot, "opt-min_players", "")
        assert text_of(app, "#setup-error") == "⚠ Minimum players must be a whole number (you typed nothing)"
        await type_into(pilot, "opt-min_players", "-")  # all an integer box lets through
        assert "Minimum players must be a whole number (you typed '-')" in text_of(app, "#setup-error")
        await type_into(pilot, "opt-min_players", "2")
        await type_into(pilot, "opt-suit_order", "SHDC")
        assert text_of(app, "#setup-error") == ""
        assert text_of(app, "#preset-note") == "Changed: minimum players, suit order"
        assert screen.query_one("#row-min_players").has_class("-error") is False


async def test_draw_preset_changed_does_not_say_no_betting():
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        await choose(pilot, "preset", "draw")
        assert "no betting" in text_of(app, "#preset-note")  # the preset's own line
        await choose(pilot, "opt-betting", "each_round")
        assert text_of(app, "#preset-note") == "Changed: betting"


async def test_two_players_show_the_promised_warning():
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_setup(pilot)
        warning = screen.query_one("#setup-warning", Static)
        assert not warning.display
        await type_into(pilot, "opt-min_players", "2")
        assert not warning.display  # three or more seated: nothing to warn about
        await choose(pilot, "seat-count", 2)
        assert warning.display and "meant for 3 or more" in str(warning.render())
        assert text_of(app, "#setup-error") == ""  # a warning, not a problem: Start works
        await choose(pilot, "opt-variant", "draw")
        assert not warning.display  # five-card draw is a game for two
        await choose(pilot, "opt-variant", "roulette")
        await choose(pilot, "seat-count", 2)
        await pilot.press("ctrl+s")  # allowed: the table is dealt for two
        await pilot.pause()
        assert isinstance(app.screen, StartScreen) and len(app.screen.setup.seats) == 2


async def test_save_a_preset_from_the_setup_screen_and_choose_it_on_the_start_screen(folder):
    app = StubApp(AppConfig(delay=0, autosave=False))  # (no game to resume next time)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_setup(pilot)
        await type_into(pilot, "opt-ante", "3")
        await choose(pilot, "opt-limit", "fixed")
        assert text_of(app, "#preset-note") == "Changed: bet limit, ante"
        # a built-in name, and a name with a path in it, are refused in words; nothing saved
        for bad, why in (("Classic", "'Classic' is a built-in preset"),
                         ("../x", "cannot contain / or \\")):
            await type_into(pilot, "preset-name", bad)
            await pilot.press("enter")
            await pilot.pause()
            assert why in text_of(app, "#preset-saved") and app.focused.id == "preset-name"
        assert not folder.folder.exists()
        await type_into(pilot, "preset-name", "Home")
        await pilot.press("enter")
        await pilot.pause()
        assert "Saved the preset 'Home'" in text_of(app, "#preset-saved")
        assert folder.find("Home").rules == RuleSet(ante=3, limit="fixed")
        preset = screen.query_one("#preset", Select)
        assert preset.value == "Home" and ("Home (saved)", "Home") in [
            (str(p), v) for p, v in preset._options]
        assert text_of(app, "#preset-note") == "your own preset"
        # saving it again after a change updates it; another saved name is not overwritten
        await type_into(pilot, "opt-ante", "4")
        await type_into(pilot, "preset-name", "Home")
        await pilot.press("enter")
        await pilot.pause()
        assert folder.find("Home").rules.ante == 4
        folder.save(Preset("Club", RuleSet(ante=9)))
        await type_into(pilot, "preset-name", "club")
        await pilot.click("#save-preset")
        await pilot.pause()
        assert "already exists: choose another name" in text_of(app, "#preset-saved")
        assert folder.find("Club").rules.ante == 9
        await pilot.press("escape")  # back without changing the table
        await pilot.pause()
        # the start screen: p lists the presets, the saved one among them
        assert isinstance(app.screen, StartScreen)
        await pilot.press("p")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, PresetScreen)
        lines = [str(o.prompt) for o in picker.query_one(OptionList).options]
        assert lines[:4] == [f"{n} — " + lines[i].split(" — ", 1)[1] for i, n in enumerate(PRESETS)]
        assert "Club (saved) — classic with ante: 9" in lines
        assert any(line.startswith("Home (saved) — classic with") for line in lines)
        await pilot.press("down", "down", "down", "down", "down", "enter")  # the sixth: Home
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        assert start.setup.preset == "Home" and start.setup.rules == RuleSet(ante=4, limit="fixed")
        assert text_of(app, "#table-rules-title") == "The agreed rules: Home — your own preset"
        assert "fixed limit" in text_of(app, "#table-rules")
        await pilot.press("enter")
        await pilot.pause()
    assert app.opened[0].table.state.rules == RuleSet(ante=4, limit="fixed")
    # remembered with its preset's name
    again = StubApp(AppConfig.load())
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert again.screen.setup.preset == "Home"
        assert text_of(again, "#table-rules-title") == "The agreed rules: Home — your own preset"
        screen = await open_setup(pilot)
        assert screen.query_one("#preset", Select).value == "Home"


async def test_changed_rules_on_the_start_screen_in_words():
    setup = TableSetup(rules=PRESETS["draw"].replace(betting="each_round", min_players=3),
                       preset="draw")
    config = AppConfig(delay=0, last_setup=setup.to_dict())
    app = StubApp(config)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        title = text_of(app, "#table-rules-title")
        assert title == "The agreed rules: draw, changed: minimum players, betting"
        assert "no betting" not in title


async def test_a_damaged_preset_file_is_shown_kept_and_harmless(folder):
    folder.save(Preset("Good", RuleSet(ante=2)))
    bad = folder.folder / "Bad.json"
    bad.write_text('{"format": "pokeroulette-preset", "version": 1, "rules": {"ante": "lots"}}',
                   encoding="utf-8")
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        problems = text_of(app, "#preset-problems")
        assert "Cannot be used:" in problems and "Bad.json" in problems
        assert "Ante must be a whole number (got 'lots')" in problems
        lines = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert any(line.startswith("Good (saved)") for line in lines)
        assert not any(line.startswith("Bad") for line in lines)
        await pilot.press("escape")
        await pilot.pause()
        screen = await open_setup(pilot)
        values = [v for _, v in screen.query_one("#preset", Select)._options]
        assert values == [*PRESETS, "Good"]
    assert "lots" in bad.read_text(encoding="utf-8")  # kept as it was


async def test_a_remembered_preset_deleted_since_falls_back_quietly(folder):
    folder.save(Preset("Gone", RuleSet(ante=5)))
    setup = TableSetup(rules=RuleSet(ante=5), preset="Gone")
    config = AppConfig(delay=0, last_setup=setup.to_dict())
    folder.delete("Gone")
    app = StubApp(config)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.setup.rules == RuleSet(ante=5)  # the rules stay
        assert text_of(app, "#table-rules-title") == "The agreed rules: classic, changed: ante"
        await focus(pilot, "setup")
        screen = await open_setup(pilot)
        assert screen.query_one("#preset", Select).value == "classic"
        assert isinstance(screen.query_one("#preset-name", Input), Input)


async def test_many_presets_and_damaged_files_still_fit_80x24(folder):
    from pokeroulette_tui.ui.app import make_app  # (the real app: its dialogs' own sizes)

    for i in range(8):
        folder.save(Preset(f"Mine{i}", RuleSet(ante=i + 1)))
    for i in range(5):
        (folder.folder / f"Bad{i}.json").write_text("not json", encoding="utf-8")
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        problems = text_of(app, "#preset-problems")
        assert problems.count("Cannot be used:") == 1
        assert "… and 4 more (pokeroulette preset list names them)" in problems
        assert "enter chooses · esc goes back" in screen_text(app)  # the hint is on screen
