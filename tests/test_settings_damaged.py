"""A damaged settings file: the defaults are used, the file is kept aside (never written
over), and the player is told where it went."""

from __future__ import annotations

import pytest

from pokeroulette_tui.ui.config import AppConfig, settings_path


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    return tmp_path


DAMAGED = {
    "garbage bytes": b"\xff\xfe\x00garbage",
    "not JSON": b'{"theme": "light",',
    "empty": b"",
    "a list": b"[1, 2]",
    "a number": b"7",
}


@pytest.mark.parametrize("content", DAMAGED.values(), ids=list(DAMAGED))
def test_damaged_settings_are_kept_aside_and_reported(content):
    path = settings_path()
    path.write_bytes(content)
    config = AppConfig.load()
    assert config.theme == AppConfig.theme and config.last_setup == {}
    config.save()  # (a casino or a pace change saving them before the game says so)
    assert path.read_bytes() == content and not config.notice
    config.keep_damaged_aside()
    kept = list(path.parent.glob("settings.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == content
    assert not path.exists()
    assert "could not be read" in config.notice and str(kept[0]) in config.notice
    config.theme = "light"
    config.save()  # the player's next change is saved afresh; the damaged copy stays
    assert AppConfig.load().theme == "light" and kept[0].read_bytes() == content
    assert AppConfig.load().notice == ""


def test_good_settings_have_no_notice():
    AppConfig(theme="light").save()
    config = AppConfig.load()
    assert config.theme == "light" and config.notice == ""
    assert "notice" not in settings_path().read_text()  # (a runtime field, never written)


def test_a_damaged_file_that_cannot_be_moved_is_not_written_over(monkeypatch):
    from pathlib import Path

    path = settings_path()
    path.write_bytes(b"{oops")

    def refuse(self, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "replace", refuse)
    config = AppConfig.load()
    assert "left as it is" in config.keep_damaged_aside()
    config.save()
    assert path.read_bytes() == b"{oops"


async def test_the_app_says_so_at_the_start():
    from pokeroulette_tui.ui.app import make_app

    settings_path().write_bytes(b"{oops")
    config = AppConfig.load()
    config.delay = 0
    app = make_app(config, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert any("could not be read" in m and "corrupt-" in m for m in said), said
