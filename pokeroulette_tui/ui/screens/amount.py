"""Enter an amount (a bet, a raise, a cut point) with presets and checked free entry."""

from __future__ import annotations

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from pokeroulette_tui.ui.widgets.footer import TidyFooter

from pokeroulette_tui.engine.i18n import N_, _, ngettext
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.widgets.present import total_pot
from pokeroulette_tui.ui.widgets.typed_input import TypedInput


def parse_amount(text: str, lo: int, hi: int) -> tuple[int | None, str]:
    """A whole number from ``lo`` to ``hi``, or None and a message saying what is wrong.

    >>> parse_amount("12", 4, 20)
    (12, '')
    >>> parse_amount("2", 4, 20)[1]
    'at least 4'
    >>> parse_amount("lots", 4, 20)[1]
    'enter a whole number from 4 to 20'
    """
    raw = text.strip()
    if not raw.isdigit():
        return None, _("enter a whole number from {lo} to {hi}").format(lo=lo, hi=hi)
    value = int(raw)
    if value < lo:
        return None, _("at least {lo}").format(lo=lo)
    if value > hi:
        return None, _("at most {hi}").format(hi=hi)
    return value, ""


def bet_presets(view: SeatView) -> list[tuple[str, int]]:
    """Opening bets: the minimum, half the pot, the pot, everything."""
    o = view.options
    assert o is not None
    pot = total_pot(view)
    return [(N_("min"), o.bet_min), (N_("½ pot"), pot // 2), (N_("pot"), pot),
            (N_("all in"), o.bet_max)]


def raise_presets(view: SeatView) -> list[tuple[str, int]]:
    """Raises (the total to bet this round): the minimum, half the pot and the pot after
    calling, everything."""
    o, me = view.options, view.me
    assert o is not None and me is not None
    after_call = total_pot(view) + view.current_bet - me.bet
    return [(N_("min"), o.raise_min), (N_("½ pot"), view.current_bet + after_call // 2),
            (N_("pot"), view.current_bet + after_call), (N_("all in"), o.raise_max)]


class AmountInput(TypedInput):
    """An Input for whole numbers that leaves letter keys to the screen's preset keys.

    A key (or a paste) the box cannot take is never dropped in silence: the bell rings and
    :class:`Refused` tells the screen what was left out (``1e3`` typed shows ``13``, and
    says that ``e`` was not taken)."""

    class Refused(Message):
        """Typed or pasted ``text`` was left out of the box (not a whole number)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    _putting = ""  # what is being typed or pasted in (for :meth:`restricted`)
    preset_keys = ""
    """The screen's preset letters: acted on here, in their turn with the digits and the
    editing keys typed around them (see :meth:`_on_key`)."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and (character.isdigit() or character == "-")

    async def _on_key(self, event: events.Key) -> None:
        # A preset letter is the screen's key; as a binding it would act when the key has
        # bubbled up to the app, after keys typed later (Backspace then ``a`` in one burst:
        # the all-in amount, then a digit taken off it). Here it acts in its turn.
        char = event.character
        if char and event.key == char and char in self.preset_keys:
            event.stop()
            event.prevent_default()
            await self.app.run_action(f"preset({self.preset_keys.index(char)})", self.screen)
            return
        await super()._on_key(event)

    def replace(self, text: str, start: int, end: int) -> None:
        self._putting = text
        try:
            super().replace(text, start, end)
        finally:
            self._putting = ""

    def restricted(self) -> None:
        super().restricted()  # the bell
        if self._putting:
            self.post_message(self.Refused(self._putting))


MOST_NAMED = 8
"""The most refused keys the note under the box names (then "…")."""

BET_KEYS = "mhpa"
"""The preset keys of a bet or a raise: min, ½ pot, pot, all in."""


class AmountScreen(ModalScreen[int | None]):
    """Choose a number from ``lo`` to ``hi``: preset keys, buttons, or typing and Enter.

    Each preset has a key (``keys``, in the order of ``presets``; letters only, since the
    box takes the digits), and the footer names it with the preset's own label, so a cut
    dialog says "one", "middle" … and never a bet's words. Dismissed with the number, or
    None when cancelled (Escape). The title and the presets' labels are English, marked for
    translation (``N_``): they are translated where they are shown.
    """

    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("enter", "submit", N_("OK"), show=True),
    ]

    def __init__(self, title: str, lo: int, hi: int, *, presets: list[tuple[str, int]] | None = None,
                 keys: str = BET_KEYS, default: int | None = None, unit: str = "chips",
                 name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.title_text = title
        self.lo, self.hi = lo, hi
        self.presets = [(label, max(lo, min(hi, v))) for label, v in (presets or [])][:len(keys)]
        self.keys = keys
        self.default = lo if default is None else max(lo, min(hi, default))
        self.unit = unit
        # typed or pasted, and refused by the box, since Enter was last pressed (or the box was
        # emptied, or set by a preset): each key (or paste) once, in the order typed
        self._left_out: list[str] = []
        for i, (label, _value) in enumerate(self.presets):  # this dialog's own keys (when
            self._bindings.bind(keys[i], f"preset({i})", label)  # a button has the focus)

    def compose(self) -> ComposeResult:
        keys = self.keys
        with Vertical(id="amount-box"):
            yield Static(Text(self._heading(), style="bold"))
            with Horizontal(id="amount-presets"):
                for i, (label, value) in enumerate(self.presets):
                    yield Button(f"{keys[i]} {_(label)} {value}", id=f"preset-{i}", compact=True)
            box = AmountInput(str(self.default), type="integer", restrict=r"[0-9]*",
                              id="amount-input", placeholder=f"{self.lo}–{self.hi}")
            box.preset_keys = keys[:len(self.presets)]
            yield box
            yield Static("", id="amount-error")
            yield Static(Text(_("Enter confirms · Esc cancels"), style="italic"))
        yield TidyFooter()

    def _heading(self) -> str:
        """``Bet: 2–97 chips``, in the player's language."""
        title = _(self.title_text)
        if self.unit == "chips":
            return _("{title}: {lo}–{hi} chips").format(title=title, lo=self.lo, hi=self.hi)
        if self.unit == "cards":
            return _("{title}: {lo}–{hi} cards").format(title=title, lo=self.lo, hi=self.hi)
        return f"{title}: {self.lo}–{self.hi} {self.unit}"

    def on_mount(self) -> None:
        box = self.query_one("#amount-input", Input)
        box.focus()
        box.select_all()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "preset":
            return int(parameters[0]) < len(self.presets)  # type: ignore[call-overload]
        return True

    def action_preset(self, index: int) -> None:
        if index < len(self.presets):
            self._left_out = []
            self._say("")
            box = self.query_one("#amount-input", Input)
            box.value = str(self.presets[index][1])
            box.cursor_position = len(box.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id and event.button.id.startswith("preset-"):
            self.action_preset(int(event.button.id.split("-")[1]))
            self.query_one("#amount-input", Input).focus()

    @on(AmountInput.Refused)
    def _refused(self, event: AmountInput.Refused) -> None:
        """Say under the box that it takes digits only, and what was left out; the next
        Enter asks again (the box no longer says what was typed)."""
        if event.text not in self._left_out:
            self._left_out.append(event.text)
        self._say(ngettext("Digits only: {typed} was left out.",
                           "Digits only: {typed} were left out.",
                           len(self._left_out)).format(typed=self._left_out_words()))

    def _left_out_words(self) -> str:
        """What the box left out, each quoted: ``'x', 'e'`` (the first few of many)."""
        shown = [repr(text) for text in self._left_out[:MOST_NAMED]]
        if len(self._left_out) > MOST_NAMED:
            shown.append("…")
        return ", ".join(shown)

    @on(Input.Changed, "#amount-input")
    def _typed(self, event: Input.Changed) -> None:
        if not event.value:  # emptied: a fresh start
            self._left_out = []
            self._say("")

    def _say(self, message: str) -> None:
        self.query_one("#amount-error", Static).update(
            Text(message[:1].upper() + message[1:], style="bold"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        value, error = parse_amount(self.query_one("#amount-input", Input).value, self.lo, self.hi)
        if value is not None and self._left_out:  # typed 1e3, the box says 13: ask once
            error = ngettext("{typed} was left out: the box says {value}. Enter again to confirm.",
                             "{typed} were left out: the box says {value}. Enter again to confirm.",
                             len(self._left_out)).format(typed=self._left_out_words(), value=value)
            self._left_out = []
            self.app.bell()
        if value is None or error:
            self._say(error)
            return
        self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)
