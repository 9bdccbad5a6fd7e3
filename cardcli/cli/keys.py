"""``cardcli keys``: key pairs for signed records (``play --sign-key``, ``verify --public-key``)."""

from __future__ import annotations

import click

from ..records import signing


@click.group("keys")
def keys() -> None:
    """Make key pairs that sign records (needs: pip install 'cardcli[sign]')."""


@keys.command("new")
@click.argument("prefix")
def new(prefix: str) -> int:
    """Write a new Ed25519 key pair: PREFIX.key, the private key (mode 0600; give it to
    play/tournament --sign-key and to nobody else), and PREFIX.pub, the public key (give it to
    whoever checks records with verify --public-key). Existing files are never overwritten."""
    private_path, public_path = signing.new_pair(prefix)
    key = signing.private_key(str(private_path), "keys new")
    click.echo(f"private key: {private_path} (keep it secret)")
    click.echo(f"public key:  {public_path} ({key.key_id})")
    return 0
