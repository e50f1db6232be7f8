"""TLS for TCP tables: the host's certificate, pins on first use, refusing a changed one."""

from __future__ import annotations

import asyncio
import os
import stat

import pytest

from pokeroulette_tui.net import tls


def test_the_host_makes_its_certificate_once_owner_only(tmp_path):
    first = tls.host_identity(tmp_path)
    again = tls.host_identity(tmp_path)
    assert first == again and first.fingerprint.startswith("SHA256:")
    for f in (first.cert, first.key):
        assert stat.S_IMODE(os.stat(f).st_mode) == 0o600
    other = tls.host_identity(tmp_path / "elsewhere")
    assert other.fingerprint != first.fingerprint


def test_fingerprints_as_people_type_them():
    fp = tls.fingerprint(b"cert")
    raw_hex = __import__("hashlib").sha256(b"cert").hexdigest()
    assert tls.normal_fingerprint(fp) == fp
    assert tls.normal_fingerprint(" sha256:" + fp[7:] + " ") == fp
    assert tls.normal_fingerprint(raw_hex.upper()) == fp
    assert tls.normal_fingerprint(":".join(raw_hex[i:i + 2] for i in range(0, 64, 2))) == fp
    for bad in ("", "SHA256:abc", "xyz", raw_hex[:-2]):
        with pytest.raises(ValueError, match="not a certificate fingerprint"):
            tls.normal_fingerprint(bad)


def test_pin_on_first_use_then_refuse_a_change(tmp_path):
    known = tls.KnownTables(tmp_path / "known")
    a, b = tls.fingerprint(b"a"), tls.fingerprint(b"b")
    note = tls.check_pin("10.0.0.2:7777", a, expected=None, known=known)
    assert "pinned" in note and a in note
    assert stat.S_IMODE(os.stat(known.path).st_mode) == 0o600
    assert tls.check_pin("10.0.0.2:7777", a, expected=None, known=known) == ""
    with pytest.raises(tls.PinError) as err:
        tls.check_pin("10.0.0.2:7777", b, expected=None, known=known)
    msg = str(err.value)
    assert "different certificate" in msg and "--fingerprint " + b in msg and str(known.path) in msg
    # --fingerprint: the player's word wins, and is pinned for next time
    assert tls.check_pin("10.0.0.2:7777", b, expected=b, known=known) == ""
    assert known.get("10.0.0.2:7777") == b
    with pytest.raises(tls.PinError, match="not the"):
        tls.check_pin("10.0.0.3:7777", a, expected=b, known=known)
    assert known.get("10.0.0.3:7777") is None


async def test_a_real_tls_connection_shows_the_hosts_fingerprint(tmp_path):
    ident = tls.host_identity(tmp_path)

    async def echo(reader, writer):
        writer.write(await reader.readline())
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(echo, "127.0.0.1", 0, ssl=tls.server_context(ident))
    port = server.sockets[0].getsockname()[1]
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                       ssl=tls.client_context())
        assert tls.peer_fingerprint(writer.get_extra_info("ssl_object")) == ident.fingerprint
        writer.write(b"secret\n")
        await writer.drain()
        assert await reader.readline() == b"secret\n"
        writer.close()
        # a plain client gets nothing readable from a TLS table
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b'{"type": "hello"}\n')
        await writer.drain()
        data = await asyncio.wait_for(reader.read(100), 5)
        assert b"hello" not in data
        writer.close()
    finally:
        server.close()
        await server.wait_closed()


async def test_a_tls_table_end_to_end_pins_then_refuses_an_impostor(tmp_path, monkeypatch):
    """A session joins a TLS table, pins its certificate, and later refuses another table
    (another certificate) at the same address before sending its password."""
    from net_helpers import make_host
    from pokeroulette_tui.engine.rules import RuleSet
    from pokeroulette_tui.net.client import ConnectError, RemoteSession
    from pokeroulette_tui.net.server import Server

    known = tls.KnownTables(tmp_path / "known")
    ident = tls.host_identity(tmp_path / "host")
    host = make_host(RuleSet(suit_order="SHDC"), password="pw")
    server = Server(host)
    _, port = await server.start("127.0.0.1", 0, ssl=tls.server_context(ident))
    try:
        s = RemoteSession("127.0.0.1", port, "Ana", password="pw", tls=True, known=known,
                          reconnect=False)
        await s.connect()
        assert "pinned" in s.tls_note and known.get(f"127.0.0.1:{port}") == ident.fingerprint
        await s.close()
        # a plain client cannot talk to it, and says how to fix it
        plain = RemoteSession("127.0.0.1", port, "Bo", password="pw", reconnect=False)
        with pytest.raises(ConnectError, match="join without --no-tls"):
            await plain.connect()
    finally:
        await server.close()
    # an impostor at the same address with its own certificate
    other = tls.host_identity(tmp_path / "impostor")
    imp_host = make_host(RuleSet(suit_order="SHDC"))
    seen: list = []
    orig = imp_host.receive
    imp_host.receive = lambda cid, line, now: (seen.append(line), orig(cid, line, now))[1]
    imp = Server(imp_host)
    await imp.start("127.0.0.1", port, ssl=tls.server_context(other))
    try:
        s = RemoteSession("127.0.0.1", port, "Ana", password="pw", tls=True, known=known,
                          reconnect=False)
        with pytest.raises(ConnectError, match="different certificate.*not sent"):
            await s.connect()
        assert seen == []  # not a byte of the hello (nor the password) reached it
    finally:
        await imp.close()


async def test_a_tls_client_at_a_plain_table_is_told_what_to_do(tmp_path):
    from net_helpers import Served
    from pokeroulette_tui.engine.rules import RuleSet
    from pokeroulette_tui.net.client import ConnectError, RemoteSession

    async with Served(RuleSet(suit_order="SHDC")) as srv:
        s = RemoteSession("127.0.0.1", srv.port, "Ana", tls=True,
                          known=tls.KnownTables(tmp_path / "k"), reconnect=False)
        with pytest.raises(ConnectError, match="does not speak TLS.*--no-tls"):
            await s.connect()
