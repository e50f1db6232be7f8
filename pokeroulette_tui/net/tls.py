"""TLS for TCP tables: the host's own certificate, and the players' pins of it.

The host makes a key and a self-signed certificate once (owner-only files in its data
folder) and prints the certificate's fingerprint. A player's client accepts any
certificate during the handshake and then compares its fingerprint with the one it pinned
for that address the first time (like SSH's ``known_hosts``: an owner-only file), or with
the one given by ``--fingerprint``. A changed certificate is refused with a message that
says what to do. Passwords and resume tokens are sent only after that check.

Only the host needs the ``cryptography`` package (to make the certificate); a client uses
the standard library alone.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import os
import ssl
from dataclasses import dataclass
from pathlib import Path

from pokeroulette_tui.engine.i18n import _

CERT_FILE = "host-cert.pem"
KEY_FILE = "host-key.pem"
KNOWN_FILE = "known_tables"


class PinError(Exception):
    """The table's certificate is not the one pinned for it (a readable message)."""


def fingerprint(der: bytes) -> str:
    """A certificate's SHA-256 fingerprint, written like SSH's: ``SHA256:`` and base64.

    >>> fingerprint(b"x")
    'SHA256:LXEWQrcmsEQBYnyp+6wy9chTD7GQPMTbAiWHF5IaSIE'
    """
    digest = hashlib.sha256(der).digest()
    return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")


def normal_fingerprint(text: str) -> str:
    """A fingerprint as typed by a person: ``SHA256:…`` (base64) or 64 hex digits (with or
    without colons); raises ValueError for anything else."""
    t = text.strip()
    if t.upper().startswith("SHA256:"):
        body = t[7:]
        try:
            raw = base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
        except ValueError:
            raw = b""
    else:
        try:
            raw = bytes.fromhex(t.replace(":", ""))
        except ValueError:
            raw = b""
    if len(raw) != 32:
        raise ValueError(_("{text} is not a certificate fingerprint (SHA256:… as the host "
                           "prints it, or 64 hexadecimal digits)").format(text=repr(text)))
    return "SHA256:" + base64.b64encode(raw).decode().rstrip("=")


@dataclass(frozen=True)
class Identity:
    """The host's certificate and key files, and the certificate's fingerprint."""

    cert: Path
    key: Path
    fingerprint: str


def _write_private(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def host_identity(folder: Path) -> Identity:
    """The host's certificate in ``folder`` (an owner-only folder), made the first time."""
    cert, key = folder / CERT_FILE, folder / KEY_FILE
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if not (cert.exists() and key.exists()):
        _make_identity(cert, key)
    der = ssl.PEM_cert_to_DER_cert(cert.read_text())
    return Identity(cert, key, fingerprint(der))


def _make_identity(cert_path: Path, key_path: Path) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pokeroulette table")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=3650))
            .sign(key, hashes.SHA256()))
    _write_private(key_path, key.private_bytes(serialization.Encoding.PEM,
                                               serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
    _write_private(cert_path, cert.public_bytes(serialization.Encoding.PEM))


def server_context(identity: Identity) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(identity.cert, identity.key)
    return ctx


def client_context() -> ssl.SSLContext:
    """A context that takes any certificate in the handshake: :func:`check_pin` decides
    afterwards, before anything secret is sent."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def peer_fingerprint(ssl_object: ssl.SSLObject | ssl.SSLSocket | None) -> str:
    der = ssl_object.getpeercert(binary_form=True) if ssl_object is not None else None
    if not der:
        raise PinError(_("the table sent no certificate"))
    return fingerprint(der)


class KnownTables:
    """The fingerprints this account has pinned, one ``address fingerprint`` a line in an
    owner-only file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            text = self.path.read_text()
        except FileNotFoundError:
            return {}
        pins = {}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and not line.startswith("#"):
                pins[parts[0]] = parts[1]
        return pins

    def get(self, address: str) -> str | None:
        return self._read().get(address)

    def pin(self, address: str, fp: str) -> None:
        pins = self._read()
        pins[address] = fp
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        _write_private(self.path, "".join(f"{a} {f}\n" for a, f in sorted(pins.items()))
                       .encode())

    def forget(self, address: str) -> None:
        pins = self._read()
        if pins.pop(address, None) is not None:
            _write_private(self.path, "".join(f"{a} {f}\n" for a, f in sorted(pins.items()))
                           .encode())


def check_pin(address: str, seen: str, *, expected: str | None,
              known: KnownTables | None) -> str:
    """Decide whether to trust the certificate ``seen`` at ``address``; returns a note for
    the player ("" when it was already known), raises PinError when it must be refused.

    ``expected`` (from ``--fingerprint``) wins; otherwise the first fingerprint seen for an
    address is pinned and every later one must match it.
    """
    if expected is not None:
        if seen != normal_fingerprint(expected):
            raise PinError(_("the table at {address} presents certificate {seen}, not the "
                             "{expected} you gave: refusing to connect (someone may be in the "
                             "middle)").format(address=address, seen=seen,
                                               expected=expected.strip()))
        if known is not None and known.get(address) != seen:
            known.pin(address, seen)
        return ""
    if known is None:
        return _("not pinned: the table's certificate is {seen}").format(seen=seen)
    pinned = known.get(address)
    if pinned is None:
        known.pin(address, seen)
        return _("First visit to {address}: its certificate {seen} is pinned. Check that the "
                 "host printed the same fingerprint.").format(address=address, seen=seen)
    if pinned != seen:
        raise PinError(_(
            "the table at {address} presents a different certificate than before ({seen}, "
            "pinned {pinned}): refusing to connect, since someone may be in the middle. If the "
            "host really made a new certificate, join with --fingerprint {seen} after checking "
            "it with the host, or remove the line for {address} from {path}.").format(
            address=address, seen=seen, pinned=pinned, path=known.path))
    return ""
