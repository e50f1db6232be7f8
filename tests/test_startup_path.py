"""The way to the start screen stays light, and the way from it to a table stays short.

* up to the start screen (a fresh start) nothing of the engine loads but its rules, and
  no bot level, driver, session, table or network code: those load in the background while
  a key is awaited (the network code not at all);
* the table's footer shows its keys in the table's first frame, built once;
* the footer of a screen under another is not rebuilt;
* only the colour file of the theme in use is read (the other one when switching).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from textual.widgets._footer import FooterKey

from pokeroulette_tui.ui.config import AppConfig, autosave_path
from pokeroulette_tui.ui.widgets.footer import TidyFooter

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    return tmp_path


# -- what loads before the start screen --------------------------------------------------------

START_PATH = textwrap.dedent('''
    """Run the command's own path (cli.main with no arguments) up to the start screen, and
    print the package's modules loaded when the start screen is up, waiting for a key."""
    import asyncio
    import json
    import sys

    from pokeroulette_tui import cli
    from pokeroulette_tui.ui import launch

    seen = {}

    def fake_run_app(config):
        from pokeroulette_tui.ui.app import make_app
        from pokeroulette_tui.ui.screens import start

        def mine():
            return sorted(m for m in sys.modules if m.startswith("pokeroulette_tui"))

        original = start.StartScreen._start_preload

        def noted(screen):  # the start screen is shown: what has loaded so far?
            seen.setdefault("shown", mine())
            seen.setdefault("argparse", "argparse" in sys.modules)
            original(screen)

        start.StartScreen._start_preload = noted
        app = make_app(config)

        async def main():
            async with app.run_test(size=(80, 24)) as pilot:
                for _ in range(50):
                    await pilot.pause()
                    if "shown" in seen:
                        break
                seen["loading"] = app.screen._preload is not None  # not while being drawn
                for _ in range(100):  # a moment later, while a player reads
                    await pilot.pause(0.02)
                    if app.screen._preload is not None:
                        break
                app.screen._preload.wait()
                seen["preloaded"] = mine()
                await pilot.press("enter")
                for _ in range(50):
                    await pilot.pause()
                    if type(app.screen).__name__ == "TableScreen":
                        break
                seen["table"] = type(app.screen).__name__
                await app.close_session()

        asyncio.run(main())
        return 0

    launch._run_app = fake_run_app
    assert cli.main([]) == 0
    print(json.dumps(seen))
