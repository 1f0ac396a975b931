"""Module state slices as declared value types: JSON, view and rebuild by default.

A module's state slice (``state.mods[id]``) is an immutable value. Declared as a frozen
dataclass that subclasses :class:`ModuleState`, with its module's id and fields of plain types,
it gets for free what each module used to write by hand:

* its JSON form (``to_dict``: the fields by name, tuples as lists) and the way back
  (``from_dict``, which checks every field against its declared type and refuses junk with a
  :class:`~alhambra.errors.NotationError` naming the module);
* through :class:`~alhambra.hooks.Module` with ``state_type`` set: ``slice_to_json``,
  ``slice_from_json``, a public ``view`` (the JSON form) and ``slice_from_view`` (the bots
  rebuild the slice from that view).

A module writes a ``view`` (and ``slice_from_view`` / ``sample_slice``) only to hide something
or to show more than the slice; ``check`` adds the rules a type cannot say (three different
cards, counts that are never negative). Slices that are not a :class:`ModuleState` keep working
as before (their own ``to_dict`` and the module's hooks).

Field types understood: ``bool``, ``int``, ``float``, ``str``, ``None``, ``X | None``,
``tuple[X, ...]``, ``tuple[X, Y, ...]`` (fixed length), ``frozenset[X]`` (a sorted list in
JSON), ``dict[str, X]`` (read-only by convention) and nested frozen dataclasses of such fields.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from .errors import NotationError

if TYPE_CHECKING:
    from typing import Self

T = TypeVar("T")


class _Game(Protocol):
    """What a slice is read from: a :class:`~alhambra.state.GameState` (named by this protocol
    only, so that this file imports nothing of the state and stands below it)."""

    mods: dict[str, Any]


def module_slice(state: _Game, module_id: str, kind: type[T]) -> T:
    """The state slice of module ``module_id`` in ``state``, checked to be a ``kind``
    (a :class:`TypeError` otherwise). For an accessor called often, :func:`slice_reader`."""
    value = state.mods[module_id]
    if not isinstance(value, kind):
        raise TypeError(f"the {module_id} slice is a {type(value).__name__}, not a {kind.__name__}")
    return value


def slice_reader(module_id: str, kind: type[T]) -> Callable[[_Game], T]:
    """An accessor for one module's slice, checked to be a ``kind``: replaces the three-line
    function every module used to write (``value = state.mods[ID]; assert isinstance(value,
    Kind); return value``) with ``moors: Final = slice_reader(ID, MoorsState)``. One call, as
    cheap as the hand-written one (the bots call such accessors in every evaluation)."""

    def read(state: _Game) -> T:
        value = state.mods[module_id]
        if value.__class__ is not kind and not isinstance(value, kind):
            raise TypeError(f"the {module_id} slice is a {type(value).__name__}, not a {kind.__name__}")
        return value

    read.__doc__ = f"The {module_id} slice of a game (a {kind.__name__})."
    return read


class ModuleState:
    """Base class of a declared module state slice: a ``@dataclass(frozen=True, slots=True)``
    subclass with the class attribute ``module`` (its module's id) and fields of the types listed
    in :mod:`alhambra.slices`.

    ``Kind.of(state)`` reads the slice from a game; ``to_dict`` / ``from_dict`` are its JSON form;
    override :meth:`check` to refuse values the field types allow but the rules do not."""

    __slots__ = ()
    module: ClassVar[str] = ""
    what: ClassVar[str] = ""
    """How error messages name the slice (default: the module id, underscores as blanks)."""

    @classmethod
    def of(cls, state: _Game) -> Self:
        """This slice in ``state`` (a :class:`TypeError` if the module's slice is another type)."""
        value = state.mods[cls.module]
        if value.__class__ is not cls and not isinstance(value, cls):
            raise TypeError(f"the {cls.module} slice is a {type(value).__name__}, not a {cls.__name__}")
        return value

    def check(self) -> None:
        """Raise ``ValueError`` with a reason if this value breaks a rule its types cannot say.
        Called by :meth:`from_dict` only (never on the hot path)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: every field by name, tuples as lists, nested values alike."""
        out = _encode(self)
        assert isinstance(out, dict)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Self:
        """Read :meth:`to_dict` output back; a :class:`NotationError` naming the module on junk."""
        name = cls.what or cls.module.replace("_", " ") or cls.__name__
        try:
            value = _decode(cls, data, "")
            assert isinstance(value, cls)
            value.check()
        except (TypeError, ValueError) as e:
            raise NotationError(f"bad {name} state {data!r}: {e}") from None
        return value


# ---------------------------------------------------------------------------------- encoding
def _encode(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(_encode(v) for v in value)
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    raise TypeError(f"a module state cannot hold a {type(value).__name__} ({value!r})")


_HINTS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _fields(cls: type) -> tuple[tuple[str, Any], ...]:
    got = _HINTS.get(cls)
    if got is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass")
        hints = typing.get_type_hints(cls)
        got = _HINTS[cls] = tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls) if f.init)
    return got


def _decode(tp: Any, data: Any, where: str) -> Any:
    """``data`` (JSON) as a value of type ``tp``; ``TypeError`` saying where it is wrong."""
    at = f" at {where}" if where else ""
    if tp is Any:
        return data
    if tp is type(None) or tp is None:
        if data is not None:
            raise TypeError(f"expected null{at}, got {data!r}")
        return None
    if tp is bool:
        if not isinstance(data, bool):
            raise TypeError(f"expected true or false{at}, got {data!r}")
        return data
    if tp is int:
        if type(data) is not int:
            raise TypeError(f"expected a whole number{at}, got {data!r}")
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise TypeError(f"expected a number{at}, got {data!r}")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise TypeError(f"expected a string{at}, got {data!r}")
        return data
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is types.UnionType or origin is typing.Union:
        problems = []
        for arg in args:
            try:
                return _decode(arg, data, where)
            except TypeError as e:
                problems.append(str(e))
        raise TypeError("; ".join(problems))
    if origin is tuple:
        if not isinstance(data, list):
            raise TypeError(f"expected a list{at}, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(data) != len(args):
            raise TypeError(f"expected {len(args)} entries{at}, got {data!r}")
        return tuple(_decode(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True)))
    if origin is frozenset:
        if not isinstance(data, list):
            raise TypeError(f"expected a list{at}, got {data!r}")
        return frozenset(_decode(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
    if origin is dict:
        if not isinstance(data, dict) or args[0] is not str:
            raise TypeError(f"expected an object{at}, got {data!r}")
        return {k: _decode(args[1], v, f"{where}.{k}") for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        fields = _fields(tp)
        if not isinstance(data, dict):
            raise TypeError(f"expected an object{at}, got {data!r}")
        names = {name for name, _ in fields}
        if set(data) - names:
            raise TypeError(f"unknown {', '.join(sorted(set(data) - names))}{at}")
        missing = [name for name, _ in fields if name not in data]
        defaults = {f.name for f in dataclasses.fields(tp) if f.default is not dataclasses.MISSING}
        if set(missing) - defaults:
            raise TypeError(f"missing {', '.join(sorted(set(missing) - defaults))}{at}")
        kwargs = {name: _decode(ftp, data[name], f"{where}.{name}" if where else name) for name, ftp in fields if name in data}
        return tp(**kwargs)
    raise TypeError(f"a module state field cannot be of type {tp!r}")


def check_state_type(cls: type) -> None:
    """Raise ``TypeError`` unless ``cls`` is a frozen dataclass of the field types above (asked
    once per module, by the tests of every module)."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"{cls!r} is not a dataclass")
    if not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} is not frozen")
    for name, tp in _fields(cls):
        _check_type(tp, f"{cls.__name__}.{name}")


def _check_type(tp: Any, where: str) -> None:
    if tp in (bool, int, float, str, type(None), None, Any):
        return
    origin = typing.get_origin(tp)
    if origin in (types.UnionType, typing.Union, tuple, frozenset, dict):
        for arg in typing.get_args(tp):
            if arg is not Ellipsis:
                _check_type(arg, where)
        return
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        check_state_type(tp)
        return
    raise TypeError(f"{where}: a module state field cannot be of type {tp!r}")
