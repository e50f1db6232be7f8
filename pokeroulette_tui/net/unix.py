"""Unix-domain sockets on a shared machine: who is at the other end, where a user's table
lives, and the checks that keep a squatter from learning anything.

- The server asks the kernel who connected (``SO_PEERCRED``): an account, not a claim.
- A user's table listens on ``<base>/pokeroulette-<uid>/table.sock``; ``<base>`` is ``/tmp``
  (or ``$POKEROULETTE_SOCKETS``), a folder every account can reach and nobody can rename
  another's entries in (root-owned and sticky). The host creates its folder itself and
  refuses one that someone else made first, or a link.
- Before sending a byte, a client checks that the folder and the socket belong to the
  account it expects and that the process listening is that account's (``SO_PEERCRED``
  again, from the client's side).

Linux only (``SO_PEERCRED``); elsewhere :func:`unsupported` says so.
"""

from __future__ import annotations

import asyncio
import os
import socket
import stat
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.net.identity import Account

try:  # the user and group databases: Unix only
    import grp
    import pwd
except ImportError:  # pragma: no cover - not a Unix
    grp = pwd = None  # type: ignore[assignment]

SOCKET_NAME = "table.sock"
BASE_ENV = "POKEROULETTE_SOCKETS"


class UnixError(Exception):
    """A refusal with a one-line reason a person can act on; ``retry`` when trying again
    later may help (nobody is listening yet), not when something is wrong."""

    def __init__(self, message: str, *, retry: bool = False) -> None:
        super().__init__(message)
        self.retry = retry


def unsupported() -> str:
    """Why Unix-socket tables cannot run here ("" when they can)."""
    if not sys.platform.startswith("linux") or not hasattr(socket, "SO_PEERCRED") \
            or not hasattr(socket, "AF_UNIX"):
        return _("--unix tables need Linux (the kernel's peer credentials); not supported on "
                 "{platform}: use TCP (--bind 127.0.0.1 and a password)").format(
            platform=sys.platform)
    return ""


# -- accounts ----------------------------------------------------------------------

def account_of(uid: int) -> Account:
    """The account with this uid, from the user database (a bare uid if it has no entry)."""
    if pwd is None:  # pragma: no cover - not a Unix
        return Account(uid, f"uid{uid}")
    try:
        pw = pwd.getpwuid(uid)
    except KeyError:
        return Account(uid, f"uid{uid}")
    groups = {pw.pw_gid}
    try:  # the groups the system would give this account at login (NSS, LDAP included)
        groups |= set(os.getgrouplist(pw.pw_name, pw.pw_gid))
    except OSError:  # pragma: no cover - an unreadable group database
        pass
    return Account(uid, pw.pw_name, pw.pw_gid, frozenset(groups))


def account_named(login: str) -> Account:
    """The account called ``login`` (raises UnixError with a clear line if there is none)."""
    if pwd is None:  # pragma: no cover - not a Unix
        raise UnixError(unsupported())
    if login in ("me", "") or login == "@me":
        return account_of(os.geteuid())
    try:
        return account_of(pwd.getpwnam(login).pw_uid)
    except (KeyError, ValueError):
        raise UnixError(_("there is no account named {login} on this machine").format(
            login=repr(login))) from None


def group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def private_group(acct: Account) -> bool:
    """True when ``acct``'s primary group is its own (named after it, no listed members):
    then "your group" admits nobody else."""
    try:
        g = grp.getgrgid(acct.gid)
    except KeyError:
        return False
    return g.gr_name == acct.login and not set(g.gr_mem) - {acct.login}


def peer_credentials(sock: socket.socket) -> tuple[int, int, int]:
    """``(pid, uid, gid)`` of the process at the other end of a connected Unix socket
    (for a client: the process that listens), as the kernel recorded them."""
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, gid = struct.unpack("3i", raw)
    return pid, uid, gid


# -- where a table lives -------------------------------------------------------------

def socket_base() -> Path:
    return Path(os.environ.get(BASE_ENV) or "/tmp")


def table_dir(uid: int) -> Path:
    return socket_base() / f"pokeroulette-{uid}"


