"""``python -m cardcli`` runs the command line."""

from .cli import main

main()
