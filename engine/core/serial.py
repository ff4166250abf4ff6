"""Dataclass state <-> JSON, driven by type hints.

Every game keeps its state as dataclasses (DESIGN.md), and `dumps`/`loads`
must round-trip exactly (law 4). Writing that by hand four times invites drift,
so this module does it once: `unstructure` turns a dataclass tree into plain
JSON data, `structure` builds it back from the class's type hints and says
precisely where data does not fit (the TOML loader reuses that to validate
component files).

`dumps` runs after every stored action and `loads` before most commands, so
both have a fast path: per dataclass, a converter written once from its type
hints and cached (a dict display for `to_json`, a constructor call for
`structure`) that passes lists and dicts of scalars through whole instead of
visiting every item. Where the fast path meets data its hints do not describe,
the precise walk below it takes over: the same text, the same value and the
same StructureError as if there were no fast path (tests/engine/core compares
the two on states of every game).

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
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class StructureError(ValueError):
    """Data that does not fit the expected type; `where` is a path like `deck[3].cost`."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where or '<top>'}: {message}")
        self.where = where
        self.detail = message


# ---- state -> plain data -------------------------------------------------------------

_SCALARS = frozenset({str, int, float, bool, type(None)})
_STR = {str}


def unstructure(obj: Any) -> Any:
    """Plain JSON data (dicts, lists, str, int, float, bool, None) for `obj`, read from the values.

    The precise walk: it looks at every value, whatever the type hints say.
    `to_json` uses the hints instead and comes here only for what they leave
    open (`Any`, unions) or do not describe. Lists and dicts that are plain
    data already are returned as they are, not copied: the result is for
    encoding, not for changing.
    """
    t: type = type(obj)  # not `type[Any]`, which mypy takes for unhashable (python/mypy#11470)
    if t in _SCALARS:
        return obj
    if t is dict:
        if not obj or (set(map(type, obj.values())) <= _SCALARS and set(map(type, obj)) == _STR):
            return obj
        return {str(k): unstructure(v) for k, v in obj.items()}
    if t is list:
        if not obj or set(map(type, obj)) <= _SCALARS:
            return obj
        return [unstructure(v) for v in obj]
    if t is tuple:
        return [unstructure(v) for v in obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {name: unstructure(getattr(obj, name)) for name in _field_names(t)}
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
    t = type(obj)
    if dataclasses.is_dataclass(t):
        try:
            return _encode(_dataclass_dumper(t)(obj))
        except Exception:
            pass  # a value its hints do not describe (a set in a list field...): read the values
    return _encode(unstructure(obj))


def _refuse(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _make_encoder() -> Callable[[Any], str]:
    """The text of plain data, as `json.dumps(data, separators=(",", ":"), ensure_ascii=False)`.

    json's C encoder called directly and without its check for circular
    references (a dataclass tree has none): a third faster than `json.dumps`.
    """
    c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
    if c_make_encoder is None:  # a Python without json's C speed-ups
        return json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode
    chunks = c_make_encoder(None, _refuse, json.encoder.encode_basestring, None, ":", ",", False, False, True)
    return lambda data: "".join(chunks(data, 0))


_encode = _make_encoder()


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _passes_through(tp: Any) -> bool:
    """Values of this type are already plain JSON data (scalars, and lists/dicts of them)."""
    if tp in _SCALARS:
        return True
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Literal:
        return all(type(a) in _SCALARS for a in args)
    if origin in (typing.Union, types.UnionType):
        return all(_passes_through(a) for a in args)
    if origin in (list, collections.abc.Sequence):
        return len(args) == 1 and _passes_through(args[0])
    if origin is tuple:
        return bool(args) and all(a is Ellipsis or _passes_through(a) for a in args)
    if origin is dict:
        return len(args) == 2 and args[0] in (str, int) and _passes_through(args[1])
    return False


def _dumper(tp: Any) -> Callable[[Any], Any] | None:
    """How to turn a value of hint `tp` into plain data; None: it already is."""
    if _passes_through(tp):
        return None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_dumper(tp)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (list, collections.abc.Sequence) and args:
        item = _dumper(args[0])
        if item is not None:
            return lambda v: [item(x) for x in v] if type(v) is list else unstructure(v)
    if origin is dict and len(args) == 2 and args[0] in (str, int):
        value = _dumper(args[1])
        if value is not None:
            return lambda v: {k: value(x) for k, x in v.items()} if type(v) is dict else unstructure(v)
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        (other,) = [a for a in args if a is not type(None)]
        some = _dumper(other)
        if some is not None:
            return lambda v: None if v is None else some(v)
    return unstructure


_DUMPERS: dict[type, Callable[[Any], Any]] = {}


def _dataclass_dumper(cls: type) -> Callable[[Any], Any]:
    """`{"field": o.field, "other": dump_other(o.other), ...}` for `cls`, written once.

    Fields whose hint says they hold plain data already (scalars, lists and
    dicts of them) are taken whole: the encoder checks their items anyway, and
    raises on anything that is not JSON. Instances of another type (a subclass)
    go to the precise walk, so a hint never hides a field; so does a class
    whose hints cannot be read.
    """
    found = _DUMPERS.get(cls)
    if found is None:
        found = _compile(_DUMPERS, cls, _write_dumper, fallback=unstructure)
    return found


def _write_dumper(cls: type, namespace: dict[str, Any]) -> str:
    hints = _hints(cls)
    names = _field_names(cls)
    display, convert = [], []
    for i, name in enumerate(names):
        fn = _dumper(hints[name])
        if fn is None:
            display.append(f"{name!r}: o.{name}")
        else:
            namespace[f"_d{i}"] = fn
            display.append(f"{name!r}: _d{i}(o.{name})")
            convert.append(f"{name!r}: _d{i}(d[{name!r}])")
    namespace.update(_cls=cls, _walk=unstructure, _names=list(names))
    source = "def _run(o):\n    if type(o) is not _cls:\n        return _walk(o)\n"
    if not hasattr(cls, "__slots__"):
        # The instance's own dict, when it holds exactly the fields in their order (as
        # `__init__` and a copy of it leave it): copied in C, and only the fields that
        # need converting replaced (a dict keeps a replaced key in its place).
        whole = f"{{**d, {', '.join(convert)}}}" if convert else "d"
        source += f"    d = o.__dict__\n    if list(d) == _names:\n        return {whole}\n"
    return source + f"    return {{{', '.join(display)}}}\n"


def _compile(
    cache: dict[type, Callable[[Any], Any]],
    cls: type,
    write: Callable[[type, dict[str, Any]], str],
    fallback: Callable[[Any], Any] | None = None,
) -> Callable[[Any], Any]:
    """Write the function `_run` for `cls` with `write`, run its source once and cache it.

    While it is written, the cache holds a stand-in that calls it, so a field of
    the class's own type (a tree) finds it.
    """
    namespace: dict[str, Any] = {}
    cache[cls] = lambda value: namespace["_run"](value)
    try:
        exec(write(cls, namespace), namespace)
    except Exception:
        if fallback is None:
            del cache[cls]
            raise
        namespace["_run"] = fallback
    run: Callable[[Any], Any] = namespace["_run"]
    cache[cls] = run
    return run


# ---- plain data -> state -------------------------------------------------------------


def _name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


@typing.overload
def structure(tp: type[T], data: Any, where: str = "") -> T: ...
@typing.overload
def structure(tp: Any, data: Any, where: str = "") -> Any: ...
def structure(tp: Any, data: Any, where: str = "") -> Any:
    """Build a value of type `tp` from plain data, or raise StructureError.

    The result may share `data`'s lists and dicts of scalars: pass data that is
    not used again (fresh from `json.loads` or a TOML file).
    """
    try:
        return _loader(tp)(data)
    except Exception:  # anything unexpected: the precise walk gives the value or the error
        return _structure(tp, data, where)


def from_json(tp: type[T], text: str) -> T:
    return structure(tp, json.loads(text))


def _structure(tp: Any, data: Any, where: str = "") -> Any:
    """The precise walk: checks every value and names the path of the first that does not fit."""
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
                return _structure(option, data, where)
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
        return [_structure(item, v, f"{where}[{i}]") for i, v in enumerate(data)]

    if origin in (set, frozenset):
        if not isinstance(data, list):
            raise StructureError(where, f"expected a list, got {type(data).__name__}")
        (item,) = args or (Any,)
        return origin(_structure(item, v, f"{where}[{i}]") for i, v in enumerate(data))

    if origin is tuple:
        if not isinstance(data, list):
            raise StructureError(where, f"expected a list, got {type(data).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_structure(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise StructureError(where, f"expected {len(args)} items, got {len(data)}")
        return tuple(_structure(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True)))

    if origin is dict:
        if not isinstance(data, dict):
            raise StructureError(where, f"expected a table, got {type(data).__name__}")
        key_t, val_t = args or (str, Any)
        out = {}
        for k, v in data.items():
            key = int(k) if key_t is int else k
            out[key] = _structure(val_t, v, f"{where}.{k}" if where else str(k))
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
            kwargs[name] = _structure(hints[name], data[name], path)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise StructureError(path, "missing required field")
    return cls(**kwargs)


# ---- the fast path: one loader per type hint, built once ----------------------------------
#
# A loader returns exactly what `_structure` would, or raises (`_Mismatch` where
# `_structure` would raise StructureError); `structure` then asks `_structure`
# for the value or the precise error. It never builds a path, and takes lists
# and dicts of scalars whole after checking the types of their items.


class _Mismatch(Exception):
    """The fast path's "does not fit": the precise walk will say where and why."""


def _mismatch(*_: Any) -> Any:
    raise _Mismatch


def _same(data: Any) -> Any:
    return data


_NUMBER = frozenset({int, float})


@functools.cache
def _loader(tp: Any) -> Callable[[Any], Any]:
    if tp is Any:
        return _same
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)

    if origin in (typing.Union, types.UnionType):
        options = [_loader(a) for a in args if a is not type(None)]
        none_ok = type(None) in args

        def load_union(data: Any) -> Any:
            if data is None and none_ok:
                return None
            for option in options:
                try:
                    return option(data)
                except _Mismatch:
                    continue
            raise _Mismatch

        return load_union

    if origin is typing.Literal:
        return lambda data: data if data in args else _mismatch()

    if origin in (list, collections.abc.Sequence, set, frozenset) or (
        origin is tuple and len(args) == 2 and args[1] is Ellipsis
    ):
        item = args[0] if args else Any
        make = list if origin in (list, collections.abc.Sequence) else origin
        return _sequence_loader(make, item)

    if origin is tuple:
        items = [_loader(a) for a in args]

        def load_tuple(data: Any) -> Any:
            if type(data) is not list or len(data) != len(items):
                raise _Mismatch
            return tuple(load(v) for load, v in zip(items, data, strict=True))

        return load_tuple

    if origin is dict:
        key_t, val_t = args or (str, Any)
        return _dict_loader(key_t is int, val_t)

    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_loader(tp)

    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp  # raises ValueError for an unknown value: the precise walk names the allowed ones

    if tp is float:
        return lambda data: float(data) if type(data) in _NUMBER else _mismatch()
    if tp in (int, str, bool):
        return lambda data: data if type(data) is tp else _mismatch()
    if tp is type(None):
        return lambda data: None if data is None else _mismatch()
    return _mismatch


def _scalar_type(tp: Any) -> type | None:
    """The one type a scalar hint's values have in JSON (int, str, bool, None), else None."""
    return tp if tp in (int, str, bool, type(None)) else None


def _whole(container: type, scalar: type | None, items: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A list or dict of scalars taken as it is, once the types of its items are checked (in C)."""
    allowed = frozenset({scalar})

    def load_whole(data: Any) -> Any:
        if type(data) is not container or (scalar is not None and data and not set(map(type, items(data))) <= allowed):
            raise _Mismatch
        return data

    return load_whole


def _sequence_loader(make: type, item_t: Any) -> Callable[[Any], Any]:
    scalar = _scalar_type(item_t)
    if make is list and (scalar is not None or item_t is Any):
        return _whole(list, scalar, _same)
    item = _loader(item_t)

    def load_items(data: Any) -> Any:
        if type(data) is not list:
            raise _Mismatch
        return make([item(v) for v in data])

    return load_items


def _dict_loader(int_keys: bool, val_t: Any) -> Callable[[Any], Any]:
    scalar = _scalar_type(val_t)
    if not int_keys and (scalar is not None or val_t is Any):
        return _whole(dict, scalar, dict.values)
    value = _loader(val_t)

    def load_items(data: Any) -> Any:
        if type(data) is not dict:
            raise _Mismatch
        if int_keys:
            return {int(k): value(v) for k, v in data.items()}
        return {k: value(v) for k, v in data.items()}

    return load_items


_DATACLASS_LOADERS: dict[type, Callable[[Any], Any]] = {}


def _dataclass_loader(cls: type) -> Callable[[Any], Any]:
    """`cls(field=load_field(data["field"]), ...)` for `cls`, written once.

    Data with every field (what `to_json` writes) takes one constructor call;
    data with some fields left to their defaults (component files) builds the
    keyword arguments one by one.
    """
    found = _DATACLASS_LOADERS.get(cls)
    if found is None:
        found = _compile(_DATACLASS_LOADERS, cls, _write_loader)
    return found


def _write_loader(cls: type, namespace: dict[str, Any]) -> str:
    hints = _hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    loaders = {f.name: _loader(hints[f.name]) for f in fields}
    args = []
    for i, f in enumerate(fields):
        tp = hints[f.name]
        value = f"data[{f.name!r}]"
        scalar = _scalar_type(tp)
        if tp is Any:
            args.append(f"{f.name}={value}")
        elif scalar is not None:
            namespace[f"_t{i}"] = scalar
            args.append(f"{f.name}=(v if type(v := {value}) is _t{i} else _mismatch())")
        else:
            namespace[f"_l{i}"] = loaders[f.name]
            args.append(f"{f.name}=_l{i}({value})")
    namespace.update(
        _cls=cls,
        _Mismatch=_Mismatch,
        _mismatch=_mismatch,
        _loaders=loaders,
        _names=frozenset(loaders),
        _required=frozenset(
            f.name for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ),
    )
    return (
        "def _run(data):\n"
        "    if type(data) is not dict:\n"
        "        raise _Mismatch\n"
        "    keys = data.keys()\n"
        "    if keys == _names:\n"
        f"        return _cls({', '.join(args)})\n"
        "    if not (keys <= _names and _required <= keys):\n"
        "        raise _Mismatch\n"
        "    return _cls(**{k: _loaders[k](v) for k, v in data.items()})\n"
    )
