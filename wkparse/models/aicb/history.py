"""A command as AICB at one revision runs it: the words, options and script of that time.

`generate(command, at=REV)` calls `adapt` before the current model reads the command. The
differences are small and listed in `revisions`: the training module's name (renamed
2025-09-25), options that did not exist yet (argparse refuses them), the script's `--gpu_type`
(absent before 2024-11-05, then passed empty until 2025-01-02) and presets it did not have yet
(an unknown `-m` falls back to gpt_13B), and the generators not modelled at that revision.
AICB v1.0's script and options differ more: `v1_script` and `v1_args` model them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from wkparse.models.aicb.command import split
from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.revisions import LATEST, Revision

_NAMES = ("AIOB_simAI_workload_generator", "SimAI_training_workload_generator")
_INFERENCE = ("SimAI_inference_workload_generator", "inference_workload_with_aiob.sh")
_TRAINING_SCRIPT = "megatron_workload_with_aiob.sh"


@dataclass(slots=True)
class Adapted:
    """The words the current model reads for a run at `revision`, and what changed."""

    words: list[str]
    revision: Revision
    script: bool = False
    notes: list[str] = field(default_factory=list)


def _module_word(word: str) -> str | None:
    """Which training module name a word names (as `-m` target or script path), if any."""
    if "_workload_generator" not in word:
        return None
    for name in _NAMES:
        if PurePosixPath(word.replace(".", "/")).name == name or PurePosixPath(word).stem == name:
            return name
    return None


def adapt(command: str | Sequence[str], rev: Revision) -> Adapted:
    """The command's words for the current model, as AICB at `rev` would have run them."""
    words = split(command)
    era = rev.era
    if any(
        "inference" in w and (PurePosixPath(w).name in _INFERENCE or w.endswith(_INFERENCE[0]))
        for w in words
    ):
        if not era.inference:
            raise AicbError(
                f"AICB at {rev.label} has no inference generator (it came on 2025-09-25)"
            )
        return Adapted(words, rev)
    out: list[str] = []
    notes: list[str] = []
    for word in words:
        name = _module_word(word)
        if name is not None and name != era.module:
            raise AicbError(
                f"AICB at {rev.label} has no workload_generator.{name}: its training "
                f"generator is workload_generator.{era.module}"
            )
        out.append(word.replace(era.module, LATEST.era.module) if name else word)
    script = any(PurePosixPath(w).name == _TRAINING_SCRIPT for w in out)
    if script and not era.first_generator:  # v1.0's script is a model of its own
        out, notes = _script_words(out, rev)
    return Adapted(out, rev, script, notes)


def _script_words(words: list[str], rev: Revision) -> tuple[list[str], list[str]]:
    """The training script's words at `rev`: its option loop stops at an option it lacks,
    and a preset it lacks falls back to gpt_13B."""
    era = rev.era
    notes: list[str] = []
    start = next(i for i, w in enumerate(words) if PurePosixPath(w).name == _TRAINING_SCRIPT)
    head, rest = words[: start + 1], words[start + 1 :]
    if era.script_gpu_type is None and "--gpu_type" in rest:
        cut = rest.index("--gpu_type")
        notes.append(
            f"the script at {rev.label} has no --gpu_type: it stops reading options there; "
            f"it ignores: {' '.join(rest[cut:])}"
        )
        rest = rest[:cut]
    for i, word in enumerate(rest[:-1]):
        if word in ("-m", "--model_size") and rest[i + 1] in era.missing_presets:
            notes.append(
                f"the script at {rev.label} has no preset -m {rest[i + 1]}: it falls back "
                "to gpt_13B"
            )
            rest[i + 1] = "13"
    return head + rest, notes


def script_argv(argv: list[str], typed: set[str] | None, rev: Revision) -> list[str]:
    """The arguments the script hands to Python at `rev` (its --gpu_type of that time)."""
    era = rev.era
    if typed is not None and "gpu_type" in typed:
        return argv
    out = []
    for word in argv:
        if word.startswith("--gpu_type="):
            if era.script_gpu_type is None:
                continue
            word = f"--gpu_type={era.script_gpu_type}"
        out.append(word)
    return out


def check_options(given: Sequence[str], rev: Revision) -> None:
    """Refuse an option the generator did not have at `rev`, as argparse did."""
    missing = [flag for flag in given if flag in rev.era.missing_options]
    if missing:
        raise AicbError(
            f"AICB at {rev.label} stops: unrecognized arguments: {' '.join(missing)} "
            "(the option came later; see wkparse aicb --versions)"
        )
