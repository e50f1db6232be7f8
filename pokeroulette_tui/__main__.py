"""``python -m pokeroulette_tui`` runs the command line."""

from pokeroulette_tui.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
