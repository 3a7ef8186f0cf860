"""A command line as a user typed it -> which AICB generator runs, with which arguments.

Accepted forms (leading `VAR=value` assignments are skipped):
- `sh|bash [path/]scripts/megatron_workload_with_aiob.sh ...` (or the script run directly);
- `sh|bash [path/]scripts/inference_workload_with_aiob.sh ...`;
- `python|python3 -m workload_generator.SimAI_training_workload_generator ...`, or the module
  run by path (`python workload_generator/SimAI_training_workload_generator.py ...`);
- the same two forms for `SimAI_inference_workload_generator`.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Literal

from wkparse.aicb.errors import AicbError
from wkparse.aicb.scripts import inference_script, training_script

Generator = Literal["training", "inference"]

_MODULES = {
    "SimAI_training_workload_generator": "training",
    "SimAI_inference_workload_generator": "inference",
}
_SCRIPTS = {
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


def invocation(command: str | Sequence[str]) -> Invocation:
    """Recognise the generator a command runs; AicbError when it is none of AICB's."""
    words = split(command)
    while words and "=" in words[0] and not words[0].startswith("-"):
        words = words[1:]
    if not words:
        raise AicbError("no command given")
    head, *rest = words
    if PurePosixPath(head).name in ("sh", "bash", "dash") and rest:
        head, *rest = rest
    script = _SCRIPTS.get(PurePosixPath(head).name)
    if script == "training":
        run = training_script(rest)
        return Invocation("training", run.argv, True, run.notes, run.typed)
    if script == "inference":
        run = inference_script(rest)
        return Invocation("inference", run.argv, True, run.notes, run.typed)
    if _is_python(head) and rest:
        target, *argv = rest
        if target == "-m" and argv:
            target, *argv = argv
            module = target.rsplit(".", 1)[-1]
        else:
            module = PurePosixPath(target).stem
        generator = _MODULES.get(module)
        if generator == "training":
            return Invocation("training", argv)
        if generator == "inference":
            return Invocation("inference", argv)
    raise AicbError(
        "not an AICB generator command: expected 'sh scripts/megatron_workload_with_aiob.sh "
        "...', 'sh scripts/inference_workload_with_aiob.sh ...' or 'python -m "
        "workload_generator.SimAI_training_workload_generator ...'"
    )
