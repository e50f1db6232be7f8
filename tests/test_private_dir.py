"""Our folders are ours: ``private_dir`` refuses a folder another account owns or could swap
(the "another account on the same machine" threat), and the refusal reaches the player as
one clear line (the command line) or a notice (the app), nothing lost, nothing written there.

Another account's folder is made by root with ``os.chown`` to uid 65534 ("nobody"): these
tests need root and are skipped without it.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pokeroulette_tui.engine.save import ForeignFolderError, private_dir

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                                reason="making a folder owned by another account needs root")

THEM = 65534  # "nobody"


def _name(uid: int) -> str:
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def theirs(path: Path, mode: int = 0o755) -> Path:
    """A folder made by the other account (with a file of theirs in it)."""
    path.mkdir(mode=mode, exist_ok=True)
    path.chmod(mode)
    (path / "their-file").write_text("theirs")
    os.chown(path / "their-file", THEM, -1)
    os.chown(path, THEM, -1)
    return path


def untouched(path: Path, mode: int = 0o755) -> None:
    st = os.lstat(path)
    assert st.st_uid == THEM and stat.S_IMODE(st.st_mode) == mode
    assert sorted(os.listdir(path)) == ["their-file"]


def test_a_folder_another_account_owns_is_refused_and_left_as_it_is(tmp_path):
    folder = theirs(tmp_path / "data")
    with pytest.raises(ForeignFolderError) as refused:
        private_dir(folder)
    message = str(refused.value)
    assert isinstance(refused.value, PermissionError)
    assert str(folder) in message and f"belongs to {_name(THEM)}" in message
    assert "POKEROULETTE_HOME" in message and "\n" not in message
    untouched(folder)  # not tightened, nothing made in it


def test_a_link_to_another_accounts_folder_is_refused(tmp_path):
    target = theirs(tmp_path / "elsewhere")
    link = tmp_path / "data"
    link.symlink_to(target)
    with pytest.raises(ForeignFolderError, match=r"a link to .*elsewhere\).*belongs to"):
        private_dir(link)
    untouched(target)


def test_our_folder_inside_theirs_or_in_an_open_folder_is_refused_and_not_made(tmp_path):
    home = theirs(tmp_path / "home")  # POKEROULETTE_HOME made by the other account
    with pytest.raises(ForeignFolderError, match=f"it is in {home}, which belongs to {_name(THEM)}"):
        private_dir(home / "data")
    untouched(home)  # data was not made in there
    open_folder = tmp_path / "open"
    open_folder.mkdir()
    open_folder.chmod(0o777)  # anyone may rename what is in it: not sticky
    with pytest.raises(ForeignFolderError, match="not sticky"):
        private_dir(open_folder / "data")
    assert not (open_folder / "data").exists()


def test_our_own_folder_is_tightened_and_the_folders_made_on_the_way_are_owner_only(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o755)
    mine.chmod(0o755)
    assert private_dir(mine) == mine
    assert stat.S_IMODE(mine.stat().st_mode) == 0o700
    shared = tmp_path / "shared"  # like /tmp: open to all but sticky, so nobody swaps ours
    shared.mkdir()
    shared.chmod(0o1777)
    deep = shared / "home" / "data"
    assert private_dir(deep) == deep
    for made in (shared / "home", deep):
        assert stat.S_IMODE(made.stat().st_mode) == 0o700 and made.stat().st_uid == os.geteuid()
    link = tmp_path / "link"
    link.symlink_to(mine)  # a link of ours to a folder of ours is fine
    assert private_dir(link) == link


def _run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"POKEROULETTE_HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C"}
    return subprocess.run([sys.executable, "-m", "pokeroulette_tui", *args], capture_output=True,
                          text=True, env=env, timeout=120, cwd=Path(__file__).parent.parent,
                          check=False)


@pytest.mark.parametrize("command", [["preset", "save", "Mine"], ["casino", "--reset-jackpot"]],
                         ids=["preset-save", "casino-reset"])
def test_the_command_line_says_it_in_one_line_and_writes_nothing_there(tmp_path, command):
    home = tmp_path / "h"
    home.mkdir()
    data = theirs(home / "data")  # /tmp/h/data made by someone else
    done = _run(home, *command)
    assert done.returncode != 0, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("pokeroulette: ") and f"not using {data}" in lines[0]
    assert f"belongs to {_name(THEM)}" in lines[0] and "POKEROULETTE_HOME" in lines[0]
    untouched(data)


def test_a_refusal_from_any_command_is_one_line_not_a_traceback(tmp_path, monkeypatch, capsys):
    from pokeroulette_tui import cli, paths

    theirs(tmp_path / "data")
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setitem(cli.COMMANDS, "rules", lambda args: paths.data_dir() and 0)
    assert cli.main(["rules"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("pokeroulette: not using")


def test_the_app_plays_on_unsaved_and_says_why_and_leaves_a_planted_save_alone(tmp_path,
                                                                                monkeypatch):
    from pokeroulette_tui.ui.config import AppConfig, TableSetup
    from pokeroulette_tui.ui.tables import new_session, read_autosave

    data = theirs(tmp_path / "data")
    planted = data / "autosave.json"
    planted.write_text("{not a save")
    os.chown(planted, THEM, -1)
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    found = read_autosave()
    assert found.table is None and found.kept_as is None
    assert found.problem.startswith(f"not using {data}")
    assert planted.read_text() == "{not a save"  # not read as ours, not moved aside
    session = new_session(TableSetup.default(), AppConfig())
    table = session.table
    assert table.save_path is None  # autosave off for this table …
    assert "not using" in table.save_error  # … and why
    assert sorted(os.listdir(data)) == ["autosave.json", "their-file"]


async def test_the_app_says_so_on_the_start_screen_and_at_the_table(tmp_path, monkeypatch):
    from pokeroulette_tui.ui.app import make_app
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.table import TableScreen

    data = theirs(tmp_path / "data")
    (data / "autosave.json").write_text("{}")
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    app = make_app(AppConfig(delay=5))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        shown = str(app.screen.query_one("#start-notice").render())
        assert f"not using {data}" in shown and "POKEROULETTE_HOME" in shown
        await pilot.press("enter")  # deal: the game is played, unsaved
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, TableScreen) and app._notifications:
                break
        assert isinstance(app.screen, TableScreen)
        toasts = [n.message for n in app._notifications]
        assert any(t.startswith("This game is not saved: not using") for t in toasts), toasts
        await app.close_session()
    assert sorted(os.listdir(data)) == ["autosave.json", "their-file"]


# -- the SSH room's setup (same spirit: say who really sits at a seat) ------------------------

@pytest.mark.parametrize("shared", [False, True])
async def test_the_rooms_seat_help_speaks_of_players_at_their_own_terminals(tmp_path, monkeypatch,
                                                                             shared):
    from textual.app import App
    from textual.widgets import Static

    from pokeroulette_tui.ui.config import AppConfig, TableSetup
    from pokeroulette_tui.ui.screens.setup import SetupScreen

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))

    class SetupApp(App[None]):
        def __init__(self) -> None:
            super().__init__()
            self.config = AppConfig()

        def on_mount(self) -> None:
            self.push_screen(SetupScreen(TableSetup.default(), shared_server=shared))

    app = SetupApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        helps = " ".join(str(w.render()) for w in app.screen.query(Static).filter(".help"))
    assert ("hot-seat" in helps) is not shared
    assert ("joins from their own terminal" in helps) is shared


# -- reading: what another account's folder holds is not ours (checked_dir) --------------------

def plant(folder: Path, name: str, text: str) -> Path:
    """A file the other account put in its folder."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    os.chown(path, THEM, -1)
    return path


