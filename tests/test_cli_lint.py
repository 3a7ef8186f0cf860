"""`wkparse lint` end to end: exit codes, selection, stdin, paths, --fix, and start-up cost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import CORPUS
from wkparse.cli import app

runner = CliRunner()
#: a file SimAI-Analytical runs cleanly (a MICRO one it never runs: WK704), and the same with
#: line 2 declaring a row too many (WK105)
_ROW = "embedding_layer\t-1\t100\tNONE\t0\t100\tALLREDUCE\t67108864\t100\tNONE\t0\t100\n"
_HEADER = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 1 ga: 1 "
    "all_gpus: 4 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n"
)
GOOD = f"{_HEADER}2\n{_ROW}{_ROW}"
BAD = f"{_HEADER}3\n{_ROW}{_ROW}"
L65B = CORPUS / "aicb-examples/model_workload/L65B-M1-C05_Llama65B_megatron_tp8_pp1_mbs1_A100.txt"


def lint(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["lint", *args], input=stdin)
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


def codes(*args: str, stdin: str | None = None) -> tuple[int, list[str]]:
    code, out, _ = lint("-f", "json", *args, stdin=stdin)
    return code, [d["code"] for d in json.loads(out)]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {"good": tmp_path / "good.txt", "bad": tmp_path / "bad.txt"}
    made["good"].write_text(GOOD)
    made["bad"].write_text(BAD)
    return made


def test_clean_file_exits_0(files: dict[str, Path]) -> None:
    code, out, _ = lint(str(files["good"]))
    assert code == 0
    assert out.strip() == "All checks passed (1 file)."


def test_an_error_exits_1_and_is_shown_with_its_source(files: dict[str, Path]) -> None:
    code, out, _ = lint(str(files["good"]), str(files["bad"]))
    assert code == 1
    assert f"{files['bad']}:2:1: error[WK105]: line 2 declares 3 rows but the file has 2" in out
    assert " 2 | 3\n" in out and "   | ^ count-mismatch\n" in out
    assert "Found 1 error in 2 files." in out


def test_strict_makes_warnings_fail(files: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / ".wkparse.toml").write_text('[severity]\nWK105 = "warning"\n')
    assert lint(str(files["bad"]))[0] == 0
    assert lint("--strict", str(files["bad"]))[0] == 1


def test_select_and_ignore(files: dict[str, Path]) -> None:
    bad = str(files["bad"])
    assert codes(bad) == (1, ["WK105"])
    assert codes("--select", "WK2,WK3", bad) == (0, [])
    assert codes("--ignore", "WK105", bad) == (0, [])
    assert codes("--select", "WK1", "--ignore", "WK10", bad) == (0, [])
    assert codes("--select", "WK1", "--ignore", "WK10", "--select", "WK105", bad) == (1, ["WK105"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--select", "E501"], "not a rule code"),
        (["--ignore", "WK999"], "matches no rule"),
        (["--format", "xml"], "xml"),
        (["--unsafe-fixes"], "only applies together with --fix"),
        (["--config", "/nonexistent/wk.toml"], "cannot read"),
    ],
)
def test_usage_errors_exit_2(files: dict[str, Path], args: list[str], message: str) -> None:
    result = runner.invoke(app, ["lint", *args, str(files["bad"])])
    assert result.exit_code == 2
    assert message in result.stderr + result.stdout
    assert "Traceback" not in result.stderr + result.stdout


def test_stdin(files: dict[str, Path]) -> None:
    code, out, _ = lint("-", stdin=BAD)
    assert code == 1 and out.startswith("<stdin>:2:1: error[WK105]")
    code, out, _ = lint("-f", "json", "-", stdin=BAD)
    assert [(d["path"], d["code"]) for d in json.loads(out)] == [("-", "WK105")]
    assert codes("-", str(files["good"]), stdin=GOOD) == (0, [])


def test_missing_path_exits_2_and_the_rest_is_still_linted(
    files: dict[str, Path], tmp_path: Path
) -> None:
    code, out, err = lint("-f", "json", str(tmp_path / "nope.txt"), str(files["bad"]))
    assert code == 2
    assert f"{tmp_path / 'nope.txt'}: no such file or directory" in err
    assert [d["code"] for d in json.loads(out)] == ["WK105"]


def test_unreadable_file_exits_2_and_the_rest_is_still_linted(
    files: dict[str, Path], tmp_path: Path
) -> None:
    locked = tmp_path / "locked.txt"
    locked.write_text(BAD)
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running as root: permissions do not block reading")
        code, out, err = lint("-f", "json", str(locked), str(files["bad"]))
    finally:
        locked.chmod(0o644)
    assert code == 2 and "permission denied" in err
    assert [d["path"] for d in json.loads(out)] == [str(files["bad"])]


def test_a_read_error_while_parsing_is_reported_not_raised(
    files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Works as root too, where chmod cannot make a file unreadable.
    import wkparse.parse

    real = wkparse.parse.parse_file

    def failing(path: object, **kwargs: object) -> object:
        if Path(str(path)).name == "good.txt":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(wkparse.parse, "parse_file", failing)
    code, out, err = lint("-f", "json", str(files["good"]), str(files["bad"]))
    assert code == 2 and f"{files['good']}: permission denied" in err
    assert [d["code"] for d in json.loads(out)] == ["WK105"]


def test_walk_skips_non_workloads_with_a_note(files: dict[str, Path], tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Remember to rerun these with the new AICB.\n")
    code, out, err = lint(str(tmp_path))
    assert code == 1
    assert "Skipped 1 non-workload file. --verbose lists them." in out
    assert f"{notes}" not in err  # one summary line, not a note per file (issue 32)
    code, out, err = lint("--verbose", str(tmp_path))
    assert f"note: skipped {notes}: not a workload" in err
    # Named explicitly it is linted, and reported for what it is.
    code, found = codes(str(notes))
    assert code == 1 and found and all(c.startswith("WK1") for c in found)
    assert lint("--skip-non-workloads", str(notes), str(files["good"]))[0] == 0


def test_symlink_loop_in_a_walked_folder(files: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to(tmp_path, target_is_directory=True)
    assert codes(str(tmp_path)) == (1, ["WK105"])


def test_fix_rewrites_the_file_and_reports_what_is_left(files: dict[str, Path]) -> None:
    # the count decides what SimAI simulates (a phantom layer here): only an unsafe fix sets it
    code, out, _ = lint("--fix", str(files["bad"]))
    assert code == 1 and files["bad"].read_text() == BAD
    code, out, _ = lint("--fix", "--unsafe-fixes", str(files["bad"]))
    assert code == 0
    assert "Fixed 1 problem." in out
    assert files["bad"].read_text() == BAD.replace("\n3\n", "\n2\n", 1)
    assert codes(str(files["bad"])) == (0, [])


def test_fix_of_a_read_only_file_leaves_it_and_still_reports_it(files: dict[str, Path]) -> None:
    files["bad"].chmod(0o444)
    code, out, err = lint("--fix", "--unsafe-fixes", str(files["bad"]))
    assert code == 2 and "cannot fix: read-only file" in err
    assert files["bad"].read_text() == BAD
    assert "error[WK105]" in out and "Found 1 error in 1 file." in out


def test_fix_leaves_standard_input_alone() -> None:
    code, out, err = lint("--fix", "-", stdin=BAD)
    assert code == 1 and "--fix does not rewrite standard input" in err
    assert "error[WK105]" in out


def test_every_one_of_many_diagnostics_gets_its_excerpt(tmp_path: Path) -> None:
    # each row a different word: a finding repeated with the same cause is told once
    rows = "".join(
        f"x\t-1\tw{i:04}\tNONE\t0\t1\tNONE\t0\t1\tALLREDUCE\t4096\t1\n" for i in range(5000)
    )
    big = tmp_path / "big.txt"
    big.write_text(f"MICRO\n5000\n{rows}")
    code, out, _ = lint(str(big), "--select", "WK112")
    assert code == 1
    assert out.count("error[WK112]") == 5000
    assert out.count("|         ^^^^^ word-for-number\n") == 5000
    assert " 5002 | x   -1  w4999" in out


def test_a_finding_repeated_with_the_same_cause_is_told_once(tmp_path: Path) -> None:
    """Issue 32: ALLREDUCE misspelt everywhere gave 7,351 lines, every integer as `N.0`
    43,051. Text tells each cause once with the count and lines; JSON keeps every place."""
    sample = (
        Path(__file__).parents[1] / "samples" / "gpt7b-world128-tp4-pp4-gbs512-mbs1-seq4096.txt"
    )
    path = tmp_path / "typo.txt"
    path.write_text(sample.read_text().replace("ALLREDUCE", "ALLREDUSE"))
    code, out, _ = lint(str(path))
    assert code == 1 and len(out.splitlines()) < 40
    assert "... and 1,222 more like it, lines 11-1232" in out
    typos = sample.read_text().count("ALLREDUCE")
    assert f"Found {typos:,} errors in 1 file." in out
    _, found = codes(str(path))
    assert found.count("WK401") == typos


def test_corpus_in_one_call(corpus: Path) -> None:
    code, out, err = lint("-f", "json", str(corpus))
    assert code in (0, 1)
    # the exit 1 is told on stderr: JSON carries findings only
    assert (err.startswith("note: Found ") and "in 63 files." in err) if code else not err
    found = json.loads(out)
    count = [d for d in found if d["path"] == str(L65B) and d["code"] == "WK105"]
    assert [(d["line"], d["severity"]) for d in count] == [(2, "error")]


def test_json_output_does_not_import_rich(files: dict[str, Path]) -> None:
    # Start-up is what pre-commit pays per commit: json output must not load rich.
    probe = (
        "import sys\n"
        "from wkparse.commands.lint import LintOptions, run\n"
        f"code = run(LintOptions([__import__('pathlib').Path({str(files['bad'])!r})], 'json'))\n"
        "assert 'rich' not in sys.modules, 'rich was imported'\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)[0]["code"] == "WK105"


def test_skipped_files_are_one_line_unless_verbose(tmp_path: Path) -> None:
    """Issue 32: `wkparse lint /root` printed 1,387 "note: skipped" lines."""
    for n in range(40):
        (tmp_path / f"notes{n}.txt").write_text("Remember to rerun these.\n")
    for args in (["lint"], ["lint", "-f", "json"], ["fmt", "--check"]):
        result = runner.invoke(app, [*args, str(tmp_path)])
        said = result.stdout + result.stderr
        assert said.count("skipped") + said.count("Skipped") == 1, said
        assert "40 " in said and "--verbose" in said
        listed = runner.invoke(app, [*args, "--verbose", str(tmp_path)])
        assert all(f"notes{n}.txt" in listed.stderr for n in range(40))


@pytest.mark.parametrize("format", ["json", "sarif", "github"])
def test_a_machine_format_says_why_it_exits_1_on_stderr(format: str, tmp_path: Path) -> None:
    path = tmp_path / "short.txt"
    path.write_text("MICRO\n2\nx\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLREDUCE\t4096\t1\n")
    result = runner.invoke(app, ["lint", "-f", format, str(path)])
    assert result.exit_code == 1
    assert result.stderr.startswith("note: Found ") and " error" in result.stderr


def test_a_blank_line_above_the_policy_is_one_error_that_fix_deletes(tmp_path: Path) -> None:
    """Issue 41: a blank line 1 gave three errors, two of them knock-on (the policy line read
    as the row count), and no fix though rule WK101 says "delete the blank line"."""
    path = tmp_path / "blank.txt"
    path.write_text("\n" + GOOD)
    code, found = codes(str(path))
    assert (code, found) == (1, ["WK101"])
    code, out, _ = lint("--fix", str(path))
    assert code == 0, out
    assert path.read_text() == GOOD
