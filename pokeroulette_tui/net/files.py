"""The per-user files of network play, all owner-only: the data folder (0700), logs (0600),
kept resume tokens and host secrets, and reading a table's password without a command line."""

from __future__ import annotations

import argparse
import getpass
import json
import logging
import os
import stat
import sys
import time
from pathlib import Path
from typing import Any

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.folders import atomic_write, private_dir
from pokeroulette_tui.errors import CliError
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.paths import data_dir

log = logging.getLogger("pokeroulette.net")

# -- where things live -------------------------------------------------------------

PASSWORD_ENV = "POKEROULETTE_PASSWORD"


def _data_dir() -> Path:
    """The per-user data folder (saves, logs, tokens), owner-only."""
    return data_dir()


def private_log(name: str) -> Path:
    """A log file in the data folder, created owner-only (0600) before anything is written."""
    path = _data_dir() / name
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.fchmod(fd, 0o600)
    finally:
        os.close(fd)
    return path


def log_to(path: Path) -> None:
    logging.basicConfig(level=logging.INFO, filename=str(path),
                        format="%(asctime)s %(name)s %(message)s")


def default_save_path() -> Path:
    return private_dir(_data_dir() / "hosted") / time.strftime("table-%Y%m%d-%H%M%S.json")


def check_save_path(path: Path, flag: str = "--save") -> Path:
    """``path`` as a table's save (``flag`` names where it was given), refused in one line
    (CliError) when the table could never write it: a folder, not a regular file, in a
    folder that does not exist (made by nobody: a typing mistake is said, not hidden), or
    where this account cannot write."""
    if path.is_dir():
        raise CliError(_("{flag} {path} is a folder: give the name of a file in it (such as "
                         "{example})").format(flag=flag, path=path,
                                              example=path / "table.json"))
    if os.path.lexists(path) and not path.is_file():
        raise CliError(_("{flag} {path} is not a regular file").format(flag=flag, path=path))
    folder = path.parent
    if not os.path.lexists(folder):
        raise CliError(_("{flag} {path}: the folder {folder} does not exist").format(
            flag=flag, path=path, folder=folder))
    if not folder.is_dir():
        raise CliError(_("{flag} {path}: {folder} is not a folder").format(
            flag=flag, path=path, folder=folder))
    if not os.access(folder, os.W_OK | os.X_OK) or \
            (path.exists() and not os.access(path, os.W_OK)):
        raise CliError(_("{flag} {path}: this account cannot write there").format(
            flag=flag, path=path))
    return path


def tokens_path() -> Path:
    return _data_dir() / "resume-tokens.json"


def _token_key(host: str, port: int, name: str) -> str:
    return f"{host.lower()}:{port}/{name.casefold()}"


def load_token(host: str, port: int, name: str) -> str | None:
    """The resume token kept from an earlier join of this table under this name."""
    try:
        data = json.loads(tokens_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    value = data.get(_token_key(host, port, name)) if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


def store_token(host: str, port: int, name: str, token: str) -> None:
    """Keep a resume token (owner-only file) so a later join takes the seat back."""
    try:
        data = json.loads(tokens_path().read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[_token_key(host, port, name)] = token
    if len(data) > 200:
        data = dict(list(data.items())[-200:])
    try:
        atomic_write(tokens_path(), json.dumps(data, indent=1))
    except OSError as exc:  # the token is a convenience: play on without it
        log.warning("cannot keep the resume token: %s", exc)


def _secrets_path() -> Path:
    return _data_dir() / "host-secrets.json"


def store_admin(port: int, secret: str) -> None:
    """Keep the host's admin secret for a TCP table (owner-only file), so that
    ``pokeroulette join 127.0.0.1:PORT`` takes the host's seat back after a lost terminal."""
    try:
        data = json.loads(_secrets_path().read_text(encoding="utf-8"))
        data = data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        data = {}
    data[str(port)] = secret
    try:
        atomic_write(_secrets_path(), json.dumps(dict(list(data.items())[-20:])))
    except OSError as exc:
        log.warning("cannot keep the host's secret: %s", exc)


def load_admin(port: int) -> str | None:
    try:
        value = json.loads(_secrets_path().read_text(encoding="utf-8")).get(str(port))
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def read_password(args: argparse.Namespace, *, env: dict[str, str] | None = None,
                  ask: Any = None) -> str | None:
    """The password from ``--password`` (asked at the terminal), ``--password-file FILE`` or
    the POKEROULETTE_PASSWORD environment variable, never from the command line itself."""
    env = os.environ if env is None else env
    given = getattr(args, "password", None)
    pw_file = getattr(args, "password_file", None)
    if isinstance(given, str):
        raise CliError(_("--password takes no value: every account on this machine can read "
                         "a command line (ps); use --password alone to be asked, "
                         "--password-file FILE, or the {env} environment variable").format(
            env=PASSWORD_ENV))
    if given and pw_file:
        raise CliError(_("choose one of --password (asked) and --password-file"))
    if pw_file:
        try:
            st = os.stat(pw_file)
            if stat.S_ISDIR(st.st_mode):
                raise CliError(_("the password file {path} is a folder: give the file that "
                                 "holds the password").format(path=pw_file))
            if stat.S_IMODE(st.st_mode) & 0o077:
                raise CliError(_("{path} can be read by other accounts (mode {mode}): chmod "
                                 "600 {path}").format(path=pw_file,
                                                      mode=f"{stat.S_IMODE(st.st_mode):04o}"))
            with open(pw_file, encoding="utf-8") as f:
                password = f.readline().rstrip("\r\n")
        except OSError as exc:
            raise CliError(_("cannot read the password file {path}: {problem}").format(
                path=pw_file, problem=exc.strerror)) from None
        except UnicodeDecodeError:
            raise CliError(_("the password file {path} is not UTF-8 text").format(
                path=pw_file)) from None
    elif given:
        if ask is None:
            if not sys.stdin.isatty():
                raise CliError(_("--password asks at the terminal and there is none: use "
                                 "--password-file FILE or {env}").format(env=PASSWORD_ENV))
            ask = getpass.getpass
        try:
            password = ask(_("Table password: "))
        except (EOFError, KeyboardInterrupt):
            raise CliError(_("no password given")) from None
    elif env.get(PASSWORD_ENV):
        password = env[PASSWORD_ENV]
        if not _utf8(password):
            raise CliError(_("the password in {env} is not UTF-8 text: set it again, or use "
                             "--password-file FILE").format(env=PASSWORD_ENV))
    else:
        return None
    if not _utf8(password):  # (asked at a terminal that is not UTF-8)
        raise CliError(_("the password is not UTF-8 text"))
    if not 0 < len(password) <= P.MAX_PASSWORD:
        raise CliError(_("the password must be 1 to {n} characters").format(n=P.MAX_PASSWORD))
    return password


def _utf8(text: str) -> bool:
    """False for text holding bytes that were not UTF-8 (kept as lone surrogates), which no
    wire can carry."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
