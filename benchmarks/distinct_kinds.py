"""explain and simai against the split loop on a file whose rows never repeat (issue 41).

    nice python benchmarks/distinct_kinds.py     # about 2 minutes on 2 cores; exit 1 if missed

The file is the issue's: GPT-22B (48 layers), TP 8, PP 1, 8 GPUs, ga 10,400 (1,008,812 rows,
78 MB), every compute time and every collective's size jittered per micro-batch group
(`synthesize.py --jitter 0.05 --every-size --seed 1`): no two rows repeat and nearly every
row is a kind of layer of its own (name, collectives and sizes, what SimAI's report works
out once per kind): about 960,000 kinds. `benchmarks/run.py`'s distinct file jitters the
compute times only and keeps 15 kinds; this one is the case where the report is all kinds.

Each command is its own process, start-up included (`run.measure`: one untimed warm-up, then
`--repeat` interleaved rounds): the split loop (`run.SPLIT_LOOP`), `wkparse explain`,
`wkparse simai` (text), and for reference `wkparse simai --format csv` and `wkparse lint`.
A command's best run counts, in CPU seconds (user + system: steadier than the wall clock on
a machine shared with other work) and in wall seconds; the targets are explain and simai
within `LIMIT` times the split loop, in CPU. Writes `results/distinct_kinds.json`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.run import HERE, SPLIT_LOOP, Measurement, child_env, machine, measure

#: explain and simai may cost at most this many split loops (issue 41)
LIMIT = 4.0
#: the issue's file: GPT-22B, TP 8, PP 1, 8 GPUs; ga = gbs here (mbs 1, DP 1)
SHAPE = ("--model", "gpt_22B", "--world", "8", "--tp", "8", "--pp", "1")
JITTER = ("--jitter", "0.05", "--every-size", "--seed", "1")
#: name -> wkparse's arguments before the file; the judged ones first
COMMANDS = {
    "explain": ["explain"],
    "simai": ["simai"],
    "simai --format csv": ["simai", "--format", "csv"],
    "lint": ["lint"],
}
JUDGED = ("explain", "simai")


def make_file(gbs: int, work: Path) -> Path:
    """Write (or reuse) the file of `gbs` micro-batch groups in `work`."""
    path = work / f"distinct-kinds-{gbs}" / "workload.txt"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, str(HERE / "synthesize.py"), *SHAPE, "--gbs", str(gbs)]
        subprocess.run(
            [*command, *JITTER, "-o", str(path)],
            check=True,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
    return path


def ratios(runs: dict[str, Measurement]) -> dict[str, dict[str, float | None]]:
    """Each command's best CPU and wall time over the split loop's."""
    split = runs["split"]
    out: dict[str, dict[str, float | None]] = {}
    for name, m in runs.items():
        if name == "split":
            continue
        found: dict[str, float | None] = {}
        for key, mine, base in (
            ("cpu", m.cpu_s, split.cpu_s),
            ("wall", m.times_s, split.times_s),
        ):
            ok = mine and base and not m.error and not split.error
            found[key] = round(min(mine) / min(base), 2) if ok else None
        out[name] = found
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gbs", type=int, default=10_400, help="ga of the file (rows / 97)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--work", type=Path, default=HERE / "work")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "distinct_kinds.json")
    ns = parser.parse_args(argv)
    ns.work.mkdir(parents=True, exist_ok=True)
    path = make_file(ns.gbs, ns.work)
    runs = {"split": Measurement("split", path.name, [sys.executable, "-c", SPLIT_LOOP, str(path)])}
    for name, words in COMMANDS.items():
        runs[name] = Measurement(
            name, path.name, [sys.executable, "-m", "wkparse", *words, str(path)]
        )
    with tempfile.TemporaryDirectory() as cwd:
        measure(list(runs.values()), ns.repeat, Path(cwd), child_env(ns.work))
    found = ratios(runs)
    judged = [found[n]["cpu"] for n in JUDGED]
    met = all(r is not None and r <= LIMIT for r in judged)
    rows = int(path.read_bytes().split(b"\n", 2)[1])
    doc = {
        "file": {"rows": rows, "bytes": path.stat().st_size, "ga": ns.gbs},
        "limit": LIMIT,
        "ratios": found,
        "met": met,
        "runs": {k: m.to_json() for k, m in runs.items()},
        "machine": machine(),
    }
    ns.out.parent.mkdir(parents=True, exist_ok=True)
    ns.out.write_text(json.dumps(doc, indent=1) + "\n")
    split = runs["split"]
    print(f"{rows:,} rows, ga {ns.gbs}; best of {ns.repeat}, CPU (wall)")
    print(
        f"  split loop: {min(split.cpu_s, default=0):.2f} s ({min(split.times_s, default=0):.2f} s)"
    )
    for name, r in found.items():
        m = runs[name]
        if m.error:
            print(f"  {name}: {m.error}")
            continue
        limit = f" (limit {LIMIT}x)" if name in JUDGED else ""
        print(
            f"  {name}: {min(m.cpu_s):.2f} s ({min(m.times_s):.2f} s), "
            f"{r['cpu']}x ({r['wall']}x){limit}, peak {(m.rss_kb or 0) // 1024:,} MB"
        )
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
