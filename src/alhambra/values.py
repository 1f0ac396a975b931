"""Immutable values (actions, events, pending choices) with a generic JSON form.

Every value class is a frozen dataclass registered under its class name. ``to_dict`` gives
``{"type": "ClassName", field: value, ...}`` with tuples as lists; ``from_dict`` reverses it.
Field values must be JSON-ready: ints, strings, bools, None, tuples and dicts of those.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, TypeVar

from .errors import NotationError

T = TypeVar("T", bound="Value")


def _to_json(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_to_json(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _to_json(x) for k, x in v.items()}
    return v


def _from_json(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_from_json(x) for x in v)
    if isinstance(v, dict):
        return {k: _from_json(x) for k, x in v.items()}
    return v


class Value:
    """Base of all registered value classes (subclasses are frozen dataclasses)."""

    __slots__ = ()
    registry: ClassVar[dict[str, type[Value]]]
    module: ClassVar[str | None] = None
    """The module that owns this value, None for the core."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        reg = cls.__dict__.get("registry")
        if reg is None:
            reg = cls.registry
            if cls.__name__ in reg:
                # re-import of a module file (e.g. reload in tests): keep the newest class
                pass
            reg[cls.__name__] = cls

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict of this value."""
        out: dict[str, Any] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            out[f.name] = _to_json(getattr(self, f.name))
        return out

    @classmethod
    def from_dict(cls: type[T], data: dict[str, Any]) -> T:
        """Rebuild a value of this family from :meth:`to_dict` output."""
        if not isinstance(data, dict) or "type" not in data:
            raise NotationError(f"not a {cls.__name__} object: {data!r}")
        sub = cls.registry.get(str(data["type"]))
        if sub is None or not issubclass(sub, cls):
            raise NotationError(f"unknown {cls.__name__.lower()} type {data['type']!r}")
        names = {f.name for f in dataclasses.fields(sub)}  # type: ignore[arg-type]
        extra = set(data) - names - {"type"}
        if extra:
            raise NotationError(f"unexpected fields for {data['type']}: {sorted(extra)}")
        try:
            return sub(**{k: _from_json(v) for k, v in data.items() if k != "type"})
        except TypeError as e:
            raise NotationError(f"bad {data['type']} object: {e}") from None


def fast_init(cls: type[T]) -> type[T]:
    """Give a frozen, slotted value class a faster ``__init__`` (same signature, same result).

    The ``__init__`` that ``dataclass`` writes for a frozen class stores every field through
    ``object.__setattr__``; this one calls the fields' slot descriptors directly, which halves
    the cost of building a value. The engine builds events and pending decisions on every
    action, so it applies this to its own classes. A class with a ``__post_init__``, a default
    factory or fields outside ``__init__`` keeps the dataclass's own ``__init__``.
    """
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        return cls
    params: list[str] = []
    body: list[str] = []
    ns: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            return cls
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            ns[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
        ns[f"_s_{f.name}"] = cls.__dict__[f.name].__set__
        body.append(f"    _s_{f.name}(self, {f.name})")
    exec(f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "    pass"), ns)  # as dataclasses does
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init
    return cls
