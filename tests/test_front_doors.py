"""The front ends go through the service's front door; no function in bot/ is too long (issue 47).

Discord (`bot/discord`), the web table (`bot/web`) and the terminal (`bot/local`) use the
service by its public methods only: what they need of a table is asked by name
(`Service.table_record`, `open_table`, `table_versions`, ...), so the service's parts can
move without the front ends noticing. Like tests/test_import_graph.py, this test reads the
code with `ast` (nothing is imported) and fails naming every reach past the door:

- `.storage` anywhere in a front end: the database is the service's (the front ends'
  own objects hold none either, so the word alone is the rule, whatever it is read on);
- `._name` (and `getattr(x, "_name")`, `setattr`, `hasattr`) on the service: on a name
  or attribute called `service`, or one annotated `Service` (`link: Service`,
  `self.core: Service | None`);
- `__dict__` and `vars(...)` anywhere in a front end: an object's insides are its own.

What does not count: a front end's own private attributes (`self._views`), and the
service's public data types imported from its modules (`Reply`, `TableView`, ...).

And DESIGN.md's "no function in bot/ over 80 lines", for the whole of bot/: a function's
length is its lines from `def` to its last line, docstring and comments included.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from tests.test_import_graph import write

ROOT = Path(__file__).resolve().parents[1]
FRONT_ENDS = ("bot/discord", "bot/web", "bot/local")
#: The longest a function in bot/ may be, in lines (shared/DESIGN.md).
LONGEST = 80
_SERVICE_TYPE = re.compile(r"\bService\b")


def _annotated_service(annotation: ast.expr | None) -> bool:
    """`Service`, `"Service"`, `bot.service.Service`, `Service | None`: not `ServiceLink`."""
    return annotation is not None and bool(_SERVICE_TYPE.search(ast.unparse(annotation)))


def _target_name(target: ast.expr) -> str | None:
    if isinstance(target, ast.Name):
        return target.id
    return target.attr if isinstance(target, ast.Attribute) else None


def service_names(tree: ast.AST) -> set[str]:
    """The names the service goes by in a module: `service`, every argument, variable or
    attribute annotated as a `Service`, and every one the service is handed to (`core =
    self.service`, `self.core = core`)."""
    names = {"service"}
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and _annotated_service(node.annotation):
            names.add(node.arg)
        elif isinstance(node, ast.AnnAssign) and _annotated_service(node.annotation):
            names.add(_target_name(node.target) or "service")
    while True:  # a name handed the service holds it, and so on down the line
        handed = {
            name
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and _is_service(node.value, names)
            for target in node.targets
            if (name := _target_name(target)) is not None
        }
        if handed <= names:
            return names
        names |= handed


def _is_service(node: ast.expr, names: set[str]) -> bool:
    """`service`, `self.service`, `self.link.service`, or any of `names` read the same ways."""
    if isinstance(node, ast.Name):
        return node.id in names
    return isinstance(node, ast.Attribute) and node.attr in names


def _private(name: str) -> bool:
    return name.startswith("_")


def _reaches_in(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes of one module that reach past the service's front door."""
    names = service_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if node.attr in ("storage", "__dict__"):
                yield node
            elif _private(node.attr) and _is_service(node.value, names):
                yield node
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "vars":
                yield node
            elif node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2:
                target, attribute = node.args[0], node.args[1]
                if (
                    _is_service(target, names)
                    and isinstance(attribute, ast.Constant)
                    and isinstance(attribute.value, str)
                    and (_private(attribute.value) or attribute.value == "storage")
                ):
                    yield node


def reaches(root: Path = ROOT) -> list[str]:
    """Every reach past the service from the front ends, as `path:line: the code`."""
    found = []
    for folder in FRONT_ENDS:
        for path in sorted((root / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            tree = ast.parse(text, filename=str(path))
            nodes = sorted(_reaches_in(tree), key=lambda n: (n.lineno, n.col_offset))  # type: ignore[attr-defined]
            for node in nodes:
                where = f"{path.relative_to(root).as_posix()}:{node.lineno}"  # type: ignore[attr-defined]
                found.append(f"{where}: {ast.get_source_segment(text, node)}")
    return found


def long_functions(root: Path = ROOT, longest: int = LONGEST) -> list[str]:
    """Every function in bot/ longer than `longest` lines, as `path:line name (n lines)`."""
    found = []
    for path in sorted((root / "bot").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > longest:
                    found.append(f"{path.relative_to(root).as_posix()}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_the_front_ends_use_only_the_services_public_methods():
    found = reaches()
    assert not found, (
        "the front ends reach past the service (ask it by a public method, named for what is asked):\n"
        + "\n".join(found)
    )


def test_no_function_in_bot_is_over_80_lines():
    found = long_functions()
    assert not found, f"functions over {LONGEST} lines (split them where a reader would):\n" + "\n".join(found)


# --- the checkers themselves ------------------------------------------------------


def test_every_kind_of_reach_is_found_and_the_front_doors_own_are_not(tmp_path):
    root = write(
        tmp_path,
        {
            "bot/discord/link.py": (
                "class Link:\n"
                "    def __init__(self, service):\n"
                "        self.service = service\n"
                "        self._cache = {}\n"
                "    async def place(self, table):\n"
                "        self._cache.clear()\n"
                "        await self.service.handle(1, 2, 'ann', 'board')\n"
                "        return await self.service.storage.table(table)\n"
            ),
            "bot/web/app.py": (
                "from ..service import Service\n"
                "class App:\n"
                "    core: Service | None = None\n"
                "    def peek(self, tables: 'Service', other):\n"
                "        tables._position(1)\n"
                "        self.core._cache.clear()\n"
                "        other._private_but_not_the_service()\n"
                "        getattr(tables, '_games')\n"
                "        getattr(tables, 'games')\n"
            ),
            "bot/local/terminal.py": (
                "def thinking(service):\n"
                "    return service.__dict__.get('_bot_tasks'), vars(service)\n"
                "def mine(self):\n"
                "    return self.__dict__\n"
                "def handed(self):\n"
                "    core = self.service\n"
                "    self.door = core\n"
                "    return self.door._cache, core.handle, self._mine\n"
            ),
            "bot/service/service.py": "class Service:\n    def q(self):\n        return self.storage._x\n",
        },
    )
    assert reaches(root) == [
        "bot/discord/link.py:8: self.service.storage",
        "bot/web/app.py:5: tables._position",
        "bot/web/app.py:6: self.core._cache",
        "bot/web/app.py:8: getattr(tables, '_games')",
        "bot/local/terminal.py:2: service.__dict__",
        "bot/local/terminal.py:2: vars(service)",
        "bot/local/terminal.py:4: self.__dict__",
        "bot/local/terminal.py:8: self.door._cache",
    ]


def test_a_function_over_80_lines_anywhere_in_bot_is_found(tmp_path):
    def body(indent: str) -> str:
        return "".join(f"{indent}x{i} = {i}\n" for i in range(79))

    root = write(
        tmp_path,
        {
            "bot/service/parts.py": f"class Part:\n    async def long(self):\n{body(' ' * 8)}        return 1\n",
            "bot/replay.py": f"def just_80():\n{body(' ' * 4)}",
            "bot/web/app.py": f"def outer():\n    def inner():\n{body(' ' * 8)}        return 2\n    return inner\n",
        },
    )
    assert long_functions(root) == [
        "bot/service/parts.py:2 long (81 lines)",
        "bot/web/app.py:1 outer (83 lines)",
        "bot/web/app.py:2 inner (81 lines)",
    ]
