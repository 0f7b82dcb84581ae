"""The package's layout, read from its source with ``ast`` (nothing is imported or run);
``docs/architecture.md`` says the same for readers.

- **No import circle** among sunbot's modules. An import inside a function counts (it is an
  arrow all the same, taken later); one under ``if TYPE_CHECKING:`` does not (it never
  runs). ``from P import x`` leans on ``P``'s face (its ``__init__.py``) as well as on the
  submodule ``P.x``, so inside a package a module imports its siblings by their whole path
  (``from sunbot.server.openapi import answers`` or ``import sunbot.server.openapi as
  openapi``), never through the face that imports it. Importing ``A.B.C`` from outside
  ``A.B`` runs ``A.B``'s face first, so that is an arrow too. The ``"module:attr"``
  references of the games table (:mod:`sunbot.games`) are imported on first use by name and
  are not arrows.
- **The import contracts** of ``pyproject.toml`` (import-linter: the run path's layers,
  typer and rich only under ``sunbot/cli/`` and ``sunbot/views/``, nothing importing the
  test fixtures, no cycle between subpackages) hold.
- **One console factory and one exit-code enum**: ``sunbot.cli.console``.
- **Moved modules** still import by their old names, with a ``DeprecationWarning``.
- **No path outside the repository** is cited, in any file.
- **One table of games**: no dict keyed by game slugs but in ``sunbot/games.py``.

Each rule lists the run path's files (being restructured into ``sunbot/play/``) that do not
keep it yet; a file listed that keeps it fails too, so the lists only shrink.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from sunbot._compat import MOVED

ROOT = Path(__file__).resolve().parents[1]
#: Import name -> its folder.
SOURCES = {"sunbot": ROOT / "sunbot"}

#: Circles the run path's restructure (``sunbot/play/``) is still to break: each one, as the
#: set of its modules. Empty it as they go; a circle listed here that is gone fails too.
KNOWN_CIRCLES: set[frozenset[str]] = set()


@dataclass(frozen=True)
class Import:
    """One import statement's target, as written: ``names`` are those of a ``from`` import
    (empty for ``import x``); ``level`` its leading dots."""

    module: str
    names: tuple[str, ...]
    level: int
    line: int


def modules() -> dict[str, Path]:
    """Every module of the package: dotted name -> file (``__init__.py`` for a package)."""
    out: dict[str, Path] = {}
    for prefix, folder in SOURCES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([prefix, *parts])] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(path: Path) -> Iterator[Import]:
    """The imports of one file, at any depth, but those under ``if TYPE_CHECKING:``."""
    pending: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"), str(path))]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(alias.name, (), 0, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            names = tuple(alias.name for alias in node.names)
            yield Import(node.module or "", names, node.level, node.lineno)
        pending.extend(ast.iter_child_nodes(node))


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def targets(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The modules of ``known`` that module ``name`` (file ``path``) leans on, with the line:
    see the module docstring for what counts."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    own = {name, *_ancestors(name)}
    for imp in imports(path):
        base = imp.module
        if imp.level:
            parts = package.split(".")
            base = ".".join(parts[: len(parts) - imp.level + 1] + ([base] if base else []))
        wanted = [base] + [f"{base}.{n}" for n in imp.names if f"{base}.{n}" in known]
        found: set[str] = set()
        for target in wanted:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target:
                found.add(target)
                # its packages' faces run first
                found.update(face for face in _ancestors(target) if face not in own)
        for target in sorted(found & known.keys() - {name}):
            yield target, imp.line


def arrows() -> dict[str, dict[str, int]]:
    """Module -> the modules it leans on -> the first line that does."""
    known = modules()
    out: dict[str, dict[str, int]] = {name: {} for name in known}
    for name, path in known.items():
        for target, line in targets(name, path, known):
            out[name].setdefault(target, line)
    return out


def circles(graph: dict[str, dict[str, int]]) -> list[frozenset[str]]:
    """The strongly connected parts of ``graph`` with more than one module (Tarjan, with an
    explicit stack: no recursion limit to meet)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(graph[step])))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                part: set[str] = set()
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    part.add(top)
                    if top == node:
                        break
                if len(part) > 1:
                    found.append(frozenset(part))
    return found


