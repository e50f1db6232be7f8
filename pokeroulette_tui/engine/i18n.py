"""Words in the player's language (English, Finnish, Swedish) from gettext catalogs.

The source strings are English. Code marks a string for translation with :func:`_` (translated
when the line runs) or :func:`N_` (only marked: a constant translated where it is shown, so a
language switch at run time reaches it). The catalogs are
``pokeroulette_tui/locale/<lang>/LC_MESSAGES/pokeroulette.po`` and their compiled ``.mo``
twins, which ship in the wheel; ``python tools/i18n.py`` extracts, updates and compiles them
(with Babel, a development tool only: at run time this module needs the standard library).

Standard library only, so the engine may use it (hand names, rule words, errors a player reads).

Who speaks which language: one program at one terminal speaks one language, and
:func:`set_language` switches it for the whole process, as it always has. The SSH card room
runs many players' apps in one process, each in its own asyncio tasks, and each player may
choose a language: so the language spoken is kept in a :class:`contextvars.ContextVar` holding
a small mutable :class:`Speech` (the code and its catalog). By default every task shares the
process's one ``Speech``; :func:`own_language` gives the current task (and every task it
starts from then on, which copies its context) a ``Speech`` of its own, and
:func:`set_language` then changes only that one — for all of that session's tasks at once,
since they hold the same object. :func:`shared_language_context` is a context speaking the
process's language again (the room's tables, shared by players of different languages, speak
the server's). The listeners of :func:`on_change` hear every switch, whoever's.

>>> set_language("en"); _("Full house"), language()
('Full house', 'en')
>>> detect({"LANG": "fi_FI.UTF-8"}), detect({"LANGUAGE": "de:sv", "LANG": "fi_FI"})
('fi', 'sv')
"""

from __future__ import annotations

import contextvars
import gettext
import os
import string
from collections.abc import Callable, Mapping
from numbers import Number
from typing import TYPE_CHECKING, Any
from pathlib import Path

if TYPE_CHECKING:
    from fractions import Fraction

DOMAIN = "pokeroulette"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs live: ``<lang>/LC_MESSAGES/pokeroulette.mo`` under it."""

LANGUAGES: dict[str, str] = {"en": "English", "fi": "suomi", "sv": "svenska"}
"""The languages the game speaks, each in its own words, the source language first."""



class Speech:
    """The language one part of the program speaks: its code and its catalog (changed in
    place by :func:`set_language`, so every task holding it switches together)."""

    __slots__ = ("code", "translation")

    def __init__(self) -> None:
        self.code = "en"
        self.translation: gettext.NullTranslations = gettext.NullTranslations()

    def speak(self, code: str) -> bool:
        """Speak ``code`` (an unknown code: English); True when that is a change."""
        code = code if code in LANGUAGES else "en"
        self.translation = gettext.NullTranslations() if code == "en" else \
            gettext.translation(DOMAIN, LOCALE_DIR, [code], fallback=True)
        changed, self.code = code != self.code, code
        return changed


_process_speech = Speech()
"""The process's language: what every task speaks unless it has :func:`own_language`."""
_speech: contextvars.ContextVar[Speech] = contextvars.ContextVar(
    "pokeroulette_speech", default=_process_speech)
_listeners: list[Callable[[str], None]] = []


