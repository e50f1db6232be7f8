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
