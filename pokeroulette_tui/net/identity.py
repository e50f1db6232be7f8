"""Who is connecting: accounts learnt from the kernel, who may sit down, and the guard
that slows down password guessing. Plain values and an injected clock; no sockets.

On a Unix-socket table the server learns each peer's account from the kernel
(SO_PEERCRED, see :mod:`pokeroulette_tui.net.unix`); a seat is then bound to that
account: it is named after the login, needs no password or resume token, and no other
account can take it or its name.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Callable, Iterable

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.net import protocol as P


@dataclass(frozen=True)
class Account:
    """An account on this machine, as the kernel names it (uid) and as people do (login)."""

    uid: int
    login: str
    gid: int = -1                        # primary group
    groups: frozenset[int] = frozenset()  # every group the account is in (primary included)

    def seat_name(self) -> str:
        """The name of this account's seat: the login, cleaned for terminals.

        >>> Account(1001, "alice").seat_name(), Account(7, "\\x1b").seat_name()
        ('alice', 'uid7')
        """
        try:
            return P.clean_name(self.login)
        except P.ProtocolError:
            return f"uid{self.uid}"


@dataclass(frozen=True)
class AccessPolicy:
    """Who may connect to a Unix-socket table: the host's own account always; then the
    accounts of ``allow`` if given, else every member of the host's group ``group``.

    >>> pol = AccessPolicy(owner=Account(1000, "ana", 100), group=100, group_name="students")
    >>> pol.refusal(Account(1001, "bo", 100)), pol.refusal(Account(1000, "ana", 5))
    ('', '')
    >>> pol.refusal(Account(1002, "cy", 7))
    'this table admits the members of group students only; ask ana to add you with --allow cy'
    >>> AccessPolicy(owner=Account(1000, "ana"), allow=frozenset({1002})).refusal(Account(1002, "cy"))
    ''
    """

    owner: Account
    allow: frozenset[int] | None = None   # uids; None = the host's group
    group: int = -1
    group_name: str = ""
    allow_logins: tuple[str, ...] = ()

    def refusal(self, who: Account) -> str:
        """Why ``who`` may not connect ("" when it may)."""
        if who.uid == self.owner.uid:
            return ""
        if self.allow is not None:
            if who.uid in self.allow:
                return ""
            return _("this table admits only the accounts {owner} chose; ask {owner} to add "
                     "you with --allow {login}").format(owner=self.owner.login, login=who.login)
        if self.group >= 0 and (who.gid == self.group or self.group in who.groups):
            return ""
        return _("this table admits the members of group {group} only; ask {owner} to add you "
                 "with --allow {login}").format(group=self.group_name or self.group,
                                                owner=self.owner.login, login=who.login)

    def describe(self) -> str:
        """Who may join, in words (for the host's banner)."""
        if self.allow is not None:
            others = [n for n in self.allow_logins if n != self.owner.login]
            return _("you and {names}").format(names=", ".join(others)) if others \
                else _("you only")
        return _("the members of your group {group}").format(group=self.group_name or self.group)


def policy(owner: Account, *, allow: Iterable[Account] | None = None,
           group_name: str = "") -> AccessPolicy:
    """Who may join: ``allow``'s accounts, or (None) the members of the owner's group.

    >>> policy(Account(1, "ana", 5), allow=[Account(2, "bo")]).describe()
    'you and bo'
    """
    if allow is None:
        return AccessPolicy(owner=owner, group=owner.gid, group_name=group_name)
    accounts = list(allow)
    return AccessPolicy(owner=owner, allow=frozenset(a.uid for a in accounts),
                        allow_logins=tuple(a.login for a in accounts))


@dataclass
class _Record:
    failures: int = 0
    last: float = 0.0


@dataclass
class HelloGuard:
    """Failed hellos (wrong password, a taken name without its token) per peer, with a
    back-off that doubles with each failure, and a budget for the log lines they cause.

    >>> g = HelloGuard(base=1.0, cap=60.0)
    >>> g.wait("10.0.0.9", 0.0)
    0.0
    >>> g.failed("10.0.0.9", 0.0); g.failed("10.0.0.9", 1.0); g.wait("10.0.0.9", 1.5)
    1.5
    >>> g.wait("10.0.0.7", 1.5), g.wait("10.0.0.9", 3.0)
    (0.0, 0.0)
    """

    base: float = 1.0        # seconds blocked after the first failure; doubles each time
    cap: float = 60.0
    forget_after: float = 900.0
    log_burst: int = 10      # log lines about failures before they are rationed
    log_every: float = 10.0  # then one line each this many seconds
    _peers: dict[str, _Record] = field(default_factory=dict)
    _log_tokens: float = -1.0
    _log_at: float = 0.0
    suppressed: int = 0

    def wait(self, peer: str, now: float) -> float:
        """Seconds ``peer`` must still wait before its next hello is even looked at.

        A success does not clear the count (over TCP, accounts of one machine share an
        address, and a guesser must not profit from another's good hello): failures are
        forgotten ``forget_after`` seconds after the last one."""
        rec = self._peers.get(peer)
        if rec is not None and now - rec.last >= self.forget_after:
            del self._peers[peer]
            return 0.0
        if rec is None or not rec.failures:
            return 0.0
        delay = min(self.cap, self.base * 2 ** (rec.failures - 1))
        return max(0.0, rec.last + delay - now)

    def failed(self, peer: str, now: float) -> None:
        rec = self._peers.setdefault(peer, _Record())
        rec.failures += 1
        rec.last = now
        if len(self._peers) > 4096:  # forget the oldest quiet peers
            for key in [k for k, r in self._peers.items() if now - r.last > self.forget_after]:
                del self._peers[key]

    def log(self, logger: logging.Logger, now: float, text: str, *args: object) -> None:
        """Log a line about a refused peer, unless the budget is spent (then count it)."""
        if self._log_tokens < 0:
            self._log_tokens, self._log_at = float(self.log_burst), now
        self._log_tokens = min(float(self.log_burst),
                               self._log_tokens + (now - self._log_at) / self.log_every)
        self._log_at = now
        if self._log_tokens < 1:
            self.suppressed += 1
            return
        self._log_tokens -= 1
        if self.suppressed:
            text += " (%d similar lines were not logged)"
            args = (*args, self.suppressed)
            self.suppressed = 0
        logger.warning(text, *args)


def peer_key(peer: object) -> str:
    """The key failures are counted under: an account's uid, or a TCP peer's address.

    >>> peer_key(Account(1001, "alice")), peer_key(("127.0.0.1", 5555)), peer_key(None)
    ('uid:1001', 'ip:127.0.0.1', 'unknown')
    """
    if isinstance(peer, Account):
        return f"uid:{peer.uid}"
    if isinstance(peer, tuple) and peer:
        return f"ip:{peer[0]}"
    if isinstance(peer, str) and peer:
        return f"ip:{peer}"
    return "unknown"


AccountLookup = Callable[[int], Account]
