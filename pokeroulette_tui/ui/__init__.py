"""The Textual user interface: screens, widgets and card renderables."""