def normalize(name: str) -> str | None:
    """The language code a locale name means, if the game speaks it.

    >>> normalize("sv_FI.UTF-8"), normalize("fi"), normalize("C.UTF-8"), normalize("de_DE")
    ('sv', 'fi', None, None)
    """
    code = name.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def detect(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for, as gettext reads it: ``LANGUAGE`` (a list, the first
    one the game speaks), then the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is
    set; English if none of them names a language the game speaks (or the locale is C).

    >>> detect({}), detect({"LC_ALL": "C", "LANG": "fi_FI.UTF-8"}), detect({"LC_MESSAGES": "sv_SE"})
    ('en', 'en', 'sv')
    """
    env = os.environ if environ is None else environ
    locale_name = next((env[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(v)), "")
    if locale_name.split(".")[0] not in ("C", "POSIX"):  # gettext ignores LANGUAGE under C
        for item in env.get("LANGUAGE", "").split(":"):
            if item and (code := normalize(item)):
                return code
    return normalize(locale_name) or "en"


def language_problem(code: str) -> str | None:
    """Why ``code`` is not a language the game speaks, in one sentence, or None.

    It is in the language spoken now: the command line speaks the locale's (or the
    settings') language before it says this, English only when neither names one.

    >>> set_language("en"); language_problem("sv") is None, language_problem("de")
    (True, "unknown language 'de' (choose en, fi or sv)")
    """
    if code in LANGUAGES:
        return None
    names = list(LANGUAGES)
    return _("unknown language {code} (choose {codes} or {last})").format(
        code=repr(code), codes=", ".join(names[:-1]), last=names[-1])


def set_language(code: str) -> None:
    """Speak ``code`` from now on (an unknown code: English) and tell the listeners: the
    whole process, or only the tasks of a session that has :func:`own_language`."""
    code = code if code in LANGUAGES else "en"
    if _speech.get().speak(code):
        for listener in list(_listeners):
            listener(code)


def language() -> str:
    """The code of the language spoken now (``"en"``, ``"fi"`` or ``"sv"``)."""
    return _speech.get().code


def own_language(code: str | None = None) -> None:
    """From now on the current asyncio task, and the tasks it starts afterwards, speak a
    language of their own (``code``; None: the one spoken now), which :func:`set_language`
    there changes without touching anyone else's. Call it at the start of a task of its own
    (an SSH session's), never in the main thread outside one: there it would be for good.

    >>> import asyncio
    >>> async def session():
    ...     own_language("fi")
    ...     return language()
    >>> asyncio.run(session()), language()
    ('fi', 'en')
    """
    speech = Speech()
    speech.speak(language() if code is None else code)
    _speech.set(speech)


def shared_language_context() -> contextvars.Context:
    """A copy of the current context that speaks the process's language (and changes with
    it): run a shared thing in it (``ctx.run(...)``, ``create_task(..., context=ctx)``), so
    that whoever started it, it never speaks that session's language."""
    ctx = contextvars.copy_context()
    ctx.run(_speech.set, _process_speech)
    return ctx


def on_change(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call ``listener(code)`` after each language switch; returns a function that stops it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


NUMBER_MARKS: dict[str, tuple[str, str]] = {"fi": ("\u00a0", ","), "sv": ("\u00a0", ",")}
"""How a language groups thousands and marks decimals, where it differs from English's
``1,000.5``: Finnish and Swedish write ``1 000,5`` (a no-break space between thousands)."""


class _NumberFormatter(string.Formatter):
    """``str.format`` that writes each number's ``,`` and ``.`` the language's way (the
    text around the numbers is left as it is)."""

    def __init__(self, group: str, decimal: str) -> None:
        self.marks = str.maketrans({",": group, ".": decimal})

    def format_field(self, value: Any, format_spec: str) -> str:
        text = format(value, format_spec)
        if isinstance(value, Number) and not isinstance(value, bool):
            return text.translate(self.marks)
        return text


class Localized(str):
    """A message in a language that writes numbers its own way: its :meth:`format` puts
    that language's marks in every number it formats (``{amount:,}``, ``{share:.1%}``).

    >>> Localized("kassa {amount:,} · {p:.1%}").format(amount=12500, p=0.125)
    'kassa 12\xa0500 · 12,5%'
    """

    __slots__ = ()
    _formatter = _NumberFormatter(*NUMBER_MARKS["fi"])  # (Finnish and Swedish agree)

    def format(self, /, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        return self._formatter.vformat(self, args, kwargs)


def number(value: float, spec: str = "") -> str:
    """``value`` formatted by ``spec`` (as ``format(value, spec)``) with the marks of the
    language spoken now: for a number that stands apart from a sentence's ``format`` (a
    table's cell, a figure made before it goes into a message).

    >>> set_language("fi"); number(3.7, ".2f"), number(1234567, ",")
    ('3,70', '1\xa0234\xa0567')
    >>> set_language("en"); number(3.7, ".2f"), number(1234567, ",")
    ('3.70', '1,234,567')
    """
    return _localized("{0:" + spec + "}").format(value)


def percent(value: Fraction | float, decimals: int = 2) -> str:
    """``value``, a share of one (``0.037``), as a percentage with ``decimals`` decimals,
    written the way of the language spoken now: ``3.70%`` in English, ``3,70 %`` (a
    no-break space before the sign) in Finnish and Swedish. A :class:`~fractions.Fraction`
    is scaled exactly before it is rounded (``Fraction(57, 200)`` is 28.5, half to even).

    >>> from fractions import Fraction
    >>> set_language("fi"); percent(Fraction(37, 1000)), percent(1 / 3, 0)
    ('3,70\xa0%', '33\xa0%')
    >>> set_language("en"); percent(Fraction(37, 1000)), percent(1 / 3, 0)
    ('3.70%', '33%')
    """
    scaled = float(value * 100)  # (a Fraction's product is exact: one rounding, here)
    sign = "\u00a0%" if _speech.get().code in NUMBER_MARKS else "%"
    return number(scaled, f".{decimals}f") + sign


def _localized(text: str) -> str:
    """``text`` as the language spoken now writes its numbers (see :class:`Localized`)."""
    return Localized(text) if _speech.get().code in NUMBER_MARKS else text


def _(message: str) -> str:
    """``message`` in the current language (itself if the catalog has no translation); in
    Finnish and Swedish its ``format`` writes numbers their way (``1 000``, ``0,5``)."""
    return _localized(_speech.get().translation.gettext(message)) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message for ``n``, in the current language.

    >>> ngettext("{n} card", "{n} cards", 2).format(n=2)
    '2 cards'
    """
    return _localized(_speech.get().translation.ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language where the same English word needs another
    translation in another place (``context`` tells them apart)."""
    return _localized(_speech.get().translation.pgettext(context, message))


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now (a constant that is
    translated with :func:`_` where it is shown)."""
    return message
