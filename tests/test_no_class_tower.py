"""No class of the service inherits behaviour from another (issue 47, point 1).

The service was once one object stacked 13 classes high (`Service(LobbyCommands, ...)` over
`MoveCommands(TurnData(RecordCommands(ServiceBase)))`); it is now a front door over parts
that receive each other in their constructors (bot/service/README.md). This test keeps it
so: like tests/test_front_doors.py it reads the code with `ast` (nothing is imported) and
fails naming every class of bot/service whose base is a class of bot/service that carries
behaviour, however the base is reached (`Base`, `module.Base`, `from .core import Base as
B`, `from bot.service import Base`, `Base[int]`).

What a class may still be built on, because it shares no behaviour: a Protocol (a shape,
`class Links(Protocol)`), a dataclass (fields), an Enum, or an exception (a `Refusal`, an
`ExportError(ValueError)`): the kinds carry down a chain (`class Late(Refusal)` is an
exception too). Bases from outside bot/service (`ValueError`, the engine's types) are not
this test's business.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.test_import_graph import write

ROOT = Path(__file__).resolve().parents[1]
SERVICE = "bot/service"
_PACKAGE = "bot.service"
#: The enums' bases, by the name they are written with.
_ENUMS = {"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"}

#: Where a name leads: (module, name) for a name imported or defined, (module, "") for a module.
Target = tuple[str, str]


def _last_name(node: ast.expr) -> str:
    """`Protocol`, `typing.Protocol`, `Generic[T]` -> the name the base is written with."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _imported_module(node: ast.ImportFrom) -> str | None:
    """The service module an import reads from (`__init__` for the package), else None."""
    if node.level == 1:
        return node.module or "__init__"
    if node.level == 0 and node.module is not None:
        if node.module == _PACKAGE:
            return "__init__"
        if node.module.startswith(_PACKAGE + "."):
            return node.module.removeprefix(_PACKAGE + ".")
    return None


def _names(module: str, tree: ast.Module, modules: set[str]) -> dict[str, Target]:
    """What each name of one module stands for, among the service's classes and modules."""
    names: dict[str, Target] = {}
    for node in ast.walk(tree):  # imports under TYPE_CHECKING or in a function count too
        if isinstance(node, ast.ImportFrom) and (source := _imported_module(node)) is not None:
            for alias in node.names:
                whole = source == "__init__" and alias.name in modules  # `from . import clocks`
                names[alias.asname or alias.name] = (alias.name, "") if whole else (source, alias.name)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = (module, node.name)
    return names


class _Service:
    """The classes of bot/service, where each base leads, and what kind each class is."""

    def __init__(self, root: Path) -> None:
        self.paths = {path.stem: path for path in sorted((root / SERVICE).glob("*.py"))}
        self.trees = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in self.paths.items()}
        self.names = {name: _names(name, tree, set(self.paths)) for name, tree in self.trees.items()}
        self.classes = {
            (name, node.name): node for name, tree in self.trees.items() for node in tree.body
            if isinstance(node, ast.ClassDef)
        }  # fmt: skip

    def defined(self, target: Target) -> Target | None:
        """The class a (module, name) comes to, following re-exports (`from .core import X`)."""
        seen = set()
        while target not in self.classes:
            module, name = target
            if not name or target in seen or module not in self.names or name not in self.names[module]:
                return None
            seen.add(target)
            target = self.names[module][name]
        return target

    def base(self, module: str, node: ast.expr) -> Target | None:
        """The service class a base written in `module` is, or None for one from outside."""
        if isinstance(node, ast.Subscript):
            node = node.value
        names = self.names[module]
        if isinstance(node, ast.Name) and node.id in names:
            return self.defined(names[node.id])
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module_of = names.get(node.value.id)  # `core.Tables` after `from . import core`
            if module_of is not None and module_of[1] == "":
                return self.defined((module_of[0], node.attr))
        return None

    def kinds(self, target: Target, seen: frozenset[Target] = frozenset()) -> set[str]:
        """What a class is among "protocol", "dataclass", "enum" and "exception" (none: a plain
        class). A class is an Enum or an exception also through a base of the service; it is a
        Protocol or a dataclass only by saying so itself, as Python has it."""
        node = self.classes[target]
        kinds = set()
        if any(_last_name(d.func if isinstance(d, ast.Call) else d) == "dataclass" for d in node.decorator_list):
            kinds.add("dataclass")
        for written in node.bases:
            name = _last_name(written)
            if name == "Protocol":
                kinds.add("protocol")
            elif name in _ENUMS:
                kinds.add("enum")
            elif name in ("BaseException", "Exception") or name.endswith("Error"):
                kinds.add("exception")
            elif (base := self.base(target[0], written)) is not None and base not in seen:
                kinds |= self.kinds(base, seen | {target}) & {"enum", "exception"}
        return kinds

    def towers(self) -> Iterator[str]:
        """Each class of the service written on a base of the service that is a plain class."""
        for module, tree in self.trees.items():
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef):
                    continue
                for written in node.bases:
                    base = self.base(module, written)
                    if base is not None and not self.kinds(base):
                        where = f"{SERVICE}/{self.paths[module].name}:{node.lineno}"
                        yield f"{where} {node.name}({ast.unparse(written)}): {base[1]} of {base[0]}.py"


