"""aliyun/SimAI's master, commit by commit: which commit a user who cloned master on a date
built, the AICB its `aicb` submodule pinned, and what each commit changed of the parts that
read, run and report a workload file. `versions.py` models a few of these commits; the
others behave as the modelled one before them except in the areas changed since.

The table is SimAI's first-parent log (`git log --first-parent --format='%H %cI'`), each
commit's date in its own time zone, the submodule from `git ls-tree <commit> aicb`, and the
areas from the paths `git diff --name-only <parent> <commit>` lists, read against the diff
where a path's change decides nothing of what its folder does (a comment says so)."""

from __future__ import annotations

from wkparse.record import record

#: a path's area: what it decides (`workload` the reader and the iteration, `system` the
#: collectives and groups both backends use, `analytical` / `ns3` each backend's frontend
#: and its configuration, `aicb` the submodule, `build` the build scripts, `example` the
#: shipped examples)
AREAS = ("workload", "system", "analytical", "ns3", "aicb", "build", "example")

#: oldest first: (commit, date, aicb submodule pin, areas changed against the first parent)
_MASTER: tuple[tuple[str, str, str, str], ...] = (
    ("b95275aefeb67c2b9d07817afff2aafcd8397c11", "2024-10-11", "", ""),
    ("af5ea7f1dea0312ad30202a055f560de9cbed7a2", "2024-10-12", "", ""),
    ("261dc66f52adacb5c668138c569935da17bef65a", "2024-10-12", "", ""),
    ("c0545aca592642fce5f9daa697cc2eeb75d43048", "2024-10-15", "9d97f65", "aicb"),
    ("b115108794317e8fc336582de1353522f8b0cda3", "2024-10-18", "3221f2a", "aicb example"),
    (
        "1854d8998b5fdfed0afb9daf46790792380a140b",
        "2024-10-18",
        "3221f2a",
        "analytical build ns3 system workload",
    ),
    ("8d065c3b48280a5f3aa0cbc4862bbb9bf240a899", "2024-10-18", "3221f2a", ""),
    ("53803478c78283bc06cd56b6c4980d08d7871bee", "2024-10-18", "3221f2a", ""),
    ("b420dd5b0153a917fa1b9e0476a58e49893cbb10", "2024-10-23", "3221f2a", ""),
    ("16b21a57eeca52189875e5ed9c47148baef9d1cf", "2024-11-01", "d9b4f5c", "aicb"),
    ("6cfed75c53d039f5213dcbf82529d5024fe9e5e8", "2024-11-13", "d9b4f5c", "ns3"),
    ("5bd79e2abe03a7fee4df8300b534d3f35a451cff", "2024-11-16", "d9b4f5c", ""),
    ("bf0a9a77114ac6b35ceb2f89ba8c705ac027f766", "2024-11-19", "d9b4f5c", ""),
    (
        "b1c1eb6688d3c7a6b52676b46adf2f5b7b79d9cc",
        "2024-11-19",
        "d9b4f5c",
        "analytical build example ns3 system workload",
    ),
    ("bd1a4819337e030bbcecd0a153b53e4809cca693", "2024-11-20", "d9b4f5c", "example"),
    ("dca53f539f7a481d576fddb4c441e28051c2e3ea", "2024-11-20", "d9b4f5c", ""),
    ("b0089cf2fa206ca9e8e9cec2e43d12452831f69d", "2024-11-22", "d9b4f5c", "analytical"),
    ("e665e019ea348059bc3aa1d24c70d3f5a2349e8a", "2024-11-24", "d9b4f5c", ""),
    ("44a468ca275f9762887c978167111460f5de3ec9", "2024-11-26", "d9b4f5c", ""),
    ("bb53c8a70c3d9c17f845d45cf1b277ac532d9120", "2024-11-28", "d9b4f5c", "system"),
    ("496ca9f4034e9c847f571e047577f6e88401f656", "2024-12-01", "d9b4f5c", "system"),
    ("a45e375591860ecfe2ffc981b030cb4a4cc7ad1a", "2024-12-01", "d9b4f5c", "system"),
    (
        "03613a7a7992a40b1b396ed5a1b11bcc9c6af634",
        "2024-12-04",
        "d9b4f5c",
        "example system workload",
    ),
    ("9a6651d82973e922a3b4b0b6a8d8f181674aa2c7", "2024-12-04", "d9b4f5c", ""),
    ("d5a58b8efe8cceab3156c594c3974f5c00bbb868", "2024-12-04", "d9b4f5c", ""),
    ("d1410cc7b10f3e62e7d79daf307ebca3f970a0f5", "2024-12-04", "d9b4f5c", ""),
    ("9243c56087f875ea150d530642062d11826a223e", "2024-12-04", "d9b4f5c", ""),
    ("af29299de193b235dcc97a220ec12582949a283f", "2024-12-05", "d9b4f5c", "analytical example"),
    ("b8472449a39e175c303fcba64a9660ca4901f4bc", "2024-12-10", "d9b4f5c", "build"),
    ("01f5bf639d54cf14d2373f7f8762f7d92d90faac", "2024-12-26", "d9b4f5c", ""),
    ("c952142a0ae69c0d18af9aa62873a69f537c3a51", "2024-12-27", "d9b4f5c", ""),
    ("64822f7dabba7f79bd068f07c520ed5bee307974", "2024-12-27", "d9b4f5c", ""),
    ("52e191158e8661c3972c035fed3f5656b22626a0", "2024-12-30", "d9b4f5c", ""),
    ("cc5804511ab7cfc32ce04e2eedb3da088ce51dae", "2025-01-03", "d9b4f5c", ""),
    ("b83ea3d43a911adf7f28dc701b3abb84aa086392", "2025-01-13", "d9b4f5c", "workload"),
    ("ed5c490eb82052c340c91292760c9b3355d6b174", "2025-01-16", "d9b4f5c", ""),
    ("2fd25a72e3ef7e8521fd4187ad5e64ea194398e8", "2025-01-22", "d9b4f5c", ""),
    ("f3f98a145d3b4e12ae30bda1e5b1aa43cefd58db", "2025-01-23", "d9b4f5c", ""),
    ("8c2f17433158f8b610b0112b1c71628b2d1a4989", "2025-01-27", "d9b4f5c", ""),
    ("9ecad45f33832899740d5f4ef51cfea118204eba", "2025-02-06", "d9b4f5c", ""),
    ("0253299782eecd65c53b9093fa7bd477abcff63d", "2025-02-18", "d9b4f5c", "system workload"),
    ("7f06c19cca2db2140404d998486722c323fb17ce", "2025-02-28", "d9b4f5c", "workload"),
    ("4e66932a9b0090a163a7a72b3cb9ea799d713a90", "2025-03-20", "d9b4f5c", "workload"),
    ("2bdecddbee6fa1fc6645dffb110e8912adb2cc33", "2025-04-30", "d9b4f5c", ""),
    ("15c190efdc1ee63489c7ea9115934a308b12242c", "2025-07-09", "d9b4f5c", ""),
    ("d44c48bb31e1f0454c3e32fe4873273d5d667476", "2025-07-09", "d9b4f5c", ""),
    (
        "26b4574b4aa28cd6d8b77068093c89fdf9909f25",
        "2025-07-09",
        "d9b4f5c",
        "analytical system workload",
    ),
    ("a920cdc2b396537822191d5e5a7735058ec0f56a", "2025-07-09", "d9b4f5c", "ns3 system"),
    ("0ee556135cc8b434594b31d7c363e33035427c22", "2025-07-09", "d9b4f5c", ""),
    ("1e7e152e47bccaff79149fc773308bf25f9b71b0", "2025-07-09", "d9b4f5c", ""),
    ("da7cc783e2b640b7deb3ee0031b2f7c853ded14b", "2025-07-11", "d9b4f5c", ""),
    ("0361b978706e0b802bd42793bff7c71c56e36a85", "2025-09-18", "d9b4f5c", ""),
    ("1c0381af579464a4b1f483df76e2ee9fa809fb5f", "2025-09-25", "d9b4f5c", ""),
    ("e5d125144ea864419d92fc1f15f36e378ee0e2a7", "2025-09-25", "d9b4f5c", ""),
    # its paths are system/ and workload/, but it only adds SimAI_analytical's `-l/--lang`
    # option (AstraParamParse.hh) and the report chart's labels (Layer.cc)
    ("136961810ca18bc60400c2baf6ffc8bf2753b087", "2025-10-29", "d9b4f5c", "analytical"),
    ("cee5b9f1d3806322e4a9912beb4d7778a93f179c", "2025-12-31", "23eec3c", "aicb"),
    ("f5efb5a93ea9be7db25a8843f9f7ff54044f6062", "2026-04-24", "23eec3c", ""),
    (
        "cef83f9ddd96540e3e9f48934f11335d52d54fce",
        "2026-08-14",
        "23eec3c",
        "analytical ns3 system workload",
    ),
)


