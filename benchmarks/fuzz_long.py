#!/usr/bin/env python3
"""The long fuzz run of issue 8: thousands of hostile variants of real files, every command.

Not part of the test suite (it takes a while); the bounded suite is `tests/test_fuzz.py`,
and both use the same cases and the same contract (`benchmarks/fuzzing.py`). Each case runs
`parse`, `lint`, `explain`, `simai`, `diff` and `triage` in every format, `fmt --check`, `fmt` and
`lint --fix` in place, under a per-command watchdog. Cases are seeded, so a failure replays
exactly: its bytes and its report are written to the output folder, and `--only N` reruns
case N alone.

    python benchmarks/fuzz_long.py --cases 20000
    python benchmarks/fuzz_long.py --seed 1 --only 4711

Prints the counts (cases, invocations, failures by command and problem, mutations used,
parser codes seen, the slowest invocations) and exits 1 when any case failed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
#: the real files the cases start from (the samples where the shared corpus is absent)
CORPUS = ROOT.parent / "shared" / "corpus"
SAMPLES = ROOT / "samples"

if TYPE_CHECKING:
    from benchmarks.fuzzing import Base, Case, Failure

#: what each worker process starts from: the real files, the seed, the per-command timeout
Init = tuple[Sequence["Base"], int, float]


@dataclass
class Outcome:
    """What one case did: its failures, timings and what it exercised."""

    index: int
    label: str
    size: int
    failures: list[Failure]
    timings: list[tuple[float, str]]
    codes: list[str] = field(default_factory=list)


_BASES: Sequence[Base] = ()
_SEED = 0
_SECONDS = 10.0
_WORKDIR = Path()


def _bases(max_bytes: int | None) -> list[Base]:
    from benchmarks import fuzzing

    found = sorted(CORPUS.rglob("*.txt")) if CORPUS.is_dir() else []
    files = [p for p in found if max_bytes is None or p.stat().st_size <= max_bytes]
    if files:
        return fuzzing.load_bases(files, CORPUS)
    return fuzzing.load_bases(sorted(SAMPLES.glob("*.txt")), SAMPLES)


def _start_worker(bases: Sequence[Base], seed: int, seconds: float) -> None:
    global _BASES, _SEED, _SECONDS, _WORKDIR
    _BASES, _SEED, _SECONDS = bases, seed, seconds
    _WORKDIR = Path(tempfile.mkdtemp(prefix="wkparse-fuzz-"))


def _run(index: int) -> Outcome:
    from benchmarks import fuzzing
    from wkparse.parse import parse_bytes

    try:
        with fuzzing.watchdog(_SECONDS):  # a mutation can hang too (a backtracking regex)
            case = fuzzing.make_case(_SEED, index, _BASES) if index >= 0 else _named(-index - 1)
    except fuzzing.CaseTimeout:
        label = f"seed {_SEED} case {index}"
        return Outcome(index, label, 0, [fuzzing.Failure(label, "(mutation)", "timed out")], [])
    timings: list[tuple[float, str]] = []
    failures = fuzzing.check_case(case, _WORKDIR / str(index), _SECONDS, timings=timings)
    codes = [d.code for d in parse_bytes(case.data).diagnostics]
    _clean(_WORKDIR / str(index))
    return Outcome(index, case.label, len(case.data), failures, timings, codes)


def _named(i: int) -> Case:
    from benchmarks import fuzzing

    return list(fuzzing.named_cases(_BASES))[i]


def _clean(folder: Path) -> None:
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_dir():
            path.rmdir()
        else:
            path.unlink()
    folder.rmdir()


def _indexes(cases: int, only: int | None, named: int) -> list[int]:
    if only is not None:
        return [only]
    # Named cases carry negative indexes: -1 is the first.
    return [-(i + 1) for i in range(named)] + list(range(cases))


def _outcomes(indexes: list[int], workers: int, init: Init) -> Iterator[Outcome]:
    if workers <= 1:
        _start_worker(*init)
        yield from map(_run, indexes)
        return
    with multiprocessing.get_context("fork").Pool(workers, _start_worker, init) as pool:
        yield from pool.imap_unordered(_run, indexes, chunksize=4)


def _save(out: Path, outcome: Outcome, data: bytes) -> None:
    out.mkdir(parents=True, exist_ok=True)
    stem = f"case-{outcome.index}"
    (out / f"{stem}.bin").write_bytes(data)
    report = "\n\n".join(str(f) for f in outcome.failures)
    (out / f"{stem}.txt").write_text(f"{outcome.label}\n\n{report}\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    from benchmarks import fuzzing

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--cases", type=int, default=20_000, help="mutated cases (default 20000)")
    ap.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
    ap.add_argument("--only", type=int, help="run only case N of the seed (replay a failure)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per command (10)")
    ap.add_argument("--max-base-bytes", type=int, help="mutate only real files up to this size")
    ap.add_argument(
        "--out", type=Path, default=Path("fuzz-failures"), help="folder for failing cases"
    )
    args = ap.parse_args(argv)

    bases = _bases(args.max_base_bytes)
    named = 0 if args.only is not None else len(list(fuzzing.named_cases(bases)))
    indexes = _indexes(args.cases, args.only, named)
    print(
        f"fuzzing {len(indexes):,} cases ({named} named, seed {args.seed}) over {len(bases)} "
        f"real files with {args.workers} worker(s)",
        flush=True,
    )
    start = time.perf_counter()
    done = invocations = failed = 0
    problems: Counter[tuple[str, str]] = Counter()
    mutations: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    slowest: list[tuple[float, str, str]] = []
    init: Init = (bases, args.seed, args.timeout)
    for outcome in _outcomes(indexes, args.workers, init):
        done += 1
        invocations += len(outcome.timings)
        codes.update(set(outcome.codes))
        if " + " in outcome.label:
            mutations.update(outcome.label.split(" + ", 1)[1].split(", "))
        slowest = sorted(
            [*slowest, *((s, c, outcome.label) for s, c in outcome.timings)], reverse=True
        )[:5]
        if outcome.failures:
            failed += 1
            problems.update((f.command, f.problem.splitlines()[0][:90]) for f in outcome.failures)
            hung = any(f.command == "(mutation)" for f in outcome.failures)
            data = b"" if hung else _case_bytes(outcome.index, bases, args.seed)
            _save(args.out, outcome, data)
            print(f"FAIL {outcome.label}: {outcome.failures[0].problem[:90]}", flush=True)
        if done % 500 == 0:
            rate = done / (time.perf_counter() - start)
            print(f"  {done:,} cases, {failed} failed, {rate:.1f} cases/s", flush=True)
    elapsed = time.perf_counter() - start
    print(f"\n{done:,} cases, {invocations:,} command runs (+ fmt and lint --fix in place)")
    print(f"{failed} failing cases, in {elapsed:,.0f} s")
    for (command, problem), n in problems.most_common():
        print(f"  {n:6,}  {command}: {problem}")
    print("mutations applied: " + ", ".join(f"{m} {n:,}" for m, n in sorted(mutations.items())))
    print("cases per parser code: " + ", ".join(f"{c} {n:,}" for c, n in sorted(codes.items())))
    print("slowest command runs:")
    for seconds, command, label in slowest:
        print(f"  {seconds:6.2f} s  {command}  ({label})")
    if failed:
        print(f"failing cases written to {args.out}/")
    return 1 if failed else 0


def _case_bytes(index: int, bases: Sequence[Base], seed: int) -> bytes:
    from benchmarks import fuzzing

    if index < 0:
        return list(fuzzing.named_cases(bases))[-index - 1].data
    return fuzzing.make_case(seed, index, bases).data


if __name__ == "__main__":
    sys.exit(main())
