"""Path expansion for lint: folder walks, the workload sniff, links, and unreadable paths."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import CORPUS, SAMPLES, corpus_files
from wkparse import discover
from wkparse.cli import app
from wkparse.config import Config, ConfigError
from wkparse.discover import (
    Skipped,
    Target,
    Unreadable,
    looks_like_workload,
    read_lines,
    walk,
)

WORKLOAD = "MICRO\n1\nx\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLREDUCE\t4096\t1\n"
SAMPLE_BYTES = (SAMPLES / "gpt13b-world8-tp2-pp1-sp.txt").read_bytes()


def defaults(_: Path) -> Config:
    return Config()


def items(*paths: Path, settings: object = defaults) -> list[object]:
    return list(walk(list(paths), settings))  # type: ignore[arg-type]


def shown(found: list[object], kind: type) -> list[str]:
    return [i.display for i in found if isinstance(i, kind)]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4\n", True),
        (b"\xef\xbb\xbfMICRO\n1\n", True),
        (b"DATA\t\n", True),
        (b"HYBRID_TRANSFROMER ep: 1\n1230\n", True),  # typo: linted so the rule can say so
        (b"Welcome to the workload folder\n1\n", False),
        (b"lark>=1.1\nrich\n", False),
        (b"NOTES\nsee below\n", False),
        (b"", False),
        (b"\n\n", False),
        (b"\x00\xff\xfe binary", False),
    ],
)
def test_workload_sniff(head: bytes, expected: bool) -> None:
    assert looks_like_workload(head) is expected


def test_walk_recurses_in_name_order_over_txt_files(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.txt").write_text(WORKLOAD)
    (tmp_path / "a.txt").write_text(WORKLOAD)
    (tmp_path / "c.txt").write_text(WORKLOAD)
    (tmp_path / "d.csv").write_text(WORKLOAD)
    found = items(tmp_path)
    base = str(tmp_path)
    assert shown(found, Target) == [f"{base}/a.txt", f"{base}/b/z.txt", f"{base}/c.txt"]


def test_non_workload_txt_is_skipped_in_a_walk_but_linted_when_named(tmp_path: Path) -> None:
    notes = tmp_path / "README.txt"
    notes.write_text("How to run these files\n")
    (tmp_path / "w.txt").write_text(WORKLOAD)
    found = items(tmp_path)
    assert shown(found, Skipped) == [str(notes)]
    assert shown(found, Target) == [str(tmp_path / "w.txt")]
    assert shown(items(notes), Target) == [str(notes)]


def test_symlink_loop_ends_and_each_file_is_linted_once(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "w.txt").write_text(WORKLOAD)
    (sub / "loop").symlink_to(tmp_path, target_is_directory=True)
    (tmp_path / "again").symlink_to(sub, target_is_directory=True)
    (tmp_path / "alias.txt").symlink_to(sub / "w.txt")
    found = items(tmp_path, sub / "w.txt")
    assert len(shown(found, Target)) == 1
    assert not shown(found, Unreadable)


def test_standard_input_named_twice_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "w.txt").write_text(WORKLOAD)
    found = items(Path("-"), tmp_path / "w.txt", Path("-"))
    assert shown(found, Target) == ["-", str(tmp_path / "w.txt")]


def test_broken_link_and_missing_path_are_unreadable(tmp_path: Path) -> None:
    (tmp_path / "gone.txt").symlink_to(tmp_path / "nowhere.txt")
    (tmp_path / "w.txt").write_text(WORKLOAD)
    found = items(tmp_path, tmp_path / "missing.txt")
    problems = {i.display: i.reason for i in found if isinstance(i, Unreadable)}
    assert problems == {
        str(tmp_path / "gone.txt"): "broken symbolic link",
        str(tmp_path / "missing.txt"): "no such file or directory",
    }
    assert shown(found, Target) == [str(tmp_path / "w.txt")]


def test_unreadable_folder_is_reported_and_the_rest_walked(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "w.txt").write_text(WORKLOAD)
    (tmp_path / "ok.txt").write_text(WORKLOAD)
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running as root: permissions do not block reading")
        found = items(tmp_path)
    finally:
        locked.chmod(0o755)
    assert shown(found, Unreadable) == [str(locked)]
    assert shown(found, Target) == [str(tmp_path / "ok.txt")]


def test_tool_folders_are_never_walked(tmp_path: Path) -> None:
    for name in (".git", "node_modules", ".venv"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "w.txt").write_text(WORKLOAD)
    assert items(tmp_path) == []


def test_include_and_exclude_come_from_the_folders_config(tmp_path: Path) -> None:
    (tmp_path / "keep").mkdir()
    (tmp_path / "old").mkdir()
    (tmp_path / "keep" / "a.wl").write_text(WORKLOAD)
    (tmp_path / "keep" / "b.txt").write_text(WORKLOAD)
    (tmp_path / "old" / "c.wl").write_text(WORKLOAD)
    config = Config(include=("*.wl",), exclude=("old",))
    found = items(tmp_path, settings=lambda _: config)
    assert shown(found, Target) == [str(tmp_path / "keep" / "a.wl")]


def test_a_bad_config_in_a_folder_is_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "w.txt").write_text(WORKLOAD)

    def broken(_: Path) -> Config:
        raise ConfigError("x.toml: unknown key 'colour'")

    found = items(tmp_path, settings=broken)
    assert found == [Unreadable(str(tmp_path), "x.toml: unknown key 'colour'")]


def test_dash_is_standard_input() -> None:
    assert items(Path("-")) == [Target(None, "-")]


def test_read_lines_decodes_as_the_parser_does() -> None:
    data = b"\xef\xbb\xbfMICRO\r\n2\r\nbad\xffname\r\nlast"
    assert read_lines(io.BytesIO(data), {1, 3, 4}) == {
        1: "MICRO",
        3: "bad\ufffdname",
        4: "last",
    }
    assert read_lines(io.BytesIO(data), set()) == {}


def test_read_lines_stops_after_the_last_wanted_line() -> None:
    def lines() -> object:
        yield b"MICRO\n"
        yield b"2\n"
        raise AssertionError("read past the last wanted line")

    assert read_lines(lines(), {2}) == {2: "2"}  # type: ignore[arg-type]


def test_samples_are_all_workloads() -> None:
    found = items(SAMPLES)
    assert sorted(shown(found, Target)) == sorted(str(p) for p in SAMPLES.glob("*.txt"))


def test_every_corpus_file_is_found_and_sniffed_as_a_workload(corpus: Path) -> None:
    found = items(CORPUS)
    assert not shown(found, Skipped) and not shown(found, Unreadable)
    assert sorted(shown(found, Target)) == sorted(str(p) for p in corpus_files())


def test_devices_are_refused_and_pipes_in_a_walk_skipped(tmp_path: Path) -> None:
    assert items(Path("/dev/zero")) == [Unreadable("/dev/zero", "not a regular file")]
    os.mkfifo(tmp_path / "pipe.txt")
    (tmp_path / "w.txt").write_text(WORKLOAD)
    found = items(tmp_path)  # must not block on the pipe
    assert shown(found, Skipped) == [str(tmp_path / "pipe.txt")]
    assert shown(found, Target) == [str(tmp_path / "w.txt")]


#: (name, bytes) of files a damaged workload leaves: each must be linted, never skipped
DAMAGED = {
    "blank-line-1.txt": b"\n" + SAMPLE_BYTES.split(b"\n", 1)[1],
    "lost-policy.txt": SAMPLE_BYTES.split(b" ", 1)[1],
    "policy-later.txt": b"# " + SAMPLE_BYTES,
    "commas.txt": SAMPLE_BYTES.replace(b"\t", b","),
    (
        "None-gpt_7B-world_size8-tp4-pp1-ep1-gbs4-mbs1-seq4096-MOE-False-GEMM-False-"
        "flash_attn-True.txt"
    ): b"",
    "gpt_7B-world_size8-tp4-pp1-gbs4-mbs1-seq4096-flash_attn-True.txt": b"\x00\xff\x17" * 300,
}
#: files that are not workloads at all: skipped in a walk and by --skip-non-workloads
NOTES = {
    "README.txt": b"How to run these files\n\nRun wkparse lint on them.\n",
    "requirements.txt": b"numpy==2.0\nrich>=13\n",
    "numbers.txt": b"1 2 3\n4 5 6\n",
    "world_size.txt": b"world_size 8 and tp 4, written down\n",
}


@pytest.mark.parametrize("name", DAMAGED)
def test_a_damaged_workload_is_linted_not_skipped(name: str, tmp_path: Path) -> None:
    """Issue 32: a blank line 1, a lost policy word, an empty or binary file named like a
    workload was skipped as "not a workload" (pre-commit passed the very file it should stop)."""
    path = tmp_path / name
    path.write_bytes(DAMAGED[name])
    assert items(tmp_path) == [Target(path, str(path))]
    assert discover.sniff(path, str(path)) == Target(path, str(path))
    result = CliRunner().invoke(app, ["lint", "--skip-non-workloads", str(path)])
    assert result.exit_code == 1, result.output


@pytest.mark.parametrize("name", NOTES)
def test_a_note_is_still_skipped(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes(NOTES[name])
    assert shown(items(tmp_path), Skipped) == [str(path)]
    result = CliRunner().invoke(app, ["lint", "--skip-non-workloads", str(path)])
    assert result.exit_code == 0, result.output
