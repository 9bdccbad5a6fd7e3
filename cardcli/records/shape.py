"""The shape of a record: every field a reader uses, with its JSON type and its bounds.

Records are untrusted input: a stranger can hand one over, edited, truncated or made up.
:func:`cardcli.records.io.decode` runs :func:`problem` on every record it reads, and
:func:`cardcli.replay.walk` runs it again on a record handed to it directly, so ``verify``,
``replay``, ``watch`` and a tournament's table only ever meet well-typed data: a record that
passes cannot make any of them fail other than with a message. That is why the check is
strict where a reader indexes, counts or prints (seat numbers within the seats, score lists
one per seat, integers that fit 64 bits and are not booleans, texts of bounded length) and
why it covers every move, although the walk reads each move anyway: the moves of the longest
real record (14,000) take 4 ms to check, against the 200 ms the walk spends on them, and one
complete check is simpler to trust than a check split between two modules.

Whether the values are the ones the rules give is not a question of shape; ``verify`` answers
it.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Any, TypeGuard

MAX_TEXT = 8192
"""Longest text (in characters) of a move, a kind, a note, a fault's detail, a bot's ``id``
field, an option or a card. The referee writes none longer: a bot's line is at most 8192
bytes, and details and info texts are cut shorter."""

MAX_COMMAND_TEXT = 131072
"""Longest seat ``name`` and ``spec``, ``command`` word and tournament entrant name: they may
come from the command line, where one argument can be this long (Linux's ``MAX_ARG_STRLEN``)."""

MAX_SEATS = 16
"""Most seats a record may have (every game has at most 5)."""

_INT_LOW, _INT_HIGH = -(2**63), 2**63 - 1
"""The range of every integer in a record: seeds are below 2**63, scores far inside it, and a
reader computes with them (averages, ratings) without meeting a number too big for a float."""


class Status(StrEnum):
    """A record's ``status`` (the values are the texts written there)."""

    COMPLETE = "complete"
    """The match reached its end, or its deal limit: it has a result."""
    ABORTED = "aborted"
    """The fault policy stopped the match: no result."""
    INTERRUPTED = "interrupted"
    """Ctrl-C or SIGTERM stopped the match: no result."""


_STATUSES = tuple(status.value for status in Status)
_BY = ("seat", "fallback")


def _is_int(value: Any, low: int = _INT_LOW, high: int = _INT_HIGH) -> bool:
    """An integer in range; JSON has no subclasses, and a bool is not a number here."""
    return type(value) is int and low <= value <= high


def _is_text(value: Any, limit: int = MAX_TEXT) -> bool:
    return type(value) is str and len(value) <= limit


def _is_number(value: Any) -> bool:
    """A finite number (an overlong float literal such as ``1e999`` reads as infinity)."""
    return (type(value) is float and math.isfinite(value)) or _is_int(value)


def _ints(value: Any) -> TypeGuard[list[int]]:
    return type(value) is list and all(_is_int(v) for v in value)


def _texts(value: Any, limit: int = MAX_TEXT) -> TypeGuard[list[str]]:
    return type(value) is list and all(_is_text(v, limit) for v in value)


def _seat_list(value: Any, seats: int) -> bool:
    return type(value) is list and all(_is_int(v, 0, seats - 1) for v in value)


def _text_kind(limit: int = MAX_TEXT) -> str:
    return f"a text of at most {limit} characters"


REQUIRED = ("game", "variant", "options", "seed", "status", "seats", "deals", "faults", "settings", "result")
"""The fields every record has and some reader uses without a default."""


def problem(record: Any) -> str | None:
    """What is wrong with the record's shape (the first thing found), or None when every
    field a reader uses has its type and bounds."""
    if type(record) is not dict:
        return "a record is a JSON object"
    for key in REQUIRED:
        if key not in record:
            return f"the record has no {key!r}"
    for key, ok, kind in (
        ("game", _is_text(record["game"]), _text_kind()),
        ("variant", _is_text(record["variant"]), _text_kind()),
        ("status", record["status"] in _STATUSES, "'complete', 'aborted' or 'interrupted'"),
        ("seed", _is_int(record["seed"], 0), "an integer from 0 to 2**63 - 1"),
        ("adjudicated", type(record.get("adjudicated", False)) is bool, "true or false"),
        ("first_dealer", _is_int(record.get("first_dealer", 0)), "an integer"),
        ("software", _is_text(record.get("software", "")), _text_kind()),
        ("started", _is_text(record.get("started", "")), _text_kind()),
        ("finished", _is_text(record.get("finished", "")), _text_kind()),
        ("seats", type(record["seats"]) is list and 1 <= len(record["seats"]) <= MAX_SEATS,
         f"a list of 1 to {MAX_SEATS} seats"),
        ("deals", type(record["deals"]) is list, "a list"),
        ("faults", type(record["faults"]) is list, "a list"),
    ):
        if not ok:
            return f"{key!r} must be {kind}"
    seats = len(record["seats"])
    for found in (
        _options_problem(record["options"]),
        _settings_problem(record["settings"]),
        _seats_problem(record["seats"]),
        _deals_problem(record["deals"], seats),
        _faults_problem(record["faults"], seats),
        _result_problem(record["result"], seats),
        _tournament_problem(record.get("tournament"), seats),
        _info_problem(record.get("info")),
        _signature_problem(record.get("signature")),
    ):
        if found is not None:
            return found
    return None


def _options_problem(options: Any) -> str | None:
    if type(options) is not dict:
        return "'options' must be an object"
    for name, value in options.items():
        if not _is_text(name, 100):
            return "'options' names must be texts of at most 100 characters"
        if not (type(value) is bool or _is_int(value) or _is_text(value) or _texts(value)):
            return f"option {name!r} must be true, false, an integer, a text or a list of texts"
    return None


def _settings_problem(settings: Any) -> str | None:
    if type(settings) is not dict:
        return "'settings' must be an object"
    for key in ("move_time", "startup_time", "quit_grace"):
        if key in settings and not _is_number(settings[key]):
            return f"'settings.{key}' must be a number"
    if "max_deals" in settings and not _is_int(settings["max_deals"], 1):
        return "'settings.max_deals' must be a positive integer"
    if "on_fault" in settings and not _is_text(settings["on_fault"]):
        return f"'settings.on_fault' must be {_text_kind()}"
    if "keep_info" in settings and type(settings["keep_info"]) is not bool:
        return "'settings.keep_info' must be true or false"
    bank = settings.get("time_bank")
    if bank is not None and not (_is_number(bank) and bank > 0):
        return "'settings.time_bank' must be null or a positive number"
    return None


def _seats_problem(seats: list[Any]) -> str | None:
    for place, seat in enumerate(seats):
        at = f"seat {place}"
        if type(seat) is not dict:
            return f"{at} must be an object"
        if seat.get("seat", place) != place or type(seat.get("seat", place)) is not int:
            return f"{at}: 'seat' must be its place in the list, {place}"
        if not _is_text(seat.get("name"), MAX_COMMAND_TEXT):
            return f"{at}: 'name' must be {_text_kind(MAX_COMMAND_TEXT)}"
        if not _is_text(seat.get("spec", ""), MAX_COMMAND_TEXT):
            return f"{at}: 'spec' must be {_text_kind(MAX_COMMAND_TEXT)}"
        if not _is_text(seat.get("kind", "")):
            return f"{at}: 'kind' must be {_text_kind()}"
        command = seat.get("command")
        if command is not None and not _texts(command, MAX_COMMAND_TEXT):
            return f"{at}: 'command' must be null or a list of texts of at most {MAX_COMMAND_TEXT} characters"
        if not _is_int(seat.get("ignored_lines", 0), 0):
            return f"{at}: 'ignored_lines' must be a non-negative integer"
        if seat.get("sandbox") is not None and not _is_text(seat["sandbox"]):
            return f"{at}: 'sandbox' must be null or {_text_kind()}"
        found = _bot_problem(seat.get("bot", {})) or _set_options_problem(seat.get("set_options", []))
        if found is not None:
            return f"{at}: {found}"
    return None


def _set_options_problem(options: Any) -> str | None:
    if type(options) is not list or not all(
            type(o) is dict and _is_text(o.get("name")) and _is_text(o.get("value")) and type(o.get("sent")) is bool
            for o in options):
        return "'set_options' must be a list of objects of 'name', 'value' (texts) and 'sent' (true or false)"
    return None


def _bot_problem(bot: Any) -> str | None:
    if type(bot) is not dict:
        return "'bot' must be an object"
    for key in ("name", "author", "version"):
        value = bot.get(key)
        if value is not None and not _is_text(value):
            return f"'bot.{key}' must be null or {_text_kind()}"
    options = bot.get("options", [])
    if type(options) is not list or not all(type(o) is list and len(o) == 2 and _texts(o) for o in options):
        return "'bot.options' must be a list of [name, value] text pairs"
    return None


def _deals_problem(deals: list[Any], seats: int) -> str | None:
    for number, deal in enumerate(deals, start=1):
        found = _deal_problem(deal, seats)
        if found is not None:
            return f"deal {number}: {found}"
    return None


def _deal_problem(deal: Any, seats: int) -> str | None:
    if type(deal) is not dict:
        return "a deal must be an object"
    if not _is_int(deal.get("number"), 1):
        return "'number' must be a positive integer"
    if not _is_int(deal.get("dealer"), 0, seats - 1):
        return "'dealer' must be a seat number"
    hands = deal.get("hands", [])
    if type(hands) is not list or not all(_texts(h) for h in hands):
        return "'hands' must be a list of lists of cards"
    for key in ("floor", "dead"):
        if key in deal and not _texts(deal[key]):
            return f"{key!r} must be a list of cards"
    moves = deal.get("moves")
    if type(moves) is not list:
        return "'moves' must be a list"
    found = _moves_problem(moves, seats)
    if found is not None:
        return found
    for key in ("points", "totals"):
        value = deal.get(key)
        if value is not None and not (_ints(value) and len(value) == seats):
            return f"{key!r} must be null or a list of {seats} integers, one per seat"
    if not _texts(deal.get("notes", [])):
        return "'notes' must be a list of texts"
    return None


def _moves_problem(moves: list[Any], seats: int) -> str | None:
    """Every move's fields; written out flat, as the longest records hold 14,000 moves: the
    common case is one expression per move, and a bad move is looked at again to say why."""
    isfinite = math.isfinite
    for move in moves:
        if (
            type(move) is dict
            and type(seat := move.get("seat")) is int and 0 <= seat < seats
            and type(kind := move.get("kind")) is str and len(kind) <= MAX_TEXT
            and type(text := move.get("move")) is str and len(text) <= MAX_TEXT
            and ((type(ms := move.get("ms")) is float and isfinite(ms)) or (type(ms) is int and _INT_LOW <= ms <= _INT_HIGH))
            and ("by" not in move or move["by"] in _BY)
            and ("bank_ms" not in move or _is_bank(move["bank_ms"]))
        ):
            continue
        break
    else:
        return None
    for m, move in enumerate(moves, start=1):
        if type(move) is not dict:
            return f"move {m} must be an object"
        seat, kind, text, ms = move.get("seat"), move.get("kind"), move.get("move"), move.get("ms")
        if type(seat) is not int or not 0 <= seat < seats:
            return f"move {m}: 'seat' must be a seat number"
        if type(kind) is not str or len(kind) > MAX_TEXT or type(text) is not str or len(text) > MAX_TEXT:
            return f"move {m}: 'kind' and 'move' must be texts of at most {MAX_TEXT} characters"
        if not ((type(ms) is float and math.isfinite(ms)) or _is_int(ms)):
            return f"move {m}: 'ms' must be a number"
        if "by" in move and move["by"] not in _BY:
            return f"move {m}: 'by' must be 'seat' or 'fallback'"
        if "bank_ms" in move and not _is_bank(move["bank_ms"]):
            return f"move {m}: 'bank_ms' must be a non-negative number"
    return None


def _is_bank(value: Any) -> bool:
    return _is_number(value) and value >= 0


def _faults_problem(faults: list[Any], seats: int) -> str | None:
    for number, fault in enumerate(faults, start=1):
        at = f"fault {number}"
        if type(fault) is not dict:
            return f"{at} must be an object"
        if not _is_int(fault.get("seat"), 0, seats - 1):
            return f"{at}: 'seat' must be a seat number"
        if not (_is_text(fault.get("kind")) and _is_text(fault.get("detail"))):
            return f"{at}: 'kind' and 'detail' must be texts of at most {MAX_TEXT} characters"
        if not (_is_int(fault.get("deal"), 0) and _is_int(fault.get("move"), 0)):
            return f"{at}: 'deal' and 'move' must be non-negative integers"
    return None


def _result_problem(result: Any, seats: int) -> str | None:
    if result is None:
        return None
    if type(result) is not dict:
        return "'result' must be null or an object"
    if not (_ints(result.get("scores")) and len(result["scores"]) == seats):
        return f"'result.scores' must be a list of {seats} integers, one per seat"
    for key in ("winners", "losers", "draws", "forfeits"):
        if not _seat_list(result.get(key), seats):
            return f"'result.{key}' must be a list of seat numbers"
    if type(result.get("annulled", False)) is not bool:
        return "'result.annulled' must be true or false"
    return None


def _tournament_problem(tournament: Any, seats: int) -> str | None:
    if tournament is None:
        return None
    if type(tournament) is not dict:
        return "'tournament' must be an object"
    if not _is_int(tournament.get("index"), 0):
        return "'tournament.index' must be a non-negative integer"
    for key in ("deal_set", "rotation"):
        if key in tournament and not _is_int(tournament[key], 0):
            return f"'tournament.{key}' must be a non-negative integer"
    if "key" in tournament and not _is_text(tournament["key"]):
        return f"'tournament.key' must be {_text_kind()}"
    seating = tournament.get("seating")
    if not (_ints(seating) and len(seating) == seats and all(e >= 0 for e in seating)):
        return f"'tournament.seating' must be a list of {seats} entrant numbers, one per seat"
    entrants = tournament.get("entrants", [""] * seats)
    if not (_texts(entrants, MAX_COMMAND_TEXT) and len(entrants) == seats):
        return f"'tournament.entrants' must be a list of {seats} names, one per seat"
    return None


def _info_problem(info: Any) -> str | None:
    if info is None:
        return None
    if type(info) is not dict or not all(_texts(v) for v in info.values()):
        return "'info' must be an object of lists of texts"
    return None


def _signature_problem(signature: Any) -> str | None:
    """A signature (``cardcli/records/signing.py``): its shape only; whether it holds is ``verify
    --public-key``'s question."""
    if signature is None:
        return None
    if (type(signature) is not dict or set(signature) != {"alg", "key", "sig"} or signature["alg"] != "ed25519"
            or not (_is_text(signature["key"], 200) and _is_text(signature["sig"], 200))):
        return "'signature' must be an object of 'alg' (\"ed25519\"), 'key' and 'sig' (texts)"
    return None


_SETTINGS = {"move_time", "startup_time", "quit_grace", "on_fault", "keep_info", "max_deals", "time_bank"}
_LIMITS = {"memory_mb", "cpu_seconds", "open_files", "processes"}


def _sandbox_ok(sandbox: Any) -> bool:
    disk = sandbox.get("disk_mib", 1) if type(sandbox) is dict else None
    return (type(sandbox) is dict and set(sandbox) <= {"mode", "network", "binds", "disk_mib"}
            and sandbox.get("mode", "off") in ("auto", "on", "off")
            and type(sandbox.get("network", False)) is bool
            and type(disk) is int and 1 <= disk <= 1 << 20
            and type(sandbox.get("binds", [])) is list and _texts(sandbox.get("binds", []), MAX_COMMAND_TEXT))


def _text_map(value: Any) -> bool:
    return type(value) is dict and all(_is_text(k) and _is_text(v, MAX_COMMAND_TEXT) for k, v in value.items())


def _entrant_settings_ok(settings: Any, entrants: Any) -> bool:
    """A configuration's ``entrant_settings``: for entrants it has, their working directory,
    environment and bot options."""
    if type(settings) is not dict:
        return False
    names = {e[0] for e in entrants if type(e) is list and e} if type(entrants) is list else set()
    for name, entry in settings.items():
        if name not in names or type(entry) is not dict \
                or not set(entry) <= {"dir", "dir_shown", "sandbox_bind", "env", "options"}:
            return False
        if "dir" in entry and not _is_text(entry["dir"], MAX_COMMAND_TEXT):
            return False
        if type(entry.get("dir_shown", False)) is not bool:
            return False
        binds = entry.get("sandbox_bind", [])
        if type(binds) is not list or not _texts(binds, MAX_COMMAND_TEXT):
            return False
        if not all(_text_map(entry[key]) for key in ("env", "options") if key in entry):
            return False
    return True


def config_problem(config: Any) -> str | None:
    """What is wrong with a tournament's ``config.json``, or None: the fields the runner and
    the table use, with their types, so a damaged configuration is a message, not a crash
    in the middle of a resumed run."""
    if type(config) is not dict:
        return "a configuration is a JSON object"
    entrants = config.get("entrants")
    for key, ok, kind in (
        ("game", _is_text(config.get("game")), _text_kind()),
        ("variant", config.get("variant") is None or _is_text(config.get("variant")), "null or a text"),
        ("options", type(config.get("options")) is dict
         and all(_is_text(k, 100) and _is_text(v) for k, v in config["options"].items()), "an object of texts"),
        ("players", _is_int(config.get("players"), 1, MAX_SEATS), f"an integer from 1 to {MAX_SEATS}"),
        ("entrants", type(entrants) is list and len(entrants) >= 2
         and all(type(e) is list and len(e) == 2 and _texts(e, MAX_COMMAND_TEXT) for e in entrants),
         "a list of at least two [name, spec] pairs"),
        ("deal_sets", _is_int(config.get("deal_sets"), 1), "a positive integer"),
        ("seed", _is_int(config.get("seed"), 0), "an integer from 0 to 2**63 - 1"),
        ("settings", type(config.get("settings", {})) is dict and set(config.get("settings", {})) <= _SETTINGS
         and _settings_problem(config.get("settings", {})) is None, "an object of the match settings"),
        ("limits", type(config.get("limits", {})) is dict and set(config.get("limits", {})) <= _LIMITS
         and all(v is None or _is_int(v, 1) for v in config.get("limits", {}).values()),
         "an object of the bot limits, positive integers or nulls"),
        ("sandbox", _sandbox_ok(config.get("sandbox", {})), "an object of mode (auto, on or off), network, binds and disk_mib"),
        ("sign_key", config.get("sign_key") is None or _is_text(config.get("sign_key"), MAX_COMMAND_TEXT),
         "null or the path of a private key"),
        ("gauntlet", config.get("gauntlet") is None
         or (type(entrants) is list and any(type(e) is list and e[:1] == [config["gauntlet"]] for e in entrants)),
         "null or the name of an entrant"),
        ("entrant_settings", _entrant_settings_ok(config.get("entrant_settings", {}), entrants),
         "an object of entrant names, each an object of 'dir' (a text), 'env' and 'options' (objects of texts)"),
    ):
        if not ok:
            return f"{key!r} must be {kind}"
    for key in ("duplicate", "permutations", "keep_alive"):
        if key in config and type(config[key]) is not bool:
            return f"{key!r} must be true or false"
    return None
