#!/usr/bin/env python3
"""Start-up from both kinds of install: `wkparse lint` of a tiny file against the typer floor
and yamllint, from a normal install (`pip install .`) and an editable one (`pip install -e .`).

    python benchmarks/startup.py    # a few minutes on 2 cores; exit 1 if a target is missed

It makes two virtual environments in `WORK/startup/` (git-ignored, kept for the next run): one
with this checkout installed as a wheel, one with it installed in editable mode, the way
developers run it. Each gets yamllint too, the smallest clean linter (a yardstick here, never a
dependency of wkparse). Every run reinstalls wkparse into both, so the wheel is the checkout as
it is now. Then, in one process, round after round (one untimed warm-up round first, as in
`benchmarks/run.py`), it times in each environment:

- `wkparse lint TINY`: the console script, as a user runs it, on the 85-row file of
  `benchmarks/run.py` (one micro-batch group, clean);
- the typer floor, `python benchmarks/typer_floor.py lint TINY`: a Typer app with lint's
  parameters that only reads the file, the least any Typer CLI with this interface pays;
- `yamllint TINY.yaml` and a bare `python -c pass`.

Each round runs every contender of both environments once, so a busy neighbour slows all of
them alike; the ratio judged is the median, over the rounds, of wkparse's time over the floor's
in the same round (paired), beside the ratio of the medians. Target: wkparse lint within 1.2x
of the floor from both installs. The children run with Python's own bytecode rules, whatever
the caller's environment says: a wheel's bytecode is the one pip wrote into site-packages, an
editable install's is written beside the checkout's sources (`__pycache__`, git-ignored) by the
warm-up round, as on a developer's machine. A third line, informative, is the editable install
of a copy of the checkout that has no bytecode and gets none (`PYTHONDONTWRITEBYTECODE=1`, as
some sandboxes set): every run compiles wkparse's source, while Python's own modules and the
dependencies (typer's, the floor's) read the bytecode they have.

`--before DIR` times the wkparse of another checkout too (the code before a change:
`git worktree add DIR COMMIT`), installed both ways, in the same rounds against the same floor.
The table goes to RESULTS.md (between its start-up markers, which `benchmarks/run.py` keeps)
and the whole record to `results/startup.json`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import venv
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from benchmarks.run import Input, Measurement

#: wkparse lint of a tiny file, in multiples of the typer floor's time in the same round
FLOOR_LIMIT = 1.2
#: the installs timed: name -> `pip install` options before the checkout
INSTALLS: dict[str, list[str]] = {"normal": [], "editable": ["-e"]}
CONTENDERS = ("wkparse", "floor", "yamllint", "python")
#: what an editable install needs of a checkout: the wheel's package and its force-includes
BARE = ("wkparse", "grammar", "rules", "concepts", "pyproject.toml", "README.md")
TITLE = "## Start-up, installed"


def bin_of(env: Path, name: str) -> Path:
    return env / ("Scripts" if os.name == "nt" else "bin") / name


def prepare(env: Path, install: list[str]) -> None:
    """A virtual environment with wkparse installed from this checkout, and yamllint."""
    python = bin_of(env, "python")
    if not python.exists():
        venv.EnvBuilder(with_pip=True, clear=True).create(env)
        _pip(python, "install", "--quiet", *install, "yamllint")
    # The checkout as it is now (its dependencies are there from the first run).
    _pip(python, "install", "--quiet", "--force-reinstall", "--no-deps", *install)


def _pip(python: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(python), "-m", "pip", *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        sys.exit(f"pip {' '.join(args)} failed:\n{done.stderr[-2000:]}")


def bare_copy(checkout: Path, dest: Path) -> Path:
    """What an editable install needs of `checkout`, copied to `dest` without any bytecode:
    the checkout of the line that runs with none, while the others keep theirs."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for name in BARE:
        if (checkout / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__")
            shutil.copytree(checkout / name, dest / name, ignore=ignore)
        elif (checkout / name).exists():
            shutil.copy2(checkout / name, dest / name)
    return dest


def versions(env: Path) -> dict[str, str]:
    """The versions in `env` that start-up depends on."""
    code = (
        "import json\nfrom importlib.metadata import version\n"
        "print(json.dumps({p: version(p) for p in "
        "('wkparse', 'typer', 'pydantic', 'rich', 'lark', 'numpy', 'yamllint')}))"
    )
    done = subprocess.run(
        [str(bin_of(env, "python")), "-c", code], capture_output=True, text=True, check=True
    )
    found: dict[str, str] = json.loads(done.stdout)
    return found


def contenders(env: Path, label: str, tiny: Path, yaml: Path) -> dict[str, Measurement]:
    from benchmarks.run import Measurement

    python = str(bin_of(env, "python"))
    argv = {
        "wkparse": [str(bin_of(env, "wkparse")), "lint", str(tiny)],
        "floor": [python, str(HERE / "typer_floor.py"), "lint", str(tiny)],
        "yamllint": [str(bin_of(env, "yamllint")), str(yaml)],
        "python": [python, "-c", "pass"],
    }
    return {name: Measurement(name, label, argv[name]) for name in CONTENDERS}


def paired(contender: Measurement, floor: Measurement) -> float | None:
    """The median over the rounds of contender / floor in the same round."""
    if contender.error or floor.error or not contender.times_s:
        return None
    ratios = [a / b for a, b in zip(contender.times_s, floor.times_s) if b > 0]
    return round(statistics.median(ratios), 3) if ratios else None


def summary(runs: dict[str, Measurement]) -> dict[str, Any]:
    """One install's line: medians, and wkparse and yamllint against the floor."""
    floor = runs["floor"]
    out: dict[str, Any] = {n: runs[n].median_s for n in CONTENDERS}
    out["cpu"] = {n: runs[n].median_cpu_s for n in CONTENDERS}
    out["wkparse_over_floor"] = paired(runs["wkparse"], floor)
    out["wkparse_over_yamllint"] = paired(runs["wkparse"], runs["yamllint"])
    out["floor_over_yamllint"] = paired(floor, runs["yamllint"])
    medians = runs["wkparse"].median_s, floor.median_s
    out["ratio_of_medians"] = (
        round(medians[0] / medians[1], 3) if medians[0] and medians[1] else None
    )
    out["errors"] = {n: runs[n].error for n in CONTENDERS if runs[n].error}
    return out


def table(doc: dict[str, Any]) -> str:
    """The Markdown table and the sentence that says how it was measured."""
    lines = [
        "| install | wkparse lint | typer floor | yamllint | `python -c pass` "
        f"| wkparse / floor (target <= {FLOOR_LIMIT:g}x) | wkparse / yamllint | floor / yamllint |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for label, line in doc["installs"].items():

        def s(name: str, line: dict[str, Any] = line) -> str:
            value = line[name]
            return f"{value:.3f} s" if value else "failed"

        def x(name: str, line: dict[str, Any] = line) -> str:
            value = line[name]
            return f"{value:.2f}x" if value else "-"

        lines.append(
            f"| {label} | {s('wkparse')} | {s('floor')} | {s('yamllint')} | {s('python')} "
            f"| {x('wkparse_over_floor')} | {x('wkparse_over_yamllint')} "
            f"| {x('floor_over_yamllint')} |"
        )
    m, v = doc["machine"], doc["versions"]
    loads = (m["load_average_before"], m["load_average_after"])
    load = " / ".join(f"{a[0]:.1f}" for a in loads if a) or "unknown"
    commit = str(m.get("commit") or "unknown")[:12] + (" with changes" if m.get("dirty") else "")
    lines += [
        "",
        f"{m['date']}, commit {commit}, {m['usable_cpus']} CPUs, "
        f"Python {m['python']}, typer {v.get('typer')}, pydantic {v.get('pydantic')}, "
        f"yamllint {v.get('yamllint')}; load average {load} (before / after). Median of "
        f"{doc['config']['repeat']} interleaved rounds (each runs every contender of every "
        "install once); the ratios are medians of the same round's ratios. `wkparse lint` of "
        f"an {doc['tiny']['rows']}-row file by its console script, the floor "
        "`python benchmarks/typer_floor.py lint` of the same file, yamllint of a 3-line YAML "
        f"file.{_before(doc)} Bytecode as Python keeps it (a wheel's from pip, an editable "
        "install's beside its sources); editable, no bytecode: a checkout with none, and "
        "none written, so every run compiles wkparse (informative).",
    ]
    return "\n".join(lines) + "\n"


def _before(doc: dict[str, Any]) -> str:
    name = doc["config"].get("before_name") or doc["config"].get("before")
    return f" `before`: the wkparse of {name}, timed in the same rounds." if name else ""


def _name_of(checkout: Path) -> str:
    """A checkout's commit when it is a git work tree, else its folder."""
    done = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short=12", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    return f"commit {done.stdout.strip()}" if done.returncode == 0 else str(checkout)


def write_section(markdown: Path, text: str) -> None:
    """Put `text` between the start-up markers of `markdown` (`benchmarks/run.py` keeps them
    when it rewrites its tables), or append them with it under a title."""
    from benchmarks.run import STARTUP_BEGIN, STARTUP_END

    old = markdown.read_text(encoding="utf-8") if markdown.exists() else ""
    block = f"{STARTUP_BEGIN}\n{text}{STARTUP_END}"
    if STARTUP_BEGIN in old and STARTUP_END in old:
        head, rest = old.split(STARTUP_BEGIN, 1)
        new = head + block + rest.split(STARTUP_END, 1)[1]
    else:
        new = f"{old.rstrip()}\n\n{TITLE}\n\n{block}\n".lstrip()
    markdown.write_text(new, encoding="utf-8")


def _options(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="startup.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=21, help="timed rounds (default 21)")
    p.add_argument("--work", type=Path, default=HERE / "work", help="folder for the venvs")
    p.add_argument("--out", type=Path, default=HERE / "results" / "startup.json")
    p.add_argument(
        "--markdown", type=Path, default=HERE / "RESULTS.md", help="file whose section to write"
    )
    p.add_argument("--no-markdown", action="store_true", help="write no Markdown")
    p.add_argument(
        "--before",
        type=Path,
        help="a checkout of earlier code (`git worktree add DIR COMMIT`): its wkparse lint is "
        "timed in the same rounds, installed both ways, and its lines added to the table",
    )
    p.add_argument("--before-name", help="what the table calls --before (default: its commit)")
    ns = p.parse_args(argv)
    if ns.repeat < 1:
        p.error("--repeat must be at least 1")
    return ns


def tiny_file(work: Path) -> Input:
    """`benchmarks/run.py`'s tiny file, written by this checkout's wkparse (`synthesize.py`
    imports it) whatever the Python running the benchmark has installed."""
    from benchmarks.run import synthesize

    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), saved)))
    try:
        return synthesize(1, work, "tiny")
    finally:
        if saved is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = saved


