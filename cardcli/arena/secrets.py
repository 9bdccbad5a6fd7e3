"""Remote entrants' tokens: given once, in clear, to the organiser who sends it on; stored only
as a hash, so that a copy of the database (a back-up, a leaked dump) lets nobody take a seat.

A token is 192 random bits (:func:`cardcli.remote.tokens.new_token`), so a fast hash is enough:
nothing can be guessed that a slow one would protect (a slow hash protects passwords people
choose). SHA-256 of the token, written as ``sha256:HEX``, and compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac

from ..remote.tokens import new_token

PREFIX = "sha256:"


def token_hash(token: str) -> str:
    return PREFIX + hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(token: str, stored: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored`` (False without one)."""
    return stored is not None and hmac.compare_digest(token_hash(token), stored)


def new_pair() -> tuple[str, str]:
    """A fresh token and its hash: the first for the organiser, the second for the database."""
    token = new_token()
    return token, token_hash(token)
