"""Dataclass state <-> JSON, driven by type hints.

Every game keeps its state as dataclasses (DESIGN.md), and `dumps`/`loads`
must round-trip exactly (law 4). Writing that by hand four times invites drift,
so this module does it once: `unstructure` turns a dataclass tree into plain
JSON data, `structure` builds it back from the class's type hints and says
precisely where data does not fit (the TOML loader reuses that to validate
component files).

Supported: dataclasses, list/tuple/dict[str, T]/set, Optional/unions of a
dataclass-free kind, Enum, int/float/str/bool, Any.
"""
from __future__ import annotations

import collections.abc
import dataclasses
import enum
import functools
import json
import types
import typing
from typing import Any, TypeVar

T = TypeVar("T")


class StructureError(ValueError):
    """Data that does not fit the expected type; `where` is a path like `deck[3].cost`."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where or '<top>'}: {message}")
        self.where = where
        self.detail = message


def unstructure(obj: Any) -> Any:
    """Plain JSON data (dicts, lists, str, int, float, bool, None) for `obj`."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: unstructure(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, dict):
        return {str(k): unstructure(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [unstructure(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(unstructure(v) for v in obj)
    return obj


def to_json(obj: Any) -> str:
    """Compact JSON keeping every dict in its insertion order (law 3 and 4).

    Insertion order is part of the game: rules iterate dicts (cubes per region,
    pieces on the map), so sorting keys here would hand a reloaded state another
    order than the original and let it play differently. Dataclass fields come
    out in declaration order, so equal states still give equal text.
    """
    return json.dumps(unstructure(obj), separators=(",", ":"), ensure_ascii=False)


@functools.lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def structure(tp: Any, data: Any, where: str = "") -> Any:
    """Build a value of type `tp` from plain data, or raise StructureError."""
    if tp is Any:
        return data
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)

    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        errors = []
        for option in args:
            if option is type(None):
                continue
            try:
                return structure(option, data, where)
            except StructureError as err:
                errors.append(err.detail)
        raise StructureError(where, f"expected {' or '.join(_name(a) for a in args)}, got {data!r:.60}")

    if origin is typing.Literal:
        if data in args:
            return data
        raise StructureError(where, f"expected one of {', '.join(map(repr, args))}, got {data!r:.60}")

    if origin in (list, collections.abc.Sequence):
        if not isinstance(data, list):
            raise StructureError(where, f"expected a list, got {type(data).__name__}")
        (item,) = args or (Any,)
        return [structure(item, v, f"{where}[{i}]") for i, v in enumerate(data)]

    if origin in (set, frozenset):
        if not isinstance(data, list):
            raise StructureError(where, f"expected a list, got {type(data).__name__}")
        (item,) = args or (Any,)
        return origin(structure(item, v, f"{where}[{i}]") for i, v in enumerate(data))

    if origin is tuple:
        if not isinstance(data, list):
            raise StructureError(where, f"expected a list, got {type(data).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(structure(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise StructureError(where, f"expected {len(args)} items, got {len(data)}")
        return tuple(structure(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data)))

    if origin is dict:
        if not isinstance(data, dict):
            raise StructureError(where, f"expected a table, got {type(data).__name__}")
        key_t, val_t = args or (str, Any)
        out = {}
        for k, v in data.items():
            key = int(k) if key_t is int else k
            out[key] = structure(val_t, v, f"{where}.{k}" if where else str(k))
        return out

    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _structure_dataclass(tp, data, where)

    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in tp)
            raise StructureError(where, f"expected one of {allowed}, got {data!r:.60}") from None

    if tp is float:
        if isinstance(data, (int, float)) and not isinstance(data, bool):
            return float(data)
        raise StructureError(where, f"expected a number, got {data!r:.60}")
    if tp in (int, str, bool):
        if type(data) is tp:
            return data
        raise StructureError(where, f"expected {tp.__name__}, got {data!r:.60}")
    if tp is type(None):
        if data is None:
            return None
        raise StructureError(where, f"expected nothing, got {data!r:.60}")
    raise StructureError(where, f"cannot read type {_name(tp)}")


def _structure_dataclass(cls: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise StructureError(where, f"expected a table for {cls.__name__}, got {type(data).__name__}")
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise StructureError(where, f"unknown field(s) {', '.join(unknown)}; allowed: {', '.join(fields)}")
    kwargs = {}
    for name, f in fields.items():
        path = f"{where}.{name}" if where else name
        if name in data:
            kwargs[name] = structure(hints[name], data[name], path)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise StructureError(path, "missing required field")
    return cls(**kwargs)


def from_json(tp: type[T], text: str) -> T:
    return structure(tp, json.loads(text))
