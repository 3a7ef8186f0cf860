"""Configuration: selection, per-file ignores, severities, limits, files and discovery."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

# a file whose only finding is WK105, and the same file clean
from tests.test_cli_lint import BAD, GOOD
from wkparse.cli import app
from wkparse.config import Config, ConfigError, Resolver, load, parse_selectors
from wkparse.diagnostics import Severity
from wkparse.engine import known_codes

runner = CliRunner()


def codes_of(*args: str) -> tuple[int, list[tuple[str, str, str]]]:
    result = runner.invoke(app, ["lint", "--format", "json", *args])
    found = json.loads(result.stdout) if result.stdout.strip() else []
    return result.exit_code, [(Path(d["path"]).name, d["code"], d["severity"]) for d in found]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# ---- selection --------------------------------------------------------------------------


def test_longest_prefix_decides() -> None:
    config = Config(select=("WK1", "WK105"), ignore=("WK10",))
    assert config.enabled("WK105")
    assert not config.enabled("WK104")
    assert config.enabled("WK110")
    assert not config.enabled("WK201")


def test_extend_select_and_extend_ignore_join_the_selection() -> None:
    config = Config(select=("WK1",), extend_select=("WK2",), extend_ignore=("WK105",))
    assert config.enabled("WK201") and config.enabled("WK104")
    assert not config.enabled("WK105")


def test_command_line_select_replaces_the_files_selection() -> None:
    config = Config(ignore=("WK1",)).with_command_line(("WK105",), None)
    assert config.enabled("WK105")
    assert not config.enabled("WK201")


def test_command_line_ignore_beats_a_more_specific_file_select() -> None:
    config = Config(select=("WK105",)).with_command_line(None, ("WK1",))
    assert not config.enabled("WK105")


def test_per_file_ignores_match_relative_to_the_config_and_by_name(tmp_path: Path) -> None:
    config = Config(
        per_file_ignores={"legacy/*": ("WK1",), "scratch-*.txt": ("WK2",)}, root=tmp_path
    )
    assert not config.enabled("WK105", str(tmp_path / "legacy" / "deep" / "a.txt"))
    assert config.enabled("WK105", str(tmp_path / "new" / "a.txt"))
    assert not config.enabled("WK201", str(tmp_path / "x" / "scratch-1.txt"))
    assert config.enabled("WK201", str(tmp_path / "x" / "scratch.txt"))


def test_severity_override_longest_prefix_wins() -> None:
    config = Config(severity={"WK1": Severity.INFO, "WK105": Severity.WARNING})
    assert config.severity_of("WK105", Severity.ERROR) is Severity.WARNING
    assert config.severity_of("WK104", Severity.ERROR) is Severity.INFO
    assert config.severity_of("WK201", Severity.ERROR) is Severity.ERROR


def test_selectors_are_checked_against_the_known_codes() -> None:
    known = known_codes()
    assert parse_selectors(" wk1, WK105 ,", known) == ("WK1", "WK105")
    with pytest.raises(ConfigError, match="not a rule code"):
        parse_selectors("E501", known)
    with pytest.raises(ConfigError, match="matches no rule"):
        parse_selectors("WK999", known)


# ---- reading files ----------------------------------------------------------------------


def test_dedicated_file_with_every_key(tmp_path: Path) -> None:
    source = write(
        tmp_path / ".wkparse.toml",
        """
