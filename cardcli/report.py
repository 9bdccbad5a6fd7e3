"""What ``play`` tells the user at the end of a match: a text summary and the JSON object."""

from __future__ import annotations

import sys
from typing import Any, Sequence

from .games import options as opt
from .games.registry import Setup
from .records.shape import Status
from .records.model import Record
from .referee import MatchResult
from .replay import listed
from .safe_text import DETAIL_WIDTH, display_name, printable
from .seats.base import Seat


STOPPED_NOTE = {Status.ABORTED: "the match was aborted by the fault policy; no result",
                Status.INTERRUPTED: "the match was interrupted (Ctrl-C or SIGTERM) before its end; no result"}
"""What a summary says of a match that has no result, by its status."""


def summary_json(setup: Setup, result: MatchResult, record_path: str | None) -> dict[str, Any]:
    """The object ``play --json`` prints (documented in ``docs/json.md``)."""
    record = Record.from_json(result.record)
    outcome = result.outcome
    players = []
    for s, seat in enumerate(record.seats):
        players.append(
            {
                "seat": s,
                "name": seat.name,
                "spec": seat.spec,
                "score": outcome.scores[s] if outcome else _last_total(record, s),
                "standing": outcome.standing(s) if outcome else None,
                "forfeit": bool(outcome and s in outcome.forfeits),
            }
        )
    teams = [
        {"seats": list(team), "score": players[team[0]]["score"]} for team in setup.spec.teams(setup.num_players)
    ]
    return {
        "game": setup.spec.name,
        "variant": setup.variant.name,
        "options": opt.to_json(setup.options),
        "seed": setup.seed,
        "status": record.status,
        "adjudicated": record.adjudicated,
        "players": players,
        "teams": teams,
        "winners": list(outcome.winners) if outcome else [],
        "losers": list(outcome.losers) if outcome else [],
        "draws": list(outcome.draws) if outcome else [],
        "annulled": bool(outcome and outcome.annulled),
        "lower_is_better": bool(outcome and outcome.lower_is_better),
        "deals": len(record.deals),
        "deal_scores": [
            {"number": d.number, "points": list(d.points), "totals": listed(d.totals), "notes": list(d.notes)}
            for d in record.deals
            if d.points is not None
        ],
        "faults": [
            {"seat": f.seat, "kind": f.kind, "detail": f.detail, "deal": f.deal}
            for f in record.faults
        ],
        "record": record_path,
    }


def _last_total(record: Record, seat: int) -> int | None:
    finished = [d.totals for d in record.deals if d.totals is not None]
    return finished[-1][seat] if finished else None


DEALS_ON_A_TERMINAL = 20
"""Deal rows the summary shows on a terminal: the first and last half of them, the middle
elided in one line. A match can last up to ``--max-deals`` (500) deals, a table taller than
any screen, whose end (totals, winners, faults) would scroll away; piped output, which a
script may read, has every deal, and ``--json`` has them all anyway."""


