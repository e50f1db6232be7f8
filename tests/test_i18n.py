"""The game in three languages: choosing one (locale, settings, --lang, at run time), and
catalogs that translate every message the source marks, with their placeholders, compiled."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pokeroulette_tui.cli import main, take_language
from pokeroulette_tui.engine import i18n
from pokeroulette_tui.engine.i18n import _, detect, language, ngettext, normalize, set_language
from pokeroulette_tui.errors import CliError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import i18n as catalogs  # noqa: E402  (tools/i18n.py: Babel, a test dependency)

sys.path.pop(0)

from babel.messages.mofile import read_mo  # noqa: E402


# -- choosing the language --------------------------------------------------------------------

@pytest.mark.parametrize("environ, expected", [
    ({}, "en"),
    ({"LANG": "fi_FI.UTF-8"}, "fi"),
    ({"LANG": "sv_SE.UTF-8"}, "sv"),
    ({"LANG": "sv_FI.UTF-8"}, "sv"),          # Swedish as spoken in Finland
    ({"LANG": "de_DE.UTF-8"}, "en"),          # a language the game does not speak
    ({"LANG": "fi_FI.UTF-8", "LC_ALL": "sv_SE.UTF-8"}, "sv"),   # LC_ALL wins over LANG
    ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "fi_FI"}, "fi"),    # LC_MESSAGES over LANG
    ({"LANG": "en_US.UTF-8", "LANGUAGE": "de:fi:sv"}, "fi"),    # the first of LANGUAGE spoken
    ({"LANG": "C.UTF-8", "LANGUAGE": "fi"}, "en"),              # gettext ignores LANGUAGE under C
    ({"LANG": "fi_FI@euro"}, "fi"),
])
def test_the_language_comes_from_the_locale_as_gettext_reads_it(environ, expected):
    assert detect(environ) == expected


def test_a_language_switch_translates_and_tells_the_listeners():
    heard: list[str] = []
    stop = i18n.on_change(heard.append)
    try:
        set_language("fi")
        assert (language(), _("Language: {name}")) == ("fi", "Kieli: {name}")
        set_language("sv")
        assert _("Language: {name}") == "Språk: {name}"
        set_language("xx")  # unknown: English
        assert (language(), _("Language: {name}")) == ("en", "Language: {name}")
    finally:
        stop()
    assert heard == ["fi", "sv", "en"]
    assert normalize("sv-SE") == "sv"


def test_plurals_follow_the_number():
    set_language("en")
    assert ngettext("{n} card", "{n} cards", 1) == "{n} card"
    assert ngettext("{n} card", "{n} cards", 3) == "{n} cards"


def test_lang_is_taken_from_anywhere_on_the_command_line():
    assert take_language(["play", "--lang", "sv", "--new"]) == (["play", "--new"], "sv")
    assert take_language(["rules", "--", "--lang", "fi"]) == (["rules", "--", "--lang", "fi"], None)
    with pytest.raises(CliError, match="unknown language 'de' \\(choose en, fi or sv\\)"):
        take_language(["--lang", "de"])
    with pytest.raises(CliError, match="--lang needs a language"):
        take_language(["--lang"])


def test_a_wrong_lang_is_one_clear_line(capsys):
    assert main(["--lang", "klingon", "rules"]) == 2
    err = capsys.readouterr().err
    assert err == "pokeroulette: unknown language 'klingon' (choose en, fi or sv)\n"


def test_the_settings_language_wins_over_the_locale_and_lang_over_both(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    assert main(["rules", "--json"]) == 0
    assert language() == "sv"
    from pokeroulette_tui.ui.config import AppConfig, settings_path

    config = AppConfig.load()
    config.language = "fi"
    config.save()
    assert json.loads(settings_path().read_text(encoding="utf-8"))["language"] == "fi"
    assert main(["rules", "--json"]) == 0
    assert language() == "fi"
    assert main(["--lang", "en", "rules", "--json"]) == 0
    assert language() == "en"


def test_a_hand_edited_language_setting_falls_back_to_the_locale(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    from pokeroulette_tui.ui.config import AppConfig, settings_path

    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(json.dumps({"language": "xx"}), encoding="utf-8")
    assert AppConfig.load().language == ""
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    assert main(["rules", "--json"]) == 0
    assert language() == "fi"


def test_the_command_speaks_the_locale(tmp_path):
    env = {"POKEROULETTE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "fi_FI.UTF-8"}
    done = subprocess.run([sys.executable, "-m", "pokeroulette_tui", "--lang", "xx"],
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 2 and "tuntematon kieli 'xx'" in done.stderr


# -- the catalogs ------------------------------------------------------------------------------

def _ids(message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def _strings(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:[!:][^{}]*)?\}")


@pytest.fixture(scope="module")
def source():
    return catalogs.extracted()


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_every_message_of_the_source_is_translated(source, lang):
    assert catalogs.missing(lang) == [], f"run: python tools/i18n.py all (then translate {lang})"
    assert len(source) > 1


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_translations_keep_every_placeholder(lang):
    catalog = catalogs.read(catalogs.po_path(lang), lang)
    for message in catalog:
        if not message.id or not message.string:
            continue
        wanted = set(PLACEHOLDER.findall(" ".join(_ids(message))))
        for string in _strings(message):
            assert set(PLACEHOLDER.findall(string)) == wanted, (message.id, string)
            string.format(**{name: 1 for name in wanted})  # no stray braces


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_the_compiled_catalog_is_the_catalog(lang):
    po = catalogs.read(catalogs.po_path(lang), lang)
    with catalogs.po_path(lang).with_suffix(".mo").open("rb") as f:
        mo = read_mo(f)
    def key(m):  # plural ids and strings come as lists from the .mo, tuples from the .po
        return (m.context, tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id)

    def value(m):
        return tuple(m.string) if isinstance(m.string, (list, tuple)) else m.string

    pairs = {key(m): value(m) for m in po if m.id and m.string and not m.fuzzy}
    compiled = {key(m): value(m) for m in mo if m.id}
    assert compiled == pairs, "run: python tools/i18n.py compile"


def test_the_template_lists_what_the_source_marks(source):
    template = catalogs.read(catalogs.TEMPLATE)
    assert {(m.context, m.id) for m in template if m.id} == \
        {(m.context, m.id) for m in source if m.id}, "run: python tools/i18n.py extract"