select = ["WK1", "WK2"]
ignore = ["WK104"]
extend-select = ["WK3"]
extend_ignore = ["WK301"]
include = ["*.txt", "*.wl"]
exclude = ["old"]
max-bytes = 1000
max-line-bytes = 100
[per-file-ignores]
"legacy/*.txt" = ["WK2"]
[severity]
WK105 = "warning"
""",
    )
    config = load(source, known_codes())
    assert config.select == ("WK1", "WK2") and config.ignore == ("WK104",)
    assert config.extend_select == ("WK3",) and config.extend_ignore == ("WK301",)
    assert config.include == ("*.txt", "*.wl") and config.exclude == ("old",)
    assert config.per_file_ignores == {"legacy/*.txt": ("WK2",)}
    assert config.severity == {"WK105": Severity.WARNING}
    assert (config.limits.max_bytes, config.limits.max_line_bytes) == (1000, 100)
    assert config.root == tmp_path and config.source == source


def test_pyproject_table(tmp_path: Path) -> None:
    source = write(
        tmp_path / "pyproject.toml", '[project]\nname = "x"\n[tool.wkparse]\nignore = ["WK5"]\n'
    )
    assert load(source).ignore == ("WK5",)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("select = [", "invalid TOML"),
        ("colour = true", "unknown key 'colour'"),
        ("[tool.wkparse]\nselect = []", "settings are top-level keys"),
        ('select = "WK1"', "must be a list of codes"),
        ('select = ["E501"]', "not a rule code"),
        ('[severity]\nWK105 = "fatal"', "severity must be one of error, warning, info"),
        ("[severity]\nWK105 = 3", "severity must be one of"),
        ('per-file-ignores = {"a/*" = "WK1"}', "must map to a list of codes"),
        ("max-bytes = 0", "must be a positive integer"),
        ("max-line-bytes = true", "must be a positive integer"),
        ("include = [1]", "list of glob patterns"),
        # past Python's int conversion and recursion limits (tomllib raised, not a TOML error)
        pytest.param("max-bytes = " + "9" * 5000, "a number too long", id="5000-digit"),
        pytest.param("x = " + "[" * 100_000 + "]" * 100_000, "nested too deeply", id="deep"),
    ],
)
def test_bad_config_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    source = write(tmp_path / ".wkparse.toml", text)
    with pytest.raises(ConfigError, match=message) as caught:
        load(source, known_codes())
    assert str(source) in str(caught.value)


def test_bad_config_exits_2_without_a_traceback(tmp_path: Path) -> None:
    write(tmp_path / ".wkparse.toml", '[severity]\nWK105 = "fatal"\n')
    bad = write(tmp_path / "bad.txt", BAD)
    result = runner.invoke(app, ["lint", str(bad)])
    assert result.exit_code == 2
    assert "severity must be one of" in result.stderr
    assert "Traceback" not in result.output + result.stderr
    result = runner.invoke(app, ["lint", "--config", str(tmp_path / ".wkparse.toml"), str(bad)])
    assert result.exit_code == 2 and "--config" in result.stderr


def test_a_bad_config_is_reported_once_and_other_folders_still_linted(tmp_path: Path) -> None:
    write(tmp_path / "broken" / ".wkparse.toml", "select = [")
    write(tmp_path / "broken" / "a.txt", BAD)
    write(tmp_path / "broken" / "sub" / "b.txt", BAD)
    write(tmp_path / "fine" / "c.txt", BAD)
    result = runner.invoke(app, ["lint", "-f", "json", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.count("invalid TOML") == 1
    assert [Path(d["path"]).name for d in json.loads(result.stdout)] == ["c.txt"]


# ---- discovery --------------------------------------------------------------------------


def test_nearest_config_wins(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.wkparse]\nignore = ["WK105"]\n')
    write(tmp_path / "sub" / ".wkparse.toml", 'select = ["WK"]\n')
    write(tmp_path / "top.txt", BAD)
    write(tmp_path / "sub" / "inner.txt", BAD)
    write(tmp_path / "other" / "deep.txt", BAD)
    code, found = codes_of(str(tmp_path))
    assert code == 1
    assert found == [("inner.txt", "WK105", "error")]


def test_dedicated_file_wins_over_pyproject_in_the_same_folder(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.wkparse]\nignore = ["WK105"]\n')
    write(tmp_path / ".wkparse.toml", "ignore = []\n")
    assert Resolver().for_path(tmp_path / "a.txt").source == tmp_path / ".wkparse.toml"


def test_pyproject_without_a_wkparse_table_is_passed_over(tmp_path: Path) -> None:
    write(tmp_path / ".wkparse.toml", 'ignore = ["WK105"]\n')
    write(tmp_path / "sub" / "pyproject.toml", "[tool.ruff]\nline-length = 100\n")
    write(tmp_path / "sub" / "broken-but-unrelated" / "pyproject.toml", "[[[")
    config = Resolver().for_path(tmp_path / "sub" / "broken-but-unrelated" / "a.txt")
    assert config.source == tmp_path / ".wkparse.toml"


def test_explicit_config_overrides_discovery(tmp_path: Path) -> None:
    write(tmp_path / ".wkparse.toml", 'ignore = ["WK105"]\n')
    chosen = write(tmp_path / "elsewhere" / "strict.toml", '[severity]\nWK105 = "warning"\n')
    bad = write(tmp_path / "bad.txt", BAD)
    assert codes_of(str(bad)) == (0, [])
    assert codes_of("--config", str(chosen), str(bad)) == (0, [("bad.txt", "WK105", "warning")])
    assert codes_of("--config", str(chosen), "--strict", str(bad))[0] == 1


def test_command_line_select_and_ignore_override_the_file(tmp_path: Path) -> None:
    write(tmp_path / ".wkparse.toml", 'ignore = ["WK105"]\n')
    bad = write(tmp_path / "bad.txt", BAD)
    assert codes_of("--select", "WK1", str(bad)) == (1, [("bad.txt", "WK105", "error")])
    write(tmp_path / ".wkparse.toml", 'select = ["WK105"]\n')
    assert codes_of("--ignore", "WK1", str(bad)) == (0, [])


def test_per_file_ignores_and_severity_from_a_file(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        '[tool.wkparse.per-file-ignores]\n"legacy/*" = ["WK105"]\n'
        '[tool.wkparse.severity]\nWK1 = "info"\n',
    )
    write(tmp_path / "legacy" / "old.txt", BAD)
    write(tmp_path / "new.txt", BAD)
    code, found = codes_of(str(tmp_path))
    assert found == [("new.txt", "WK105", "info")]
    assert code == 0
    assert codes_of("--strict", str(tmp_path))[0] == 0  # info never fails a run


def test_size_limits_reach_the_parser(tmp_path: Path) -> None:
    good = write(tmp_path / "w.txt", GOOD)
    write(tmp_path / ".wkparse.toml", "max-bytes = 20\n")
    assert codes_of(str(good)) == (1, [("w.txt", "WK118", "error")])
    write(tmp_path / ".wkparse.toml", "max-line-bytes = 30\n")
    code, found = codes_of(str(good))
    assert code == 1 and {c for _, c, _ in found} == {"WK116"}


def test_include_glob_widens_the_walk(tmp_path: Path) -> None:
    write(tmp_path / ".wkparse.toml", 'include = ["*.wl"]\n')
    write(tmp_path / "a.wl", BAD)
    write(tmp_path / "b.txt", BAD)
    assert codes_of(str(tmp_path)) == (1, [("a.wl", "WK105", "error")])


@pytest.mark.parametrize(
    "command",
    [["lint"], ["fmt", "--check"], ["explain"], ["explain", "-f", "json"], ["parse"], ["diff"]],
    ids=" ".join,
)
def test_a_broken_configuration_is_the_same_error_for_every_command(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: explain and diff only warned (exit 0) where lint and fmt stop (exit 2)."""
    sample = next(iter(sorted((Path(__file__).parents[1] / "samples").glob("*.txt"))))
    workload = tmp_path / "a.txt"
    workload.write_bytes(sample.read_bytes())
    write(tmp_path / ".wkparse.toml", 'select = ["XX"]\n')
    monkeypatch.chdir(tmp_path)
    files = ["a.txt", "a.txt"] if command == ["diff"] else ["a.txt"]
    result = runner.invoke(app, [*command, *files])
    assert result.exit_code == 2, result.output
    assert "error" in result.stderr and ".wkparse.toml" in result.stderr and "'XX'" in result.stderr
