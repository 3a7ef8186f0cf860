"""Time `wkparse triage` of an issue against the models it runs, in the same run.

```sh
python benchmarks/triage.py                 # prints a table; exit 1 when a target is missed
python benchmarks/triage.py --repeat 7 --out benchmarks/results/triage.json
```

Contenders, each timed in this process (start-up is the same for every command and is left
out), round-robin so a busy neighbour slows all alike, once untimed first, median of
`--repeat` runs:

- `triage`: `wkparse.triage(issue, attachments=DIR)`, the whole of it (reading the thread,
  the artefacts, the models, the answer);
- `explain`: `wkparse explain` of the issue's largest attachment (explain lints the file and
  predicts SimAI-Analytical's report), the baseline the issue names;
- `models`: the models triage runs on that file, as a maintainer runs them: `wkparse.lint`,
  `wkparse.explanation` and SimAI on the backend and with the options of the thread's command
  (`wkparse.models.simai`, or the ns-3 model), at the SimAI in force for the thread, and lint
  and SimAI again at the current one where that is another; none for a thread out of scope,
  where triage runs no model.

Target: triage costs at most `models` + 20%. The cases: every `../shared/triage` case with an
attachment, and one built here: a thread that runs SimAI_analytical (and asks about
SimAI_simulator) on the largest file of `../shared/corpus`, attached.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from wkparse import triage  # noqa: E402
from wkparse.threads.artefacts import extract  # noqa: E402
from wkparse.threads.reading import read_thread  # noqa: E402
from wkparse.threads.scope import judge  # noqa: E402
from wkparse.threads.versions import stated_commits, versions_of  # noqa: E402

SHARED = ROOT.parent / "shared"
ALLOWANCE = 1.2

#: a thread built around an attached file: {name} and {gpus} are filled in
BUILT = """---
title: SimAI_analytical reports NaN for my file
created: 2026-08-20
language: en
---

I ran

    ./bin/SimAI_analytical -w {name} -g {gpus} -g_p_s 8 -r test-

and the summary says NaN. The same file with SimAI_simulator hangs. The file is attached.
"""


def _cases(work: Path) -> list[tuple[str, bytes, Path]]:
    out: list[tuple[str, bytes, Path]] = []
    triage_dir = SHARED / "triage"
    if triage_dir.is_dir():
        for case in sorted(triage_dir.iterdir()):
            folder = case / "attachments"
            if folder.is_dir() and any(folder.iterdir()):
                out.append((case.name, (case / "issue.md").read_bytes(), folder))
    corpus = SHARED / "corpus"
    if corpus.is_dir():
        largest = max(corpus.rglob("*.txt"), key=lambda p: p.stat().st_size)
        folder = work / "built"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / largest.name).write_bytes(largest.read_bytes())
        from wkparse.models.simai import first_line, read_header

        gpus = read_header(first_line(largest.read_bytes())).value("all_gpus") or 8
        issue = BUILT.format(name=largest.name, gpus=gpus).encode()
        out.append((f"built: {largest.name[:40]}...", issue, folder))
    return out


def _largest(folder: Path) -> Path:
    return max((p for p in folder.iterdir() if p.is_file()), key=lambda p: p.stat().st_size)


def _models_of(issue: bytes, attachment: Path) -> Callable[[], object]:
    """The model calls triage makes on the attachment: lint + explain, and SimAI with the
    thread's options on its backends, at the SimAI in force for the thread; where that is not
    the current SimAI, lint and SimAI again at the current one (the fix "update SimAI");
    nothing when the thread is out of scope."""
    from wkparse.models.simai.versions import DEFAULT

    thread = read_thread(issue)
    found = extract(thread)
    if judge(found).value == "out":
        return lambda: None
    _, ran = versions_of(thread.created or None, stated_commits(thread))
    versions = [ran] if ran == DEFAULT else [ran, DEFAULT]
    data = attachment.read_bytes()
    runs: list[tuple[str, list[str]]] = []
    for a in found.of("simai-command"):
        if a.command is not None:
            words = a.command.words if a.command.backend == "analytical" else []
            runs.append((a.command.backend, words))
    prose = " ".join(t for _, t in found.prose)
    if not runs:
        runs.append(("analytical", []))
        if "SimAI_simulator" in prose:
            runs.append(("ns3", []))

    def call() -> object:
        import wkparse
        from wkparse.config import Config
        from wkparse.models.simai.ns3 import simulate_ns3

        out: list[object] = []
        for v in versions:
            config = Config(opt_in=True, simai=v.commit)
            out.append(wkparse.lint(data, config=config))
            if v == ran:
                out.append(wkparse.explain(data, config=config))
            out += [
                simulate_ns3(data, None, v)
                if backend == "ns3"
                else wkparse.simai(data, words, at=v.commit)
                for backend, words in runs
            ]
        return out

    return call


def _triage_of(issue: bytes, folder: Path) -> Callable[[], object]:
    return lambda: triage(issue, attachments=folder)


def _explain(attachment: Path) -> Callable[[], object]:
    import wkparse

    return lambda: wkparse.explain(attachment)


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--work", type=Path, default=HERE / "work" / "triage")
    args = parser.parse_args(argv)
    cases = _cases(args.work)
    if not cases:
        print("no cases: ../shared/triage and ../shared/corpus are absent")
        return 0
    rows: list[dict[str, Any]] = []
    missed = 0
    for name, issue, folder in cases:
        largest = _largest(folder)
        contenders: dict[str, Callable[[], object]] = {
            "triage": _triage_of(issue, folder),
            "explain": _explain(largest),
            "models": _models_of(issue, largest),
        }
        times: dict[str, list[float]] = {k: [] for k in contenders}
        for fn in contenders.values():
            fn()  # untimed: caches, imports
        for _ in range(args.repeat):
            for key, fn in contenders.items():
                times[key].append(_time(fn))
        med = {k: statistics.median(v) for k, v in times.items()}
        # out of scope, triage runs no model: nothing to hold it to but its own reading
        budget = med["models"] * ALLOWANCE if med["models"] > 0.001 else None
        ok = budget is None or med["triage"] <= budget
        missed += not ok
        rows.append(
            {
                "case": name,
                "attachment": largest.name,
                "bytes": largest.stat().st_size,
                "median_s": med,
                "triage_over_models": med["triage"] / med["models"] if budget is not None else None,
                "triage_over_explain": med["triage"] / med["explain"] if med["explain"] else None,
                "target_met": ok,
                "runs": times,
            }
        )
    print(
        f"| case | attachment bytes | triage s | models s | explain s | triage/models | "
        f"triage/explain | target (<= models x {ALLOWANCE}) |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        m = r["median_s"]
        tm = r["triage_over_models"]
        te = r["triage_over_explain"]
        print(
            f"| {r['case']} | {r['bytes']:,} | {m['triage']:.3f} | {m['models']:.3f} | "
            f"{m['explain']:.3f} | {f'{tm:.2f}' if tm else '-'} | {te:.2f} | "
            f"{'met' if r['target_met'] else 'MISSED'} |"
        )
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
