"""Which SimAI and AICB the user ran: a commit the thread names (a link into the repository,
"SimAI commit abc1234"), else the ones in force on the issue's date; and why, in the answer's
language."""

from __future__ import annotations

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
    """The SimAI and AICB in force, and why (the JSON's `versions`), and the modelled SimAI
    the models run at."""
    from wkparse.models.aicb import AicbError
    from wkparse.models.aicb.revisions import LATEST, resolve
    from wkparse.models.simai.versions import UnknownVersion, in_force
    from wkparse.models.simai.versions import resolve as simai_resolve

    simai: dict[str, object] = {"current": models.MODEL.short}
    aicb: dict[str, object] = {}
    if "simai" in stated:
        commit, line = stated["simai"]
        try:
            simai.update(
                _modelled(simai_resolve(commit), f"named in the thread (line {line})", "stated")
            )
            simai.update(line=line)
        except UnknownVersion:
            simai.update(
                commit=commit[:8],
                label=commit[:8],
                why=f"named in the thread (line {line}); not a commit wkparse tells apart",
                basis="stated",
                line=line,
                date=date,
            )
    elif date:
        try:
            simai.update(
                _modelled(in_force(date), f"master in force on {date}, the issue's date", "date")
            )
            simai.update(date=date)
        except UnknownVersion as exc:
            simai.update(commit=None, why=str(exc), basis="before", date=date)
    else:
        simai.update(commit=None, why="no date in the issue", basis="none")
    at = stated["aicb"][0] if "aicb" in stated else sources._day(date)
    why = (
        f"named in the thread (line {stated['aicb'][1]})"
        if "aicb" in stated
        else (f"master in force on {date}" if date else "no date in the issue: the latest modelled")
    )
    basis = "stated" if "aicb" in stated else ("date" if date else "none")
    aicb.update(basis=basis, line=stated["aicb"][1] if "aicb" in stated else None, date=date)
    try:
        r = resolve(at) if at else LATEST
        aicb.update(revision=r.label, at=at, why=why)
    except AicbError as exc:
        aicb.update(revision=None, at=None, why=str(exc))
    ran = running(simai)
    simai.update(model=ran.short, model_label=ran.label, model_why=_model_why(simai, ran))
    return {"simai": simai, "aicb": aicb}, ran


def _modelled(v: SimaiVersion, why: str, basis: str) -> dict[str, object]:
    """The entries of a SimAI version wkparse models, and why it is the user's."""
    return {"commit": v.short, "label": v.label, "why": why, "basis": basis}


def running(simai: dict[str, object]) -> SimaiVersion:
    """The modelled SimAI the models run for the user: the one they named or the one in force
    on the issue's date; for a named commit wkparse does not tell apart, the one in force on
    the date. Before the first modelled version (whose reader already differs from the one
    before it) and when nothing says, the current one: the answer says it is not the user's."""
    from wkparse.models.simai.versions import UnknownVersion, in_force, resolve

    commit, date = simai.get("commit"), simai.get("date")
    try:
        if isinstance(commit, str) and commit:
            return resolve(commit)
    except UnknownVersion:
        pass
    try:
        if isinstance(date, str) and date:
            return in_force(date)
    except UnknownVersion:
        pass
    return models.MODEL


def _model_why(simai: dict[str, object], ran: SimaiVersion) -> str:
    if simai.get("commit") == ran.short:
        return (
            "the commit the thread names"
            if simai.get("basis") == "stated"
            else "the SimAI in force on the issue's date"
        )
    if simai.get("basis") == "before":
        return "the current SimAI: the user's is older than any SimAI wkparse models"
    if simai.get("basis") == "none":
        return "no date or commit: the current SimAI"
    return f"the modelled SimAI in force on {simai.get('date')}"


def why(version: dict[str, object], lang: str) -> str:
    """Why this version, in the answer's language."""
    basis = str(version.get("basis") or "none")
    return say(f"why-{basis}", lang, date=version.get("date"), line=version.get("line"))
