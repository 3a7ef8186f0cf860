"""What `wkparse diff` finds: frozen dataclasses, one per layer, and the whole Difference.

Pure data. `header`, `facts` and `rows` fill them in; the renderers read them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HeaderChange:
    """A line-1 key whose value SimAI reads differently (or that only one side has).

    `a` and `b` are the values as written (None where the side has no such key); `note` says
    why two spellings that look alike differ, or how SimAI reads one that looks different.
    """

    key: str
    a: str | None
    b: str | None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class FactChange:
    """An explain fact with different values; `ratio` is b / a where both are non-zero numbers."""

    name: str
    label: str
    a: int | float | bool | None
    b: int | float | bool | None
    ratio: float | None
    #: how the renderers print the values: "count", "bytes", "ns", "fraction" or "flag"
    unit: str


@dataclass(frozen=True, slots=True)
class RowChange:
    """One kind of change, with every place it occurs.

    `kind` is "field" (one field of rows present on both sides), "group_removed",
    "group_added", "row_removed", "row_added" or "row_moved". `where` names the places in
    words ("all 64 groups", "group 64", "the prologue"); `rows` counts the rows it touches.
    """

    kind: str
    where: str
    rows: int
    #: the row's name (None for whole groups)
    name: str | None = None
    #: for "field": the field (as `wkparse.ast.ROW_FIELDS` names it) and its two values
    field: str | None = None
    a: int | str | None = None
    b: int | str | None = None
    #: for "row_moved": the row's position inside its section on each side (0-based)
    position_a: int | None = None
    position_b: int | None = None
    #: the line of the first place it occurs, in each file (None where the side lacks it)
    line_a: int | None = None
    line_b: int | None = None


@dataclass(frozen=True, slots=True)
class RowsDiff:
    a: int
    b: int
    #: rows present on both sides whose fields differ
    changed: int
    added: int
    removed: int
    #: rows present on both sides, unchanged, at another place in their section
    moved: int
    changes: tuple[RowChange, ...]

    @property
    def equal(self) -> bool:
        return not (self.changed or self.added or self.removed or self.moved)


@dataclass(frozen=True)
class Difference:
    a_path: str
    b_path: str
    header: tuple[HeaderChange, ...]
    facts: tuple[FactChange, ...]
    rows: RowsDiff
    #: the predicted SimAI-Analytical Total time change (None where not asked for)
    simai: SimaiChange | None = None

    @property
    def equal(self) -> bool:
        return not self.header and not self.facts and self.rows.equal


@dataclass(frozen=True, slots=True)
class SimaiSide:
    """One file's predicted SimAI-Analytical run: `total_us` is its Total time, None where
    there is none (`why` then says so: a hang, no result, NaN/Inf, a refusal); a total that
    is a number but no real time (an infinite collective) has `why` too."""

    total_us: float | None
    kind: str
    why: str | None = None


@dataclass(frozen=True, slots=True)
class LayerCostChange:
    """A layer (the same position in both files) whose predicted cost changed: its compute
    plus exposed comm in us, as SimAI-Analytical reports them. Names and lines are None
    where the side has no such layer."""

    index: int
    name_a: str | None
    line_a: int | None
    name_b: str | None
    line_b: int | None
    a_us: float
    b_us: float

    @property
    def delta_us(self) -> float:
        return self.b_us - self.a_us


@dataclass(frozen=True, slots=True)
class SimaiChange:
    """The predicted Total time of each side under explain's stated option set (as SimAI
    spells it: `-g` is each file's own all_gpus), and the layers whose cost changed most,
    biggest first."""

    options_a: str
    options_b: str
    a: SimaiSide
    b: SimaiSide
    layers: tuple[LayerCostChange, ...]

    @property
    def delta_us(self) -> float | None:
        if self.a.total_us is None or self.b.total_us is None:
            return None
        return self.b.total_us - self.a.total_us

    @property
    def percent(self) -> float | None:
        d = self.delta_us
        if d is None or not self.a.total_us:
            return None
        return 100.0 * d / self.a.total_us
