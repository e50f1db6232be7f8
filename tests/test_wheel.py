"""The wheel works on its own: built, installed in a fresh venv, started headless elsewhere.

This proves the stylesheets (the repository's top-level ``styles/``) ship inside the
package and are found through it, not through the source checkout. It builds the wheel
and installs it with its dependencies from the package index, so it takes a while: marked
``slow``, and still part of the default run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CHECK = textwrap.dedent('''
    """Run by the venv's python, in a folder outside the repository."""
    import asyncio
    import io
    import sys
    from pathlib import Path

    import pokeroulette_tui
    from pokeroulette_tui.ui.styles import css_paths, styles_dir

    package = Path(pokeroulette_tui.__file__).resolve().parent
    assert "site-packages" in package.parts, package
    assert styles_dir().resolve() == package / "styles", styles_dir()
    shipped = sorted(p.name for p in (package / "styles").glob("*.tcss"))
    assert shipped == ["app.tcss", "dark.tcss", "light.tcss"], shipped
    assert all(p.resolve().parent == package / "styles" and p.is_file() for p in css_paths())
    # the rules reference ships inside the package (pokeroulette rules --doc prints it)
    from pokeroulette_tui.paths import doc_path
    assert doc_path("RULES.md") == package / "docs" / "RULES.md", doc_path("RULES.md")
    assert "each_round" in doc_path("RULES.md").read_text(encoding="utf-8")
    for lang in ("fi", "sv"):  # and its Finnish and Swedish translations
        assert doc_path(f"RULES.{lang}.md").is_file(), lang

    # the compiled catalogs ship too, and the game speaks them
    for lang in ("fi", "sv"):
        assert (package / "locale" / lang / "LC_MESSAGES" / "pokeroulette.mo").is_file(), lang
    from pokeroulette_tui.engine.i18n import _, set_language
    set_language("fi")
    assert _("Language: {name}") == "Kieli: {name}", _("Language: {name}")
    set_language("en")

    from rich.console import Console

    from pokeroulette_tui.engine.rules import PRESETS
    from pokeroulette_tui.session import LocalSession
    from pokeroulette_tui.table import SeatConfig, Table
    from pokeroulette_tui.ui.app import make_app
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.table import TableScreen
    from pokeroulette_tui.ui.widgets.seat import SeatWidget


    def screen_text(app):
        console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(),
                          color_system=None, record=True, legacy_windows=False)
        console.print(app.screen._compositor.render_update(full=True))
        return console.export_text()


    async def main():
        seats = [SeatConfig("Ada"), SeatConfig("Bo", "random"), SeatConfig("Cy", "random")]
        session = LocalSession(Table.create(PRESETS["classic"], seats, seed=1), delay=0)
        app = make_app(AppConfig(delay=0), session)
        async with app.run_test(size=(80, 24)) as pilot:
            text = ""
            for _ in range(200):
                await pilot.pause()
                if isinstance(app.screen, TableScreen):
                    text = screen_text(app)
                    if all(name in text for name in ("Ada", "Bo", "Cy")):
                        break
            else:
                sys.exit(f"the table never showed its seats:\\n{text}")
            assert len(app.screen.query(SeatWidget)) == 3
            # the layout file was loaded: the side panel has its width from styles/app.tcss
            assert app.screen.query_one("#side").styles.width.value == 32
            await pilot.press("ctrl+q")
        print("table shown")


    asyncio.run(main())
''')


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=240, **kwargs)
    assert result.returncode == 0, (
        f"{' '.join(map(str, cmd))} failed ({result.returncode}):\n"
        f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


@pytest.mark.slow
def test_wheel_installs_and_starts_in_a_fresh_venv(tmp_path):
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(ROOT)])
    (wheel,) = dist.glob("pokeroulette_tui-*.whl")

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    run([str(python), "-m", "pip", "install", "--quiet", str(wheel)])

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "check.py").write_text(CHECK, encoding="utf-8")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "NO_COLOR")}
    env["POKEROULETTE_HOME"] = str(tmp_path / "home")
    result = run([str(python), "check.py"], cwd=outside, env=env)
    assert "table shown" in result.stdout
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    assert any(p.name.startswith("pokeroulette") for p in scripts.iterdir())