def test_checked_dir_makes_nothing_and_refuses_as_private_dir_does(tmp_path):
    from pokeroulette_tui.engine.save import checked_dir

    mine = tmp_path / "mine"
    assert checked_dir(mine) is None and not mine.exists()  # not made yet: nothing to read
    mine.mkdir(mode=0o755)
    assert checked_dir(mine) == mine and stat.S_IMODE(mine.stat().st_mode) == 0o755
    home = theirs(tmp_path / "home")
    for folder in (home, home / "data"):  # theirs, or (not made yet) inside theirs
        with pytest.raises(ForeignFolderError) as read:
            checked_dir(folder)
        with pytest.raises(ForeignFolderError) as made:
            private_dir(folder)
        assert str(read.value) == str(made.value)
    untouched(home)


def _their_home(tmp_path: Path) -> tuple[Path, Path, Path]:
    """POKEROULETTE_HOME (ours) whose config and data folders the other account made."""
    home = tmp_path / "h"
    home.mkdir()
    return home, theirs(home / "config"), theirs(home / "data")


def test_planted_settings_are_not_read(tmp_path, monkeypatch):
    from pokeroulette_tui import cli
    from pokeroulette_tui.ui.config import AppConfig

    home, config, _data = _their_home(tmp_path)
    plant(config, "settings.json", '{"language": "fi", "theme": "light", "delay": 9}')
    monkeypatch.setenv("POKEROULETTE_HOME", str(home))
    assert cli.saved_language() == ""
    loaded = AppConfig.load()  # the defaults, and the start goes on
    assert (loaded.language, loaded.theme, loaded.delay) == ("", "dark", AppConfig.delay)
    done = _run(home, "rules", "--list")  # the locale's language (C: English), not theirs
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "ante" in done.stdout
    mine = tmp_path / "mine"
    (mine / "config").mkdir(parents=True)
    (mine / "config" / "settings.json").write_text('{"language": "fi", "theme": "light"}')
    monkeypatch.setenv("POKEROULETTE_HOME", str(mine))
    assert cli.saved_language() == "fi" and AppConfig.load().theme == "light"  # ours: read


