"""Signed records: an Ed25519 signature over each record, made by the referee that wrote it.

``verify`` proves from the rules alone that a record is a legal match of its seed and that its
result follows from its moves and faults. What the rules cannot prove (which program sat in a
seat, which seat faulted and why when the fault left no trace in the moves, the settings and
timings) a signature can: a record signed with a private key only the referee's operator holds
cannot be changed by anyone else without ``verify --public-key`` noticing.

A record carries its signature in a ``signature`` field, ``{"alg": "ed25519", "key": K, "sig":
S}``: K is the signer's public key (its 32 raw bytes in base64) so a failure can tell "another
key" from "changed", and S the signature (base64) of :func:`signed_bytes`: a fixed prefix, then
the canonical JSON of the record without its ``signature`` field. Canonical JSON (sorted keys,
no spaces, UTF-8) makes the signature a property of the record's content, not of how a line
happens to be spaced or ordered. ``docs/records.md`` documents the format.

The ``cryptography`` package does the cryptography. It is an optional extra (``pip install
'cardcli[sign]'``): everything but signing and checking signatures works without it, and asking
for either without it is a one-line error that says what to install.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs

from ..errors import UsageError
from ..small_files import read_small

ALGORITHM = "ed25519"
FIELD = "signature"
PREFIX = b"cardcli-record-signature/1\n"
"""Put in front of what is signed, so a signature over a record can never be taken for a
signature over anything else made with the same key."""

MAX_KEY_FILE = 64 << 10
"""A key file is a few hundred bytes; anything longer is not one, and is not read whole."""


class SigningError(UsageError):
    """A key cannot be made, read or used: bad input, exit status 2."""


def _primitives() -> tuple[ModuleType, ModuleType]:
    """The ``cryptography`` modules signing needs, or a SigningError saying what to install."""
    try:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError:
        raise SigningError(
            "signed records need the 'cryptography' package: pip install 'cardcli[sign]'"
        ) from None
    return serialization, ed25519


@attrs.frozen
class PrivateKey:
    """A loaded private key and the path it came from (never its contents in a message)."""

    key: Any
    """An ``Ed25519PrivateKey``."""
    path: str

    @property
    def key_id(self) -> str:
        return _raw_public(self.key.public_key())


@attrs.frozen
class PublicKey:
    key: Any
    """An ``Ed25519PublicKey``."""
    path: str

    @property
    def key_id(self) -> str:
        return _raw_public(self.key)


def _raw_public(public: Any) -> str:
    serialization, _ = _primitives()
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return base64.b64encode(raw).decode("ascii")


def signed_bytes(record: dict[str, Any]) -> bytes:
    """What a record's signature is made over: :data:`PREFIX`, then the record without its
    ``signature`` field as canonical JSON (sorted keys, no spaces, UTF-8 as it is)."""
    body = {k: v for k, v in record.items() if k != FIELD}
    return PREFIX + json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sign(record: dict[str, Any], key: PrivateKey) -> dict[str, str]:
    """The ``signature`` field for ``record`` (whatever ``signature`` it holds is left out)."""
    value = key.key.sign(signed_bytes(record))
    return {"alg": ALGORITHM, "key": key.key_id, "sig": base64.b64encode(value).decode("ascii")}


def signed(record: dict[str, Any], key: PrivateKey) -> dict[str, Any]:
    """The record with its signature as its last field."""
    body = {k: v for k, v in record.items() if k != FIELD}
    return {**body, FIELD: sign(body, key)}


def problem(record: dict[str, Any], key: PublicKey) -> str | None:
    """Why ``record`` is not signed by ``key`` (unsigned, another key, or changed since it was
    signed), or None when its signature holds."""
    signature = record.get(FIELD)
    if signature is None:
        return f"the record is unsigned, and --public-key {key.path} asks for every record signed"
    if signature["key"] != key.key_id:
        return f"the record is signed with another key ({signature['key']}), not {key.path}"
    try:
        value = base64.b64decode(signature["sig"], validate=True)
    except (binascii.Error, ValueError):
        return "the signature is not base64"
    from cryptography.exceptions import InvalidSignature

    try:
        key.key.verify(value, signed_bytes(record))
    except InvalidSignature:
        return f"the signature does not hold: the record was changed after it was signed (key {key.path})"
    return None


# -- key files ----------------------------------------------------------------------------------


def new_pair(prefix: str) -> tuple[Path, Path]:
    """Write a new key pair: ``PREFIX.key`` (the private key, PKCS#8 PEM, mode 0600) and
    ``PREFIX.pub`` (the public key, SubjectPublicKeyInfo PEM, as ``openssl pkey -pubout``
    writes it). Neither file may exist: a key is never overwritten, since records signed with
    it could then never be checked again."""
    serialization, ed25519 = _primitives()
    private_path, public_path = Path(prefix + ".key"), Path(prefix + ".pub")
    for path in (private_path, public_path):
        if path.exists() or path.is_symlink():
            raise SigningError(f"{path} already exists; a key is never overwritten")
    key = ed25519.Ed25519PrivateKey.generate()
    private_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
    public_pem = key.public_key().public_bytes(serialization.Encoding.PEM,
                                               serialization.PublicFormat.SubjectPublicKeyInfo)
    _create(private_path, private_pem, 0o600)
    _create(public_path, public_pem, 0o644)
    return private_path, public_path


def _create(path: Path, data: bytes, mode: int) -> None:
    """Create ``path`` afresh (never through a link, never over a file) with exactly ``mode``."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    except OSError as err:
        raise SigningError(f"cannot create {path}: {err.strerror}") from None
    try:
        os.fchmod(fd, mode)  # whatever the umask
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


@functools.lru_cache(maxsize=8)
def private_key(path: str, option: str = "--sign-key") -> PrivateKey:
    """The private key in ``path`` (as ``keys new`` writes it). Kept once read, so a tournament
    checks it at its start and its forked workers sign without reading the file again."""
    serialization, ed25519 = _primitives()
    data = read_small(path, MAX_KEY_FILE, "a key file", f"{option} {path}", SigningError)
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise SigningError(f"{option} {path}: not an unencrypted private key in PEM "
                           "(make one with `cardcli keys new PREFIX`)") from None
    if not isinstance(key, ed25519.Ed25519PrivateKey):
        raise SigningError(f"{option} {path}: not an Ed25519 key (make one with `cardcli keys new PREFIX`)")
    return PrivateKey(key, path)


def public_key(path: str, option: str = "--public-key") -> PublicKey:
    """The public key in ``path`` (``PREFIX.pub`` of ``keys new``)."""
    serialization, ed25519 = _primitives()
    data = read_small(path, MAX_KEY_FILE, "a key file", f"{option} {path}", SigningError)
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError):
        hint = " (that is a private key: give the .pub file)" if b"PRIVATE KEY" in data else ""
        raise SigningError(f"{option} {path}: not a public key in PEM{hint}") from None
    if not isinstance(key, ed25519.Ed25519PublicKey):
        raise SigningError(f"{option} {path}: not an Ed25519 public key")
    return PublicKey(key, path)
