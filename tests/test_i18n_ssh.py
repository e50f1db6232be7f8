"""The SSH card room in Finnish and Swedish: each session speaks its player's language (their
saved choice, else the server's), ``g`` changes it for that session only and saves it, the
server's one-line answers are in the server's language; and the room's table agreement has
no preset saving and no shuffle seed."""

from __future__ import annotations

import asyncio
import contextvars
import json

import pytest
from textual.app import App
from textual.widgets import Input

asyncssh = pytest.importorskip("asyncssh")

from ssh_helpers import connect, new_key, serve_room

from pokeroulette_tui.engine import i18n
from pokeroulette_tui.engine.i18n import _, language, own_language, set_language
from pokeroulette_tui.net.ssh.keys import name_key
from pokeroulette_tui.net.ssh.seat import NO_TERMINAL
from pokeroulette_tui.ui.config import AppConfig, TableSetup
from pokeroulette_tui.ui.screens.room import table_rows
from pokeroulette_tui.ui.screens.setup import SetupScreen


def save_language(folder, name: str, code: str) -> None:
    users = folder / "users"
    users.mkdir(parents=True, exist_ok=True)
    (users / f"{name_key(name)}.json").write_text(json.dumps({"language": code}))


# -- one process, a language per session ------------------------------------------------------

async def test_a_task_with_its_own_language_leaves_the_others_alone():
    async def session(code: str, switch_to: str, seen: list[str]) -> None:
        own_language(code)
        seen.append(_("Language: {name}"))
        await asyncio.sleep(0)                  # the other session runs in between
        set_language(switch_to)                 # this session only
        await asyncio.sleep(0)
        seen.append(await asyncio.create_task(asyncio.to_thread(_, "Language: {name}")))
        seen.append(language())

    fi: list[str] = []
    sv: list[str] = []
    await asyncio.gather(session("fi", "sv", fi), session("sv", "en", sv))
    assert fi == ["Kieli: {name}", "Språk: {name}", "sv"]
    assert sv == ["Språk: {name}", "Language: {name}", "en"]
    assert language() == "en" and _("Language: {name}") == "Language: {name}"   # the process's


def test_a_shared_context_speaks_the_process_language():
    def inside() -> tuple[str, str]:
        own_language("fi")
        return language(), i18n.shared_language_context().run(language)

    assert contextvars.copy_context().run(inside) == ("fi", "en")
    set_language("sv")                          # the process's language moves it too
    assert i18n.shared_language_context().run(language) == "sv"


# -- over SSH ---------------------------------------------------------------------------------

async def test_each_player_reads_the_room_in_their_own_language(tmp_path):
    save_language(tmp_path, "aino", "fi")
    served = await serve_room(tmp_path)
    try:
        aino = await connect(served.port, "aino", new_key(), size=(80, 24))
        bob = await connect(served.port, "bob", new_key(), size=(80, 24))
        await aino.wait_for("Pokeriruletti · korttihuone")
        await aino.wait_for("Tervetuloa, aino.")
        await aino.wait_for("Pöytiä ei vielä ole. Avaa pöytä painamalla n.")
        await aino.wait_for("Uusi pöytä")                  # the footer's keys too
        await aino.wait_for("Kieli")
        await bob.wait_for("Welcome, bob.")                # the server's language: English
        await bob.wait_for("No tables yet. Press n to open one.")
        assert "Tervetuloa" not in bob.text and "Welcome" not in aino.text

        aino.clear()
        aino.press("g")                                    # Finnish -> Swedish, for aino only
        await aino.wait_for("Välkommen, aino.")
        await aino.wait_for("Nytt bord")
        saved = json.loads((tmp_path / "users" / f"{name_key('aino')}.json").read_text())
        assert saved["language"] == "sv"

        bob.clear()
        bob.press("n")                                     # bob still reads English
        await bob.wait_for("Table setup")
        assert "Bordsinställningar" not in bob.text and "bordsinställningar" not in bob.text
        bob.press("\x13")                                  # ctrl+s: open it
        await bob.wait_for("You lead this table")

        aino.clear()                                       # bob's table, in aino's Swedish
        await aino.wait_for("väntar på spelare")
        await aino.wait_for("bob + 3 bottar")
        await aino.close()
        await bob.close()
    finally:
        await served.close()


