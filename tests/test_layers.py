"""The package's layers (docs/design.md, "Layers") hold, and no import cycle is left.

import-linter's contracts in pyproject.toml (``[tool.importlinter]``) state the layers, that no
game's folder imports another's, and what the folders and the command line may not reach; the
contracts are run here, and every module of cardcli must sit in a layer and every game's folder
in the independence contract, so that a new module or game cannot slip past them. Apart from
the contracts, grimp's graph of the package must hold no cycle at all: none between modules,
and none between the packages of any one package (a cycle between two subpackages is one even
when no two modules form one). An import inside a function counts like any other; one made
only for annotations (``if TYPE_CHECKING:``) does not, as in the contracts.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Iterable, Mapping

import grimp

from conftest import ROOT

IMPORTLINTER = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
CONTRACTS = {contract["id"]: contract for contract in IMPORTLINTER["contracts"]}


def build(package: str) -> grimp.ImportGraph:
    return grimp.build_graph(package, exclude_type_checking_imports=IMPORTLINTER["exclude_type_checking_imports"],
                             cache_dir=None)


@functools.cache
def graph() -> grimp.ImportGraph:
    return build("cardcli")


def cycle(edges: Mapping[str, Iterable[str]]) -> list[str] | None:
    """One cycle of the directed graph ``edges`` (its nodes in order, the first repeated at the
    end), or None when there is none."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done, no cycle through it
    for start in sorted(edges):
        if start in state:
            continue
        path = [start]
        todo = [iter(sorted(edges.get(start, ())))]
        state[start] = 1
        while todo:
            node = next(todo[-1], None)
            if node is None:
                state[path.pop()] = 2
                todo.pop()
            elif state.get(node) == 1:
                return path[path.index(node):] + [node]
            elif node not in state:
                state[node] = 1
                path.append(node)
                todo.append(iter(sorted(edges.get(node, ()))))
    return None


def module_edges(g: grimp.ImportGraph) -> dict[str, set[str]]:
    return {module: set(g.find_modules_directly_imported_by(module)) for module in g.modules}


def package_cycles(g: grimp.ImportGraph) -> dict[str, list[str]]:
    """Each package whose children (a subpackage standing for all its modules) import each
    other in a circle, with that circle."""
    found = {}
    edges = module_edges(g)
    for package in sorted(m for m in g.modules if g.find_children(m)):
        children = g.find_children(package)
        depth = package.count(".") + 1

        def child_of(module: str) -> str | None:
            parts = module.split(".")
            child = ".".join(parts[:depth + 1])
            return child if len(parts) > depth and child in children else None

        squashed: dict[str, set[str]] = {child: set() for child in children}
        for importer, imported in ((a, b) for a, bs in edges.items() for b in bs):
            a, b = child_of(importer), child_of(imported)
            if a is not None and b is not None and a != b:
                squashed[a].add(b)
        circle = cycle(squashed)
        if circle is not None:
            found[package] = circle
    return found


def layer_modules(contract: Mapping[str, object]) -> list[str]:
    return [name.strip() for layer in contract["layers"] for name in layer.replace(":", "|").split("|")]  # type: ignore[attr-defined]


def test_the_contracts_hold() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                           "sys.exit(lint_imports_command())", "--no-cache"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(CONTRACTS)} kept, 0 broken" in done.stdout, done.stdout


def test_the_checked_package_is_this_tree() -> None:
    import cardcli

    assert Path(cardcli.__file__).resolve().parent == ROOT / "cardcli"


def test_every_module_is_in_a_layer() -> None:
    layers = layer_modules(CONTRACTS["layers"])
    outside = sorted(m for m in graph().modules
                     if m != "cardcli" and not any(m == layer or m.startswith(layer + ".") for layer in layers))
    assert outside == []


def test_every_game_s_folder_is_in_the_independence_contract() -> None:
    assert sorted(CONTRACTS["game-folders"]["modules"]) == sorted(graph().find_children("cardcli.plugins"))


def test_no_module_imports_itself_in_a_circle() -> None:
    assert cycle(module_edges(graph())) is None


def test_no_package_imports_itself_in_a_circle() -> None:
    assert package_cycles(graph()) == {}


def synthetic(imports: Iterable[tuple[str, str]]) -> grimp.ImportGraph:
    g = grimp.ImportGraph()
    for importer, imported in imports:
        for module in (importer, imported):
            parts = module.split(".")
            for k in range(1, len(parts) + 1):
                g.add_module(".".join(parts[:k]))
        g.add_import(importer=importer, imported=imported)
    return g


def test_the_checks_find_a_circle_of_modules_and_one_of_packages_only() -> None:
    modules = synthetic([("app.a.x", "app.b.y"), ("app.b.y", "app.c"), ("app.c", "app.a.x")])
    assert cycle(module_edges(modules)) == ["app.a.x", "app.b.y", "app.c", "app.a.x"]
    packages = synthetic([("app.a.x", "app.b.y"), ("app.b.z", "app.a.w")])
    assert cycle(module_edges(packages)) is None
    assert package_cycles(packages) == {"app": ["app.a", "app.b", "app.a"]}
    assert package_cycles(synthetic([("app.a.x", "app.b.y"), ("app.b.z", "app.c")])) == {}


def test_a_circle_planted_in_a_copy_through_an_import_in_a_function_is_found(tmp_path: Path) -> None:
    copy = tmp_path / "cardcli_copy"
    shutil.copytree(ROOT / "cardcli", copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "seats" / "planted.py").write_text(
        "def later():\n    from ..players import heuristic  # hidden in a function, a dependency still\n"
        "    return heuristic\n")
    sys.path.insert(0, str(tmp_path))
    try:
        planted = build("cardcli_copy")
    finally:
        sys.path.remove(str(tmp_path))
    assert cycle(module_edges(planted)) is None  # no two modules import each other in a circle
    found = package_cycles(planted)
    assert list(found) == ["cardcli_copy"], found
    assert set(found["cardcli_copy"]) == {"cardcli_copy.seats", "cardcli_copy.players"}