def _describe(part: frozenset[str], graph: dict[str, dict[str, int]]) -> str:
    files = modules()
    ties = [
        f"  {files[a].relative_to(ROOT)}:{line} imports {b}"
        for a in sorted(part)
        for b, line in sorted(graph[a].items())
        if b in part
    ]
    return "\n".join([f"circle of {', '.join(sorted(part))}:", *ties])


def test_no_import_circle_among_sunbot_modules() -> None:
    graph = arrows()
    found = set(circles(graph))
    new = [_describe(part, graph) for part in found - KNOWN_CIRCLES]
    assert not new, "\n".join(new)
    gone = KNOWN_CIRCLES - found
    assert not gone, f"no longer circles, remove them from KNOWN_CIRCLES: {gone}"


def test_the_circle_finder_sees_a_circle_through_a_face() -> None:
    # sunbot.a imports the face of sunbot.p, whose face imports sunbot.p.b, which imports a
    graph = {
        "sunbot.a": {"sunbot.p": 1},
        "sunbot.p": {"sunbot.p.b": 1},
        "sunbot.p.b": {"sunbot.a": 1},
        "sunbot.c": {"sunbot.a": 1},
    }
    assert circles(graph) == [frozenset({"sunbot.a", "sunbot.p", "sunbot.p.b"})]
    assert circles({"sunbot.a": {"sunbot.b": 1}, "sunbot.b": {}}) == []


def test_the_import_reader_counts_function_imports_and_faces(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from sunbot.games import GameInfo\n"
        "from sunbot.server import app\n"
        "def f():\n"
        "    import sunbot.mirror.fields\n"
        "    from . import sibling\n"
    )
    known = dict.fromkeys(
        ["sunbot.server", "sunbot.server.app", "sunbot.games", "sunbot.mirror",
         "sunbot.mirror.fields", "sunbot.pkg", "sunbot.pkg.mod", "sunbot.pkg.sibling"],
        Path(),
    )  # fmt: skip
    got = sorted(targets("sunbot.pkg.mod", source, known))
    assert got == [
        ("sunbot.mirror", 6),  # the face of the package sunbot.mirror.fields is in
        ("sunbot.mirror.fields", 6),
        ("sunbot.pkg", 7),  # ``from . import sibling`` reads the face of its own package
        ("sunbot.pkg.sibling", 7),
        ("sunbot.server", 4),
        ("sunbot.server.app", 4),
    ]


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_a_moved_module_still_imports_by_its_old_name_with_a_warning(old: str, new: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"^{re.escape(old)} is deprecated .*{new}$"):
        shim = importlib.import_module(old)
    moved = importlib.import_module(new)
    names = getattr(moved, "__all__", None) or [n for n in vars(moved) if not n.startswith("_")]
    for name in names:
        assert getattr(shim, name) is getattr(moved, name), name
    sys.modules.pop(old, None)


def test_old_runner_names_still_resolve() -> None:
    sys.modules.pop("sunbot.runner", None)
    with pytest.warns(DeprecationWarning):
        runner = importlib.import_module("sunbot.runner")
    from sunbot.runs.loop import MAX_REFUSALS_IN_A_ROW
    from sunbot.runs.remote import play_run
    from sunbot.runs.summary import RunSummary

    assert (runner.play_run, runner.RunSummary) == (play_run, RunSummary)
    assert runner.MAX_REFUSALS_IN_A_ROW == MAX_REFUSALS_IN_A_ROW
    sys.modules.pop("sunbot.runner", None)


def test_the_package_root_holds_at_most_eight_modules() -> None:
    root = sorted(p.name for p in (ROOT / "sunbot").glob("*.py"))
    assert len(root) <= 8, root