def summary_text(setup: Setup, result: MatchResult, record_path: str | None,
                 deals_shown: int | None = None) -> str:
    """The summary ``play`` prints. Bot names and fault details come from the bots, so they
    pass through :func:`printable` (a name could otherwise clear the screen or forge the
    winners line). At most ``deals_shown`` deal rows (the first and last ones); by default
    :data:`DEALS_ON_A_TERMINAL` when standard output is a terminal, else every deal."""
    if deals_shown is None:
        deals_shown = DEALS_ON_A_TERMINAL if _on_a_terminal() else 0
    data = summary_json(setup, result, record_path)
    names = [f"{p['seat']}:{display_name(p['name'])}" for p in data["players"]]
    changed = [
        f"{s.name}={s.format(getattr(setup.options, s.name))}"
        for s in opt.specs(setup.spec.options_class, setup.variant.defaults)
        if getattr(setup.options, s.name) != s.default
    ]
    lines = [
        f"{setup.spec.title} - variant {setup.variant.name} - seed {setup.seed}",
        "seats: " + ", ".join(names),
        "options: " + (" ".join(changed) if changed else f"{setup.variant.name} defaults"),
        "",
    ]
    width = max(6, *(len(n) for n in names))
    header = "deal  " + "".join(f"{n:>{width + 2}}" for n in names) + "  note"
    lines.append(header)
    scored = data["deal_scores"]
    head, tail = len(scored), 0
    if deals_shown and len(scored) > deals_shown + 1:  # eliding a single row would save nothing
        head, tail = (deals_shown + 1) // 2, deals_shown // 2
    for d in scored[:head]:
        lines.append(_deal_row(d, width))
    if tail:
        hidden = scored[head:-tail]
        lines.append(f"{'...':>4}  {len(hidden)} deals not shown ({hidden[0]['number']} to {hidden[-1]['number']}; "
                     "every deal is printed when the output is not a terminal, and with --json)")
        for d in scored[-tail:]:
            lines.append(_deal_row(d, width))
    totals = "".join(f"{p['score'] if p['score'] is not None else '-':>{width + 2}}" for p in data["players"])
    lines.append(f"{'total':>4}  {totals}")
    lines.append("")
    if data["adjudicated"]:
        lines.append(f"adjudicated by the totals after {data['deals']} deals (--max-deals)")
    if data["annulled"]:
        lines.append("the match is annulled: nobody wins or loses")
    elif data["status"] == Status.COMPLETE:
        order = "lowest wins" if data["lower_is_better"] else "highest wins"
        lines.append(f"winners: {_seats(data, data['winners'])}   ({order})")
        lines.append(f"losers:  {_seats(data, data['losers'])}")
        if data["draws"]:
            lines.append(f"draws:   {_seats(data, data['draws'])}")
    else:
        lines.append(STOPPED_NOTE[data["status"]])
    for f in data["faults"]:
        detail = printable(f["detail"], DETAIL_WIDTH)
        lines.append(f"fault: seat {f['seat']} {f['kind']} in deal {f['deal']}: {detail}")
    if record_path:
        lines.append(f"record: {printable(record_path)}")
    return "\n".join(lines)


def _deal_row(deal: dict[str, Any], width: int) -> str:
    cells = "".join(f"{p:>{width + 2}}" for p in deal["points"])
    return f"{deal['number']:>4}  {cells}  {' '.join(deal['notes'])}".rstrip()


def _on_a_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


def _seats(data: dict[str, Any], seats: list[int]) -> str:
    by_seat = {p["seat"]: p for p in data["players"]}
    return ", ".join(
        f"{s}:{display_name(by_seat[s]['name'])}" + (" (forfeit)" if by_seat[s]["forfeit"] else "") for s in seats
    ) or "-"


def closing_notes(seats: Sequence[Seat], grace: float) -> list[str]:
    """What bots did at the very end that a tournament would suffer from, one line per such
    seat, for ``play`` to print on stderr once its seats are closed: exiting before ``quit``
    (a tournament keeps a bot for its next match, where it faults), ignoring ``quit`` (it is
    killed after the grace), and leaving processes behind. No fault: the matches were played."""
    notes = []
    for index, seat in enumerate(seats):
        did = []
        left = getattr(seat, "left_before_quit", None)
        if left is not None:
            did.append(f"{left}: a bot must keep reading until 'quit' (a tournament keeps it for its next match)")
        elif getattr(seat, "quit_obeyed", None) is False:
            did.append(f"ignored 'quit': it was still running {grace:g} s after it, and was killed; exit on 'quit'")
        behind = getattr(seat, "left_behind", 0)
        if behind:
            did.append(f"left {behind} process(es) running when it exited (the referee killed them): end your child "
                       "processes before exiting")
        if did:
            name = display_name(seat.identity.name or seat.label)
            notes.append(f"cardcli: seat {index} ({name}) " + "; and ".join(did))
    return notes
