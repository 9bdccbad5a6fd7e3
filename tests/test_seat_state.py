"""A seat's state is written by the seat alone: no module of cardcli assigns an attribute of a
seat from outside its class. What a seat is told comes in as a constructor argument or through a
method that says what it sets (:class:`cardcli.seats.base.Seat`, :class:`~cardcli.seats.base.SeatBase`).

The check reads the source (``ast``) and is kept simple rather than complete. In each function
(module-level code is not read), a name stands for a seat when

- it is annotated with a seat type (``Seat``, ``SeatBase`` or any class of cardcli derived from
  it, by name), as a parameter or a variable;
- it is assigned the result of a call to a seat class or to a function of cardcli annotated to
  return one (``make_seat``, ``random_seat``...);
- it is taken from seats: ``x = seats[i]``, ``for x in seats``, ``for i, x in enumerate(seats)``,
  where ``seats`` is any name or attribute whose name ends in ``seats`` (but a parameter
  annotated with another type);
- it is named ``seat`` or ends in ``_seat``.

An assignment (plain, augmented or annotated) to an attribute of such a name, or of
``seats[i]``, is a write from outside, wherever it is: a seat class writes its own state
through ``self``, which the check leaves alone.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator

from conftest import ROOT

PACKAGE = ROOT / "cardcli"
ROOTS = frozenset({"Seat", "SeatBase"})


def _trees(paths: list[Path]) -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in paths}


def seat_classes(trees: dict[Path, ast.Module]) -> frozenset[str]:
    """The names of the seat classes: ``Seat``, ``SeatBase`` and every class derived from one,
    following base classes by name."""
    bases: dict[str, set[str]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(_name(b) for b in node.bases)
    found = set(ROOTS)
    while True:
        more = {name for name, of in bases.items() if name not in found and of & found}
        if not more:
            return frozenset(found)
        found |= more


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        return _name(node.value)
    return ""


def _is_seat_type(annotation: ast.expr | None, classes: frozenset[str]) -> bool:
    if annotation is None:
        return False
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return False
    return any(isinstance(n, (ast.Name, ast.Attribute)) and _name(n) in classes for n in ast.walk(annotation))


def seat_makers(trees: dict[Path, ast.Module], classes: frozenset[str]) -> frozenset[str]:
    """The seat classes and the functions annotated to return a single seat."""
    makers = set(classes)
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                returns = node.returns
                if isinstance(returns, (ast.Name, ast.Attribute, ast.Constant)) and _is_seat_type(returns, classes):
                    makers.add(node.name)
    return frozenset(makers)


def _is_seats(node: ast.expr, others: frozenset[str] = frozenset()) -> bool:
    """Whether ``node`` holds seats by its name; ``others``: names annotated with other types."""
    if isinstance(node, ast.Call) and _name(node.func) in ("enumerate", "list", "sorted", "reversed"):
        return bool(node.args) and _is_seats(node.args[0], others)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "values":
        return _is_seats(node.func.value, others)
    if isinstance(node, ast.Name) and node.id in others:
        return False
    return isinstance(node, (ast.Name, ast.Attribute)) and _name(node).endswith("seats")


def _is_seat_name(name: str) -> bool:
    return name == "seat" or name.endswith("_seat")


def _seat_names(function: ast.AST, classes: frozenset[str], makers: frozenset[str]) -> set[str]:
    names: set[str] = set()
    annotated: set[str] = set()
    if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        args = function.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            if _is_seat_type(arg.annotation, classes):
                names.add(arg.arg)
            elif arg.annotation is not None:
                annotated.add(arg.arg)
    others = frozenset(annotated)
    for node in ast.walk(function):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if _is_seat_type(node.annotation, classes) and not _name(node.annotation).endswith(("list", "dict")):
                names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            value = node.value
            seat = ((isinstance(value, ast.Call) and _name(value.func) in makers)
                    or (isinstance(value, ast.Subscript) and _is_seats(value.value, others)))
            if seat:
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.For, ast.comprehension)) and _is_seats(node.iter, others):
            target = node.target
            if isinstance(node.iter, ast.Call) and _name(node.iter.func) == "enumerate":
                if isinstance(target, ast.Tuple) and len(target.elts) == 2:
                    target = target.elts[1]
            if isinstance(target, ast.Name):
                names.add(target.id)
    return names


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return [t for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Attribute)]
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Attribute):
        return [node.target]
    return []


def writes_from_outside(trees: dict[Path, ast.Module], classes: frozenset[str] | None = None) -> Iterator[str]:
    """``path:line: target`` for every assignment to an attribute of a seat from outside the
    seat (see the module's docstring)."""
    classes = classes if classes is not None else seat_classes(trees)
    makers = seat_makers(trees, classes)
    for path, tree in trees.items():
        scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        seen: set[int] = set()
        for scope in scopes:
            names = _seat_names(scope, classes, makers)
            for node in ast.walk(scope):
                for target in _targets(node):
                    assert isinstance(target, ast.Attribute)
                    owner = target.value
                    outside = ((isinstance(owner, ast.Name) and owner.id != "self"
                                and (owner.id in names or _is_seat_name(owner.id)))
                               or (isinstance(owner, ast.Subscript) and _is_seats(owner.value)))
                    if outside and id(target) not in seen:
                        seen.add(id(target))
                        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                        yield f"{where}:{target.lineno}: {ast.unparse(target)}"


def test_no_module_writes_a_seat_s_attributes_from_outside() -> None:
    trees = _trees(sorted(PACKAGE.rglob("*.py")))
    assert {"SeatBase", "LineSeat", "ProcessSeat", "RemoteSeat", "InProcessSeat"} <= seat_classes(trees)
    assert sorted(set(writes_from_outside(trees))) == []


PLANTED = '''
from cardcli.seats.base import Seat, SeatBase


class MySeat(SeatBase):
    def __init__(self, label: str) -> None:
        super().__init__(label)
        self.tag = "mine"  # its own state: allowed


def make_mine(label: str) -> MySeat:
    return MySeat(label)


def rename(seat: Seat, other: "SeatBase") -> None:
    seat.tag = "a"
    other.kind = "b"


def configure(seats: list[Seat], count: int) -> None:
    seats[0].grace = 1.0
    for index, bot in enumerate(seats):
        bot.info = []
    mine = make_mine("x")
    mine.label = "y"
    count.real = 1  # not a seat
'''


def test_the_check_finds_writes_planted_in_a_module(tmp_path: Path) -> None:
    planted = tmp_path / "pkg" / "planted.py"
    planted.parent.mkdir()
    planted.write_text(PLANTED, encoding="utf-8")
    trees = _trees([planted])
    found = [line.split(": ", 1)[1] for line in writes_from_outside(trees, seat_classes(trees))]
    assert sorted(found) == ["bot.info", "mine.label", "other.kind", "seat.tag", "seats[0].grace"]
