"""Network play's chat: one line a message, as literal text, and a panel of the newest lines.

The lines are the chat messages as the client received them (``{"name", "text",
"spectator"}`` dicts: the host sends the last ones on joining, then each new one). Names
and words come from other people: they are appended as plain text, never as markup.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.ui.widgets.present import wrap_console


def chat_text(msg: dict[str, Any]) -> Text:
    """One chat message: ``name: words``, literal.

    >>> chat_text({"name": "[b]Bo", "text": "[red]hi[/]"}).plain
    '[b]Bo: [red]hi[/]'
    >>> chat_text({"name": "Eve", "text": "gl", "spectator": True}).plain
    'Eve (watching): gl'
    """
    out = Text()
    out.append(str(msg.get("name", "?")), style="bold")
    if msg.get("spectator"):
        out.append(" " + _("(watching)"), style="italic")
    out.append(": ")
    out.append(str(msg.get("text", "")))
    return out


def chat_notes(lines: Sequence[dict[str, Any]]) -> set[str]:
    """The words a table's note says for each of these chat messages (a network table tells
    a chat line as a note too): to know a note the open chat already shows.

    >>> sorted(chat_notes([{"name": "Bo", "text": "gl"}, {"name": "Eve", "text": "hi",
    ...                                                   "spectator": True}]))
    ['Bo: gl', 'Eve (watching): hi']
    """
    said = set()
    for msg in lines:
        name, text = str(msg.get("name", "?")), str(msg.get("text", ""))
        if msg.get("spectator"):  # (as the client says it, and as the chat shows it)
            said.add(_("{name} (watching)").format(name=name) + ": " + text)
        said.add(chat_text(msg).plain)
    return said


def newest_lines(lines: Sequence[dict[str, Any]], width: int, height: int) -> Text:
    """The newest messages that fit ``height`` rows of ``width`` columns once wrapped, oldest
    first (an older message cut in half is left out).

    >>> msgs = [{"name": "Ann", "text": f"line {i}"} for i in range(5)]
    >>> print(newest_lines(msgs, 20, 2).plain)
    Ann: line 3
    Ann: line 4
    >>> print(newest_lines(msgs, 8, 3).plain)
    Ann:
    line 4
    >>> newest_lines([], 20, 3).plain
    'No chat yet: m writes to the table.'
    """
    if not lines:
        return Text(_("No chat yet: m writes to the table."), style="italic")
    rows: list[Text] = []
    for msg in reversed(lines):
        wrapped = list(chat_text(msg).wrap(wrap_console(), max(1, width)))
        for row in wrapped:
            row.rstrip()
        if rows and len(rows) + len(wrapped) > height:
            break
        rows[:0] = wrapped
        if len(rows) >= height:
            break
    return Text("\n").join(rows[-max(1, height):])


class ChatPanel(Widget):
    """The newest chat messages of a network table (on wide screens; ``m`` opens the whole
    chat and writes a message). The screen sets :attr:`lines`."""

    DEFAULT_CSS = """
    ChatPanel { height: 8; }
    """

    lines: reactive[Sequence[dict[str, Any]]] = reactive((), always_update=False)

    def on_mount(self) -> None:
        self.retranslate()

    def retranslate(self) -> None:
        """Say the panel's title in the current language (and draw the lines again)."""
        self.border_title = _("Chat · m to write or read it all")
        self.refresh()

    def render(self) -> Text:
        size = self.content_size
        return newest_lines(self.lines, size.width or 40, size.height or 6)
