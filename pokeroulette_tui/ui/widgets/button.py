"""A Button that parses only the styles this app uses.

Textual's :class:`~textual.widgets.Button` brings some 7 KB of default CSS (flat style, every
variant, ANSI colours), parsed before the first frame of any screen that shows one (7–13 ms of
the start-up). :class:`PlainButton` behaves exactly like a Button (it is one: keys, clicks,
``Button.Pressed``, focus) and looks the same in its default style with the ``default`` and
``primary`` variants; its CSS (not inherited from Button) holds only those rules. Select it in
CSS as ``PlainButton`` (it does not match ``Button`` selectors).
"""

from __future__ import annotations

from textual.widgets import Button


class PlainButton(Button, inherit_css=False):
    """A Button with only the default style's CSS, for the ``default`` and ``primary`` variants."""

    DEFAULT_CSS = """
    PlainButton:ansi {
        border: tall $border-blurred;
        background: ansi_default;
        &:hover { background: $ansi-background; border: tall $border; }
        &.-active {
            background: $ansi-background !important;
            border: blank $background !important;
            tint: transparent;
        }
        &.-primary {
            color: $primary;
            border: tall $primary;
            background: ansi_default;
            &:hover { background: $ansi-background; }
        }
    }
    PlainButton {
        width: auto;
        min-width: 16;
        height: auto;
        line-pad: 1;
        text-align: center;
        content-align: center middle;
        pointer: pointer;
        text-style: bold;
        color: $button-foreground;
        background: $surface;
        border: none;
        border-top: tall $surface-lighten-1;
        border-bottom: tall $surface-darken-1;
        &.-textual-compact { border: none !important; }
        &:disabled { text-opacity: 0.6; pointer: not-allowed; }
        &:focus { text-style: $button-focus-text-style; background-tint: $foreground 5%; }
        &:hover { border-top: tall $surface; background: $surface-darken-1; }
        &.-active {
            background: $surface;
            border-bottom: tall $surface-lighten-1;
            border-top: tall $surface-darken-1;
            tint: $background 30%;
        }
        &.-primary {
            color: $button-color-foreground;
            background: $primary;
            border-top: tall $primary-lighten-3;
            border-bottom: tall $primary-darken-3;
            &:hover { background: $primary-darken-2; border-top: tall $primary; }
            &.-active {
                background: $primary;
                border-bottom: tall $primary-lighten-3;
                border-top: tall $primary-darken-3;
            }
        }
    }
    """