def towers(root: Path = ROOT) -> list[str]:
    """Every class of bot/service built on a service class with behaviour, as
    `path:line Class(Base): Base of module.py`."""
    return list(_Service(root).towers())


def test_no_class_of_the_service_inherits_behaviour_from_another():
    found = towers()
    assert not found, (
        "classes of bot/service built on another's behaviour (hand the part in the constructor instead, "
        "bot/service/README.md):\n" + "\n".join(found)
    )


# --- the checker itself -----------------------------------------------------------


def test_every_way_of_reaching_a_plain_base_is_found_and_the_kinds_that_share_nothing_are_not(tmp_path):
    root = write(
        tmp_path,
        {
            "bot/service/__init__.py": "from .core import Tables\n",
            "bot/service/core.py": (
                "from dataclasses import dataclass\n"
                "from enum import Enum\n"
                "from typing import Generic, Protocol, TypeVar\n"
                "T = TypeVar('T')\n"
                "class Tables:\n"
                "    def table(self): ...\n"
                "class Links(Protocol): ...\n"
                "@dataclass(frozen=True)\n"
                "class Ctx: ...\n"
                "class Kind(Enum): ...\n"
                "class Refusal(Exception): ...\n"
                "class ExportError(ValueError): ...\n"
                "class Late(Refusal): ...\n"
                "class Box(Generic[T]): ...\n"
                "class Rows(Tables): ...\n"
            ),
            "bot/service/moves.py": (
                "from typing import TYPE_CHECKING\n"
                "from . import core\n"
                "from .core import Ctx, ExportError, Kind, Late, Links, Box\n"
                "if TYPE_CHECKING:\n"
                "    from .core import Tables as T\n"
                "class Moves(core.Tables): ...\n"
                "class Again(T): ...\n"
                "class Fine(Links, Ctx, Kind, Late, ExportError, core.Refusal): ...\n"
                "class Implements(Links): ...\n"
                "class Later(Implements): ...\n"
                "class Boxed(Box[int]): ...\n"
            ),
            "bot/service/lobby.py": (
                "from bot.service import Tables\n"
                "from bot.service.moves import Moves as M\n"
                "from engine.core import Game\n"
                "class Lobby(Tables): ...\n"
                "class Seats(M): ...\n"
                "class Outside(Game): ...\n"
                "def inner():\n"
                "    class Nested(Tables): ...\n"
            ),
        },
    )
    assert towers(root) == [
        "bot/service/core.py:15 Rows(Tables): Tables of core.py",
        "bot/service/lobby.py:4 Lobby(Tables): Tables of core.py",
        "bot/service/lobby.py:5 Seats(M): Moves of moves.py",
        "bot/service/lobby.py:8 Nested(Tables): Tables of core.py",
        "bot/service/moves.py:6 Moves(core.Tables): Tables of core.py",
        "bot/service/moves.py:7 Again(T): Tables of core.py",
        "bot/service/moves.py:10 Later(Implements): Implements of moves.py",
        "bot/service/moves.py:11 Boxed(Box[int]): Box of core.py",
    ]
