"""People's words on the screen exactly as typed: never read as markup.

Player names, chat, preset names, the tokens' name, a host's notices, file paths and error
texts may hold square brackets (``[/]``, ``[b]x``, ``[@click=app.quit]q[/]``). Textual reads
a ``str`` given to ``Static``/``Label``/``Button``, a ``Select`` option, ``notify()`` (unless
``markup=False``), an exit message or a Rich table cell as markup: such a name crashed the
screen (``MarkupError``) or became a link that runs an action. So such text reaches a
widget as :func:`plain` (or inside :func:`~pokeroulette_tui.ui.renderables.styled`, for a
sentence with a name in it), and every toast is sent with ``markup=False``. What is stored
(the settings, the autosave) keeps the words as typed.
"""

from __future__ import annotations

from rich.text import Text

__all__ = ["plain"]


def plain(text: object = "", style: str = "") -> Text:
    """``text`` as it is, for any widget or table cell: a ``Text``, never parsed as markup.

    >>> plain("[@click=app.quit]q[/]").plain
    '[@click=app.quit]q[/]'
    >>> t = plain("[b]x", style="italic")
    >>> t.plain, t.style, t.spans
    ('[b]x', 'italic', [])
    """
    return Text(str(text), style=style)