def test_the_import_contracts_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyproject's import-linter contracts (the layers of the run path, typer and rich only
    in the command line and the views, nothing below the run path importing it, no
    package importing the test fixtures, no cycle between subpackages): what ``lint-imports``
    checks in CI, checked by the default test run too."""
    cli = pytest.importorskip("importlinter.cli", reason="pip install '.[test]'")
    monkeypatch.chdir(ROOT)
    assert cli.lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


#: The console factories: the command line's (every terminal console), and the recording
#: console that lays a view out as plain text for readers without a terminal (MCP clients).
CONSOLE_FACTORIES = ("sunbot.cli.console", "sunbot.views.text")
#: Run path files that still make their own consoles or exit codes (the restructure's).
KNOWN_OWN_CONSOLES: set[str] = set()


def _own_consoles_and_exit_codes(path: Path) -> list[str]:
    """Where a file makes a rich ``Console`` or binds an ``EXIT_*`` name to an integer."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if called == "Console":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} makes a Console")
        elif isinstance(node, ast.Assign):
            names = [n for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            values = [n for n in ast.walk(node.value) if isinstance(n, ast.Constant)]
            if any(n.id.startswith("EXIT_") for n in names) and any(
                type(v.value) is int for v in values
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} defines an exit code")
    return found


def test_one_console_factory_and_one_exit_code_enum() -> None:
    from sunbot.cli.console import Exit

    where = {
        name: found
        for name, path in modules().items()
        if name not in CONSOLE_FACTORIES and (found := _own_consoles_and_exit_codes(path))
    }
    assert set(where) - KNOWN_OWN_CONSOLES == set(), where
    assert not KNOWN_OWN_CONSOLES - set(where), "remove them from KNOWN_OWN_CONSOLES"
    # the documented codes (README, docs/transcripts.md): 128 + the signal for a stop
    assert [(e.name, int(e)) for e in Exit] == [
        ("OK", 0), ("ERROR", 1), ("USAGE", 2), ("DIVERGED", 3), ("CUT", 4), ("CORRUPT", 5),
        ("SPEND_CAP", 6), ("INTERRUPTED", 130), ("TERMINATED", 143),
    ]  # fmt: skip


#: The rule texts and specifications the project was built from live outside the repository:
#: a path to them helps no reader. Cite a section name or ``docs/rules/<game>.md`` instead.
OUTSIDE_PATH = "shared" + "/"
#: Files of the run path's restructure that still cite such a path.
KNOWN_OUTSIDE_PATHS: set[str] = set()
_NOT_SOURCE = {".git", "__pycache__", "build", "dist", "node_modules"}


def _repository_files() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if any(p in _NOT_SOURCE or p.startswith(".") or p.endswith(".egg-info") for p in parts):
            continue
        if path.is_file():
            yield path


def test_no_path_outside_the_repository_is_cited() -> None:
    citing = set()
    for path in _repository_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # an image
            continue
        if OUTSIDE_PATH in text:
            citing.add(str(path.relative_to(ROOT)))
    assert citing - KNOWN_OUTSIDE_PATHS == set(), sorted(citing)
    assert not KNOWN_OUTSIDE_PATHS - citing, "remove them from KNOWN_OUTSIDE_PATHS"


#: Where a table keyed by game slugs may stand: the games table, and (a prefix) the other
#: server of the tests, whose own per-game choices are the point of it.
GAME_TABLES = ("sunbot.games", "sunbot.testing.otherserver")


def test_the_games_table_is_the_only_table_of_games() -> None:
    from sunbot.games import GAMES

    slugs = set(GAMES)
    tables = []
    for name, path in modules().items():
        if name.startswith(GAME_TABLES):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if len(keys & slugs) >= 2:
                    tables.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not tables, f"per-game tables outside sunbot/games.py: {tables}"


def test_the_play_command_wires_nothing_itself() -> None:
    """``sunbot play`` goes through :mod:`sunbot.api`: it imports none of the client, the
    server, the mirror or the run loop (type-only imports aside)."""
    forbidden = ("sunbot.client", "sunbot.server", "sunbot.mirror", "sunbot.runs.loop",
                 "sunbot.runs.remote", "sunbot.runs.match")  # fmt: skip
    for face in ("play.py", "play_match.py"):
        found = [
            f"{face}:{imp.line} imports {imp.module}"
            for imp in imports(ROOT / "sunbot" / "cli" / face)
            if imp.module.startswith(forbidden)
        ]
        if face == "play.py":
            assert not found, found
        else:  # the match face drives the match loop, which the API assembles too
            assert all("sunbot.runs.match" in f for f in found), found
