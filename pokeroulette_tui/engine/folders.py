"""Our own folders and files on disk: owner-only folders, refused when another account owns
them or could swap them, and atomic writes. Standard library only (and the translations), so
that checking the settings folder at start-up loads none of the game."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Iterator

from pokeroulette_tui.engine.i18n import _


class ForeignFolderError(PermissionError):
    """A folder for our files that another account could read or change, or that cannot be
    made at all (``POKEROULETTE_HOME=/proc/x``): refused. The message names the folder, the
    problem, and what to do instead."""


def _owner_name(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return f"uid {uid}"


def _refuse(path: Path, problem: str) -> ForeignFolderError:
    return ForeignFolderError(_("not using {path}: {problem}; set POKEROULETTE_HOME to a folder "
                                "of your own").format(path=path, problem=problem))


def _not_ours(path: Path, uid: int) -> ForeignFolderError:
    real = os.path.realpath(path)
    where = path if os.path.abspath(path) == real else _("{path} (a link to {target})").format(
        path=path, target=real)
    return _refuse(where, _("it belongs to {who}, not to you, and that account could read or "
                            "replace the game's files in it").format(who=_owner_name(uid)))


def _unmade(path: Path, step: Path, exc: OSError) -> ForeignFolderError:
    return _refuse(path, _("the folder {folder} cannot be made or opened ({problem})").format(
        folder=step, problem=exc.strerror or exc))


def _check_chain(path: Path, me: int) -> None:
    """Refuse a folder another account could swap: every existing folder and link on the way
    to ``path`` (as written and as resolved) belongs to us or root, and a folder anyone may
    write in is sticky (like /tmp). The folder itself must be ours."""
    written = Path(os.path.abspath(path))
    for chain in (written, Path(os.path.realpath(written))):
        for step in reversed((chain, *chain.parents)):
            try:
                st = os.lstat(step)
            except (FileNotFoundError, NotADirectoryError):
                break  # not made yet: we make the rest, owner-only
            link = stat.S_ISLNK(st.st_mode)
            if not link and not stat.S_ISDIR(st.st_mode):
                raise _refuse(path, _("{file} is a file, not a folder").format(file=step))
            if step == chain and not link and st.st_uid != me:
                raise _not_ours(path, st.st_uid)
            if st.st_uid not in (0, me):
                what = (_("it is reached through the link {folder}, which belongs to {who}") if link
                        else _("it is in {folder}, which belongs to {who}, who could swap it"))
                raise _refuse(path, what.format(folder=step, who=_owner_name(st.st_uid)))
            if step != chain and stat.S_ISDIR(st.st_mode) and st.st_mode & 0o002 \
                    and not st.st_mode & stat.S_ISVTX:
                raise _refuse(path, _("it is in {folder}, where any account may rename things "
                                      "(that folder is not sticky)").format(folder=step))


def private_dir(path: Path) -> Path:
    """``path`` as a folder only its owner can enter (0700), created if need be.

    A folder another account owns, or could swap (it lies in a folder of theirs, or in one
    anyone may write in without the sticky bit), raises ForeignFolderError: that account
    could read our files there or plant its own. A folder of ours that cannot be made
    private is used as it is (the files in it are 0600) unless others can write in it.
    """
    if not hasattr(os, "geteuid"):  # pragma: no cover - not a Unix: no owners to check
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        return path
    me = os.geteuid()
    _check_chain(path, me)  # before making anything in there
    missing = [p for p in (path, *path.parents) if not os.path.lexists(p)]
    for step in reversed(missing):
        try:
            os.mkdir(step, 0o700)  # each folder we make, owner-only (not just the last)
        except FileExistsError:
            pass
        except OSError as exc:  # a read-only or unreal place (/proc/x): one line, not a trace
            raise _unmade(path, step, exc) from None
    _check_chain(path, me)
    try:
        fd = os.open(os.path.realpath(path), os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:
        raise _unmade(path, path, exc) from None
    try:
        st = os.fstat(fd)
        if st.st_uid != me:  # swapped since the check
            raise _not_ours(path, st.st_uid)
        if st.st_mode & 0o077:
            try:
                os.fchmod(fd, 0o700)
            except OSError:
                pass
            if os.fstat(fd).st_mode & 0o022:
                raise _refuse(path, _("other accounts can write in it and it cannot be made "
                                      "private"))
    finally:
        os.close(fd)
    return path


def checked_dir(path: Path) -> Path | None:
    """``path`` to read our files from, checked as :func:`private_dir` checks it but with
    nothing made or changed: None while it does not exist, ForeignFolderError for a folder
    another account owns or could swap (what it holds may be planted: not read, not removed).

    >>> import tempfile, pathlib
    >>> mine = pathlib.Path(tempfile.mkdtemp())
    >>> checked_dir(mine) == mine, checked_dir(mine / "not-yet"), (mine / "not-yet").exists()
    (True, None, False)
    """
    if hasattr(os, "geteuid"):  # not a Unix: no owners to check
        _check_chain(path, os.geteuid())
    return path if os.path.isdir(path) else None



def os_problem(exc: OSError) -> str:
    """Why a file or folder cannot be read, in words (no error numbers, no path said twice)."""
    if isinstance(exc, PermissionError):
        return _("permission denied")
    if isinstance(exc, IsADirectoryError):
        return _("it is a folder, not a file")
    return exc.strerror or type(exc).__name__


def export_problem(path: Path, *, replace: bool) -> str:
    """Why a file may not be written to ``path`` by an export ("" if it may): a folder, a file
    already there (unless ``replace``), not a file, no folder for it. One wording for every
    export (presets, statistics)."""
    if path.is_dir():
        return _("{path} is a folder: give a file name in it").format(path=path)
    if path.exists() and not replace:
        return _("{path} already exists (add --replace to overwrite it)").format(path=path)
    if path.exists() and not path.is_file():
        return _("{path} is not a file").format(path=path)
    if not path.parent.is_dir():
        return _("there is no folder {folder}").format(folder=path.parent)
    return ""

def atomic_write(path: Path | str, text: str, *, mode: int = 0o600) -> None:
    """Write ``text`` so that a crash leaves either the old file or the new one, never half.
    A missing folder is created owner-only."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    import tempfile  # here, not at the top: the start screen needs no saving machinery

    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise



class LockHeld(Exception):
    """Another running process holds the lock (``pid``: its process id as it wrote it in the
    lock file, 0 if unknown)."""

    def __init__(self, pid: int) -> None:
        super().__init__(pid)
        self.pid = pid


def take_lock(path: Path | str, *, wait: bool = True) -> int:
    """An OS lock (flock) on the file at ``path`` (made owner-only if missing): its descriptor,
    held until it is closed (the kernel lets go of it when the process ends, however it ends,
    so a lock is never stale). ``wait=False``: LockHeld if another process holds it. -1 where
    no lock can be had (not a Unix, a file system without locks, no lock file): the caller
    goes on without one, as before there were locks."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a Unix
        return -1
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return -1
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        try:
            text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        except OSError:
            text = ""
        os.close(fd)
        raise LockHeld(int(text) if text.isdigit() else 0) from None
    except OSError:
        os.close(fd)
        return -1
    return fd


@contextlib.contextmanager
def locked(path: Path | str) -> Iterator[None]:
    """Hold the lock on the file at ``path`` while the block runs (waiting for it), or run the
    block without one where no lock can be had (see :func:`take_lock`)."""
    fd = take_lock(path)
    try:
        yield
    finally:
        if fd >= 0:
            os.close(fd)  # (the lock goes with it)
