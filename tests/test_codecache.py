"""The cache of this package's dataclass methods (pokeroulette_tui/codecache.py): the classes
are the same with it, it is read back, and a damaged, foreign or unwritable file loses
nothing."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

from pokeroulette_tui import codecache
from pokeroulette_tui.codecache import CodeCache

CLASSES = textwrap.dedent('''
    from __future__ import annotations
    import dataclasses

    @dataclasses.dataclass(frozen=True, order=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple = ()

    @dataclasses.dataclass(slots=True)
    class Box:
        items: list = dataclasses.field(default_factory=list)
        label: str = "box"
''')


def define(cache: CodeCache | None, module: str = "pokeroulette_tui._cached_example") -> dict:
    """Run CLASSES as module ``module`` with ``cache`` serving dataclasses (None: plain)."""
    mod = types.ModuleType(module)
    ns = mod.__dict__
    sys.modules[module] = mod  # (dataclasses looks the class's module up)
    saved = dataclasses.__dict__.get("exec")
    if cache is None:
        dataclasses.__dict__.pop("exec", None)
    else:
        dataclasses.exec = cache.exec  # type: ignore[attr-defined]
    try:
        exec(compile(CLASSES, module, "exec"), ns)
    finally:
        del sys.modules[module]
        if saved is None:
            dataclasses.__dict__.pop("exec", None)
        else:
            dataclasses.exec = saved  # type: ignore[attr-defined]
    return ns


def methods(ns: dict) -> dict[str, object]:
    out = {}
    for cls_name in ("Point", "Box"):
        cls = ns[cls_name]
        for name, fn in vars(cls).items():
            code = getattr(fn, "__code__", None)
            if code is not None:
                out[f"{cls_name}.{name}"] = (code.co_code, code.co_consts, code.co_names,
                                             code.co_varnames, code.co_filename,
                                             fn.__qualname__, fn.__annotations__,
                                             fn.__defaults__, fn.__kwdefaults__)
    return out


def behaviour(ns: dict) -> list[object]:
    Point, Box = ns["Point"], ns["Box"]
    p = Point(1, tags=("a",))
    out: list[object] = [repr(p), p == Point(1, 0, ("a",)), p < Point(2), hash(p) == hash(Point(1, 0, ("a",))),
                         repr(Box()), Box() == Box(), Box([1]).items]
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3
    with pytest.raises(TypeError):
        Point()
    return out


@pytest.fixture(autouse=True)
def may_write_bytecode(monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def test_classes_made_through_the_cache_are_the_classes_made_without_it(tmp_path):
    plain = define(None)
    path = tmp_path / "cache.bin"
    first = CodeCache(str(path))
    cold = define(first)
    made = first.added
    assert made > 0 and first.served == 0
    assert first.save() and path.exists() and first.added == 0
    second = CodeCache(str(path))
    warm = define(second)
    assert second.served == made and second.added == 0
    assert not second.save()  # nothing new: the file is left alone
    assert methods(cold) == methods(plain) == methods(warm)
    # (the generated __init__'s annotations are objects, as without the cache: not strings)
    assert warm["Point"].__init__.__annotations__ == plain["Point"].__init__.__annotations__
    assert behaviour(warm) == behaviour(plain) == behaviour(cold)


def test_other_packages_dataclasses_are_made_as_usual(tmp_path):
    cache = CodeCache(str(tmp_path / "cache.bin"))
    ns = define(cache, module="textual_like.module")
    assert cache.added == 0 and cache.served == 0 and cache.codes == {}
    plain = define(None, module="textual_like.module")
    assert methods(ns) == methods(plain)  # (annotations too: no flags of the cache's own)
    assert behaviour(ns) == behaviour(plain)


@pytest.mark.parametrize("content", [
    b"",
    b"garbage",
    codecache._MAGIC + b"\xff\x00 not marshal",
    codecache._MAGIC[:-1],
    b"\x00\x00\x0d\x0a" + codecache._MAGIC[4:] + b"{}",  # another Python's magic
])
def test_a_damaged_or_foreign_cache_is_ignored_and_replaced(tmp_path, content):
    import marshal

    path = tmp_path / "cache.bin"
    path.write_bytes(content)
    cache = CodeCache(str(path))
    assert cache.codes == {}
    ns = define(cache)
    assert behaviour(ns) == behaviour(define(None))
    made = cache.added
    assert made > 0 and cache.save()
    data = path.read_bytes()
    assert data.startswith(codecache._MAGIC)
    assert len(marshal.loads(data[len(codecache._MAGIC):])) == made


def test_a_cache_of_other_things_keeps_only_the_code(tmp_path):
    import marshal

    path = tmp_path / "cache.bin"
    path.write_bytes(codecache._MAGIC + marshal.dumps({"text": 1, 2: compile("x", "s", "eval")}))
    assert CodeCache(str(path)).codes == {}
    path.write_bytes(codecache._MAGIC + marshal.dumps([1, 2]))
    assert CodeCache(str(path)).codes == {}


def test_nothing_is_written_when_python_may_not_write_bytecode(tmp_path, monkeypatch):
    path = tmp_path / "cache.bin"
    cache = CodeCache(str(path))
    define(cache)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert not cache.save() and not path.exists()


def test_a_folder_that_cannot_be_written_loses_nothing(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = CodeCache(str(blocker / "sub" / "cache.bin"))
    ns = define(cache)
    assert not cache.save()
    assert behaviour(ns) == behaviour(define(None))
    assert sorted(os.listdir(tmp_path)) == ["file"]


def test_a_full_cache_starts_again_with_what_this_process_uses(tmp_path, monkeypatch):
    monkeypatch.setattr(codecache, "LIMIT", 3)
    cache = CodeCache(str(tmp_path / "cache.bin"))
    cache.codes = {f"old {i}": compile("pass", "<string>", "exec") for i in range(3)}
    define(cache)
    assert cache.codes and not any(k.startswith("old") for k in cache.codes)
    assert set(cache.codes) == cache.used


def test_the_program_keeps_its_cache_with_its_bytecode_and_reads_it_back(tmp_path):
    """As the program runs: the first start writes the cache where Python keeps this
    package's bytecode (here under PYTHONPYCACHEPREFIX), the next start is served from it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path)
    probe = ("import pokeroulette_tui.session, pokeroulette_tui.codecache as c; "
             "print(c._installed.served, c._installed.added, c.cache_path())")
    runs = [subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                           text=True, timeout=60, check=True).stdout.split() for _ in range(2)]
    (served1, added1, path1), (served2, added2, path2) = runs
    assert path1 == path2 and Path(path1).is_relative_to(tmp_path) and Path(path1).exists()
    assert int(served1) == 0 and int(added1) > 20  # the engine's and driver's classes
    assert int(served2) == int(added1) and int(added2) == 0
