"""Choose a preset for the table: the built-in ones and the table's own, in words."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from pokeroulette_tui.engine.i18n import N_, _, ngettext
from pokeroulette_tui.engine.presets import Preset, built_in
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.words import changes_words
from pokeroulette_tui.ui.plain import plain
from pokeroulette_tui.ui.widgets.footer import TidyFooter


def preset_choices() -> tuple[list[Preset], list[str]]:
    """Every preset to choose from (built in first, then saved) and a line for each saved
    preset file that cannot be used."""
    from pokeroulette_tui.paths import saved_presets

    presets = [p for p in (built_in(n) for n in PRESETS) if p is not None]
    saved, problems = saved_presets().scan()
    return presets + saved, problems


def preset_line(preset: Preset) -> Text:
    """``name — what it is`` (a saved preset without a note: what it changes from classic).

    >>> str(preset_line(Preset("Home", RuleSet(ante=2))))
    'Home (saved) — classic with ante: 2'
    """
    line = Text(preset.name, style="bold")
    if not preset.built_in:
        line.append(" " + _("(saved)"))
    if preset.note:
        about = _(preset.note) if preset.built_in else preset.note
    elif preset.rules != RuleSet():
        about = _("classic with {changes}").format(changes=changes_words(RuleSet(), preset.rules))
    else:
        about = _("the classic rules")
    line.append(f" — {about}")
    return line


SHOWN_PRESET_PROBLEMS = 1


class PresetScreen(ModalScreen[str | None]):
    """Pick a preset; dismisses with its name, or None (Escape)."""

    BINDINGS = [Binding("escape", "close", N_("Back"))]

    DEFAULT_CSS = """
    PresetScreen OptionList { height: auto; max-height: 10; }
    PresetScreen #preset-problems { color: $text-warning; height: auto; }
    """

    def __init__(self, current: str = "", *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.current = current
        self.presets, self.problems = preset_choices()

    def compose(self) -> ComposeResult:
        with Vertical(id="preset-box", classes="dialog"):
            yield Static(Text(_("Choose the rules: a preset"), style="bold"), classes="dialog-title")
            yield OptionList(*(Option(preset_line(p), id=f"preset-{i}")
                               for i, p in enumerate(self.presets)), id="preset-list")
            # (the first problems, then how many more: all of it must fit 80x24)
            shown = self.problems[:SHOWN_PRESET_PROBLEMS]
            problems = "\n".join(_("Cannot be used: {problem}").format(problem=line)
                                 for line in shown)
            more = len(self.problems) - len(shown)
            if more:
                problems += "\n" + ngettext(
                    "… and {n} more (pokeroulette preset list names it)",
                    "… and {n} more (pokeroulette preset list names them)", more).format(n=more)
            yield Static(plain(problems), id="preset-problems")  # (file names, reasons)
            yield Static(_("enter chooses · esc goes back · save your own on the setup screen (s)"),
                         classes="help")
        yield TidyFooter()

    def on_mount(self) -> None:
        self.query_one("#preset-problems").display = bool(self.problems)
        options = self.query_one(OptionList)
        names = [p.name for p in self.presets]
        options.highlighted = names.index(self.current) if self.current in names else 0
        options.focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.presets[event.option_index].name)

    def action_close(self) -> None:
        self.dismiss(None)
