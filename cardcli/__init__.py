"""cardcli: a referee for multiplayer card games played by bots in any language."""

__version__ = "0.1.0"
