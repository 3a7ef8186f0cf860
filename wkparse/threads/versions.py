"""Which SimAI and AICB the user ran: a commit the thread names (a link into the repository,
"SimAI commit abc1234"), else the ones in force on the issue's date; and why, in the answer's
language."""

from __future__ import annotations

import contextlib
import datetime
import re
from typing import TYPE_CHECKING

from wkparse.threads import models, sources
from wkparse.threads.phrases import say
from wkparse.threads.reading import Thread

if TYPE_CHECKING:
    from wkparse.models.simai.versions import SimaiVersion

#: a commit the thread names: a link into the repository, or "SimAI commit abc1234"
_COMMIT_LINK = re.compile(
    r"github\.com/aliyun/(aicb|SimAI)/(?:tree|commit|blob)/([0-9a-fA-F]{7,40})"
    r"|\b(SimAI|AICB|aicb)\b[^\n]{0,30}?\bcommit:?\s+([0-9a-fA-F]{7,40})\b"
)


def is_date(text: str) -> bool:
    """A calendar date as YYYY-MM-DD (or a month, YYYY-MM), in ASCII digits."""
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}(-[0-9]{2})?", text):
        return False
    try:
        datetime.date.fromisoformat(text if len(text) == 10 else text + "-01")
    except ValueError:
        return False
    return True


def stated_commits(thread: Thread) -> dict[str, tuple[str, int]]:
    """`simai` / `aicb` -> (commit, line) for the commits the thread itself names."""
    found: dict[str, tuple[str, int]] = {}
    for number, text in [(0, thread.title), *thread.numbered()]:
        for m in _COMMIT_LINK.finditer(text):
            repo = (m.group(1) or m.group(3)).lower()
            found.setdefault(repo, (m.group(2) or m.group(4), number))
    return found


def versions_of(
    date: str | None, stated: dict[str, tuple[str, int]]
) -> tuple[dict[str, object], SimaiVersion]:
    """The SimAI and AICB the user ran, and why (the JSON's `versions`): the commit the thread
    names, else master on the issue's date; and the modelled SimAI the models run at in its
    place, with the areas where SimAI changed between the two (`differs`)."""
    from wkparse.models.simai import master
    from wkparse.models.simai.versions import UnknownVersion
    from wkparse.models.simai.versions import resolve as simai_resolve

    simai: dict[str, object] = {"current": models.MODEL.short, "date": date}
    ran: SimaiVersion | None = None
    on_master: master.MasterCommit | None = None
    if "simai" in stated:
        commit, line = stated["simai"]
        simai.update(why=f"named in the thread (line {line})", basis="stated", line=line)
        on_master = master.find(commit)
        with contextlib.suppress(UnknownVersion):
            ran = simai_resolve(commit)
        simai.update(commit=commit[:8], label=on_master.label if on_master else commit[:8])
    elif date:
        on_master = master.on(date)
        period = master.during(date)
        if on_master is None:
            simai.update(commit=None, why=f"{date}: before SimAI's first commit", basis="before")
        elif len(period) > 1:
            # a month only: any master of it; the models run as for the last, and what
            # changed within it is named (`within`, `mixed`)
            first = period[0]
            simai.update(
                commit=None,
                label=f"{first.label} \u2026 {on_master.label}",
                why=f"any master of {date}, the issue's date (a month)",
                basis="period",
                period=[m.short for m in period],
                within=_within(period),
                mixed=_mixed(period),
            )
        else:
            simai.update(
                commit=on_master.short,
                label=on_master.label,
                why=f"master on {date}, the issue's date",
                basis="date",
            )
    else:
        simai.update(commit=None, why="no date in the issue", basis="none")
    if ran is None and on_master is not None:
        ran = _stand_in(on_master)
    if ran is None and "simai" in stated and date:
        ran = _stand_in(master.on(date))
    if ran is None:
        # older than any modelled SimAI: the current one runs, and the answer says so
        simai["older"] = simai.get("basis") in ("date", "before")
        ran = models.MODEL
    modelled = master.find(ran.commit)
    differs: frozenset[str] = frozenset()
    if modelled is not None and on_master is not None:
        differs = master.changed_between(modelled, on_master)
        if simai.get("basis") == "period":  # the period's first master too
            differs |= master.changed_between(modelled, master.during(str(date))[0])
    simai.update(
        model=ran.short,
        model_label=ran.label,
        model_why=_model_why(simai, ran),
        differs=[a for a in READS if a in differs],
    )
    if on_master is not None:
        pins = [on_master.aicb]
        if simai.get("basis") == "period":
            pins = list(dict.fromkeys(m.aicb for m in master.during(str(date)) if m.aicb))
        simai["aicb_pin"] = " / ".join(p for p in pins if p) or None
    return {"simai": simai, "aicb": _aicb(date, stated)}, ran


#: the areas of SimAI that decide what it does with a workload file
READS = ("workload", "system", "analytical", "ns3")


def _within(period: tuple[object, ...]) -> list[dict[str, object]]:
    """The commits after the first of `period` that changed what SimAI does with a workload
    file: each with its label and those areas (where the answer depends on which one the
    user built)."""
    out: list[dict[str, object]] = []
    for m in period[1:]:
        areas = [a for a in READS if a in getattr(m, "areas", ())]
        if areas:
            out.append({"commit": getattr(m, "label", ""), "areas": areas})
    return out


