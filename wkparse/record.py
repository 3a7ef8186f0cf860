"""`@record`: a frozen value class, as `@dataclass(frozen=True, slots=True)` makes it, for less.

Python 3.10-3.12's dataclass compiles each generated method from its own source (`__init__`,
`__repr__`, `__eq__`, `__hash__`, and `__setattr__` and `__delattr__` when frozen) and asks
`inspect` for a signature to write a docstring: about 0.3 ms a class on a quiet machine, and a
lint run defines some fifty (benchmarks/startup.py). A record compiles only its `__init__` and
makes the rest without source. The fields, their order and defaults (`field(default=...)` and
`field(default_factory=...)` too), equality, hash, repr, `__match_args__`, immutability
(`FrozenInstanceError`) and what `dataclasses.fields`, `replace`, `asdict` and `is_dataclass`
say of it are a dataclass's; a method the class defines itself is kept. What it leaves out:
field() options other than a default (but for a cache: `_Factory.hidden`), ordering,
keyword-only fields, `InitVar`.
tests/test_record.py holds it to the dataclass it stands for.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import _FIELD, MISSING, Field, FrozenInstanceError, field  # type: ignore[attr-defined]
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
elif sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # pragma: no cover

    def dataclass_transform(**_: object) -> Callable[[Any], Any]:
        return lambda f: f


T = TypeVar("T", bound=type)

#: a default that is no value: the field has none
_MISSING = object()


def _frozen_setattr(self: object, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: object, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _is_classvar(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return isinstance(text, str) and text.split("[", 1)[0].split(".")[-1] == "ClassVar"


@overload
def record(cls: T, /) -> T: ...
@overload
def record(*, frozen: bool = True, slots: bool = True) -> Callable[[T], T]: ...


@dataclass_transform(frozen_default=True)
def record(
    cls: T | None = None, /, *, frozen: bool = True, slots: bool = True
) -> T | Callable[[T], T]:
    """Make `cls` a record: `@record`, or `@record(frozen=False)` / `@record(slots=False)`
    (no slots: a `functools.cached_property` needs the instance's `__dict__`)."""

    def wrap(c: T) -> T:
        return _make(c, frozen, slots)

    return wrap if cls is None else wrap(cls)


def _make(cls: T, frozen: bool, slots: bool) -> T:
    own = cls.__dict__
    names: list[str] = []
    defaults: dict[str, object] = {}
    for base in reversed(cls.__mro__[1:]):
        inherited = base.__dict__.get("__record_defaults__")
        if inherited is not None:
            for name, default in inherited.items():
                if name not in names:
                    names.append(name)
                defaults[name] = default
    for name, annotation in own.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            continue
        if name not in names:
            names.append(name)
        defaults[name] = _default(cls, name, own.get(name, _MISSING))
    hidden = {n for n, d in defaults.items() if isinstance(d, _Factory) and d.hidden}
    shown = [n for n in names if n not in hidden]
    seen_default = False
    for name in shown:
        if defaults[name] is not _MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {name!r} follows default argument")

    env: dict[str, object] = {"__setter": object.__setattr__, "__missing": _MISSING}
    params, body = [], []
    for name in names:
        default = defaults[name]
        if default is _MISSING:
            params.append(name)
        elif isinstance(default, _Factory):
            env[f"__f_{name}"] = default.make
            if default.hidden:
                body.append(f"  {name} = __f_{name}()")
            else:
                params.append(f"{name}=__missing")
                body.append(f"  if {name} is __missing: {name} = __f_{name}()")
        else:
            env[f"__d_{name}"] = default
            params.append(f"{name}=__d_{name}")
        body.append(f"  __setter(self, {name!r}, {name})" if frozen else f"  self.{name} = {name}")
    if "__post_init__" in own or any(hasattr(b, "__post_init__") for b in cls.__mro__[1:]):
        body.append("  self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}) -> None:\n" + "\n".join(body or ["  pass"])
    exec(source, env)  # made above from the class's own field names
    init: Any = env["__init__"]
    methods = _compared(tuple(shown))
    methods["__init__"] = init

    namespace = dict(own)
    for name in names:
        namespace.pop(name, None)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    if slots:
        namespace["__slots__"] = tuple(n for n in names if n not in _slotted(cls))
    namespace["__record_defaults__"] = {n: defaults[n] for n in names}
    namespace["__dataclass_fields__"] = _fields(cls, names, defaults)
    namespace["__match_args__"] = tuple(shown)
    for method in ("__init__", "__repr__", "__eq__", "__reduce__"):
        if method not in own:
            function: Any = methods[method]
            function.__qualname__ = f"{cls.__qualname__}.{method}"
            namespace[method] = function
    # As dataclass decides: a hash the class wrote is kept (None beside its own __eq__ is
    # Python's, not the class's), else the fields' when frozen, else none (unhashable).
    if "__hash__" not in own or (own["__hash__"] is None and "__eq__" in own):
        namespace["__hash__"] = methods["__hash__"] if frozen else None
    if frozen:
        namespace["__setattr__"] = _frozen_setattr
        namespace["__delattr__"] = _frozen_delattr
    if not slots:
        for name, value in namespace.items():
            if name not in ("__dict__", "__weakref__") and own.get(name, _MISSING) is not value:
                type.__setattr__(cls, name, value)
        for name in names:
            if defaults[name] is not _MISSING and not isinstance(defaults[name], _Factory):
                type.__setattr__(cls, name, defaults[name])
        return cls
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


def _fields(cls: type, names: list[str], defaults: dict[str, object]) -> dict[str, Field[Any]]:
    """The fields as `dataclasses` describes a dataclass's, so that `dataclasses.fields`,
    `replace`, `asdict` and `is_dataclass` take a record as they take its dataclass."""
    types: dict[str, object] = {}
    for c in reversed(cls.__mro__):
        types.update(c.__dict__.get("__annotations__", {}))  # noqa: RUF063  (each class its own)
    out: dict[str, Field[Any]] = {}
    for name in names:
        default: Any = defaults[name]
        made: Any
        if isinstance(default, _Factory) and default.hidden:
            made = field(default_factory=default.make, **_HIDDEN)  # type: ignore[call-overload]
        elif isinstance(default, _Factory):
            made = field(default_factory=default.make)
        else:
            made = field() if default is _MISSING else field(default=default)
        made.name, made.type = name, types.get(name)
        made._field_type = _FIELD  # as dataclass marks a field
        out[name] = made
    return out


class _Factory:
    """A field's `field(default_factory=make)`: each instance gets its own. `hidden`: a field
    that is no parameter and no part of repr, equality or hash (a cache the instance keeps:
    `field(default_factory=make, init=False, repr=False, compare=False, hash=False)`)."""

    __slots__ = ("hidden", "make")

    def __init__(self, make: Callable[[], object], hidden: bool = False) -> None:
        self.make = make
        self.hidden = hidden


#: what `field()` is left with when only a default or a factory was given
_PLAIN: dict[str, object] = {
    "init": True,
    "repr": True,
    "hash": None,
    "compare": True,
    "metadata": {},
}
#: and for a hidden field (`_Factory.hidden`)
_HIDDEN: dict[str, object] = {
    "init": False,
    "repr": False,
    "hash": False,
    "compare": False,
    "metadata": {},
}


def _default(cls: type, name: str, value: object) -> object:
    """The default of field `name`: its value, a `_Factory`, or `_MISSING` for none."""
    if not isinstance(value, Field):
        return value
    plain = all(getattr(value, k) == v for k, v in _PLAIN.items())
    hidden = all(getattr(value, k) == v for k, v in _HIDDEN.items())
    if hidden and value.default_factory is not MISSING:
        return _Factory(value.default_factory, hidden=True)
    if not plain or value.kw_only not in (MISSING, False):
        raise TypeError(f"{cls.__name__}.{name}: a record's field() takes a default only")
    if value.default_factory is not MISSING:
        return _Factory(value.default_factory)
    return _MISSING if value.default is MISSING else value.default


def _compared(names: tuple[str, ...]) -> dict[str, Callable[..., Any]]:
    """`__repr__`, `__eq__`, `__hash__` and `__reduce__` over the fields `names`, in order
    (closures: no source to compile)."""
    get: Callable[[object], tuple[Any, ...]]
    if len(names) == 1:
        one = attrgetter(names[0])
        get = lambda self: (one(self),)  # noqa: E731
    elif names:
        get = attrgetter(*names)
    else:
        get = lambda self: ()  # noqa: E731

    def __repr__(self: object) -> str:
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, get(self)))
        return f"{self.__class__.__qualname__}({shown})"

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return get(self) == get(other)
        return NotImplemented

    def __hash__(self: object) -> int:
        return hash(get(self))

    def __reduce__(self: object) -> tuple[type, tuple[Any, ...]]:
        # copy and pickle make it again through __init__ (a frozen record refuses setattr)
        return self.__class__, get(self)

    return {"__repr__": __repr__, "__eq__": __eq__, "__hash__": __hash__, "__reduce__": __reduce__}


def _slotted(cls: type) -> set[str]:
    """The slots the bases of `cls` already have."""
    return {s for b in cls.__mro__[1:] for s in b.__dict__.get("__slots__", ())}
