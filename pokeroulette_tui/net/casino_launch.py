"""``pokeroulette host --casino`` and ``pokeroulette join`` at a casino table: from the
command line to a served casino table and a seat at it (no screens here: the host's and the
players' screens are :mod:`pokeroulette_tui.ui.casino_net`).

A host who plays serves the table from the same process as their screen (the table closes
when they leave, and everyone is told); ``--headless`` serves it alone until Ctrl-C.
"""

from __future__ import annotations

import argparse
import logging
import sys

from pokeroulette_tui.engine.casino.paytable import PayTableError, find
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.errors import CliError
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net import loop as server_loop
from pokeroulette_tui.net.casino_client import RemoteCasino
from pokeroulette_tui.net.casino_host import CasinoConfig, CasinoHost
from pokeroulette_tui.net.files import (
    PASSWORD_ENV,
    load_token,
    read_password,
    store_token,
)

#: ``host`` flags that belong to the card table, with their defaults: a casino table refuses
#: them in one line rather than ignoring them.
CARD_TABLE_FLAGS = {"unix": None, "allow": None, "resume": None, "bots": 0, "bot_level": None,
                    "save": None, "allow_hints": False, "detach": False, "stop": False,
                    "start_countdown": None, "lobby_timeout": None, "preset": None,
                    "rule": None}


def casino_config(args: argparse.Namespace, password: str | None) -> CasinoConfig:
    """The ``host --casino`` flags checked (raises CliError in one line)."""
    for key, default in CARD_TABLE_FLAGS.items():
        if getattr(args, key, default) not in (default, []):
            flag = "--" + key.replace("_", "-")
            raise CliError(_("{flag} is for the card table; a --casino table does not take "
                             "it").format(flag=flag))
    if not 0 <= args.port <= 65535:
        raise CliError(_("--port must be between 0 and 65535 (0 picks a free port)"))
    from pokeroulette_tui.net.serve import bind_problem

    bind_problem(getattr(args, "bind", ""))
    try:
        table = find(getattr(args, "pay_table", None) or "default")
    except PayTableError as exc:
        raise CliError(f"--pay-table: {exc}") from None
    pause = 0.6 if args.delay is None else args.delay
    if not 0 <= pause <= 5:
        raise CliError(_("--delay (the pause between the cards of a deal) must be between 0 "
                         "and 5 seconds"))
    results = 6.0 if args.result_pause is None else args.result_pause
    if not 0 <= results <= 60:
        raise CliError(_("--result-pause must be between 0 and 60 seconds"))
    bet_timeout = 60.0 if getattr(args, "turn_timeout", None) is None else args.turn_timeout
    if not 0 <= bet_timeout <= 3600:
        raise CliError(_("--turn-timeout (how long the others have to bet once one player is "
                         "ready) must be between 0 (no timer) and 3600 seconds"))
    if password is not None and not 0 < len(password) <= P.MAX_PASSWORD:
        raise CliError(_("the password must be 1 to {n} characters").format(n=P.MAX_PASSWORD))
    return CasinoConfig(table=table, password=password or None, seed=args.seed,
                        deal_pause=pause, bet_timeout=bet_timeout,
                        result_pause=results, headless=bool(args.headless))


def banner(config: CasinoConfig, bind: str, port: int, *, tls: bool, fingerprint: str,
           headless: bool) -> list[str]:
    from pokeroulette_tui.net.launch import lan_addresses

    where = f"{bind or '*'}:{port}"
    lines = [(_("Hosting a Poker Roulette casino table ({name} pay table) on {where} "
                "(headless)") if headless else
              _("Hosting a Poker Roulette casino table ({name} pay table) on {where}")).format(
        name=config.table.name, where=where)]
    plain = "" if tls else " --no-tls"
    friends, here, cert = _("friends join with:"), _("on this machine:"), _("TLS certificate:")
    width = max(len(friends), len(here), len(cert)) + 2
    for addr in lan_addresses(bind):
        lines.append(f"  {friends:<{width}}pokeroulette join {addr}:{port} --name NAME{plain}")
    if bind in ("", "0.0.0.0", "::"):
        lines.append(f"  {here:<{width}}pokeroulette join 127.0.0.1:{port} --name NAME"
                     + plain)
    if tls and fingerprint:
        lines.append(f"  {cert:<{width}}{fingerprint}")
    elif not tls:
        lines.append("  " + _("NO TLS (--no-tls): anyone on the network sees passwords and "
                              "tokens"))
    if config.password:
        lines.append("  " + _("(this table has a password: join with --password, "
                              "--password-file FILE or {env})").format(env=PASSWORD_ENV))
    lines.append("  " + (_("bets close when every player is ready, or {seconds} s after the "
                           "first one is").format(seconds=f"{config.bet_timeout:g}")
                         if config.bet_timeout else _("bets close when every player is ready")))
    return lines


def join_lines(lines: list[str]) -> list[str]:
    """The lines of :func:`banner` that tell others how to join (the LAN addresses' and the
    password's), stripped."""
    here = _("on this machine:")
    return [line.strip() for line in lines
            if ("pokeroulette join" in line and not line.strip().startswith(here))
            or "--password-file FILE" in line]


def run_casino_host(args: argparse.Namespace, *, play=None) -> int:
    """``pokeroulette host --casino``: serve a casino table; sit at it too unless
    ``--headless`` (``play(args, config, password)`` runs the screens)."""
    password = read_password(args)
    config = casino_config(args, password)
    if not args.headless:
        if play is None:
            raise CliError(_("sitting at your own table needs the terminal screens; host it "
                             "with --headless"))
        return play(args, config, password)
    from pokeroulette_tui.net.launch import say
    from pokeroulette_tui.net.serve import Listen, serve

    host = CasinoHost(config)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s",
                        datefmt="%H:%M:%S", stream=sys.stderr)

    def ready(where: Listen) -> None:
        for line in banner(config, where.bind, where.port, tls=where.tls,
                           fingerprint=where.fingerprint, headless=True):
            say(line)
        say(_("Press Ctrl-C to stop."))
    try:
        server_loop.run(serve(host, Listen(bind=args.bind, port=args.port,  # type: ignore[arg-type]
                                       tls=not args.no_tls), ready=ready))
    except OSError as exc:
        raise CliError(str(exc)) from None
    except KeyboardInterrupt:
        return 0
    return 0


def casino_session(args: argparse.Namespace, host: str, port: int) -> RemoteCasino:
    """The seat ``join``'s flags ask for at the casino table at ``host:port`` (CliError)."""
    from pokeroulette_tui.net.launch import expected_server, known_tables, tls_options, typed_name

    if getattr(args, "spectate", False):
        raise CliError(_("a casino table has no spectators' chairs: join without --spectate"))
    if not args.name:
        raise CliError(_("join HOST[:PORT] needs --name NAME (your name at the table)"))
    name = typed_name(args.name)
    server_uid, __ = expected_server(args, host, port)  # (--owner, or this account's own)
    fingerprint, use_tls = tls_options(args)
    return RemoteCasino(host, port, name, password=read_password(args),
                        token=load_token(host, port, name), tls=use_tls,
                        fingerprint=fingerprint, known=known_tables(),
                        server_uid=server_uid,
                        on_token=lambda t: store_token(host, port, name, t))
