"""`wkparse.record.record` against the dataclass it stands for: the same fields, defaults,
equality, hash, repr, pattern matching and immutability (wkparse/record.py says why)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError, dataclass, field
from functools import cached_property
from typing import ClassVar

import pytest

from wkparse.ast import Header, Span
from wkparse.record import record


@dataclass(frozen=True, slots=True)
class AsDataclass:
    a: int
    b: str
    c: tuple[int, ...] = ()
    kind: ClassVar[str] = "shared"

    def total(self) -> int:
        return self.a + sum(self.c)


@record
class AsRecord:
    a: int
    b: str
    c: tuple[int, ...] = ()
    kind: ClassVar[str] = "shared"

    def total(self) -> int:
        return self.a + sum(self.c)


@pytest.mark.parametrize("args", [(1, "x"), (2, "y", (3, 4))])
def test_a_record_behaves_as_the_frozen_dataclass(args: tuple[object, ...]) -> None:
    d, r = AsDataclass(*args), AsRecord(*args)  # type: ignore[arg-type]
    assert repr(r) == repr(d).replace("AsDataclass", "AsRecord")
    assert r == AsRecord(*args) and hash(r) == hash(AsRecord(*args))  # type: ignore[arg-type]
    assert hash(r) == hash(d)  # both hash the tuple of the fields
    assert r != AsRecord(9, "z") and r != d and r != (r.a, r.b, r.c)
    assert r.total() == d.total() and AsRecord.kind == "shared"
    assert AsRecord.__match_args__ == AsDataclass.__match_args__ == ("a", "b", "c")
    assert AsRecord.__slots__ == AsDataclass.__slots__  # type: ignore[attr-defined]
    assert not hasattr(r, "__dict__")
    with pytest.raises(FrozenInstanceError):
        r.a = 5  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del r.b  # type: ignore[misc]
    assert copy.copy(r) == r == copy.deepcopy(r) == pickle.loads(pickle.dumps(r))
    match r:
        case AsRecord(a, b):
            assert (a, b) == args[:2]
        case _:
            pytest.fail("no match")
    with pytest.raises(TypeError):
        AsRecord()  # type: ignore[call-arg]
    assert AsRecord(b="k", a=1) == AsRecord(1, "k")


def test_dataclasses_functions_take_a_record_as_its_dataclass() -> None:
    d, r = AsDataclass(1, "x", (2,)), AsRecord(1, "x", (2,))
    assert dataclasses.is_dataclass(r) and dataclasses.is_dataclass(AsRecord)
    mine, theirs = dataclasses.fields(r), dataclasses.fields(d)
    assert [(f.name, f.type, f.default) for f in mine] == [
        (f.name, f.type, f.default) for f in theirs
    ]
    assert dataclasses.replace(r, b="y") == AsRecord(1, "y", (2,))
    assert dataclasses.asdict(r) == dataclasses.asdict(d)
    assert dataclasses.astuple(r) == dataclasses.astuple(d)
    nested = Header("HYBRID_TRANSFORMER", Span(1, 0, 1, 4), (), (), Span(1, 0, 1, 4))
    assert dataclasses.asdict(nested)["span"] == {
        "line": 1,
        "column": 0,
        "end_line": 1,
        "end_column": 4,
    }


def test_a_hash_or_repr_the_class_writes_is_kept() -> None:
    span = Span(1, 0, 1, 4)
    h1 = Header("HYBRID_TRANSFORMER", span, (), (), span)
    h2 = Header("HYBRID_TRANSFORMER", span, (), (), span)
    assert h1 == h2 and hash(h1) == hash(("HYBRID_TRANSFORMER", span, 0, 0))

    @record
    class Shown:
        a: int

        def __repr__(self) -> str:
            return "mine"

    assert repr(Shown(1)) == "mine"


def test_a_mutable_record_is_unhashable_as_its_dataclass() -> None:
    @record(frozen=False)
    class Counter:
        n: int = 0

    c = Counter()
    c.n += 1
    assert c == Counter(1) and Counter.__hash__ is None


def test_a_record_without_slots_keeps_a_dict_for_cached_properties() -> None:
    @record(slots=False)
    class Lazy:
        a: int

        @cached_property
        def double(self) -> int:
            return 2 * self.a

    lazy = Lazy(3)
    assert lazy.double == 6 and lazy == Lazy(3)
    with pytest.raises(FrozenInstanceError):
        lazy.a = 1  # type: ignore[misc]


def test_a_field_default_and_factory_are_a_dataclass_s() -> None:
    @record
    class Made:
        a: int = field(default=3)
        seen: frozenset[int] = field(default_factory=frozenset)

    @record(frozen=False)
    class Growing:
        items: list[int] = field(default_factory=list)

    assert Made() == Made(3, frozenset()) and repr(Made()).endswith(".Made(a=3, seen=frozenset())")
    one, two = Growing(), Growing()
    one.items.append(1)
    assert one.items == [1] and two.items == []  # each instance its own


def test_a_cache_field_is_no_parameter_and_no_part_of_equality() -> None:
    @record(slots=False)
    class Cached:
        a: int
        memo: dict[str, int] = field(
            default_factory=dict, init=False, repr=False, compare=False, hash=False
        )

    one, two = Cached(1), Cached(1)
    one.memo["k"] = 1
    assert one == two and hash(one) == hash(two) and two.memo == {}
    assert repr(one).endswith("Cached(a=1)") and Cached.__match_args__ == ("a",)
    assert dataclasses.replace(one, a=2) == Cached(2)
    with pytest.raises(TypeError):
        Cached(1, {})  # type: ignore[call-arg]


def test_what_a_record_does_not_do_is_refused() -> None:
    with pytest.raises(TypeError, match="default only"):

        @record
        class Hidden:
            a: int = field(default=0, repr=False)

    with pytest.raises(TypeError, match="non-default"):

        @record
        class Misordered:
            a: int = 0
            b: int  # type: ignore[misc]
