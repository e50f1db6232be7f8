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