def test_planted_statistics_are_not_listed_nor_deleted(tmp_path):
    from pokeroulette_tui.engine.stats_store import StatsStore, file_name

    stats = theirs(tmp_path / "stats")
    planted = plant(stats, file_name("Eve"),
                    '{"format":"pokeroulette-stats","version":1,"player":"Eve"}\n')
    store = StatsStore(stats)
    assert store.players() == []
    assert len(store.problems) == 1 and store.problems[0].startswith(f"not using {stats}")
    with pytest.raises(ForeignFolderError):
        store.load("Eve")
    with pytest.raises(ForeignFolderError):
        store.reset()
    with pytest.raises(ForeignFolderError):
        store.reset("Eve")
    assert planted.exists()
    assert sorted(os.listdir(stats)) == sorted(["their-file", planted.name])


def _refused_in_one_line(done: subprocess.CompletedProcess[str], folder: Path) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith(f"pokeroulette: not using {folder}"), lines
    assert "POKEROULETTE_HOME" in lines[0]


@pytest.mark.parametrize("command", [["stats"], ["stats", "--json"], ["stats", "--reset", "--yes"],
                                     ["stats", "--reset", "--yes", "--player", "Eve"]],
                         ids=["stats", "json", "reset", "reset-one"])
def test_the_stats_command_refuses_their_folder_in_one_line_and_deletes_nothing(tmp_path,
                                                                               command):
    from pokeroulette_tui.engine.stats_store import file_name

    home, _config, data = _their_home(tmp_path)
    stats = theirs(data / "stats")
    planted = plant(stats, file_name("Eve"),
                    '{"format":"pokeroulette-stats","version":1,"player":"Eve"}\n')
    done = _run(home, *command)
    _refused_in_one_line(done, stats)
    assert "Eve" not in done.stdout
    assert planted.exists() and sorted(os.listdir(stats)) == sorted(["their-file", planted.name])


def _planted_preset(folder: Path) -> Path:
    from pokeroulette_tui.engine.presets import Preset, preset_text
    from pokeroulette_tui.engine.rules import RuleSet

    return plant(folder, "Planted.json", preset_text(Preset("Planted", RuleSet(ante=7), "theirs")))


def test_a_planted_preset_is_not_offered_nor_used(tmp_path, monkeypatch):
    from pokeroulette_tui.engine.presets import PresetError
    from pokeroulette_tui.paths import saved_presets
    from pokeroulette_tui.ui.tables import find_preset

    home, _config, data = _their_home(tmp_path)
    presets = theirs(data / "presets")
    planted = _planted_preset(presets)
    monkeypatch.setenv("POKEROULETTE_HOME", str(home))
    folder = saved_presets()
    saved, problems = folder.scan()  # the app's list: no preset of theirs, and why
    assert saved == [] and len(problems) == 1 and problems[0].startswith(f"not using {presets}")
    assert folder.names() == []
    with pytest.raises(PresetError, match=f"not using {presets}"):
        folder.find("Planted")
    with pytest.raises(PresetError, match=f"not using {presets}"):
        folder.delete("Planted")
    assert find_preset("Planted") is None  # the app: no such preset
    assert find_preset("classic") is not None  # the built-in ones need no folder
    assert planted.exists()


