"""Lint configuration: which codes run, at what severity, for which files, and where it is read.

Selection follows flake8 and ruff: `select` and `ignore` take codes or code prefixes
(`WK2` is every header rule), and the longest matching prefix decides. Settings live in
`.wkparse.toml` (top-level keys) or `pyproject.toml` under `[tool.wkparse]`; the nearest
such file above a linted path applies to it, and `.wkparse.toml` wins in the same folder.
"""

from __future__ import annotations

import fnmatch
import os
import re
import sys
from collections.abc import Callable, Collection, Iterable
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wkparse.catalog import TARGETS, foreign_codes, opt_in_codes
from wkparse.diagnostics import Severity
from wkparse.parse import Limits
from wkparse.record import record

if TYPE_CHECKING:
    from wkparse.models.simai.versions import SimaiVersion

DEDICATED = ".wkparse.toml"
PYPROJECT = "pyproject.toml"
#: folders a directory walk never enters (tool and version-control state, not workloads)
ALWAYS_EXCLUDED = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".tox",
    "__pycache__",
    "node_modules",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
)
SELECTOR = re.compile(r"WK[0-9]{0,3}")
#: the selector of the default set (see Config.select)
DEFAULT_SET = ""
#: ruff's word for every rule: the same as the prefix `WK`
EVERY_RULE = "ALL"


class ConfigError(Exception):
    """A configuration the user must correct; the message names the file and the key."""