''')

HEAVY = ("pokeroulette_tui.engine.game", "pokeroulette_tui.engine.state",
         "pokeroulette_tui.engine.actions", "pokeroulette_tui.engine.view",
         "pokeroulette_tui.engine.save", "pokeroulette_tui.engine.journal",
         "pokeroulette_tui.bots.simple", "pokeroulette_tui.bots.strong",
         "pokeroulette_tui.session", "pokeroulette_tui.table", "pokeroulette_tui.driver",
         "pokeroulette_tui.bots.", "pokeroulette_tui.simulate",
         "pokeroulette_tui.ui.screens.table", "pokeroulette_tui.ui.netplay",
         "pokeroulette_tui.net")


def run_script(home, tmp_path, name: str, text: str) -> str:
    """Run ``text`` as a fresh Python process in a bare environment; its last line."""
    script = tmp_path / name
    script.write_text(text, encoding="utf-8")
    env = {"POKEROULETTE_HOME": str(home), "PATH": "/usr/bin:/bin", "TERM": "dumb"}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def run_start_path(home, tmp_path) -> dict:
    return json.loads(run_script(home, tmp_path, "start_path.py", START_PATH))


def test_a_fresh_start_shows_the_start_screen_without_the_engine(home, tmp_path):
    seen = run_start_path(home, tmp_path)
    shown = seen["shown"]
    assert "pokeroulette_tui.ui.screens.start" in shown
    heavy = [m for m in shown if m.startswith(HEAVY)]
    assert heavy == [], f"loaded before the start screen: {heavy}"
    assert seen["argparse"] is False  # the plain command has no flags to parse
    engine = [m for m in shown if m.startswith("pokeroulette_tui.engine.")]
    assert set(engine) <= {"pokeroulette_tui.engine.rules", "pokeroulette_tui.engine.cards",
                           "pokeroulette_tui.engine.words", "pokeroulette_tui.engine.i18n"}
    # while the start screen waits, the table's modules load in the background (not while
    # it is being drawn: that held its first frame back) …
    assert seen["loading"] is False
    preloaded = seen["preloaded"]
    for module in ("pokeroulette_tui.ui.screens.table", "pokeroulette_tui.table",
                   "pokeroulette_tui.session", "pokeroulette_tui.bots.simple"):
        assert module in preloaded
    assert "pokeroulette_tui.bots.strong" not in preloaded  # no strong bot at this table
    # … and Enter deals
    assert seen["table"] == "TableScreen"
    assert (home / "data" / "autosave.json").exists()


async def test_a_key_pressed_at_once_deals_without_loading_in_the_background(monkeypatch):
    """Enter before the background loading has begun: the table is dealt with the imports
    done where they are needed, and no loading thread starts later, competing with the
    table's first frames."""
    from pokeroulette_tui.ui import tables
    from pokeroulette_tui.ui.app import make_app
    from pokeroulette_tui.ui.screens.start import PRELOAD_AFTER
    from pokeroulette_tui.ui.screens.table import TableScreen

    started = []
    monkeypatch.setattr(tables.TablePreload, "start",
                        lambda self: started.append(self) or self)
    app = make_app(AppConfig(delay=5))
    async with app.run_test(size=SIZE) as pilot:
        start = app.screen
        await pilot.pause()
        await pilot.press("enter")
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, TableScreen):
                break
        assert isinstance(app.screen, TableScreen)
        await pilot.pause(PRELOAD_AFTER + 0.1)
        assert started == [] and start._preload is None
        await app.close_session()


GC_PAUSED = textwrap.dedent('''
    """Run the app (headless) as the command does: is the garbage collector paused while it
    starts, and back on afterwards? Were the start-up objects frozen?"""
    import gc

    from pokeroulette_tui.ui import app as app_module
    from pokeroulette_tui.ui.config import AppConfig

    app_module.GC_PAUSE = 3.0  # (long enough that a loaded machine still samples within it)
    seen = []

    async def pilot(pilot):
        await pilot.pause()
        seen.append(gc.isenabled())
        await pilot.pause(3.5)
        seen.append(gc.isenabled())
        pilot.app.exit()

    app_module.make_app(AppConfig(delay=5)).run(headless=True, size=(80, 24), auto_pilot=pilot)
    print(seen, gc.isenabled(), gc.get_freeze_count() > 0)
