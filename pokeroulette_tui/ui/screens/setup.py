"""The table agreement: a preset, every rule option explained, and who sits in each seat."""

from __future__ import annotations

import re
import shlex
from dataclasses import fields
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static, Switch
from textual.widgets.select import InvalidSelectValueError

from pokeroulette_tui.bots import LEVELS, level_words
from pokeroulette_tui.engine.i18n import LANGUAGES, N_, _, language, ngettext
from pokeroulette_tui.engine.presets import Preset, PresetError, PresetExists, check_name
from pokeroulette_tui.engine.rules import (
    OPTION_CHOICES,
    OPTION_GROUPS,
    RuleError,
    RuleSet,
    token_words,
)
from pokeroulette_tui.engine.words import (
    OPTION_HELP,
    YES_NO,
    changed_options,
    names_words,
    option_words,
    value_words,
)
from pokeroulette_tui.ui.config import (
    MAX_NAME,
    SeatChoice,
    TableSetup,
    check_seats,
    default_bot_level,
    default_name,
    is_default_name,
)
from pokeroulette_tui.ui.plain import plain
from pokeroulette_tui.ui.widgets.typed_input import TypedInput

MAX_SEATS = 10
"""Seats the screen offers (the most any variant allows at this terminal)."""

_FIELDS = {f.name: type(f.default) for f in fields(RuleSet)}
_AUTO_NAME = re.compile(r"^(You|Player \d+|Bot( \d+)?)$")
_HUMAN = "human"
_ECHOED = ("suit_order", "hand_limit", "token_name")
"""Typed options whose value has words of its own (``drawn``, ``SHDC``, ``0``, a built-in
token name in the player's language): shown beside."""


def _groups() -> dict[str, tuple[str, ...]]:
    """OPTION_GROUPS, plus any option no group lists (so every option is always shown)."""
    groups = dict(OPTION_GROUPS)
    listed = {name for names in groups.values() for name in names}
    rest = tuple(name for name in _FIELDS if name not in listed)
    if rest:
        groups[N_("Other")] = rest
    return groups


def _unused_note(group: str, rules: RuleSet) -> str:
    """Why a group of options does not count at this table (said with ``_()``), or ""."""
    if group.startswith("Matching") and rules.variant != "roulette":
        return N_("not used in five-card draw")
    if group.startswith("Draw") and rules.variant != "draw":
        return N_("used only in five-card draw")
    return ""


SPEED_WORDS = {"slow": N_("slow"), "normal": N_("normal"), "fast": N_("fast"),
               "instant": N_("instant")}
"""The speeds' names (``SPEEDS``' keys, typed as ``--speed``), marked: said with ``_()``."""


