"""The models run on one workload file: lint (opt-in rules included), explain, and SimAI on
the backend the user ran, with their own options. Each result says what it rests on."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from wkparse.i18n import _
from wkparse.models.simai.versions import DEFAULT, RECORDED, SWITCHES, SimaiVersion

if TYPE_CHECKING:
    from wkparse.diagnostics import Diagnostic
    from wkparse.explanation import Explanation
    from wkparse.models.simai.outcome import Outcome

#: the current SimAI: the fix "update SimAI" is what it does with the file
MODEL = DEFAULT
#: codes a pasted excerpt raises by being cut, not by being wrong: the row count, the
#: body's structure (micro-batch groups against ga, layers against vpp, checkpoint layers)
#: and the rows against what AICB writes for a command all need the whole file
_EXCERPT_CODES = frozenset(
    {"WK105", "WK219", "WK301", "WK302", "WK304", "WK305", "WK306", "WK307", "WK308"}
    | {"WK602", "WK604"}
)


@dataclass
class Prediction:
    backend: str
    outcome: str
    exit: int | None
    where: str
    message: str
    warnings: tuple[str, ...] = ()
    #: what SimAI does with the options themselves (a missing -n_p_s, ...)
    option_warnings: tuple[str, ...] = ()
    simai: str = MODEL.short
    #: the command's line, or None for wkparse's stated options
    line: int | None = None
    program: str = ""
    #: the key numbers of the run (GPUs it ran on)
    gpus: int | None = None
    #: SimAI-Analytical's `Total time` in its EndToEnd.csv (microseconds), when a number
    total_us: float | None = None
    #: what the run was asked (the user's options, the topology's GPUs), to run it again at
    #: another SimAI
    words: list[str] = field(default_factory=list)
    gpus_asked: int | None = None
    #: the variables the command line sets that the program never reads (`AS_SEND_LAT`
    #: before SimAI_analytical)
    unread_environment: tuple[str, ...] = ()
    #: the EndToEnd.csv's bubble and exposed comm, in % of its total (None: no finite total)
    shares: tuple[float, float] | None = None

    def public(self) -> dict[str, object]:
        return {
            "backend": self.backend,
            "outcome": self.outcome,
            "exit": self.exit,
            "where": self.where,
            "simai": self.simai,
        }


@dataclass
class Checked:
    """Lint's and explain's view of one file."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    explanation: Explanation | None = None
    #: notes (info) and the opt-in generator-defect warnings: listed for bots, not worded
    quiet: list[Diagnostic] = field(default_factory=list)


def check(
    data: bytes,
    lang: str,
    excerpt: bool,
    name: str | None = None,
    version: SimaiVersion = DEFAULT,
    meaning: bool = True,
    target: str = "simai",
) -> Checked:
    """Lint (every rule, opt-in ones included; `name` for the file-name rules) and explain
    the file, in `lang`, for the SimAI `version` the user ran, each consequence worded for
    the `target` backend he ran it on: one lint, whose findings explain reuses (SimAI runs
    separately, with the user's options); `meaning`: explain too."""
    from wkparse.catalog import foreign_codes
    from wkparse.config import Config
    from wkparse.engine import lint
    from wkparse.explanation.facts import explain
    from wkparse.i18n import language
    from wkparse.parse import parse_bytes

    # the rules stay those of the default target; `target` words their consequences only
    rules = Config(opt_in=True, lang=lang, simai=version.commit)
    config = replace(rules, target=target, ignore=tuple(sorted(foreign_codes(rules.target))))
    with language(lang):
        parsed = parse_bytes(data, limits=config.limits)
        found = lint(parsed, name, config)
        try:
            explanation = explain(parsed, name, findings=found) if meaning else None
        except Exception:
            explanation = None
    usable = [
        d for d in found if d.severity is not None and not (excerpt and d.code in _EXCERPT_CODES)
    ]
    kept = [d for d in usable if _worded(d)]
    return Checked(kept, explanation, [d for d in usable if not _worded(d)])


def _worded(d: Diagnostic) -> bool:
    """Whether a finding goes into the answer's words: warnings and errors, but not the
    generator-defect warnings (WK9xx), which hold for nearly every AICB file."""
    from wkparse.diagnostics import Severity

    assert d.severity is not None
    if d.code.startswith("WK9"):
        return d.severity >= Severity.ERROR
    return d.severity >= Severity.WARNING