@record(slots=False)
class Config:
    #: the default set: the empty prefix matches every code but turns on no opt-in rule; a
    #: prefix anyone names (`WK`, `ALL`, `WK4`) selects every rule it matches, as in ruff
    select: tuple[str, ...] = (DEFAULT_SET,)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    extend_ignore: tuple[str, ...] = ()
    #: glob pattern -> codes or prefixes ignored in matching files
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: code or prefix -> severity that replaces the catalog's default
    severity: dict[str, Severity] = field(default_factory=dict)
    max_bytes: int = Limits().max_bytes
    max_line_bytes: int = Limits().max_line_bytes
    #: globs of the files a directory walk lints
    include: tuple[str, ...] = ("*.txt",)
    #: globs of files and folders a directory walk skips (on top of ALWAYS_EXCLUDED)
    exclude: tuple[str, ...] = ()
    #: codes off whatever the selection says: the command line's --ignore beats the file's
    forced_ignore: tuple[str, ...] = ()
    #: glob pattern -> the AICB command line that made matching files (the WK6xx checks)
    aicb_command: dict[str, str] = field(default_factory=dict)
    #: `--aicb-command` of the command line: applies to every file and beats the globs
    aicb_command_given: str | None = None
    #: the folder per-file-ignores patterns are relative to (the config file's)
    root: Path | None = None
    #: the file these settings came from, None for the defaults
    source: Path | None = None
    #: run the opt-in rules too, whatever selects them (explain states every fact)
    opt_in: bool = False
    #: what the files are written for (`--target`, `target`): simai, simai-ns3 or astra-sim-1.0
    target: str = "simai"
    #: where SARIF's helpUri points: `<base>/<CODE>.toml` (default: the installed rule pages)
    help_base_url: str | None = None
    #: the language lint and explain speak: en, zh, or auto (the environment's, when Chinese)
    lang: str | None = None
    #: the SimAI revision lint, explain and simai describe (`simai = "REV"`, `--at`): a
    #: commit, a date or a release; None: wkparse's default (`simai.versions.DEFAULT`)
    simai: str | None = None
    # Engine calls ask the same (code, path) questions once per diagnostic; answer them once.
    _memo: dict[object, object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    @property
    def simai_version(self) -> SimaiVersion:
        """The SimAI `simai` names (checked when read), or wkparse's default."""
        from wkparse.models.simai.versions import DEFAULT, resolve

        return DEFAULT if self.simai is None else resolve(self.simai)

    def with_simai(self, at: str | None) -> Config:
        """`--at` of the command line, over the file's `simai` (None: the file's)."""
        return self if at is None else replace(self, simai=check_simai(at))

    @property
    def limits(self) -> Limits:
        """The parser's bounds (max-bytes, max-line-bytes) these settings ask for."""
        return Limits(max_bytes=self.max_bytes, max_line_bytes=self.max_line_bytes)

    def enabled(self, code: str, path: str | None = None) -> bool:
        key = ("enabled", code, path)
        known = self._memo.get(key)
        if known is None:
            known = self._memo[key] = self._selected(code) and not any(
                code.startswith(p) for p in self._file_ignores(path)
            )
        return bool(known)

    def severity_of(self, code: str, default: Severity) -> Severity:
        best = max((p for p in self.severity if code.startswith(p)), key=len, default=None)
        return self.severity[best] if best is not None else default

    def with_command_line(
        self,
        select: tuple[str, ...] | None,
        ignore: tuple[str, ...] | None,
        extend_select: tuple[str, ...] = (),
        extend_ignore: tuple[str, ...] = (),
    ) -> Config:
        """The command line wins over the file, as in ruff.

        `--select` replaces the file's whole selection (its ignores included); `--ignore`
        alone turns codes off on top of whatever the file selects; `--extend-select` and
        `--extend-ignore` add to the file's own lists.
        """
        if extend_select or extend_ignore:
            extended = replace(
                self,
                extend_select=self.extend_select + extend_select,
                extend_ignore=self.extend_ignore + extend_ignore,
            )
            return extended.with_command_line(select, ignore)
        if select is not None:
            return replace(
                self, select=select, ignore=ignore or (), extend_select=(), extend_ignore=()
            )
        if ignore:
            return replace(self, forced_ignore=self.forced_ignore + ignore)
        return self

    def with_target(self, target: str | None) -> Config:
        """`--target` of the command line, over the file's `target` (None: the file's)."""
        return self if target is None else replace(self, target=target)

    def with_aicb_command(self, command: str | None) -> Config:
        """`--aicb-command` of the command line, for every file (None: the file's globs)."""
        return self if command is None else replace(self, aicb_command_given=command)

    def aicb_command_for(self, path: str | None) -> str | None:
        """The AICB command that made this file: the command line's, else the first glob's."""
        if self.aicb_command_given is not None or path is None:
            return self.aicb_command_given
        names = _match_names(path, self.root)
        for pattern, command in self.aicb_command.items():
            if any(_glob_match(pattern, names[0], n) for n in names[1:]):
                return command
        return None

    def excluded(self, name: str, relative: str) -> bool:
        """Whether a directory walk skips this entry (never applied to paths named explicitly)."""
        if name in ALWAYS_EXCLUDED:
            return True
        return any(_glob_match(p, name, relative) for p in self.exclude)

    def included(self, name: str, relative: str) -> bool:
        return any(_glob_match(p, name, relative) for p in self.include)

    def _selected(self, code: str) -> bool:
        if any(code.startswith(p) for p in self.forced_ignore):
            return False
        if code in foreign_codes(self.target):
            return False
        select = self.select + self.extend_select
        ignore = self.ignore + self.extend_ignore
        if not self.opt_in and code in opt_in_codes():
            select = tuple(p for p in select if p != DEFAULT_SET)
        selected = max((len(p) for p in select if code.startswith(p)), default=-1)
        ignored = max((len(p) for p in ignore if code.startswith(p)), default=-1)
        return selected > ignored

    def _file_ignores(self, path: str | None) -> tuple[str, ...]:
        if path is None or not self.per_file_ignores:
            return ()
        key = ("file", path)
        known = self._memo.get(key)
        if known is None:
            names = _match_names(path, self.root)
            known = self._memo[key] = tuple(
                code
                for pattern, codes in self.per_file_ignores.items()
                if any(_glob_match(pattern, names[0], n) for n in names[1:])
                for code in codes
            )
        assert isinstance(known, tuple)
        return known


def _match_names(path: str, root: Path | None) -> tuple[str, ...]:
    """The base name, then every spelling a pattern may be written against."""
    normalized = path.replace("\\", "/")
    names = [normalized.rsplit("/", 1)[-1], normalized]
    if root is not None:
        relative = os.path.relpath(os.path.abspath(path), root).replace("\\", "/")
        if not relative.startswith("../"):
            names.append(relative)
    return tuple(names)


def _glob_match(pattern: str, name: str, relative: str) -> bool:
    # fnmatch's `*` crosses `/`, so `legacy/*` covers subfolders; `**/x` also means `x`.
    if "/" not in pattern:
        return fnmatch.fnmatchcase(name, pattern)
    bare = pattern[3:] if pattern.startswith("**/") else pattern
    return fnmatch.fnmatchcase(relative, pattern) or fnmatch.fnmatchcase(relative, bare)


# ---- reading a file ------------------------------------------------------------------------


def parse_selectors(text: str, known: Collection[str] | None = None) -> tuple[str, ...]:
    """`WK2, wk301` -> ("WK2", "WK301"); raises ConfigError naming a bad one."""
    return check_selectors((part for part in text.split(",") if part.strip()), known)


def check_selectors(codes: Iterable[str], known: Collection[str] | None = None) -> tuple[str, ...]:
    out = []
    for raw in codes:
        code = raw.strip().upper()
        if code == EVERY_RULE:
            code = "WK"
        if not SELECTOR.fullmatch(code):
            raise ConfigError(f"{raw!r} is not a rule code or prefix (WK105, WK1 or ALL)")
        if known is not None and not any(k.startswith(code) for k in known):
            raise ConfigError(f"{raw!r} matches no rule; `wkparse rules` lists them")
        out.append(code)
    return tuple(out)


_LIST_KEYS = ("select", "ignore", "extend-select", "extend-ignore")
_GLOB_KEYS = ("include", "exclude")
_INT_KEYS = ("max-bytes", "max-line-bytes")
KEYS = (
    *_LIST_KEYS,
    *_GLOB_KEYS,
    *_INT_KEYS,
    "per-file-ignores",
    "severity",
    "aicb-command",
    "lang",
    "target",
    "help-base-url",
    "simai",
)


def load(path: Path, known: Collection[str] | None = None) -> Config:
    """Read one config file; `pyproject.toml` is read from its `[tool.wkparse]` table."""
    table = _read_table(path)
    if table is None:
        raise ConfigError(f"{path}: no [tool.wkparse] table")
    return from_table(table, path, known)


def _read_table(path: Path) -> dict[str, Any] | None:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    # Most pyproject files are not about wkparse: skip them without parsing.
    if path.name == PYPROJECT and b"wkparse" not in data:
        return None
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        document: dict[str, Any] = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except ValueError:  # an integer past Python's 4,300-digit conversion limit
        raise ConfigError(f"{path}: invalid TOML: a number too long to read") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: nested too deeply to read") from None
    if path.name != PYPROJECT:
        # `--config ci.toml` may hold the settings top-level or under [tool.wkparse]
        # (.wkparse.toml keeps them top-level: a table there is a mistake worth reporting)
        nested = document.get("tool", {})
        named = path.name != DEDICATED and set(document) == {"tool"}
        if named and isinstance(nested, dict) and "wkparse" in nested:
            settings = nested["wkparse"]
            if not isinstance(settings, dict):
                raise ConfigError(f"{path}: tool.wkparse must be a table")
            return settings
        return document
    tool = document.get("tool", {})
    table: object = tool.get("wkparse") if isinstance(tool, dict) else None
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.wkparse must be a table")
    return table


def from_table(table: dict[str, Any], path: Path, known: Collection[str] | None = None) -> Config:
    where = f"{path}: [tool.wkparse]" if path.name == PYPROJECT else str(path)
    settings: dict[str, Any] = {}
    for raw_key, value in table.items():
        key = raw_key.replace("_", "-")
        try:
            settings[key.replace("-", "_")] = _setting(key, value, known)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {raw_key}: {exc}") from None
        except _UnknownKey:
            hint = " (in .wkparse.toml the settings are top-level keys)" if key == "tool" else ""
            raise ConfigError(
                f"{where}: unknown key {raw_key!r}{hint}; known keys: {', '.join(KEYS)}"
            ) from None
    return Config(**settings, root=path.parent.absolute(), source=path)


class _UnknownKey(Exception):
    pass


def _setting(key: str, value: object, known: Collection[str] | None) -> object:
    if key in _LIST_KEYS:
        return check_selectors(_strings(value, 'a list of codes, e.g. ["WK2", "WK501"]'), known)
    if key in _GLOB_KEYS:
        return _strings(value, 'a list of glob patterns, e.g. ["*.txt"]')
    if key in _INT_KEYS:
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ConfigError(f"must be a positive integer (bytes), not {value!r}")
        return value
    if key == "per-file-ignores":
        pairs = _table(value, 'a table of glob = [codes], e.g. {"legacy/*.txt" = ["WK2"]}')
        return {
            glob: check_selectors(_strings(codes, f"{glob!r} must map to a list of codes"), known)
            for glob, codes in pairs.items()
        }
    if key == "aicb-command":
        pairs = _table(value, 'a table of glob = "command", e.g. {"runs/*.txt" = "sh ..."}')
        bad = [glob for glob, command in pairs.items() if not isinstance(command, str)]
        if bad:
            raise ConfigError(f"{bad[0]!r} must map to a command line (a string)")
        return dict(pairs)
    if key == "severity":
        pairs = _table(value, 'a table of code = level, e.g. {WK301 = "warning"}')
        return {
            check_selectors([code], known)[0]: _severity(level, code)
            for code, level in pairs.items()
        }
    if key == "target":
        return check_target(value)
    if key == "help-base-url":
        if not isinstance(value, str) or not value:
            raise ConfigError(f"must be a URL, not {value!r}")
        return value
    if key == "simai":
        return check_simai(value)
    if key == "lang":
        from wkparse.i18n import CHOICES

        if value not in CHOICES:
            raise ConfigError(f"must be one of {', '.join(CHOICES)}, not {value!r}")
        return value
    raise _UnknownKey


def check_simai(value: object) -> str:
    """A SimAI revision `simai.versions.resolve` knows (a commit, a date or a release)."""
    from wkparse.models.simai.versions import UnknownVersion, resolve

    if not isinstance(value, str):
        raise ConfigError(f"must be a SimAI commit, date or release (a string), not {value!r}")
    try:
        resolve(value)
    except UnknownVersion as exc:
        raise ConfigError(str(exc)) from None
    return value


def check_target(value: object) -> str:
    if not isinstance(value, str) or value not in TARGETS:
        raise ConfigError(f"must be one of {', '.join(TARGETS)}, not {value!r}")
    return value


def _strings(value: object, expected: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"must be {expected}, not {value!r}")
    return tuple(value)


def _table(value: object, expected: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"must be {expected}, not {value!r}")
    return value


def _severity(level: object, code: str) -> Severity:
    levels = ", ".join(str(s) for s in sorted(Severity, reverse=True))
    if not isinstance(level, str) or level.strip().upper() not in Severity.__members__:
        raise ConfigError(f"{code}: severity must be one of {levels}, not {level!r}")
    return Severity.parse(level)


# ---- which file applies --------------------------------------------------------------------


def config_file_in(directory: Path) -> Path | None:
    """The config file of this folder itself, if it has one."""
    dedicated = directory / DEDICATED
    if dedicated.is_file():
        return dedicated
    pyproject = directory / PYPROJECT
    if pyproject.is_file() and _read_table(pyproject) is not None:
        return pyproject
    return None


class Resolver:
    """Finds the settings for each linted path: the nearest config file above it, as in ruff.

    With an explicit file (`--config`) that file applies everywhere. Lookups are cached per
    folder, so linting a folder of files costs one search.
    """

    def __init__(
        self,
        explicit: Path | None = None,
        *,
        known: Collection[str] | None = None,
        adjust: Callable[[Config], Config] = lambda c: c,
    ) -> None:
        self.known = known
        self.adjust = adjust
        self._by_dir: dict[Path, Config] = {}
        self._by_file: dict[Path, Config] = {}
        self._explicit = None if explicit is None else self._load(explicit)

    def for_path(self, path: Path | None) -> Config:
        """Settings for a file (its folder's) or a folder; None means the working folder."""
        if self._explicit is not None:
            return self._explicit
        start = Path.cwd() if path is None else path.absolute()
        return self._for_dir(start if start.is_dir() else start.parent)

    def _for_dir(self, directory: Path) -> Config:
        chain: list[Path] = []
        found: Config | None = None
        for folder in (directory, *directory.parents):
            if folder in self._by_dir:
                found = self._by_dir[folder]
                break
            chain.append(folder)
            source = config_file_in(folder)
            if source is not None:
                found = self._load(source)
                break
        if found is None:
            found = self.adjust(Config())
        for folder in chain:
            self._by_dir[folder] = found
        return found

    def _load(self, source: Path) -> Config:
        key = source.absolute()
        if key not in self._by_file:
            self._by_file[key] = self.adjust(load(source, self.known))
        return self._by_file[key]