class SetupScreen(Screen[TableSetup | None]):
    """Edit a :class:`TableSetup`; dismisses with the new one (Start) or None (Escape).

    ``shared_server``: opened on a server many people share (the SSH room): no "Save as a
    preset" (it would write to the server's own presets folder) and no shuffle seed (the
    server deals with its own); the agreed setup's seed is None."""

    BINDINGS = [
        Binding("escape", "cancel", N_("Back")),
        Binding("ctrl+s", "start", N_("Start")),
    ]

    DEFAULT_CSS = """
    SetupScreen #setup-title { height: 1; padding: 0 1; text-style: bold; }
    SetupScreen #setup-body { height: 1fr; padding: 0 1; }
    SetupScreen .group { text-style: bold; margin: 1 0 0 0; }
    SetupScreen .group.-unused { text-style: dim; }
    SetupScreen .row, SetupScreen #seat-rows { height: auto; }
    SetupScreen .line { height: 1; }
    SetupScreen .marker { width: 2; visibility: hidden; }
    SetupScreen .row:focus-within { background: $boost; }
    SetupScreen .row:focus-within .marker { visibility: visible; }
    SetupScreen .row.-error .marker { visibility: visible; }
    SetupScreen .name { width: 26; }
    SetupScreen .line Input { width: 24; }
    SetupScreen .line Select { width: 24; }
    SetupScreen .line Select.rule { width: 32; }
    SetupScreen .line #preset-name { width: 24; }
    SetupScreen .line #save-preset { margin: 0 0 0 1; }
    SetupScreen .line Switch, SetupScreen .line Switch:focus { border: none; height: 1; padding: 0 1; }
    SetupScreen .onoff { width: 7; padding: 0 1; }  /* (kyllä) */
    SetupScreen .echo { width: auto; padding: 0 1; color: $text-muted; }
    SetupScreen .help { padding: 0 0 0 4; color: $text-muted; }
    SetupScreen .seat-label { width: 10; }
    SetupScreen .seat .seat-name { width: 26; }
    SetupScreen .seat Select { width: 20; margin: 0 0 0 2; }
    SetupScreen #setup-bar { height: auto; padding: 0 1; }
    SetupScreen #setup-status { width: 1fr; height: auto; }
    SetupScreen #setup-error { height: auto; color: $text-error; }
    SetupScreen #setup-warning { height: auto; color: $text-warning; }
    SetupScreen #preset-saved.-error { color: $text-error; }
    SetupScreen #setup-keys { height: auto; color: $text-muted; }
    SetupScreen #setup-bar Button { margin: 0 0 0 1; }
    """

    def __init__(self, setup: TableSetup, *, shared_server: bool = False,
                 name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.initial = setup
        self.shared_server = shared_server
        from pokeroulette_tui.ui.screens.presets import preset_choices

        self._presets = {p.name: p for p in preset_choices()[0]}  # built in, then saved
        self.preset = setup.preset if setup.preset in self._presets else "classic"
        self.rules = setup.rules                  # the last valid rules read from the controls
        self.seats = self._seat_defaults()        # every seat's name and kind, shown or not
        self._seat_range = (setup.rules.fewest_players, setup.rules.max_players)
        self._seat_count = min(max(len(setup.seats), self._seat_range[0]), self._seat_range[1])
        self._seat_rows_made = 0                  # seat rows are made when first needed
        self._controls: dict[str, Widget] = {}    # rule option -> its control
        self._rows: dict[str, Widget] = {}        # rule option -> its row
        self._onoff: dict[str, Static] = {}
        self._echo: dict[str, Static] = {}       # typed option -> its value in words
        self._seat_controls: dict[int, tuple[Input, Select[str]]] = {}
        self._headings: dict[str, Static] = {}
        self._update_pending = False

    def _seat_defaults(self) -> list[SeatChoice]:
        """The initial seats, padded to MAX_SEATS with bots for when the table grows."""
        legal = set(LEVELS)
        seats = [SeatChoice(name=s.name, bot=s.bot if s.bot is None or s.bot in legal
                            else default_bot_level()) for s in self.initial.seats[:MAX_SEATS]]
        level = next((s.bot for s in seats if s.bot), None) or default_bot_level()
        taken = {s.name.casefold() for s in seats}
        for i in range(len(seats), MAX_SEATS):
            name = default_name(i, level, number=sum(1 for s in seats if s.bot) + 1)
            while name.casefold() in taken:
                name += "'"
            taken.add(name.casefold())
            seats.append(SeatChoice(name=name, bot=level))
        return seats

    # -- building -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(_("Table setup — agree on the house rules before the first deal"),
                     id="setup-title")
        with VerticalScroll(id="setup-body", can_focus=False):
            yield Static(_("Preset"), classes="group")
            with Vertical(classes="row", id="row-preset"):
                with Horizontal(classes="line"):
                    yield Static("▸", classes="marker")
                    yield Label(_("Preset"), classes="name")
                    yield Select(self._preset_options(), value=self.preset,
                                 allow_blank=False, compact=True, id="preset")
                yield Static("", classes="help", id="preset-note")
                yield Static(_("choosing a preset resets every option below to it"),
                             classes="help")
            if not self.shared_server:
                with Vertical(classes="row", id="row-save-preset"):
                    with Horizontal(classes="line"):
                        yield Static("▸", classes="marker")
                        yield Label(_("Save as a preset"), classes="name")
                        yield TypedInput("", compact=True, max_length=30, placeholder=_("a name"),
                                    id="preset-name")
                        yield Button(_("Save"), compact=True, id="save-preset")
                    yield Static(_("keep these rules under a name of your own, to choose "
                                   "again later"), classes="help", id="preset-saved")
            for group, names in _groups().items():
                heading = self._headings[group] = Static(_(group), classes="group",
                                                         id=f"group-{self._slug(group)}")
                yield heading
                for option in names:
                    yield self._option_row(option)
                if group == "Table":
                    yield from self._seat_section()
            yield from self._pace_section()
        with Horizontal(id="setup-bar"):
            with Vertical(id="setup-status"):
                yield Static("", id="setup-error")
                yield Static("⚠ " + _("Two players: Poker Roulette is meant for 3 or more "
                                      "(allowed, it plays)"), id="setup-warning")
                yield Static(_("tab/shift+tab move · enter opens a list · space switches · "
                               "esc back · ctrl+s start"), id="setup-keys")
            yield Button(_("Cancel"), id="cancel")
            yield Button(_("Start"), id="start", variant="primary")

    def _preset_options(self) -> list[tuple[Text, str]]:
        """The presets to choose from; a saved one's name is shown as typed (never markup)."""
        return [(plain(name if p.built_in else _("{name} (saved)").format(name=name)), name)
                for name, p in self._presets.items()]

    @staticmethod
    def _slug(group: str) -> str:
        return re.sub(r"[^a-z]+", "-", group.lower()).strip("-")

    def _option_row(self, option: str) -> Widget:
        value = getattr(self.initial.rules, option)
        kind = _FIELDS[option]
        extra: list[Widget] = []
        control: Widget
        if option in OPTION_CHOICES:
            control = Select([(value_words(option, c), c) for c in OPTION_CHOICES[option]], value=value,
                             allow_blank=False, compact=True, id=f"opt-{option}", classes="rule")
        elif kind is bool:
            control = Switch(value=value, id=f"opt-{option}", classes="rule")
            self._onoff[option] = Static(_(YES_NO[value]), classes="onoff")
            extra.append(self._onoff[option])
        elif kind is int:
            control = TypedInput(str(value), type="integer", compact=True, id=f"opt-{option}", classes="rule")
        else:
            control = TypedInput(str(value), compact=True, max_length=40, id=f"opt-{option}", classes="rule")
        if option in _ECHOED:
            self._echo[option] = Static("", classes="echo")
            extra.append(self._echo[option])
        self._controls[option] = control
        row = Vertical(
            Horizontal(Static("▸", classes="marker"), Label(option_words(option), classes="name"),
                       control, *extra, classes="line"),
            Static(_(OPTION_HELP.get(option, "")), classes="help"),
            classes="row", id=f"row-{option}")
        self._rows[option] = row
        return row

    def _seat_section(self) -> ComposeResult:
        yield Static(_("Seats"), classes="group")
        lo, hi = self._seat_range
        with Vertical(classes="row", id="row-seats"):
            with Horizontal(classes="line"):
                yield Static("▸", classes="marker")
                yield Label(_("Players"), classes="name")
                yield Select(self._count_options(lo, hi), value=self._seat_count, allow_blank=False,
                             compact=True, id="seat-count")
            yield Static(_("each seat is a player who joins from their own terminal, or a bot "
                           "of a level") if self.shared_server else
                         _("each seat is a person at this keyboard (hot-seat) or a bot of a level"),
                         classes="help")
        with Vertical(id="seat-rows"):
            for i in range(self._seat_count):
                yield self._seat_row(i)
        self._seat_rows_made = self._seat_count
        if self.shared_server:
            return
        with Vertical(classes="row", id="row-seed"):
            with Horizontal(classes="line"):
                yield Static("▸", classes="marker")
                yield Label(_("Shuffle seed"), classes="name")
                seed = "" if self.initial.seed is None else str(self.initial.seed)
                yield TypedInput(seed, type="integer", compact=True, placeholder=_("blank = random"),
                            id="seed")
            yield Static(_("a number replays the same shuffles (for testing); blank for a fair "
                           "game"), classes="help")

    def _seat_row(self, i: int) -> Widget:
        seat = self.seats[i]
        kinds = [(_("human"), _HUMAN)] + [(_("bot: {level}").format(level=level_words(level)), level)
                                           for level in LEVELS]
        name = TypedInput(seat.name, max_length=MAX_NAME, compact=True, placeholder=_("name"),
                     id=f"seat-name-{i}", classes="seat-name")
        kind = Select(kinds, value=seat.bot or _HUMAN, allow_blank=False, compact=True,
                      id=f"seat-kind-{i}", classes="seat-kind")
        self._seat_controls[i] = (name, kind)
        return Horizontal(Static("▸", classes="marker"),
                          Label(_("Seat {number}").format(number=i + 1), classes="seat-label"),
                          name, kind, classes="row line seat", id=f"seat-row-{i}")

    @staticmethod
    def _count_options(lo: int, hi: int) -> list[tuple[str, int]]:
        return [(ngettext("{n} player", "{n} players", n).format(n=n), n) for n in range(lo, hi + 1)]

    def on_mount(self) -> None:
        self._update()
        self.call_after_refresh(self.query_one("#preset", Select).focus)

    # -- reading and writing the controls ---------------------------------------------------
    def read_rules(self) -> tuple[RuleSet | None, str, str | None]:
        """The rules the controls show, or None with the problem and the option to blame."""
        values: dict[str, Any] = {}
        for option, kind in _FIELDS.items():
            control = self._controls[option]
            if isinstance(control, Input) and kind is int:
                text = control.value.strip()
                if not re.fullmatch(r"[-+]?\d+", text):
                    typed = (_("you typed {text}").format(text=repr(text)) if text
                             else _("you typed nothing"))
                    return None, _("{option} must be a whole number ({typed})").format(
                        option=option_words(option), typed=typed), option
                values[option] = int(text)
            else:
                values[option] = control.value  # type: ignore[attr-defined]
        try:
            return RuleSet(**values), "", None
        except RuleError as exc:
            return None, str(exc), exc.option if exc.option in _FIELDS else None

    def read_seats(self) -> list[SeatChoice]:
        """The shown seats, names trimmed (read from the controls: a key just typed counts)."""
        seats = []
        for i, seat in enumerate(self.seats[:self._seat_count]):
            name, bot = seat.name, seat.bot
            if i in self._seat_controls:
                name_input, kind_select = self._seat_controls[i]
                name, kind = name_input.value, kind_select.value
                if kind in LEVELS or kind == _HUMAN:
                    bot = None if kind == _HUMAN else str(kind)
            seats.append(SeatChoice(name=name.strip(), bot=bot))
        return seats

    def read_seed(self) -> tuple[int | None, str]:
        if self.shared_server:
            return None, ""
        text = self.query_one("#seed", Input).value.strip()
        if not text:
            return None, ""
        if not re.fullmatch(r"[-+]?\d+", text):
            return None, _("the shuffle seed is a whole number or blank (got {text})").format(
                text=repr(text))
        return int(text), ""

    def _write_rules(self, rules: RuleSet) -> None:
        for option, control in self._controls.items():
            value = getattr(rules, option)
            if isinstance(control, Input):
                control.value = str(value)
            else:
                control.value = value  # type: ignore[attr-defined]

    def _request_update(self) -> None:
        """Update once after the messages now queued (a preset changes many controls)."""
        if not self._update_pending:
            self._update_pending = True
            self.call_later(self._update)

    def _update(self) -> None:
        """Re-read everything; show the first problem and keep the rest of the screen in step."""
        self._update_pending = False
        rules, problem, blame = self.read_rules()
        if rules is not None:
            self.rules = rules
            self._fit_seat_range(rules)
        for option, row in self._rows.items():
            row.set_class(option == blame, "-error")
        if not problem:
            problem = check_seats(self.rules, self.read_seats()) or ""
            problem = problem[:1].upper() + problem[1:]
        if not problem:
            problem = self.read_seed()[1]
        # (a problem may quote a typed name or value: shown literally)
        self.query_one("#setup-error", Static).update(plain(f"⚠ {problem}" if problem else ""))
        warning = self.query_one("#setup-warning", Static)
        warning.display = (not problem and self.rules.variant == "roulette"
                           and self._seat_count < 3)
        for option, echo in self._echo.items():
            value = getattr(self.rules, option)
            typed = str(getattr(self._controls.get(option), "value", value)).strip()
            if rules is None and typed != str(value):  # (the words of the last good rules
                echo.update("")                         # would not be the box's)
                continue
            words = token_words(self.rules) if option == "token_name" else \
                value_words(option, value)
            # (in English the help line says what drawn is; in another the box's word is
            # English: its words are shown beside it)
            same = words == str(value) or (value == "drawn" and language() == "en")
            echo.update(plain("" if same else words[:1].lower() + words[1:]))
        for option, label in self._onoff.items():
            label.update(_(YES_NO[bool(self._controls[option].value)]))  # type: ignore[attr-defined]
        for group, heading in self._headings.items():
            unused = _unused_note(group, self.rules)
            heading.update(f"{_(group)} — {_(unused)}" if unused else _(group))
            heading.set_class(bool(unused), "-unused")
        preset = self._presets[self.preset]
        changed = changed_options(preset.rules, self.rules)
        if changed:
            note = _("Changed: {options}").format(options=names_words(changed))
        elif preset.note:
            note = _(preset.note) if preset.built_in else preset.note
        else:
            note = _("the classic rules") if preset.built_in else _("your own preset")
        self.query_one("#preset-note", Static).update(plain(note))  # (a saved preset's note)

    def _fit_seat_range(self, rules: RuleSet) -> None:
        """Offer the seat counts these rules allow, keeping the count when it still fits."""
        lo, hi = rules.fewest_players, rules.max_players
        if (lo, hi) == self._seat_range:
            return
        self._seat_range = (lo, hi)
        select = self.query_one("#seat-count", Select)
        count = min(max(self._seat_count, lo), hi)
        if count != self._seat_count:  # (said: seats and their names go, or come, unasked)
            self.notify(_("These rules seat {lo} to {hi} players: the table now has {n} "
                          "seats.").format(lo=lo, hi=hi, n=count), markup=False)
        select.set_options(self._count_options(lo, hi))
        select.value = count
        self._show_seats(count)

    def _show_seats(self, count: int) -> None:
        self._seat_count = count
        box = self.query_one("#seat-rows")
        if count > self._seat_rows_made:
            box.mount_all([self._seat_row(i) for i in range(self._seat_rows_made, count)])
            self._seat_rows_made = count
        for row in box.children:
            row.display = int(str(row.id).rsplit("-", 1)[1]) < count

    # -- handlers -------------------------------------------------------------------------
    @on(Select.Changed, "#preset")
    def _preset_chosen(self, event: Select.Changed) -> None:
        if event.value == self.preset or event.value not in self._presets:
            return
        self.preset = str(event.value)
        self._write_rules(self._presets[self.preset].rules)
        self._request_update()

    @on(Select.Changed, "#seat-count")
    def _count_chosen(self, event: Select.Changed) -> None:
        if isinstance(event.value, int) and event.value != self._seat_count:
            self._show_seats(event.value)
            self._request_update()

    @on(Select.Changed, ".seat-kind")
    def _kind_chosen(self, event: Select.Changed) -> None:
        i = int(str(event.select.id).rsplit("-", 1)[1])
        seat = self.seats[i]
        new = None if event.value == _HUMAN else str(event.value)
        if new == seat.bot:
            return
        old, seat.bot = seat.bot, new
        name = self._seat_controls[i][0]
        typed = name.value.strip()
        if (not typed or _AUTO_NAME.match(typed) or is_default_name(typed)
                or typed == default_name(i, old)):
            seat.name = name.value = self._fresh_default(i, new)
        self._request_update()

    def _fresh_default(self, i: int, bot: str | None) -> str:
        """The default name for seat ``i`` as a person or a bot: a bot takes the first
        "Bot N" no other seat at the table is called (not its seat's number, which another
        bot's name may already hold)."""
        if bot is None:
            return default_name(i, None)
        taken = {s.name.strip().casefold() for k, s in enumerate(self.seats[:self._seat_count])
                 if k != i}
        number = 1
        while default_name(i, bot, number=number).casefold() in taken:
            number += 1
        return default_name(i, bot, number=number)

    @on(Input.Changed, ".seat-name")
    def _name_typed(self, event: Input.Changed) -> None:
        i = int(str(event.input.id).rsplit("-", 1)[1])
        self.seats[i].name = event.value
        self._request_update()

    @on(Select.Changed, ".rule")
    @on(Switch.Changed)
    @on(Input.Changed, ".rule")
    @on(Input.Changed, "#seed")
    def _changed(self) -> None:
        self._request_update()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "preset-name":
            self.action_save_preset()
        else:
            self.focus_next()

    @on(Button.Pressed, "#save-preset")
    def _pressed_save_preset(self) -> None:
        self.action_save_preset()

    @on(Button.Pressed, "#start")
    def _pressed_start(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#cancel")
    def _pressed_cancel(self) -> None:
        self.action_cancel()

    # -- actions --------------------------------------------------------------------------
    def action_start(self) -> None:
        """Check everything; on success dismiss with the agreed table."""
        rules, _problem, blame = self.read_rules()
        if rules is None:
            self._update()
            if blame is not None:
                self._controls[blame].focus()
            self.app.bell()
            return
        seats = self.read_seats()
        seed, seed_problem = self.read_seed()
        if check_seats(rules, seats) or seed_problem:
            self._update()
            if seed_problem:
                self.query_one("#seed", Input).focus()
            self.app.bell()
            return
        self._keep_pace_settings()
        below = self.app.screen_stack[-2] if len(self.app.screen_stack) > 1 else None
        self.dismiss(TableSetup(rules=rules, seats=seats, preset=self.preset, seed=seed))
        # "Start" deals at once: the start screen below takes the agreed table (its
        # callback, queued by dismiss) and then deals it, as Enter there would
        deal = getattr(below, "action_deal", None)
        if below is not None and callable(deal) and not self.shared_server:
            below.call_next(deal)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_save_preset(self) -> None:
        """Save the rules shown as a preset of the table's own, under the name typed.

        A saved preset of that name is replaced only when it is the one these rules started
        from (saving it again after a change); other names already taken are refused."""
        from pokeroulette_tui.paths import saved_presets

        if self.shared_server:
            return
        name_input = self.query_one("#preset-name", Input)
        said = self.query_one("#preset-saved", Static)
        rules, problem, blame = self.read_rules()
        try:
            if rules is None:
                raise PresetError(_("These rules cannot be saved yet: {problem}").format(
                    problem=problem))
            name = check_name(name_input.value)
            old = self._presets.get(self.preset)
            same = name.casefold() == self.preset.casefold() and old is not None
            note = old.note if same and old is not None else ""
            saved_presets().save(Preset(name, rules, note), replace=same)
        except PresetError as exc:
            message = str(exc)
            if isinstance(exc, PresetExists):
                message = _("{problem}: choose another name (or delete it: pokeroulette preset "
                            "delete NAME)").format(problem=message[:1].upper() + message[1:])
            said.update(plain(f"⚠ {message}"))
            said.add_class("-error")
            if rules is None and blame is not None:
                self._controls[blame].focus()
            else:
                name_input.focus()
            self.app.bell()
            return
        if same and name != self.preset:
            self._presets.pop(self.preset, None)
        self._presets[name] = Preset(name, rules, note)
        self.preset = name
        select = self.query_one("#preset", Select)
        select.set_options(self._preset_options())
        select.value = name
        said.update(plain(_("Saved the preset {name}: choose it here, on the start screen (p) or "
                            "with pokeroulette --preset {argument}").format(
            name=repr(name), argument=shlex.quote(name))))
        said.remove_class("-error")
        self._update()

    # -- this terminal's settings: the speed and the auto cut (not rules: AppConfig) ---------
    def _pace_section(self) -> ComposeResult:
        from pokeroulette_tui.ui.config import SPEEDS, speed_name
        from pokeroulette_tui.ui.tables import app_config

        config = app_config(self.app)
        current = speed_name(config.delay)
        speeds = [(_("{speed} ({seconds:g} s)").format(speed=_(SPEED_WORDS.get(name, name)),
                                                       seconds=SPEEDS[name]), name)
                  for name in SPEEDS]
        if current not in SPEEDS:  # a pause set by hand in settings.json: kept unless changed
            speeds.append((current, "as set"))
        yield Static(_("At this terminal"), classes="group")
        yield from self._language_row()
        with Vertical(classes="row", id="row-speed"):
            with Horizontal(classes="line"):
                yield Static("▸", classes="marker")
                yield Label(_("Speed"), classes="name")
                yield Select(speeds, value=current if current in SPEEDS else "as set",
                             allow_blank=False, compact=True, id="speed")
            yield Static(_("the pause between the dealer's and the bots' steps (v at the table "
                           "changes it); a hand's result waits for Enter at every speed"),
                         classes="help")
        yield from self._setting_switch(
            "auto-cut", _("Auto cut"), config.auto_cut,
            _("your cut is made for you at a random place (five-card draw, tables at this "
              "terminal)"))
        yield from self._setting_switch(
            "hints", _("Hints"), config.hints,
            _("i at the table shows your odds, from your own cards only (a network table: if "
              "its host allows hints)"))

    def _language_row(self) -> ComposeResult:
        """The game's language at this terminal (``AppConfig.language``): it changes at once,
        like ``g`` on the start screen, and stays chosen whether or not the table starts."""
        with Vertical(classes="row", id="row-language"):
            with Horizontal(classes="line"):
                yield Static("▸", classes="marker")
                yield Label(_("Language"), classes="name")
                yield Select([(words, code) for code, words in LANGUAGES.items()],
                             value=language(), allow_blank=False, compact=True, id="language")
            yield Static(_("the game's words at this terminal; they change at once (g on the "
                           "start screen too)"), classes="help")

    @on(Select.Changed, "#language")
    def _language_chosen(self, event: Select.Changed) -> None:
        code = str(event.value)
        switch = getattr(self.app, "switch_language", None)
        if code in LANGUAGES and code != language() and switch is not None:
            switch(code)  # saved in the settings; every screen says its words again

    async def retranslate(self) -> None:
        """Say everything again in the language just chosen, keeping what was typed and
        chosen (the controls' values), the focus and the scroll position."""
        values = {w.id: w.value for w in self.query("Input, Select, Switch") if w.id}
        focused = self.focused.id if self.focused is not None else None
        scroll = self.query_one("#setup-body").scroll_y
        for made in (self._controls, self._rows, self._onoff, self._echo, self._seat_controls,
                     self._headings):
            made.clear()
        await self.recompose()
        for widget in self.query("Input, Select, Switch"):
            value = values.get(widget.id, widget.value)
            if widget.value != value:
                try:
                    widget.value = value
                except InvalidSelectValueError:  # a choice no longer offered: the new default
                    pass
        self._update()
        if focused is not None:
            for widget in self.query(f"#{focused}"):
                widget.focus(scroll_visible=False)
        body = self.query_one("#setup-body")
        self.call_after_refresh(lambda: body.scroll_to(y=scroll, animate=False))

    def _setting_switch(self, key: str, label: str, value: bool, help: str) -> ComposeResult:
        """A yes/no setting of this terminal: row ``row-KEY``, switch ``KEY``, its words
        ``KEY-onoff``."""
        with Vertical(classes="row", id=f"row-{key}"):
            with Horizontal(classes="line"):
                yield Static("▸", classes="marker")
                yield Label(label, classes="name")
                yield Switch(value=value, id=key)
                yield Static(_(YES_NO[value]), classes="onoff", id=f"{key}-onoff")
            yield Static(help, classes="help")

    @on(Switch.Changed, "#auto-cut, #hints")
    def _setting_switched(self, event: Switch.Changed) -> None:
        self.query_one(f"#{event.switch.id}-onoff", Static).update(_(YES_NO[event.value]))

    def _keep_pace_settings(self) -> None:
        """Remember the speed, the auto cut and the hints chosen here (the app's settings)."""
        from pokeroulette_tui.ui.config import SPEEDS
        from pokeroulette_tui.ui.tables import app_config

        config = app_config(self.app)
        speed = self.query_one("#speed", Select).value
        if speed in SPEEDS:
            config.delay = SPEEDS[str(speed)]
        config.auto_cut = self.query_one("#auto-cut", Switch).value
        config.hints = self.query_one("#hints", Switch).value
        config.save()
