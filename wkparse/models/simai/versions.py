"""The SimAI commits wkparse tells apart, and which one a commit, a date or a release means.

Users rarely run the SimAI of today: they cloned it on some date. Each entry is a commit of
aliyun/SimAI's master where what SimAI does with a workload file changed (its reader, its
command line, its bandwidth model, its ns-3 backend), so the commit in force on a date is the
last entry at or before it. The analytical ones were built and run on the same cases
(`../shared/simai-versions`); the others are known from their source diffs only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class SimaiVersion:
    """One commit of aliyun/SimAI's master."""

    commit: str
    date: str
    subject: str
    release: str = ""

    @property
    def short(self) -> str:
        return self.commit[:8]

    @property
    def label(self) -> str:
        """How outputs name it: `cef83f9d (2026-08-14)`, with the release where there is one."""
        release = f", SimAI {self.release}" if self.release else ""
        return f"{self.short} ({self.date}{release})"


#: oldest first; the dates are the commits' own
VERSIONS: tuple[SimaiVersion, ...] = (
    SimaiVersion(
        "b1c1eb6688d3c7a6b52676b46adf2f5b7b79d9cc",
        "2024-11-19",
        "[SimAI-Analytical] v1.0 release",
        "1.0",
    ),
    SimaiVersion(
        "03613a7a7992a40b1b396ed5a1b11bcc9c6af634",
        "2024-12-04",
        "[SimAI-Analytical]Add PP comm support",
    ),
    SimaiVersion(
        "b83ea3d43a911adf7f28dc701b3abb84aa086392",
        "2025-01-13",
        "Apply patch to improve workload reading (#69)",
    ),
    SimaiVersion(
        "0253299782eecd65c53b9093fa7bd477abcff63d",
        "2025-02-18",
        "Add AlltoAll support and EP/DP_EP group with SimAI-NS3. (#78)",
    ),
    SimaiVersion(
        "7f06c19cca2db2140404d998486722c323fb17ce",
        "2025-02-28",
        "Fix small message, Simulation same CSV output format as Analytical (#100)",
    ),
    SimaiVersion(
        "4e66932a9b0090a163a7a72b3cb9ea799d713a90",
        "2025-03-20",
        "update group QR code and fix workload read bug (#113)",
    ),
    SimaiVersion(
        "26b4574b4aa28cd6d8b77068093c89fdf9909f25",
        "2025-07-09",
        "Auto buwbw cal (#144)",
    ),
    SimaiVersion(
        "f5efb5a93ea9be7db25a8843f9f7ff54044f6062",
        "2026-04-24",
        "Merge pull request #268",
        "1.6",
    ),
    SimaiVersion(
        "632e1469db91036c6379f167e5255d92c54320d9",
        "2026-07-07",
        "feat(simai): SimAI 1.7 - SimCCL v2.30 integration, docs update, send_lat bucketing",
        "1.7",
    ),
    SimaiVersion(
        "cef83f9ddd96540e3e9f48934f11335d52d54fce",
        "2026-08-14",
        "Merge pull request #294",
    ),
)

#: what wkparse describes when no version is asked for
DEFAULT = VERSIONS[-1]

_DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")
_HASH = re.compile(r"^[0-9a-fA-F]{4,40}$")


class UnknownVersion(ValueError):
    """A revision that names no modelled SimAI (the message says what is accepted)."""


def in_force(date: str) -> SimaiVersion:
    """The SimAI a user who cloned master on `date` (YYYY-MM-DD or YYYY-MM) built."""
    day = date if len(date) == 10 else f"{date}-31"
    known = [v for v in VERSIONS if v.date <= day]
    if not known:
        raise UnknownVersion(f"{date}: before SimAI's first modelled release ({VERSIONS[0].label})")
    return known[-1]


def resolve(rev: str) -> SimaiVersion:
    """The version `rev` means: a commit (4+ hex digits), a date, or a release (`1.6`)."""
    text = rev.strip()
    if _DATE.match(text):
        return in_force(text)
    by_release = [v for v in VERSIONS if v.release and text.lstrip("v") == v.release]
    if by_release:
        return by_release[0]
    if _HASH.match(text):
        low = text.lower()
        matches = [v for v in VERSIONS if v.commit.startswith(low)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise UnknownVersion(f"{rev}: ambiguous SimAI commit; give more digits")
    names = ", ".join(v.short for v in VERSIONS)
    raise UnknownVersion(
        f"{rev}: give a SimAI commit ({names}), a date YYYY-MM-DD or a release (1.0, 1.6, 1.7)"
    )