@record(slots=False)
class MasterCommit:
    """One commit of SimAI's master."""

    commit: str
    date: str
    #: the aicb submodule's commit (short), empty before SimAI had one
    aicb: str
    areas: frozenset[str]
    index: int

    @property
    def short(self) -> str:
        return self.commit[:8]

    @property
    def label(self) -> str:
        return f"{self.short} ({self.date})"


MASTER: tuple[MasterCommit, ...] = tuple(
    MasterCommit(c, d, pin, frozenset(a.split()), i) for i, (c, d, pin, a) in enumerate(_MASTER)
)


def on(date: str) -> MasterCommit | None:
    """Master as it stood at the end of `date` (YYYY-MM-DD, or YYYY-MM: the month's end);
    None before SimAI's first commit."""
    day = date if len(date) == 10 else f"{date}-31"
    known = [m for m in MASTER if m.date <= day]
    return known[-1] if known else None


def during(period: str) -> tuple[MasterCommit, ...]:
    """Every master a user could have built during `period`: for a day, the one in force at
    its end; for a month (YYYY-MM), the one in force when it began and each committed in it
    (a date that gives only the month does not say which of them the user had)."""
    if len(period) == 10:
        last = on(period)
        return (last,) if last is not None else ()
    begun = [m for m in MASTER if m.date < f"{period}-01"]
    within = [m for m in MASTER if m.date[:7] == period]
    return tuple(begun[-1:] + within)


def find(commit: str) -> MasterCommit | None:
    """The master commit `commit` (4+ hex digits) names; None if none or several."""
    low = commit.lower()
    matches = [m for m in MASTER if m.commit.startswith(low)]
    return matches[0] if len(matches) == 1 else None


def changed_between(a: MasterCommit, b: MasterCommit) -> frozenset[str]:
    """The areas some commit after the older of `a` and `b`, up to the newer, changed."""
    low, high = sorted((a.index, b.index))
    return frozenset().union(*(m.areas for m in MASTER[low + 1 : high + 1]))
