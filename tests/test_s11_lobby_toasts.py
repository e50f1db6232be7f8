"""Toasts and dialogs at the table (QA round 11): a "Not now" note goes when a dialog opens;
the table's notes wait while a dialog is open over it and show once it closes; the open chat
shows a new chat line in its history, not in a toast over its input line."""

from __future__ import annotations

from textual.widgets._toast import Toast

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.session import Update
from pokeroulette_tui.ui.screens.chat import ChatScreen
from ui_pilot import SIZE, app_for, fake_at_turn, press, screen_text, step, table_screen

RULES = RuleSet(suit_order="SHDC")
SEATS = [("Ana", None), ("Bo", "simple"), ("Cy", "simple")]


def notes(app) -> list[str]:
    return [n.message for n in app._notifications]


def toasts_drawn(app) -> list[str]:
    """The toasts on any screen of the stack (the table's are drawn under a dialog)."""
    return [str(t.render()) for screen in app.screen_stack for t in screen.query(Toast)]


async def test_not_now_goes_when_a_dialog_opens():
    session = fake_at_turn(RULES, SEATS, seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "s")  # no hand has ended yet
        assert any("No hand has ended yet" in n for n in notes(app))
        await press(pilot, "w")  # what beats what
        assert type(app.screen).__name__ != "TableScreen"
        assert not any("No hand has ended yet" in n for n in notes(app))
        await step(pilot)
        assert not any("No hand has ended" in t for t in toasts_drawn(app))
        assert "No hand has ended" not in screen_text(app)


async def test_table_notes_wait_for_the_dialog_to_close():
    session = fake_at_turn(RULES, SEATS, seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        table = table_screen(app)
        await press(pilot, "w")
        dialog = app.screen
        assert dialog is not table
        session.push(Update(note="Bo is back"))
        session.push(Update(note="Cy left the table"))
        await step(pilot)
        await step(pilot)
        assert notes(app) == []  # (nothing covers the dialog's lines)
        await press(pilot, "escape")
        assert app.screen is table
        await step(pilot)
        said = notes(app)
        assert len(said) == 1 and "Bo is back" in said[0] and "Cy left the table" in said[0]


async def test_the_open_chat_shows_a_new_line_instead_of_a_toast():
    session = fake_at_turn(RULES, SEATS, seed=1, chat=True)
    session.chat_lines = [{"name": "Cy", "text": "gl"}]
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        table = table_screen(app)
        await press(pilot, "m")
        chat = app.screen
        assert isinstance(chat, ChatScreen)
        session.chat_lines = [*session.chat_lines, {"name": "Bo", "text": "nice hand"}]
        session.push(Update(note="Bo: nice hand"))
        session.push(Update(note="deck check ✓ hand 1: all 9 cards you were shown match"))
        await step(pilot)
        await step(pilot)
        assert notes(app) == []  # the input line stays clear
        assert "Bo: nice hand" in str(chat.query_one("#chat-lines").render())
        await press(pilot, "h", "i")  # what was being typed is still there
        assert chat.query_one("#chat-input").value == "hi"
        await press(pilot, "escape")
        assert app.screen is table
        await step(pilot)
        said = notes(app)
        # the deck check waited; the chat line was read in the chat and is not said again
        assert len(said) == 1 and "deck check" in said[0] and "nice hand" not in said[0]
        assert session.chat_lines[-1]["text"] == "nice hand"


def test_a_spectators_chat_line_is_known_as_the_note_the_client_makes():
    from pokeroulette_tui.ui.widgets.chat import chat_notes

    assert "Eve (watching): hi" in chat_notes([{"name": "Eve", "text": "hi", "spectator": True}])