''')


def test_the_garbage_collector_rests_while_the_app_starts(home, tmp_path):
    assert run_script(home, tmp_path, "gc_paused.py", GC_PAUSED) == "[False, True] True True"


def test_the_plain_command_is_play_with_the_parsers_defaults():
    from pokeroulette_tui.cli import PLAY_DEFAULTS, build_parser

    assert vars(build_parser().parse_args(["play"])) == PLAY_DEFAULTS


def test_the_bot_levels_are_known_before_their_modules_load():
    code = ("import sys; from pokeroulette_tui.bots import LEVELS; names = list(LEVELS); "
            "loaded = sorted(m for m in sys.modules if m.startswith('pokeroulette_tui.')); "
            "cls = LEVELS['simple']; print(names, loaded, cls.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ("['random', 'simple', 'strong'] "
                                  "['pokeroulette_tui.bots', 'pokeroulette_tui.codecache'] SimpleBot")


def test_the_ui_copies_of_engine_values_agree():
    from pokeroulette_tui.engine.game import MAX_NAME
    from pokeroulette_tui.table import SeatConfig
    from pokeroulette_tui.ui import config

    assert config.MAX_NAME == MAX_NAME
    fields = lambda cls: [(f.name, f.default) for f in cls.__dataclass_fields__.values()]  # noqa: E731
    assert fields(config.SeatChoice) == fields(SeatConfig)


# -- the footer ------------------------------------------------------------------------------

class Composes:
    """Counts the key builds of each footer (TidyFooter.compose calls that show keys)."""

    def __init__(self, monkeypatch) -> None:
        self.by_screen: dict[str, int] = {}
        original = TidyFooter.compose
        counts = self.by_screen

        def counted(footer):
            keys = list(original(footer))
            if keys:
                name = type(footer.screen).__name__
                counts[name] = counts.get(name, 0) + 1
            yield from keys

        monkeypatch.setattr(TidyFooter, "compose", counted)


def shown_keys(screen) -> list[str]:
    return [k.description for k in screen.query_one(TidyFooter).query(FooterKey)]


async def test_the_table_is_shown_with_its_keys_built_once(monkeypatch):
    from pokeroulette_tui.ui.app import make_app
    from pokeroulette_tui.ui.screens.table import TableScreen

    composes = Composes(monkeypatch)
    frames: list[tuple[str, list[str]]] = []
    app = make_app(AppConfig(delay=0.5))
    original = type(app)._display

    def display(self, screen, renderable):  # what each frame shows of the footer
        if renderable is not None:
            laid_out = [k.description for k in screen.query(FooterKey) if k.region]
            frames.append((type(screen).__name__, laid_out))
        return original(self, screen, renderable)

    monkeypatch.setattr(type(app), "_display", display)
    monkeypatch.setattr(type(app), "is_headless", property(lambda self: False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        start = app.screen
        assert "Quit" in shown_keys(start)
        assert composes.by_screen == {"StartScreen": 1}
        await pilot.press("enter")
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, TableScreen):
                break
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert {"Help", "Leave", "Quit"} <= set(shown_keys(app.screen))
        # built once, after the table screen's on_mount, and no more on the covered start
        assert composes.by_screen == {"StartScreen": 1, "TableScreen": 1}
        await app.close_session()
    table_frames = [keys for name, keys in frames if name == "TableScreen"]
    assert table_frames and {"Help", "Leave", "Quit"} <= set(table_frames[0])  # the first frame


async def test_a_covered_footer_is_brought_up_to_date_when_shown_again(monkeypatch):
    from textual.app import App
    from textual.binding import Binding
    from textual.screen import Screen

    class Under(Screen):
        BINDINGS = [Binding("x", "x", "Ex"), Binding("y", "y", "Why")]
        show_y = False

        def compose(self):
            yield TidyFooter()

        def check_action(self, action, parameters):
            return self.show_y if action == "y" else True

    class Over(Screen):
        BINDINGS = [Binding("z", "z", "Zed")]

        def compose(self):
            yield TidyFooter()

    class Plain(App):
        ENABLE_COMMAND_PALETTE = False

    composes = Composes(monkeypatch)
    app = Plain()
    async with app.run_test(size=SIZE) as pilot:
        under = Under()
        await app.push_screen(under)
        await pilot.pause()
        assert shown_keys(under) == ["Ex"]
        await app.push_screen(Over())
        await pilot.pause()
        under.show_y = True
        for _ in range(3):
            under.refresh_bindings()
            await pilot.pause()
        assert composes.by_screen == {"Under": 1, "Over": 1}  # not rebuilt while covered
        app.screen.refresh_bindings()
        await pilot.pause()
        assert composes.by_screen == {"Under": 1, "Over": 1}  # nothing changed: no rebuild
        await app.pop_screen()
        await pilot.pause()
        await pilot.pause()
        assert shown_keys(under) == ["Ex", "Why"]
        assert composes.by_screen == {"Under": 2, "Over": 1}


async def test_dealing_saves_the_table_and_remembers_it_after_the_first_frame():
    from pokeroulette_tui.ui.app import make_app
    from pokeroulette_tui.ui.tables import read_autosave
    from pokeroulette_tui.ui.screens.table import TableScreen

    app = make_app(AppConfig(delay=5))  # no action for a while: only the deal's own save
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, TableScreen) and autosave_path().exists():
                break
        assert isinstance(app.screen, TableScreen)
        assert autosave_path().exists()
        saved = read_autosave()
        assert saved.table is not None and saved.table.state.hand_no == 0
        assert AppConfig.load().last_setup["seats"]  # the table offered next time
        await app.close_session()


# -- the stylesheets --------------------------------------------------------------------------

async def test_only_the_colours_of_the_theme_in_use_are_read():
    from pokeroulette_tui.ui.app import make_app

    app = make_app(AppConfig(delay=0, theme="light"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [p.name for p in app.css_path] == ["app.tcss", "light.tcss"]
        assert not any(str(p).endswith("dark.tcss") for p, _ in app.stylesheet.source)
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.theme == "textual-dark" and AppConfig.load().theme == "dark"
        assert [p.name for p in app.css_path] == ["app.tcss", "light.tcss", "dark.tcss"]
        assert any(str(p).endswith("dark.tcss") for p, _ in app.stylesheet.source)


# -- the engine's records, made without generating code at import ------------------------------

def _dataclass_facts(cls) -> dict:
    """Everything ``@dataclass`` decides about a class, as comparable values."""
    import dataclasses
    import inspect

    fields = [(k, f.name, str(f.type), repr(f.default), f.default_factory, f.init, f.repr,
               f.hash, f.compare, f.kw_only, f._field_type, dict(f.metadata))
              for k, f in cls.__dataclass_fields__.items()]
    return {"fields": fields, "params": repr(cls.__dataclass_params__),
            "match_args": cls.__match_args__, "signature": str(inspect.signature(cls)),
            "annotations": cls.__dict__.get("__annotations__"), "kind": cls.kind,
            "doc": cls.__doc__.replace(cls.__name__, "X", 1) if cls.__doc__ else None,
            "is_dataclass": dataclasses.is_dataclass(cls)}


def _instance_facts(obj) -> dict:
    import dataclasses

    out = {"repr": repr(obj).split("(", 1)[1], "vars": vars(obj).copy(),
           "asdict": dataclasses.asdict(obj), "astuple": dataclasses.astuple(obj),
           "hash": hash(obj), "replace": repr(dataclasses.replace(obj, seat=3)).split("(", 1)[1]}
    for name in ("seat", "kind", "not_a_field"):
        for what, act in (("set", lambda: setattr(obj, name, 1)),
                          ("del", lambda: delattr(obj, name))):
            try:
                act()
                out[f"{what} {name}"] = "allowed"
            except Exception as exc:  # noqa: BLE001 - the error is what is compared
                out[f"{what} {name}"] = f"{type(exc).__name__}: {exc}"
    return out


def test_every_event_kind_is_what_a_frozen_dataclass_would_be():
    """The kinds are built without ``@dataclass`` code generation (import time): the same
    fields, signature, repr, equality, hash, frozenness as the decorated class."""
    from dataclasses import dataclass

    from pokeroulette_tui.engine.cards import parse_cards
    from pokeroulette_tui.engine.events import KINDS, Event, _wire

    cards = tuple(parse_cards("7h 9s"))
    for wire, cls in KINDS.items():
        saved = KINDS[wire]
        generated = cls.__doc__.startswith(cls.__name__ + "(")  # no docstring of its own
        namespace = {"__annotations__": {"kind": "str"}, "kind": _wire(wire),
                     "__doc__": None if generated else cls.__doc__}
        try:
            Reference = dataclass(frozen=True)(type("Reference", (Event,), namespace))
        finally:
            KINDS[wire] = saved  # the reference registered itself under the same name
        assert _dataclass_facts(cls) == _dataclass_facts(Reference), wire
        args = dict(seat=2, cards=cards, amount=3, private=True, public_text="p", hand_no=4)
        ours, ref = cls("t", **args), Reference("t", **args)
        assert _instance_facts(ours) == _instance_facts(ref), wire
        assert ours == cls("t", **args) and ours != ref and ours != Event(wire, "t", **args)
        assert ours.redacted_for(1) == cls("p", **{**args, "cards": (None, None),
                                                   "public_text": ""})
        try:
            cls()
        except TypeError as exc:
            assert str(exc).startswith(f"{cls.__name__}.__init__() missing")


def test_every_action_kind_is_what_a_frozen_kw_only_dataclass_would_be():
    from dataclasses import dataclass, field

    from pokeroulette_tui.engine import actions as A

    extras = {"bet": ("amount", "int", 0, 5), "raise": ("amount", "int", 0, 5),
              "stock_to_active": ("index", "int | None", None, 1),
              "cut": ("position", "int", 26, 3), "discard": ("indices", "tuple[int, ...]", (), (0, 2))}
    for kind, cls in A.ACTION_TYPES.items():
        generated = cls.__doc__.startswith(cls.__name__ + "(")  # no docstring of its own
        namespace: dict = {"__annotations__": {"kind": "ClassVar[str]"}, "kind": kind,
                           "__doc__": None if generated else cls.__doc__,
                           "__module__": A.__name__}  # where ``ClassVar`` is known
        values: dict = {"seat": 1}
        if kind in extras:
            name, annotation, default, value = extras[kind]
            namespace["__annotations__"][name] = annotation
            namespace[name] = field(default_factory=tuple) if default == () else default
            values[name] = value
        Reference = dataclass(frozen=True, kw_only=True)(type("Reference", (A.Action,), namespace))
        assert _dataclass_facts(cls) == _dataclass_facts(Reference), kind
        assert _instance_facts(cls(**values)) == _instance_facts(Reference(**values)), kind
        assert _instance_facts(cls()) == _instance_facts(Reference()), kind
        assert cls(**values) == cls(**values) and cls(**values) != Reference(**values)
        assert A.action_from_dict(cls(**values).to_dict()) == cls(**values)


# -- what the table loads only when first used ---------------------------------------------------

TABLE_FIRST_FRAME = textwrap.dedent('''
    """Deal a table; print which statistics modules were loaded at the table's first frame,
    and after the first update."""
    import asyncio
    import json
    import sys

    from pokeroulette_tui.ui.app import make_app
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.table import TableScreen

    LAZY = ("pokeroulette_tui.ui.stats_recorder", "pokeroulette_tui.engine.stats",
            "pokeroulette_tui.engine.stats_store")
    # the hints' estimators load when the player first asks for hints (i)
    HINTS = ("pokeroulette_tui.engine.hints", "pokeroulette_tui.bots.draw_mc",
             "pokeroulette_tui.bots.roulette_mc")
    seen = {}
    app = make_app(AppConfig(delay=0.05))
    original = type(app)._display

    def display(self, screen, renderable):
        if renderable is not None and isinstance(screen, TableScreen):
            seen.setdefault("first", [m for m in LAZY + HINTS if m in sys.modules])
        return original(self, screen, renderable)

    type(app)._display = display
    type(app).is_headless = property(lambda self: False)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")
            for _ in range(250):
                await pilot.pause(0.02)
                if isinstance(app.screen, TableScreen) and app.screen.stats_recorder is not None:
                    break
            seen["recorder"] = type(getattr(app.screen, "stats_recorder", None)).__name__
            seen["later"] = [m for m in LAZY if m in sys.modules]
            seen["hints"] = [m for m in HINTS if m in sys.modules]
            await app.close_session()

    asyncio.run(main())
    print(json.dumps(seen))
''')


def test_the_statistics_load_at_the_first_update_not_before_the_tables_first_frame(home,
                                                                                    tmp_path):
    """(and the hints' estimators not before the player asks for hints)"""
    script = tmp_path / "table_first_frame.py"
    script.write_text(TABLE_FIRST_FRAME, encoding="utf-8")
    env = {"POKEROULETTE_HOME": str(home), "PATH": "/usr/bin:/bin", "TERM": "dumb"}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["first"] == []  # the table was drawn without them …
    assert seen["hints"] == []  # (no hints asked for: no estimators, the simple bots need none)
    assert seen["recorder"] == "StatsRecorder"  # … and the first update made the recorder
    assert sorted(seen["later"]) == sorted(["pokeroulette_tui.ui.stats_recorder",
                                            "pokeroulette_tui.engine.stats",
                                            "pokeroulette_tui.engine.stats_store"])