@pytest.mark.parametrize("command", [["preset", "list"], ["rules", "--preset", "Planted"],
                                     ["preset", "delete", "Planted"],
                                     ["preset", "export", "Planted", "-"]],
                         ids=["list", "use", "delete", "export"])
def test_the_preset_commands_refuse_their_folder_in_one_line(tmp_path, command):
    home, _config, data = _their_home(tmp_path)
    presets = theirs(data / "presets")
    planted = _planted_preset(presets)
    done = _run(home, *command)
    _refused_in_one_line(done, presets)
    assert "Planted" not in done.stdout and "theirs" not in done.stdout
    assert planted.exists()


def test_a_planted_casino_file_is_not_read_nor_moved(tmp_path, monkeypatch):
    from pokeroulette_tui.engine.casino.store import START_BANKROLL, CasinoStore

    home, _config, data = _their_home(tmp_path)
    planted = plant(data, "casino.json", '{"format": "pokeroulette-casino", "version": 1, '
                                         '"bankrolls": {"Eve": 99999}, "jackpots": {}}')
    store = CasinoStore.open(data / "casino.json")
    assert store.bankroll("Eve") == START_BANKROLL and store.warning.startswith(f"not using {data}")
    damaged = plant(data, "casino.json", "{damaged")  # would be moved aside if it were ours
    assert CasinoStore.open(damaged).warning.startswith("not using")
    assert sorted(os.listdir(data)) == ["casino.json", "their-file"]
    done = _run(home, "casino", "--odds")
    _refused_in_one_line(done, data)
    assert planted.read_text() == "{damaged"


def test_planted_resume_tokens_are_not_read(tmp_path, monkeypatch):
    from pokeroulette_tui.net.files import load_admin, load_token

    home, _config, data = _their_home(tmp_path)
    plant(data, "resume-tokens.json", '{"example.org:4242/ada": "their-token"}')
    plant(data, "host-secrets.json", '{"4242": "their-secret"}')
    monkeypatch.setenv("POKEROULETTE_HOME", str(home))
    assert load_token("example.org", 4242, "Ada") is None
    assert load_admin(4242) is None


def test_planted_tutorial_progress_is_not_read(tmp_path, monkeypatch):
    from pokeroulette_tui.ui import tutorial

    home, _config, data = _their_home(tmp_path)
    name = next(iter(tutorial.DEALS))
    plant(data, "tutorial.json", '{"%s": 1}' % name)
    monkeypatch.setenv("POKEROULETTE_HOME", str(home))
    assert tutorial.read_progress() == {}  # their file: the tutorial starts from the top
    mine = tmp_path / "mine"
    (mine / "data").mkdir(parents=True)
    (mine / "data" / "tutorial.json").write_text('{"%s": 1}' % name)
    monkeypatch.setenv("POKEROULETTE_HOME", str(mine))
    assert tutorial.read_progress() == {name: 1}  # ours: read


def test_checking_the_settings_folder_loads_none_of_the_game(tmp_path):
    """The settings are read before the first screen: their folder's check is standard
    library only, not the game's save module."""
    (tmp_path / "config").mkdir()
    code = ("import sys; from pokeroulette_tui import paths; paths.settings_file(); "
            "print(sorted(m for m in sys.modules if m.startswith('pokeroulette_tui.engine')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "POKEROULETTE_HOME": str(tmp_path)}, check=True)
    loaded = eval(done.stdout)
    assert "pokeroulette_tui.engine.folders" in loaded
    assert "pokeroulette_tui.engine.save" not in loaded and "pokeroulette_tui.engine.game" not in loaded


def test_a_file_where_a_folder_should_be_is_one_clear_line(tmp_path):
    """POKEROULETTE_HOME under a regular file: one line and a nonzero exit, no traceback."""
    (tmp_path / "afile").write_text("not a folder")
    home = tmp_path / "afile" / "x"
    with pytest.raises(ForeignFolderError, match="is a file, not a folder"):
        private_dir(home / "data")
    done = subprocess.run([sys.executable, "-m", "pokeroulette_tui", "casino", "--odds"],
                          capture_output=True, text=True,
                          env={**os.environ, "POKEROULETTE_HOME": str(home)})
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "is a file, not a folder" in done.stderr and done.stderr.count("\n") == 1
