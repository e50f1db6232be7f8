"""Messages a player reads that were still English in Finnish and Swedish (issue 12's sweep):
a save or journal file that cannot be read, and a damaged statistics file. English stays as
it was (the other tests read it word for word)."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine import journal, save
from pokeroulette_tui.engine.i18n import set_language
from pokeroulette_tui.engine.save import SaveError
from pokeroulette_tui.engine.stats_store import StatsStore, _header

SAID = {
    "en": ("is not a pokeroulette save file", "is not valid JSON (corrupt or truncated?)",
           "is not a pokeroulette journal", "was damaged (line 2:", "and 2 more"),
    "fi": ("ei ole pokeroulette-tallennustiedosto", "ei ole kelvollista JSONia",
           "ei ole pokeroulette-peliloki", "oli vioittunut (rivi 2:", "ja 2 muuta"),
    "sv": ("är inte en pokeroulette-sparfil", "är inte giltig JSON",
           "är inte en pokeroulette-spellogg", "var skadad (rad 2:", "och 2 till"),
}


def raised(load, text: str) -> str:
    with pytest.raises(SaveError) as caught:
        load(text)
    return str(caught.value)


@pytest.mark.parametrize("lang", SAID)
def test_a_save_that_cannot_be_read_is_told_in_the_players_language(lang):
    set_language(lang)
    foreign, bad_json, not_journal, __, __ = SAID[lang]
    assert raised(lambda t: save.loads(t, source="x.json"), '{"a": 1}') == f"x.json {foreign}"
    assert raised(lambda t: save.loads(t, source="x.json"), "garbage").startswith(
        f"x.json {bad_json}")
    assert raised(lambda t: journal.loads(t, source="x.jsonl"), '{"a": 1}\n') == \
        f"x.jsonl {not_journal}"


@pytest.mark.parametrize("lang", SAID)
def test_a_damaged_statistics_file_is_told_in_the_players_language(lang, tmp_path):
    store = StatsStore(tmp_path)
    # the header, then three lines that are no records: an empty one, half a JSON, a list
    store.path("Ada").write_text(_header("Ada") + "\n{bad\n[1]\n", encoding="utf-8")
    set_language(lang)
    store.load("Ada")
    *__, damaged, more = SAID[lang]
    assert len(store.problems) == 1
    assert damaged in store.problems[0] and more in store.problems[0]
    assert str(tmp_path) in store.problems[0]  # where the file was set aside
