"""A table saves its own presets (RULES §1): names, files, hostile files, and the
``pokeroulette preset`` commands; ``--preset NAME`` finds saved presets everywhere."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from pokeroulette_tui.cli import main
from pokeroulette_tui.engine.presets import (
    MAX_PRESET_BYTES,
    Preset,
    PresetError,
    PresetFolder,
    check_name,
    parse_preset,
    preset_text,
    read_preset_file,
)
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.ui import launch
from pokeroulette_tui.ui.config import AppConfig


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def folder(home):
    return PresetFolder(home / "data" / "presets")


@pytest.fixture
def ran(monkeypatch):
    configs: list[AppConfig] = []
    monkeypatch.setattr(launch, "_run_app", lambda config: configs.append(config) or 0)
    return configs


def one_error_line(capsys, fragment: str) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("pokeroulette: ") and fragment in lines[0], lines[0]
    assert "Traceback" not in captured.err
    return lines[0]


# -- names ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Home", "Friday night", "Mörkpoker kväll", "club-2.0", "o'neil"])
def test_good_names(name):
    assert check_name(f"  {name} ") == name


@pytest.mark.parametrize("name, why", [
    ("", "needs a name"), ("   ", "needs a name"), ("a/b", "cannot contain /"),
    ("..\\x", "cannot contain /"), ("../../etc/passwd", "cannot contain /"),
    (".hidden", "cannot start with a dot"), ("x" * 31, "at most 30 characters"),
    ("tab\there", "letters, digits"), ("nul\x00", "letters, digits"), ("a*b", "letters, digits"),
    ("classic", "built-in preset"), ("DRAW", "built-in preset"), (" Swedish ", "built-in preset"),
    (5, "must be text"),
])
def test_bad_names_are_refused_in_words(name, why):
    with pytest.raises(PresetError, match=why.replace("*", r"\*")):
        check_name(name)


# -- the folder ----------------------------------------------------------------------------

def test_save_find_list_delete(folder, home):
    rules = RuleSet(ante=3, betting="final_only")
    path = folder.save(Preset("Home", rules, "Fridays"))
    assert path == home / "data" / "presets" / "Home.json"  # in the data folder of POKEROULETTE_HOME
    assert os.stat(path).st_mode & 0o077 == 0 and os.stat(path.parent).st_mode & 0o077 == 0
    found = folder.find("home")  # any case
    assert found == Preset("Home", rules, "Fridays")
    assert folder.find("classic").built_in and folder.find("nothing") is None
    assert folder.scan() == ([found], [])
    with pytest.raises(PresetError, match="already exists"):
        folder.save(Preset("HOME", RuleSet()))
    assert folder.find("Home").rules == rules  # nothing lost
    folder.save(Preset("HOME", RuleSet()), replace=True)
    assert folder.names() == ["HOME"] and not path.exists()  # the new spelling replaces it
    folder.delete("home")
    assert folder.names() == []
    with pytest.raises(PresetError, match="no saved preset called 'home'"):
        folder.delete("home")
    with pytest.raises(PresetError, match="built-in preset: it cannot be deleted"):
        folder.delete("pagat")


GOOD = json.loads(preset_text(Preset("Mine", RuleSet(ante=2))))


def doc(**changes):
    d = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if key.startswith("rules_"):
            d["rules"][key[6:]] = value
        elif value is None:
            d.pop(key)
        else:
            d[key] = value
    return json.dumps(d)


HOSTILE = [
    ("", "damaged JSON"),
    ("{not json", "damaged JSON at line 1"),
    ("[" * 100_000 + "]" * 100_000, "too large"),
    ("[" * 5000 + "]" * 5000, "damaged JSON"),  # nested past the parser's depth
    ("[1, 2]", "not a pokeroulette preset file"),
    ('{"format": "something-else"}', "not a pokeroulette preset file"),
    (doc(version=2), "another version"),
    (doc(version=True), "another version"),
    (doc(name="../../x"), "cannot contain /"),
    (doc(name="classic"), "built-in preset"),
    (doc(note="\x1b]0;pwned\x07"), "note must be one line"),
    (doc(note=["x"]), "note must be text"),
    (doc(rules="all"), "rules must be a mapping"),
    (doc(rules_tokens=99), "Forfeit tokens must be between 5 and 7"),
    (doc(rules_ante="5"), "Ante must be a whole number"),
    (doc(rules_ante=1e999), "Ante must be a whole number"),
    (doc(rules_ante=2.0), "Ante must be a whole number"),
    (doc(rules_sit_out="yes"), "Sit out at zero must be yes or no"),
    (doc(rules_betting="sometimes"), "Betting (betting) must be one of"),
    (doc(rules_token_name="\x1b[2J"), "plain text"),
    (doc(rules_wild_deuces=True), "unknown rule option(s): wild_deuces"),
    (doc(rules_starting_chips=10 ** 30), "Starting chips must be between"),
]


@pytest.mark.parametrize("text, why", HOSTILE)
def test_hostile_preset_text_is_one_line_of_words(text, why):
    with pytest.raises(PresetError) as caught:
        parse_preset(text, source="it.json")
    message = str(caught.value)
    assert why in message and message.startswith("it.json")
    assert len(message.splitlines()) == 1 and len(message) < 300


def test_a_damaged_file_is_reported_and_kept_and_the_rest_still_work(folder):
    folder.save(Preset("Good", RuleSet(ante=4)))
    bad = folder.folder / "Bad.json"
    bad.write_bytes(b'{"format": "pokeroulette-preset", "version": 1, "rules": {"tokens": 99}}')
    classic = folder.folder / "classic.json"  # a hand-made file with a built-in's name
    classic.write_text(preset_text(Preset("x", RuleSet(ante=9))), encoding="utf-8")
    before = {p.name: p.read_bytes() for p in folder.folder.iterdir()}
    presets, problems = folder.scan()
    assert [p.name for p in presets] == ["Good"]
    assert len(problems) == 2 and any("Bad.json" in line and "Forfeit tokens" in line
                                      for line in problems)
    assert any("classic.json is ignored" in line for line in problems)
    with pytest.raises(PresetError, match="Forfeit tokens"):
        folder.find("bad")
    assert folder.find("classic").rules == PRESETS["classic"]  # the built-in, never the file
    folder.save(Preset("Other", RuleSet()))
    assert all(p.read_bytes() == data for p in folder.folder.iterdir()
               if (data := before.get(p.name)) is not None)  # nothing touched
    assert set(before) < {p.name for p in folder.folder.iterdir()}


def test_special_and_huge_files_are_not_read_whole(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_PRESET_BYTES * 10))
    with pytest.raises(PresetError, match="too large"):
        read_preset_file(big)
    with pytest.raises(PresetError, match="is not a file"):
        read_preset_file(tmp_path)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(PresetError, match="is not a file"):
        read_preset_file(fifo)  # no hang waiting for a writer
    with pytest.raises(PresetError, match="does not exist"):
        read_preset_file(tmp_path / "missing.json")


# -- the command line ----------------------------------------------------------------------

def test_cli_save_list_rules_play_export_import_delete(home, capsys, ran, tmp_path):
    assert main(["preset", "save", "Friday night", "--preset", "draw", "--rule", "betting=each_round",
                 "--note", "our usual"]) == 0
    assert "pokeroulette --preset 'Friday night'" in capsys.readouterr().out
    assert (home / "data" / "presets" / "Friday night.json").is_file()

    assert main(["preset", "list"]) == 0
    out = capsys.readouterr().out
    assert "classic" in out and "Friday night     our usual" in out

    assert main(["rules", "--preset", "friday NIGHT", "--rule", "ante=3"]) == 0
    out = capsys.readouterr().out
    assert "Rules: saved preset Friday night (our usual)" in out
    assert "Changed: ante: 3" in out and "Betting: before and after the draw." in out

    assert main(["play", "--preset", "friday night"]) == 0  # the table pre-filled from it
    setup = ran[0].launch.setup
    assert setup.preset == "Friday night"
    assert setup.rules == PRESETS["draw"].replace(betting="each_round")

    target = tmp_path / "shared.json"
    assert main(["preset", "export", "Friday night", str(target)]) == 0
    assert parse_preset(target.read_text(encoding="utf-8")).rules == setup.rules
    assert main(["preset", "export", "Friday night", str(target)]) == 2  # never overwritten …
    one_error_line(capsys, "already exists (add --replace")
    assert main(["preset", "export", "Friday night", str(target), "--replace"]) == 0  # … unless asked

    assert main(["preset", "import", str(target)]) == 2
    one_error_line(capsys, "'Friday night' already exists (add --replace to replace it, or --name")
    assert main(["preset", "import", str(target), "--name", "Saturday"]) == 0
    assert "Imported the preset 'Saturday'" in capsys.readouterr().out

    assert main(["preset", "delete", "saturday"]) == 0
    assert main(["preset", "export", "classic", "-"]) == 0  # a built-in, to the screen
    assert json.loads(capsys.readouterr().out.split("\n", 1)[1])["name"] == "classic"


def test_cli_import_of_a_built_in_export_needs_a_name(capsys, tmp_path):
    target = tmp_path / "pagat.json"
    assert main(["preset", "export", "pagat", str(target)]) == 0
    assert main(["preset", "import", str(target)]) == 2
    one_error_line(capsys, "'pagat' is a built-in preset: choose another name (add --name NAME")
    assert main(["preset", "import", str(target), "--name", "My pagat"]) == 0
    assert main(["rules", "--preset", "My pagat", "--json"]) == 0
    assert RuleSet.from_dict(json.loads(capsys.readouterr().out.split("\n", 1)[1])) == PRESETS["pagat"]


@pytest.mark.parametrize("argv, fragment", [
    (["preset", "save", "classic"], "'classic' is a built-in preset: choose another name"),
    (["preset", "save", "../../evil"], "cannot contain / or \\"),
    (["preset", "save", "ok", "--rule", "tokens=9"], "Forfeit tokens (tokens) must be between 5 and 7"),
    (["preset", "save", "ok", "--note", "two\nlines"], "note must be one line"),
    (["preset", "delete", "draw"], "'draw' is a built-in preset: it cannot be deleted"),
    (["preset", "delete", "nothing"], "there is no saved preset called 'nothing'"),
    (["preset", "export", "nothing", "x.json"], "unknown preset 'nothing' (built in: classic"),
    (["preset", "export", "classic", "/no/such/folder/x.json"], "there is no folder /no/such/folder"),
    (["preset", "import", "/no/such/file.json"], "/no/such/file.json does not exist"),
    (["play", "--preset", "nothing"], "unknown preset 'nothing' (built in: classic, swedish, pagat, draw)"),
    (["rules", "--preset", "nothing"], "unknown preset 'nothing'"),
    (["simulate", "--preset", "nothing"], "unknown preset 'nothing'"),
])
def test_cli_preset_mistakes_are_one_line_and_exit_2(argv, fragment, capsys, ran):
    assert main(argv) == 2
    one_error_line(capsys, fragment)
    assert ran == []


@pytest.mark.parametrize("text, why", HOSTILE[:3] + HOSTILE[8:14])
def test_cli_import_of_a_hostile_file_saves_nothing(text, why, capsys, tmp_path, folder):
    source = tmp_path / "incoming.json"
    source.write_text(text, encoding="utf-8")
    assert main(["preset", "import", str(source)]) == 2
    one_error_line(capsys, why)
    assert source.read_text(encoding="utf-8") == text  # untouched
    assert folder.scan() == ([], [])  # nothing saved


def test_cli_damaged_saved_preset_is_one_line_and_kept(capsys, folder, ran):
    folder.save(Preset("Good", RuleSet()))
    bad = folder.folder / "Broken.json"
    bad.write_text("{oops", encoding="utf-8")
    assert main(["play", "--preset", "broken"]) == 2
    one_error_line(capsys, "Broken.json is not a preset file (damaged JSON at line 1)")
    assert main(["preset", "list"]) == 0
    out = capsys.readouterr().out
    assert "Good" in out and "(cannot be used)" in out and "Broken.json" in out
    assert bad.read_text(encoding="utf-8") == "{oops" and ran == []


def test_rules_list_says_names_and_words(capsys):
    assert main(["rules", "--list"]) == 0
    out = capsys.readouterr().out
    assert "betting=each_round" in out and "Betting: after every round" in out
    assert "forfeit_mode=weakest" in out and "all_but_winner (everyone but the winner pays)" in out
    assert "claim_match_card=yes" in out and "Pair claims match card: yes" in out


def test_rule_override_mistakes_say_the_option_in_words(capsys):
    assert main(["rules", "--rule", "sit_out=maybe"]) == 2
    one_error_line(capsys, "Sit out at zero (sit_out) must be yes or no (got 'maybe')")
    assert main(["rules", "--rule", "betting=none", "--rule", "ante=0"]) == 2
    one_error_line(capsys, "Ante (ante): Chip scoring with no betting needs an ante above 0")


def test_piped_output_cut_short_is_no_traceback(home):
    env = {"POKEROULETTE_HOME": str(home), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(f"{sys.executable} -m pokeroulette_tui rules --list | head -1",
                          shell=True, capture_output=True, text=True, env=env, timeout=60)
    assert done.stdout.startswith("Every option") and "Traceback" not in done.stderr


def test_export_onto_a_folder_says_it_is_a_folder(home, capsys, tmp_path):
    from pokeroulette_tui.cli import main

    folder = tmp_path / "dirx"
    folder.mkdir()
    for extra in ([], ["--replace"]):
        assert main(["preset", "export", "classic", str(folder), *extra]) == 2
        err = capsys.readouterr().err
        assert "is a folder: give a file name in it" in err and "--replace" not in err
