"""The suite stands alone: every test reaches ../shared through conftest.py, so a clone
without it skips those tests (counted by what they need in the summary) and passes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import ROOT, SHARED, absent, skip_counts

#: a path built towards ../shared: the folder's name as a path part, or the checkout's parent
_BUILT = re.compile(r"""/ ["']shared["']|["']shared["'] /|parents\[2\]|parents\[1\]\.parent""")


def test_only_conftest_works_out_where_shared_is() -> None:
    offenders = [
        f"{path.name}:{n}"
        for path in sorted((ROOT / "tests").glob("*.py"))
        if path.name != "conftest.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _BUILT.search(line) and not line.lstrip().startswith("#")
    ]
    assert offenders == [], "use the paths and helpers of tests/conftest.py"


def test_a_skip_names_the_folder_of_shared_it_wants() -> None:
    assert absent(SHARED / "corpus" / "aicb-generated" / "seed" / "x.txt") == (
        "../shared/corpus is absent"
    )
    assert absent(SHARED / "simai-oracle") == "../shared/simai-oracle is absent"
    assert absent(ROOT / "elsewhere") == f"{ROOT / 'elsewhere'} is absent"


def test_skips_are_counted_by_folder_then_by_reason() -> None:
    reasons = [
        "Skipped: ../shared/corpus is absent",
        "needs ../shared/corpus",
        f"{SHARED}/corpus/aicb-generated/seed/absent.txt is absent",
        "Skipped: no ../shared/simai-ns3-oracle",
        "chromium-headless-shell is not installed",
        "chromium-headless-shell is not installed",
    ]
    assert skip_counts(reasons) == [
        ("../shared/corpus is absent", 3),
        ("../shared/simai-ns3-oracle is absent", 1),
        ("chromium-headless-shell is not installed", 2),
    ]


def test_the_summary_counts_the_skips_of_parallel_workers(tmp_path: Path) -> None:
    """The suite runs under pytest-xdist: skips come back from the workers, and the summary
    still counts them by the folder they need (a checkout with this conftest, no ../shared)."""
    tests = tmp_path / "checkout" / "tests"
    tests.mkdir(parents=True)
    (tests / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    (tests / "test_needs.py").write_text(
        textwrap.dedent(
            """
            import pytest
            from conftest import CORPUS, SIMAI_ORACLE, needs, require

            @needs(SIMAI_ORACLE)
            def test_marked() -> None:
                pass

            @pytest.mark.parametrize("i", range(3))
            def test_at_run_time(i: int) -> None:
                require(CORPUS / "x.txt")

            def test_runs() -> None:
                pass
            """
        )
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", str(tests)],
        cwd=tests.parent,
        env={k: v for k, v in os.environ.items() if k != "CI"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 workers" in done.stdout
    summary = done.stdout.split("4 skipped, by what they need", 1)[1].splitlines()
    assert summary[1:3] == [
        "     3 ../shared/corpus is absent",
        "     1 ../shared/simai-oracle is absent",
    ]
