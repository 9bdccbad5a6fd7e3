"""cardcli's own games, one folder each: the rules, and the parts that fill in the players' and
the learning environments' frameworks (a heuristic, search hooks, an encoding, a seat view),
which the game's spec names. The registry (:mod:`cardcli.games.registry`) loads a folder by
its name when the game is first asked for, as it loads another package's game through the
``cardcli.games`` entry point: no module of cardcli imports a game's folder, and no folder
imports another's."""