def run(ns: argparse.Namespace) -> dict[str, Any]:
    from benchmarks.run import TINY_YAML, Measurement, machine, measure

    ns.work.mkdir(parents=True, exist_ok=True)
    tiny = tiny_file(ns.work)
    yaml = ns.work / "tiny.yaml"
    yaml.write_text(TINY_YAML, encoding="utf-8")
    home = ns.work / "startup"
    checkouts = {"": ROOT, **({"before": ns.before.resolve()} if ns.before else {})}
    raw_label = "editable, no bytecode"
    envs: dict[tuple[str, str], Path] = {}
    for version, checkout in checkouts.items():
        bare = bare_copy(checkout, home / "-".join(filter(None, (version, "bare-checkout"))))
        kinds = {
            **{label: (o, checkout) for label, o in INSTALLS.items()},
            raw_label: (["-e"], bare),
        }
        for label, (options, source) in kinds.items():
            name = "-".join(filter(None, (version, label.replace(", ", "-").replace(" ", "-"))))
            where = envs[version, label] = home / name
            print(f"installing {source} ({label}) into {where}...", file=sys.stderr)
            prepare(where, [*options, str(source)])
    unset = ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    # The bare copies have no bytecode and get none: every run compiles wkparse's source,
    # while Python's own modules and the dependencies read the bytecode they have.
    uncached = {**env, "PYTHONDONTWRITEBYTECODE": "1"}
    labels = [*INSTALLS, raw_label]
    batches = {label: contenders(envs["", label], label, tiny.path, yaml) for label in labels}
    if ns.before:
        for label, batch in batches.items():
            before = envs["before", label]
            batch["before"] = Measurement(
                "before", label, [str(bin_of(before, "wkparse")), "lint", str(tiny.path)]
            )
    about = machine()
    about["dirty"] = bool(
        subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    )
    rounds = ns.repeat
    count = sum(len(b) for b in batches.values())
    print(f"timing {count} commands, {rounds} rounds...", file=sys.stderr)
    with tempfile.TemporaryDirectory() as cwd:
        # One round at a time over everything, so that every round is paired across installs.
        for rnd in range(rounds):
            for label, batch in batches.items():
                on = uncached if label == raw_label else env
                measure(list(batch.values()), 1, Path(cwd), on, warm_up=rnd == 0)
    about["load_average_after"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    installs: dict[str, dict[str, Any]] = {}
    for label, batch in batches.items():
        installs[label] = summary({n: m for n, m in batch.items() if n != "before"})
        if "before" in batch:
            installs[f"{label}, before"] = summary({**batch, "wkparse": batch["before"]})
    met = all(
        (installs[label]["wkparse_over_floor"] or float("inf")) <= FLOOR_LIMIT for label in INSTALLS
    )
    return {
        "machine": about,
        "versions": versions(envs["", "normal"]),
        "config": {
            "repeat": rounds,
            "work": str(ns.work),
            "limit": FLOOR_LIMIT,
            "before": str(ns.before) if ns.before else None,
            "before_name": ns.before_name or (_name_of(ns.before) if ns.before else None),
        },
        "tiny": {"path": tiny.path.name, "rows": tiny.rows, "bytes": tiny.bytes},
        "installs": installs,
        "runs": {
            f"{name}@{label}": m.to_json() for label, b in batches.items() for name, m in b.items()
        },
        "all_met": met,
    }


def main(argv: Sequence[str] | None = None) -> int:
    ns = _options(argv)
    if shutil.which(sys.executable) is None:
        print(f"error: cannot run {sys.executable}", file=sys.stderr)
        return 2
    doc = run(ns)
    text = table(doc)
    ns.out.parent.mkdir(parents=True, exist_ok=True)
    ns.out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    if not ns.no_markdown:
        write_section(ns.markdown, text)
    print(text, end="")
    return 0 if doc["all_met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
