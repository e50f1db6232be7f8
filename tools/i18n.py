"""Keep the translation catalogs up to date (a development tool; needs Babel: ``pip install -e '.[test]'``).

    python tools/i18n.py extract            # the source's messages -> locale/pokeroulette.pot
    python tools/i18n.py update             # the .pot's messages into each language's .po
    python tools/i18n.py compile            # each .po -> its .mo (what the game reads)
    python tools/i18n.py check              # list messages a catalog does not translate (exit 1)
    python tools/i18n.py merge LANG PO...   # copy translations from other .po files into LANG's
    python tools/i18n.py all                # extract, update, compile, check
    python tools/i18n.py sync DIR [PATH...] # all, first merging DIR/*.<lang>.po (translations
                                            # written apart); check only messages under PATHs

The strings to translate are the arguments of ``_``, ``N_``, ``ngettext`` and ``pgettext`` in
the package's Python files (see :mod:`pokeroulette_tui.engine.i18n`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pokeroulette_tui"
LOCALE = PACKAGE / "locale"
DOMAIN = "pokeroulette"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
TRANSLATED = ("fi", "sv")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extracted() -> Catalog:
    """Every message the package's source marks for translation."""
    catalog = Catalog(project="pokeroulette_tui", domain=DOMAIN, charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            PACKAGE, method_map=[("**/locale/**", "ignore"), ("**.py", "python")],
            keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        catalog.add(message, locations=[(f"pokeroulette_tui/{filename}", lineno)],
                    auto_comments=comments, context=context)
    return catalog


def read(path: Path, lang: str | None = None) -> Catalog:
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN, project="pokeroulette_tui", charset="utf-8")
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def write(catalog: Catalog, path: Path, **kw) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, sort_output=False, **kw)


def extract() -> Catalog:
    template = extracted()
    write(template, TEMPLATE, omit_header=False)
    print(f"{len(template)} messages -> {TEMPLATE.relative_to(ROOT)}")
    return template


def update(template: Catalog | None = None) -> None:
    template = template if template is not None else read(TEMPLATE)
    for lang in TRANSLATED:
        catalog = read(po_path(lang), lang)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()  # a message the source no longer has goes
        write(catalog, po_path(lang))


def compile_all() -> None:
    for lang in TRANSLATED:
        catalog = read(po_path(lang), lang)
        with po_path(lang).with_suffix(".mo").open("wb") as f:
            write_mo(f, catalog)


def missing(lang: str, paths: tuple[str, ...] = ()) -> list[str]:
    """The template's messages that ``lang``'s catalog leaves untranslated (or fuzzy), of
    those used in files under ``paths`` if any are given."""
    catalog = read(po_path(lang), lang)
    out = []
    for message in extracted():
        if not message.id:
            continue
        if paths and not any(loc.startswith(p) for loc, _ in message.locations for p in paths):
            continue
        found = catalog.get(message.id, context=message.context)
        strings = () if found is None else (found.string if isinstance(found.string, tuple)
                                             else (found.string,))
        if found is None or found.fuzzy or not strings or not all(strings):
            out.append(message.id if isinstance(message.id, str) else message.id[0])
    return out


def check(paths: tuple[str, ...] = ()) -> int:
    bad = 0
    for lang in TRANSLATED:
        gaps = missing(lang, paths)
        bad += len(gaps)
        print(f"{lang}: {len(gaps)} untranslated")
        for msg in gaps:
            print(f"  {msg!r}")
    return 1 if bad else 0


def merge(lang: str, sources: list[str]) -> None:
    """Copy the translations found in ``sources`` into ``lang``'s catalog (for messages it has)."""
    catalog = read(po_path(lang), lang)
    copied = 0
    for source in sources:
        for message in read(Path(source), lang):
            if not message.id or not message.string:
                continue
            mine = catalog.get(message.id, context=message.context)
            if mine is not None and mine.string != message.string:
                mine.string = message.string
                mine.flags.discard("fuzzy")
                copied += 1
    write(catalog, po_path(lang))
    print(f"{lang}: {copied} translations copied")


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "all"
    if command == "extract":
        extract()
    elif command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        return check()
    elif command == "merge" and len(argv) >= 3:
        merge(argv[1], argv[2:])
    elif command == "sync" and len(argv) >= 2:
        import fcntl

        parts = Path(argv[1])
        with (parts / ".lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one sync at a time
            update(extract())
            for lang in TRANSLATED:
                merge(lang, sorted(str(p) for p in parts.glob(f"*.{lang}.po")))
            compile_all()
        return check(tuple(argv[2:]))
    elif command == "all":
        update(extract())
        compile_all()
        return check()
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
