"""The cache of the app's parsed stylesheets (pokeroulette_tui/ui/csscache.py): rules read
back are the rules Textual parses, a change of text or theme misses, and a damaged, foreign
or unwritable file loses nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.css.stylesheet import Stylesheet

from pokeroulette_tui.ui import csscache
from pokeroulette_tui.ui.csscache import RulesCache
from pokeroulette_tui.ui.styles import css_paths

CSS = """
Screen { layout: vertical; background: $surface; }
#seat-1 > .cards:focus { color: $text; border: round $accent; padding: 0 1; }
"""


def parsed(cache: RulesCache | None, variables: dict[str, str], css: str = CSS) -> list:
    """``css`` parsed by a stylesheet served by ``cache`` (None: plain Textual)."""
    sheet = Stylesheet(variables=variables)
    if cache is not None:
        csscache._installed = cache
        try:
            assert csscache.install(sheet) is cache
        finally:
            csscache._installed = None
    sheet.add_source(css, read_from=("example.tcss", ""))
    sheet.parse()
    return sheet.rules


def texts(rules: list) -> list[str]:
    return [rule.css for rule in rules]


def styles(rules: list) -> list[dict[str, str]]:
    """Each rule's style values (a layout is an object with no equality: its repr)."""
    return [{k: repr(v) for k, v in rule.styles.get_rules().items()} for rule in rules]


@pytest.fixture(autouse=True)
def may_write_bytecode(monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


@pytest.fixture
def variables():
    from textual.app import App

    return App().get_css_variables()


def test_rules_read_back_are_the_rules_textual_parses(tmp_path, variables):
    path = str(tmp_path / "css.bin")
    first = RulesCache(path)
    plain = parsed(None, variables)
    assert texts(parsed(first, variables)) == texts(plain)
    assert first.added == 1 and first.served == 0 and first.save()
    again = RulesCache(path)
    served = parsed(again, variables)
    assert again.served == 1 and again.added == 0
    assert texts(served) == texts(plain)
    assert styles(served) == styles(plain)


def test_the_whole_app_stylesheet_reads_back_the_same(tmp_path, variables):
    """Every file the app reads, through the cache and back, gives the same rules."""
    css = "\n".join(Path(p).read_text() for p in css_paths("dark"))
    path = str(tmp_path / "css.bin")
    first = RulesCache(path)
    plain = parsed(None, variables, css)
    parsed(first, variables, css)
    first.save()
    again = RulesCache(path)
    served = parsed(again, variables, css)
    assert texts(served) == texts(plain) and styles(served) == styles(plain)
    assert again.served == 1 and len(plain) > 50


def test_another_text_or_another_theme_is_parsed_afresh(tmp_path, variables):
    cache = RulesCache(str(tmp_path / "css.bin"))
    parsed(cache, variables)
    light = dict(variables, surface="#ffffff")
    rules = parsed(cache, light)
    assert cache.added == 2 and cache.served == 0  # the theme's colours are in the key
    assert texts(rules) == texts(parsed(None, light))
    parsed(cache, variables, CSS + "Static { width: 1fr; }")
    assert cache.added == 3 and cache.served == 0


def test_a_text_with_an_error_is_reported_as_textual_does_and_not_kept(tmp_path, variables):
    cache = RulesCache(str(tmp_path / "css.bin"))
    with pytest.raises(Exception) as plain:
        parsed(None, variables, "Screen { colour: red; }")
    with pytest.raises(type(plain.value)):
        parsed(cache, variables, "Screen { colour: red; }")
    assert cache.entries == {} and not cache.save()


@pytest.mark.parametrize("content", [b"", b"garbage", b"pokeroulette css rules 1 textual 0.1\n",
                                     None])
def test_a_damaged_or_foreign_file_is_ignored_and_replaced(tmp_path, variables, content):
    path = tmp_path / "css.bin"
    if content is None:  # the right header, a damaged body
        content = csscache._magic() + b"\x80\x05 not a pickle"
    path.write_bytes(content)
    cache = RulesCache(str(path))
    assert cache.entries == {}
    assert texts(parsed(cache, variables)) == texts(parsed(None, variables))
    assert cache.save() and RulesCache(str(path)).entries.keys() == cache.entries.keys()


def test_nothing_is_written_when_python_may_not_write_bytecode(tmp_path, variables,
                                                                monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    cache = RulesCache(str(tmp_path / "css.bin"))
    parsed(cache, variables)
    assert not cache.save() and not (tmp_path / "css.bin").exists()


def test_a_folder_that_cannot_be_written_loses_nothing(tmp_path, variables):
    blocker = tmp_path / "file"
    blocker.write_text("")
    cache = RulesCache(str(blocker / "css.bin"))  # its folder is a file
    assert texts(parsed(cache, variables)) == texts(parsed(None, variables))
    assert not cache.save()


def test_a_full_file_starts_again_with_what_this_process_uses(tmp_path, variables,
                                                              monkeypatch):
    path = str(tmp_path / "css.bin")
    earlier = RulesCache(path)
    for n in range(3):
        parsed(earlier, variables, CSS + f"Static {{ width: {n + 1}; }}")
    earlier.save()
    monkeypatch.setattr(csscache, "LIMIT", 3)
    cache = RulesCache(path)
    parsed(cache, variables, CSS + "Static { width: 1; }")  # one of them: served
    parsed(cache, variables, CSS + "Static { width: 9; }")  # a new one: the file is full
    assert cache.served == 1 and cache.added == 1
    assert len(cache.entries) == 2  # what this process used, and nothing else


def test_the_program_keeps_the_rules_with_its_bytecode_and_reads_them_back(tmp_path):
    """Two runs of the app under a bytecode prefix: the first writes the file, the second
    parses nothing it read there."""
    script = (
        "import asyncio\n"
        "from pokeroulette_tui.ui.app import PokerApp\n"
        "from pokeroulette_tui.ui.config import AppConfig\n"
        "from pokeroulette_tui.ui import csscache\n"
        "async def main():\n"
        "    app = PokerApp(AppConfig())\n"
        "    async with app.run_test(size=(80, 24)) as pilot:\n"
        "        await pilot.pause()\n"
        "    c = csscache._installed\n"
        "    print(c.served, c.added)\n"
        "asyncio.run(main())\n")
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(tmp_path / "pyc"),
               POKEROULETTE_HOME=str(tmp_path / "home"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    runs = []
    for __ in range(2):
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        runs.append([int(x) for x in done.stdout.split()[-2:]])
    (served1, added1), (served2, added2) = runs
    assert served1 == 0 and added1 > 5
    assert served2 == added1 and added2 == 0
    assert list((tmp_path / "pyc").rglob("css-rules.*.bin"))