def table_socket(uid: int) -> Path:
    """Where the account ``uid``'s table listens (``join @login`` looks here)."""
    return table_dir(uid) / SOCKET_NAME


def _who(uid: int) -> str:
    acct = account_of(uid)
    return acct.login if acct.login != f"uid{uid}" else f"uid {uid}"


def check_base(base: Path) -> None:
    """The folder holding the table folders must not let anyone rename ours: owned by root
    or by us, and sticky if others may write in it."""
    try:
        st = os.stat(base)
    except OSError as exc:
        raise UnixError(_("cannot use {path}: {problem}").format(path=base,
                                                                  problem=exc.strerror)) from None
    if not stat.S_ISDIR(st.st_mode):
        raise UnixError(_("{path} is not a folder").format(path=base))
    if st.st_uid not in (0, os.geteuid()):
        raise UnixError(_("{path} belongs to {who}, who could replace the table folder: "
                          "choose another place with {env}").format(
            path=base, who=_who(st.st_uid), env=BASE_ENV))
    if st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX:
        raise UnixError(_("{path} can be written by other accounts and is not sticky, so "
                          "they could replace the table folder: choose another place with "
                          "{env}").format(path=base, env=BASE_ENV))


def prepare_dir(path: Path, *, mode: int, group: int | None = None) -> None:
    """Create the table's folder, or take back our own: exclusive creation, never through a
    link, never one made by another account. Sets ``mode`` (and ``group``)."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise UnixError(_("cannot create {path}: {problem}").format(
            path=path, problem=exc.strerror)) from None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:
        what = _("a link or not a folder (someone planted it?)") if os.path.islink(path) or \
            not os.path.isdir(path) else exc.strerror
        raise UnixError(_("{path} is {what}: not using it; remove it or ask an admin").format(
            path=path, what=what)) from None
    try:
        st = os.fstat(fd)
        if st.st_uid != os.geteuid():
            raise UnixError(_("{path} belongs to {who}, not you: someone created it first; ask "
                              "an admin to remove it, or host with --unix PATH in a folder of "
                              "yours").format(path=path, who=_who(st.st_uid)))
        if group is not None and group >= 0 and st.st_gid != group:
            os.fchown(fd, -1, group)
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def clear_stale(path: Path) -> None:
    """Make room for our socket at ``path``: nothing there, or a socket of ours nobody
    listens on (a crash's leftover), which is removed. A live table, a socket of another
    account's, and anything that is not a socket (a file, a folder, a link: never followed)
    are refused, never removed."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(st.st_mode):
        raise UnixError(_("{path} exists and is not a socket: pick another path or remove "
                          "it").format(path=path))
    if st.st_uid != os.geteuid():
        raise UnixError(_("{path} is a socket of {who}'s, not yours: pick another path").format(
            path=path, who=_who(st.st_uid)))
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(2)
    try:
        probe.connect(str(path))
    except OSError:
        pass  # nobody listens: a socket left by a crash
    else:
        raise UnixError(_("a table is already served at {path} (join it with "
                          "`pokeroulette join @me`)").format(path=path))
    finally:
        probe.close()
    try:  # the same file we looked at (not one put there since): remove only that
        if os.lstat(path).st_ino != st.st_ino:
            raise UnixError(_("{path} changed while it was checked: try again").format(
                path=path), retry=True)
    except FileNotFoundError:
        return
    os.unlink(path)


def can_pass(folder: Path, acct: Account) -> Path | None:
    """The first folder on the way to ``folder`` (itself included) that ``acct`` may not go
    through, by the mode bits (search permission), or None when every one lets it pass."""
    p = Path(os.path.abspath(folder))
    for d in (p, *p.parents):
        try:
            st = os.stat(d)
        except OSError:
            return d
        if acct.uid == 0:
            continue
        if st.st_uid == acct.uid:
            bit = stat.S_IXUSR
        elif st.st_gid == acct.gid or st.st_gid in acct.groups:
            bit = stat.S_IXGRP
        else:
            bit = stat.S_IXOTH
        if not st.st_mode & bit:
            return d
    return None


def reach_note(folder: Path, access) -> str:
    """For a socket in a folder the host chose (never changed by us): one line saying who
    the access policy admits but the folders on the way keep out ("" when nobody)."""
    if access is None:
        return ""
    if access.allow is not None:
        blocked = []
        for uid in sorted(access.allow - {access.owner.uid}):
            acct = account_of(uid)
            where = can_pass(folder, acct)
            if where is not None:
                blocked.append((acct.login, where))
        if not blocked:
            return ""
        who, where = ", ".join(login for login, __ in blocked), blocked[0][1]
    else:
        if access.group is None or access.group < 0 or private_group(access.owner):
            return ""
        member = Account(-2, "", access.group, frozenset({access.group}))
        where = can_pass(folder, member)
        if where is None:
            return ""
        who = _("the members of group {group}").format(group=access.group_name or access.group)
    try:
        mode = oct(stat.S_IMODE(os.stat(where).st_mode))[2:]
    except OSError:
        mode = "?"
    return _("{who} cannot reach the table: {folder} (mode {mode}) does not let them through; "
             "it is left as it is: choose a folder they can enter, or change it "
             "yourself").format(who=who, folder=where, mode=mode)


@dataclass(frozen=True)
class Target:
    """A Unix-socket table to join: the socket and the account that must serve it."""

    path: Path
    owner: Account

    def describe(self) -> str:
        return _("{login}'s table ({path})").format(login=self.owner.login, path=self.path)


def target_for(login: str) -> Target:
    """``join @login``: where that account's table is (``@me`` is your own)."""
    owner = account_named(login)
    return Target(table_socket(owner.uid), owner)


def target_at(path: str, owner: str | None = None) -> Target:
    """``join --unix PATH [--owner LOGIN]``: without ``--owner``, the account that owns the
    socket's folder, provided only that account can write in it."""
    p = Path(path).expanduser()
    if owner:
        return Target(p, account_named(owner))
    try:
        st = os.stat(p.parent)
    except OSError as exc:
        raise UnixError(_("cannot look at {path}: {problem}").format(
            path=p.parent, problem=exc.strerror)) from None
    if st.st_mode & 0o022:
        raise UnixError(_("{path} can be written by other accounts, so its owner proves "
                          "nothing: say whose table it is with --owner LOGIN").format(
            path=p.parent))
    return Target(p, account_of(st.st_uid))


def check_target(target: Target) -> None:
    """What the file system says before we connect: the folder and the socket are the
    expected account's. Raises UnixError naming the problem."""
    owner, path = target.owner, target.path
    try:
        dst = os.lstat(path.parent)
    except FileNotFoundError:
        raise UnixError(_("{login} is not hosting a table ({path} does not exist)").format(
            login=owner.login, path=path.parent), retry=True) from None
    except OSError as exc:
        raise UnixError(_("cannot look at {path}: {problem}").format(
            path=path.parent, problem=exc.strerror)) from None
    if not stat.S_ISDIR(dst.st_mode):
        raise UnixError(_("{path} is not a folder (a link?): not connecting").format(
            path=path.parent))
    if dst.st_uid != owner.uid:
        raise UnixError(_("{path} belongs to {who}, not {login}: someone else made it; not "
                          "connecting").format(path=path.parent, who=_who(dst.st_uid),
                                               login=owner.login))
    if dst.st_mode & 0o022:
        raise UnixError(_("{path} can be written by other accounts: not connecting").format(
            path=path.parent))
    try:
        sst = os.lstat(path)
    except FileNotFoundError:
        raise UnixError(_("{login} is not hosting a table right now (no {path})").format(
            login=owner.login, path=path), retry=True) from None
    except PermissionError:
        raise UnixError(_("you may not enter {login}'s table folder: the table admits "
                          "{login}'s group only (ask {login} for --allow {me})").format(
            login=owner.login, me=account_of(os.geteuid()).login)) from None
    if not stat.S_ISSOCK(sst.st_mode):
        raise UnixError(_("{path} is not a socket: not connecting").format(path=path))
    if sst.st_uid != owner.uid:
        raise UnixError(_("{path} belongs to {who}, not {login}: not connecting").format(
            path=path, who=_who(sst.st_uid), login=owner.login))


async def open_verified(target: Target, *, limit: int,
                        timeout: float = 10.0) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Connect to ``target`` and make sure, through the kernel, that the process listening
    runs as the expected account, before anything is sent. Raises UnixError."""
    check_target(target)
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_unix_connection(str(target.path), limit=limit), timeout)
    except ConnectionRefusedError:
        raise UnixError(_("{login}'s table is not running (nobody listens on {path})").format(
            login=target.owner.login, path=target.path), retry=True) from None
    except PermissionError:
        raise UnixError(_("you may not connect to {login}'s table (ask {login} for --allow "
                          "{me})").format(login=target.owner.login,
                                          me=account_of(os.geteuid()).login)) from None
    except (OSError, asyncio.TimeoutError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else _("timed out")
        raise UnixError(_("cannot reach {table}: {why}").format(table=target.describe(), why=why),
                        retry=True) from None
    sock = writer.get_extra_info("socket")
    try:
        __, uid, ___ = peer_credentials(sock)
    except OSError as exc:
        writer.close()
        raise UnixError(_("cannot tell who serves {path}: {problem}").format(
            path=target.path, problem=exc.strerror)) from None
    if uid != target.owner.uid:
        writer.close()
        raise UnixError(_("{path} is served by {who}, not {login}: someone else is squatting "
                          "it; nothing was sent").format(path=target.path, who=_who(uid),
                                                         login=target.owner.login))
    return reader, writer


# -- TCP on this machine ------------------------------------------------------------------

LOOPBACK = ("127.0.0.1", "::1", "localhost", "::ffff:127.0.0.1")


def loopback_peer_uid(writer: asyncio.StreamWriter) -> int | None:
    """For a TCP connection to this machine, the account that owns the server's end (from
    /proc/net/tcp*: the accepted socket belongs to whoever opened the listening one), or
    None when it cannot be told (not Linux, not loopback)."""
    sock = writer.get_extra_info("socket")
    try:
        peer = sock.getpeername()
        mine = sock.getsockname()
    except (OSError, AttributeError):
        return None
    if not peer or str(peer[0]) not in LOOPBACK and not str(peer[0]).startswith("127."):
        return None
    want_local, want_remote = int(peer[1]), int(mine[1])
    for cols in _tcp_rows():
        try:
            local = int(cols[1].rsplit(":", 1)[1], 16)
            remote = int(cols[2].rsplit(":", 1)[1], 16)
        except (IndexError, ValueError):
            continue
        if local == want_local and remote == want_remote and cols[3] == "01":
            return int(cols[7])
    return None


def _tcp_rows():
    """The rows of the kernel's TCP socket tables (Linux), split into columns."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if len(cols) >= 8:
                yield cols


def listener_pid(target: Target) -> int:
    """The pid of the process serving ``target`` (checked to run as ``target.owner``)."""
    async def ask() -> int:
        __, writer = await open_verified(target, limit=1 << 16, timeout=5)
        try:
            return peer_credentials(writer.get_extra_info("socket"))[0]
        finally:
            writer.close()
    return asyncio.run(ask())


def tcp_listener_pid(port: int, uid: int) -> int | None:
    """The pid of a process of account ``uid`` listening on TCP ``port`` here (Linux), or
    None: the listening socket's inode from /proc/net/tcp*, then the process holding it."""
    inodes = set()
    for cols in _tcp_rows():
        if len(cols) > 9 and cols[3] == "0A" and int(cols[7]) == uid and \
                int(cols[1].rsplit(":", 1)[1], 16) == port:
            inodes.add(f"socket:[{cols[9]}]")
    if not inodes:
        return None
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if os.stat(entry.path).st_uid != uid:
                continue
            for fd in os.scandir(os.path.join(entry.path, "fd")):
                if os.readlink(fd.path) in inodes:
                    return int(entry.name)
        except OSError:
            continue
    return None