def _mixed(period: tuple[object, ...]) -> list[str]:
    """The modelled switches (`SWITCHES`) that changed within `period`: on for some of its
    masters, off for others."""
    from wkparse.models.simai import master
    from wkparse.models.simai.versions import SWITCHES

    indexes = [getattr(m, "index", -1) for m in period]
    out = []
    for s in SWITCHES:
        at = master.find(s.commit)
        if at is not None and indexes[0] < at.index <= indexes[-1]:
            out.append(s.name)
    return out


def depends(simai: object, switch: str) -> bool:
    """Whether the user's SimAI may or may not have `switch`: it changed within the period
    the thread's date gives (a month), so a statement resting on it is not said."""
    return isinstance(simai, dict) and switch in (simai.get("mixed") or ())


def _stand_in(commit: object) -> SimaiVersion | None:
    """The newest modelled SimAI on master at or before `commit` (None before the first)."""
    from wkparse.models.simai import master
    from wkparse.models.simai.versions import VERSIONS

    if not isinstance(commit, master.MasterCommit):
        return None
    best = None
    for v in VERSIONS:
        m = master.find(v.commit)
        if m is not None and m.index <= commit.index:
            best = v
    return best


def _aicb(date: str | None, stated: dict[str, tuple[str, int]]) -> dict[str, object]:
    """The AICB the user ran: the commit the thread names, else master on the date; and the
    revision wkparse's generator model writes as for it."""
    from wkparse.models.aicb import AicbError
    from wkparse.models.aicb.revisions import LATEST, master_on, masters_during, resolve

    aicb: dict[str, object] = {"date": date}
    if "aicb" in stated:
        commit, line = stated["aicb"]
        aicb.update(basis="stated", line=line, commit=commit[:7], at=commit)
        aicb["why"] = f"named in the thread (line {line})"
    elif date:
        day = sources._day(date)
        head = master_on(day) if day else None
        aicb.update(basis="date", line=None, at=day, why=f"master on {date}")
        if head is not None:
            aicb.update(commit=head[0][:7], commit_date=head[1])
        period = masters_during(date)
        if len(period) > 1:
            # a month only: any master of it; the model writes as at its end, and the
            # revisions within it that changed what AICB writes are named
            first = period[0]
            aicb.update(
                basis="period",
                why=f"any master of {date}, the issue's date (a month)",
                commit=None,
                label=f"{first[0][:7]} ({first[1]}) \u2026 {head[0][:7]} ({head[1]})"
                if head
                else None,
                period=[c[:7] for c, _ in period],
                within=_aicb_within(period),
            )
    else:
        aicb.update(
            basis="none", line=None, at=None, why="no date in the issue: the latest modelled"
        )
    at = aicb.get("at")
    try:
        r = resolve(at) if isinstance(at, str) else LATEST
        aicb.update(revision=r.label, short=r.short)
    except AicbError as exc:
        aicb.update(revision=None, at=None, why=str(exc))
    return aicb


def _aicb_within(period: tuple[tuple[str, str], ...]) -> list[str]:
    """The revisions (labels) within `period` after its first that changed what AICB's
    generators write."""
    from wkparse.models.aicb import AicbError
    from wkparse.models.aicb.revisions import resolve

    out: list[str] = []
    before = None
    for commit, _date in period:
        try:
            label = resolve(commit).label
        except AicbError:
            continue
        if before is not None and label != before:
            out.append(label)
        before = label
    return out


def running(simai: dict[str, object]) -> SimaiVersion:
    """The modelled SimAI the models run for the user (`versions_of` decides it)."""
    from wkparse.models.simai.versions import UnknownVersion, resolve

    try:
        return resolve(str(simai.get("model")))
    except UnknownVersion:
        return models.MODEL


def _model_why(simai: dict[str, object], ran: SimaiVersion) -> str:
    if simai.get("commit") == ran.short:
        return (
            "the commit the thread names"
            if simai.get("basis") == "stated"
            else "the SimAI on master on the issue's date"
        )
    if simai.get("older"):
        return "the current SimAI: the user's is older than any SimAI wkparse models"
    if simai.get("basis") == "none":
        return "no date or commit: the current SimAI"
    if simai.get("basis") == "period":
        return "the newest modelled SimAI at or before the period's last master"
    return f"the newest modelled SimAI before {simai.get('label')}"


def differs_for(simai: dict[str, object], areas: tuple[str, ...]) -> list[str]:
    """Which of `areas` SimAI changed between the user's commit and the modelled one."""
    differs = simai.get("differs")
    return [a for a in areas if isinstance(differs, list) and a in differs]


def reader_differs(simai: dict[str, object], ran: SimaiVersion) -> bool:
    """Whether the SimAI the models run stands in for one that reads workload files otherwise
    (older than any modelled, or its reader changed in between): lint speaks for the former."""
    if simai.get("commit") == ran.short:
        return False
    return bool(simai.get("older")) or bool(differs_for(simai, ("workload",)))


def why(version: dict[str, object], lang: str) -> str:
    """Why this version, in the answer's language."""
    basis = str(version.get("basis") or "none")
    return say(
        f"why-{basis}",
        lang,
        date=version.get("date"),
        line=version.get("line"),
        instead=version.get("instead"),
        writes=version.get("instead_writes"),
    )