async def test_a_player_without_a_setting_reads_the_servers_language(tmp_path):
    set_language("fi")                                     # serve-ssh --lang fi
    served = await serve_room(tmp_path)
    try:
        cai = await connect(served.port, "cai", new_key(), size=(80, 24))
        await cai.wait_for("Tervetuloa, cai.")
        await cai.close()
        nobody = await connect(served.port, "dora", new_key(), term=None)
        await nobody.wait_for("Tämä on korttihuone: se tarvitsee päätteen.")
        assert _(NO_TERMINAL).startswith("Tämä on korttihuone")
        await nobody.close()
    finally:
        await served.close()


async def test_a_refusal_is_said_in_the_servers_language_after_the_version_line(tmp_path):
    from pokeroulette_tui.net.ssh.server import Limits

    set_language("fi")
    served = await serve_room(tmp_path, limits=Limits(backoff_base=5.0, backoff_cap=5.0))
    try:
        await (await connect(served.port, "eila", new_key())).close()
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(served.port, "eila", new_key())     # another key: a failed login
        await asyncio.sleep(0.1)
        with pytest.raises(asyncssh.DisconnectError) as refused:
            await connect(served.port, "eila", new_key())     # turned away: the back-off
        # a readable reason (a disconnect before the version line would be a broken banner);
        # plain ASCII, as OpenSSH prints nothing else legibly
        assert refused.value.reason.startswith(
            "liian monta epaonnistunutta kirjautumista osoitteestasi: odota")
    finally:
        await served.close()


def test_the_rooms_list_in_finnish():
    set_language("fi")
    rows = table_rows([{"number": 3, "variant": "classic", "seats": 6, "min": 3,
                        "players": ["ana"], "bots": 2, "watching": 1, "state": "lobby"},
                       {"number": 4, "variant": "draw", "seats": 6, "min": 2,
                        "players": [], "bots": 1, "watching": 0, "state": "playing"}])
    assert [str(c) for c in rows[0]] == ["3", "classic", "3/6", "ana + 2 bottia", "1",
                                         "odottaa pelaajia"]
    assert [str(c) for c in rows[1]][3:] == ["ei ketään + 1 botti", "0", "peli käynnissä"]


# -- the room's table agreement -----------------------------------------------------------------

class SetupApp(App):
    def __init__(self, shared: bool) -> None:
        super().__init__()
        self.config = AppConfig()
        self.shared = shared
        self.result: list[object] = []

    def on_mount(self) -> None:
        self.push_screen(SetupScreen(TableSetup.default(), shared_server=self.shared),
                         self.result.append)


@pytest.mark.parametrize("shared", [False, True])
async def test_the_rooms_setup_has_no_preset_saving_and_no_seed(tmp_path, monkeypatch, shared):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    app = SetupApp(shared)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        ids = {w.id for w in screen.query("*") if w.id}
        room_rows = {"row-seed", "seed", "row-save-preset", "preset-name", "save-preset"}
        if shared:
            assert not ids & room_rows
        else:
            assert room_rows <= ids
            screen.query_one("#seed", Input).value = "7"
        labels = " ".join(str(w.render()) for w in screen.query("Label"))
        assert ("Shuffle seed" in labels) is not shared
        assert ("Save as a preset" in labels) is not shared
        await pilot.press("ctrl+s")
        await pilot.pause()
    [agreed] = app.result
    assert agreed.seed == (None if shared else 7)           # type: ignore[attr-defined]


# -- the room's screen, drawn (snapshots in each language) ------------------------------------

@pytest.mark.parametrize("lang", ["en", "fi", "sv"])
def test_room_screen(snap_compare, tmp_path, monkeypatch, lang):
    """The room with two tables, at 80×24, as a player who chose ``lang`` sees it."""
    from pokeroulette_tui.net.identity import Account
    from pokeroulette_tui.ui.screens.room import RoomApp, RoomUserConfig

    class TwoTables:
        def listing(self):
            return [{"number": 1, "variant": "classic", "seats": 6, "min": 3,
                     "players": ["ana", "bo"], "bots": 2, "watching": 1, "state": "playing"},
                    {"number": 2, "variant": "draw", "seats": 6, "min": 2,
                     "players": ["cy"], "bots": 0, "watching": 0, "state": "lobby"}]

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    set_language(lang)
    config = RoomUserConfig.for_user(None, "")
    app = RoomApp(config, TwoTables(), Account(1, "alice"), None, env={})  # type: ignore[arg-type]
    assert snap_compare(app, terminal_size=(80, 24))