def run(
    data: bytes,
    backend: str,
    words: list[str],
    gpus: int | None,
    version: SimaiVersion = DEFAULT,
) -> Prediction:
    """SimAI at `version` on `data`: `words` are the user's options (empty: wkparse's stated
    ones, in that version's syntax)."""
    if backend == "ns3":
        from wkparse.models.simai.ns3 import simulate_ns3

        ns3 = simulate_ns3(data, gpus, version)
        outcome = ns3.outcome
        kind = _kind(outcome, ns3.halt.how if ns3.halt else None)
        where = _where(outcome, ns3.reading)
        return Prediction(
            "ns3",
            kind,
            _exit(kind, outcome),
            where,
            _first(_(outcome.message) if outcome.kind == "ok" else outcome.message),
            tuple(ns3.warnings),
            simai=version.short,
            gpus=ns3.gpus,
        )
    from pathlib import Path

    from wkparse.models.simai.options import Refusal, options_for, unread_environment
    from wkparse.models.simai.reasons import ending
    from wkparse.models.simai.run import simulate

    options = options_for(Path("workload.txt"), data, None, words, version)
    reading = simulate(data, None, options, version)
    outcome = ending(reading)  # a NaN or absurd total is the outcome ("nan", "infinite")
    kind = outcome.kind if outcome.kind in ("nan", "infinite") else _kind(outcome, None)
    message = _first(_(outcome.message) if outcome.kind == "ok" else outcome.message)
    if isinstance(options, Refusal):
        message = _("{reason}: it prints `{printed}` and exits {code}").format(
            reason=options.reason, printed=_first(options.stderr), code=options.exit_code
        )
    if kind == "finish" and reading.report is not None and reading.report.broken:
        kind = "no-result"  # no summary
    return Prediction(
        "analytical",
        kind,
        _exit(kind, outcome),
        _where(outcome, reading),
        message,
        tuple(reading.warnings),
        tuple(reading.option_warnings),
        simai=version.short,
        gpus=reading.gpus if isinstance(reading.gpus, int) else None,
        # without -n_p_s the total rests on an uninitialised NIC count: no number to quote
        total_us=None if _undefined(options) else _total(reading.report),
        unread_environment=() if isinstance(options, Refusal) else unread_environment(options),
        shares=_shares(reading.report),
    )


def _undefined(options: object) -> bool:
    from wkparse.models.simai.fit import times_undefined
    from wkparse.models.simai.options import SimaiOptions

    return isinstance(options, SimaiOptions) and times_undefined(options)


def _total(report: object) -> float | None:
    total = getattr(report, "total_time_us", None)
    return float(total) if isinstance(total, (int, float)) and math.isfinite(total) else None


def _shares(report: object) -> tuple[float, float] | None:
    """The bubble's and the exposed comm's share of the total, in %, as SimAI's summary
    gives them (an unset NIC count read as 0 too: its wrapped times sit in the bubble)."""
    totals = getattr(report, "totals", None)
    if not isinstance(totals, dict):
        return None
    total = totals.get("total_time_us")
    bubble, exposed = totals.get("bubble_time_us"), totals.get("total_exposed_comm_us")
    numbers = (total, bubble, exposed)
    if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in numbers):
        return None
    assert isinstance(total, (int, float)) and isinstance(bubble, (int, float))
    assert isinstance(exposed, (int, float))
    if total <= 0:
        return None
    return (bubble / total * 100.0, exposed / total * 100.0)


def _kind(outcome: Outcome, how: str | None) -> str:
    if outcome.kind in ("ok", "wrong-total"):  # wrong-total: it finishes over phantom layers
        return "finish"
    if outcome.kind == "refused":
        return "refuse"
    if outcome.kind == "hang":
        return "hang"
    if outcome.kind == "no-result":
        # the ns-3 backend's exit 0 with no finished pass: a compute past 2^31 ns, or a
        # collective under 4 KiB that never completes (recorded: it is no hang)
        if how in ("stop", "small"):
            return "silent-stop"
        return "empty" if "empty" in outcome.message else "no-result"
    if outcome.exit_code in (136, 139):
        return "crash"
    return "abort"


def _exit(kind: str, outcome: Outcome) -> int | None:
    return None if kind == "hang" else outcome.exit_code


def _where(outcome: Outcome, reading: object) -> str:
    if outcome.layer is None:
        return ""
    rows = getattr(reading, "rows", None)
    layers = getattr(rows, "layers", None) if rows is not None else None
    try:
        name = layers[outcome.layer].name if layers is not None else ""
    except (IndexError, TypeError, AttributeError):
        name = ""
    return f"layer {outcome.layer}" + (f" ({name})" if name else "")


def _first(message: str) -> str:
    return message.strip().splitlines()[0] if message.strip() else ""


def same_result(a: Prediction, b: Prediction) -> bool:
    """Whether two SimAI versions do the same with the file, as far as the answer says: the
    outcome, the exit code and SimAI's message, which may name its own version (the total
    too, where there is one)."""

    def said(p: Prediction) -> tuple[object, ...]:
        return (p.outcome, p.exit, p.message.replace(f"SimAI {p.simai}", "SimAI"), p.total_us)

    return said(a) == said(b)


def source_only(version: SimaiVersion, backend: str) -> tuple[str, ...]:
    """The commits after `version` whose changes to `backend` wkparse knows from SimAI's
    source only (not run): what the model of `version` takes from source diffs. Both backends
    were run at the commits whose switches say RECORDED (the ns-3 one at b83ea3d4, 02532997,
    7f06c19c and the current SimAI)."""
    return tuple(
        dict.fromkeys(
            s.commit
            for s in SWITCHES
            if s.evidence != RECORDED and s.backend in (backend, "both") and not version.has(s.name)
        )
    )
