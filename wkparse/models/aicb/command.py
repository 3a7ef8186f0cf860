"""A command line as a user typed it -> which AICB generator runs, with which arguments.

Accepted forms, as users post them (leading `VAR=value` assignments, `env`, and everything up
to a last `&&` or `;`, such as `cd aicb &&`, are skipped):
- `sh|bash|dash [shell options] [path/]scripts/megatron_workload_with_aiob.sh ...`, or the
  script run directly (`./scripts/...sh`, `scripts/...sh`);
- the same for `scripts/inference_workload_with_aiob.sh`;
- `python|python3|python3.X [interpreter options] -m
  workload_generator.SimAI_training_workload_generator ...`, or the module run by path
  (`python workload_generator/SimAI_training_workload_generator.py ...`);
- each of these after `uv run [uv options]`, and uv's own module form `uv run -m MODULE ...`
  (`--module`), or its script form `uv run workload_generator/....py ...`;
- the same forms for `SimAI_inference_workload_generator`.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Literal

from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.training.scripts import (
    TRAINING,
    ScriptRun,
    TrainingScript,
    inference_script,
    training_script,
)

InferenceScript = Callable[[Sequence[str]], ScriptRun]

Generator = Literal["training", "inference"]

_MODULES: dict[str, Generator] = {
    "SimAI_training_workload_generator": "training",
    "SimAI_inference_workload_generator": "inference",
}
_SCRIPTS: dict[str, Generator] = {
    "megatron_workload_with_aiob.sh": "training",
    "inference_workload_with_aiob.sh": "inference",
}


@dataclass(slots=True)
class Invocation:
    """The generator a command runs, its argument list, and what the script did on the way."""

    generator: Generator
    argv: list[str]
    via_script: bool = False
    notes: list[str] = field(default_factory=list)
    #: with a script: the settings the user's words gave (None: every argument is the user's)
    typed: set[str] | None = None

    def user_gave(self, dest: str) -> bool:
        """Whether the user chose this generator setting (not a script passing its default)."""
        return self.typed is None or dest in self.typed


def split(command: str | Sequence[str]) -> list[str]:
    """The words of a command: a string is split as a POSIX shell would, a list kept."""
    if not isinstance(command, str):
        return list(command)
    try:
        return shlex.split(command)
    except ValueError as exc:
        raise AicbError(f"cannot split the command: {exc}") from None


def _is_python(word: str) -> bool:
    name = PurePosixPath(word).name
    return name.startswith("python") and (name[6:].replace(".", "").isdigit() or name == "python")


#: options of `uv run` that take a value (the rest of its options are flags)
_UV_VALUED = frozenset(
    (
        "--with", "--with-editable", "--with-requirements", "--python", "-p", "--directory",
        "--project", "--package", "--extra", "--group", "--only-group", "--no-group",
        "--env-file", "--index", "--index-url", "--extra-index-url", "--find-links", "-f",
        "--cache-dir", "--config-file", "--color", "--python-platform", "-C", "--config-setting",
        "--index-strategy", "--keyring-provider", "--resolution", "--prerelease", "--link-mode",
        "--exclude-newer", "--refresh-package", "--reinstall-package", "--upgrade-package", "-P",
        "--no-binary-package", "--no-build-package", "--allow-insecure-host",
    )
)  # fmt: skip
#: interpreter options that take a value (`python -X dev -m ...`)
_PYTHON_VALUED = frozenset(("-X", "-W", "--check-hash-based-pycs"))
_SHELLS = ("sh", "bash", "dash")


def _last_command(words: list[str]) -> list[str]:
    """The words after a last `&&`, `||` or `;` (`cd aicb && sh scripts/...`), without leading
    `VAR=value` assignments or `env`."""
    for i in range(len(words) - 1, -1, -1):
        if words[i] in ("&&", "||", ";") or words[i].endswith(";"):
            words = words[i + 1 :]
            break
    while words and (("=" in words[0] and not words[0].startswith("-")) or words[0] == "env"):
        words = words[1:]
    return words


def _after_uv_run(words: list[str]) -> tuple[list[str], bool]:
    """`uv run [options] REST` -> (REST, whether uv's own `-m`/`--module` was given)."""
    i, module = 0, False
    while i < len(words):
        word = words[i]
        if word == "--":
            return words[i + 1 :], module
        if word in ("-m", "--module"):
            return words[i + 1 :], True
        if not word.startswith("-"):
            return words[i:], module
        i += 2 if word in _UV_VALUED else 1
    return [], module


def _python_target(words: list[str]) -> tuple[str, list[str]] | None:
    """`[interpreter options] -m MODULE ARGS` or `[options] path.py ARGS` -> (module, ARGS)."""
    i = 0
    while i < len(words):
        word = words[i]
        if word == "-m" and i + 1 < len(words):
            return words[i + 1].rsplit(".", 1)[-1], words[i + 2 :]
        if word.startswith("-m") and len(word) > 2:  # python -mpackage.module
            return word[2:].rsplit(".", 1)[-1], words[i + 1 :]
        if word in ("-c", "-"):
            return None
        if not word.startswith("-"):
            return PurePosixPath(word).stem, words[i + 1 :]
        i += 2 if word in _PYTHON_VALUED else 1
    return None


def _script(words: list[str]) -> tuple[Generator, list[str]] | None:
    """A shell running one of AICB's scripts (options skipped), or a script run directly."""
    if words and PurePosixPath(words[0]).name in _SHELLS:
        words = words[1:]
        while words and words[0].startswith(("-", "+")) and words[0] != "-c":
            words = words[1:]
    which = _SCRIPTS.get(PurePosixPath(words[0]).name) if words else None
    return None if which is None else (which, words[1:])


def _generator(
    words: list[str], script: TrainingScript, inference: InferenceScript
) -> Invocation | None:
    """The invocation of one command (no `uv run` in front); None when it is none of AICB's."""
    found = _script(words)
    if found is not None:
        which, rest = found
        run = training_script(rest, script) if which == "training" else inference(rest)
        return Invocation(which, run.argv, True, run.notes, run.typed)
    if words and _is_python(words[0]):
        target = _python_target(words[1:])
        if target is not None and target[0] in _MODULES:
            return Invocation(_MODULES[target[0]], target[1])
    return None


def invocation(
    command: str | Sequence[str],
    script: TrainingScript = TRAINING,
    inference: InferenceScript = inference_script,
) -> Invocation:
    """Recognise the generator a command runs; AicbError when it is none of AICB's.

    `script` is the revision of the training script a script command runs (AICB v1.0's is
    `v1_script.V1_TRAINING`), `inference` that of the inference script."""
    words = _last_command(split(command))
    if not words:
        raise AicbError("no command given")
    if PurePosixPath(words[0]).name == "uv" and words[1:2] == ["run"]:
        rest, module = _after_uv_run(words[2:])
        if module:
            rest = ["python", "-m", *rest]
        elif rest and PurePosixPath(rest[0]).suffix == ".py":
            rest = ["python", *rest]
        words = rest
    found = _generator(words, script, inference)
    if found is not None:
        return found
    raise AicbError(
        "not an AICB generator command: expected 'sh scripts/megatron_workload_with_aiob.sh "
        "...', 'sh scripts/inference_workload_with_aiob.sh ...', 'python -m "
        "workload_generator.SimAI_training_workload_generator ...', or one of them after "
        "'uv run' ('uv run -m workload_generator....')"
    )
