"""Every option AICB's entry points accept, and what wkparse does with it (`--options`).

Built from the option tables the model parses with, so the list cannot drift from the code.
`--at REV` lists the entry points of that revision, as `wkparse aicb --at REV` runs them: v1.0's
`--tp_num` generator and script, the old module name, the options that did not exist yet left
out, the first inference generator that read only its JSON.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from wkparse.aicb import inference_args, scripts, training_args
from wkparse.aicb.first_inference import SCRIPT_VALUED as FIRST_SCRIPT_VALUED
from wkparse.aicb.options import Option
from wkparse.aicb.revisions import LATEST, Revision
from wkparse.aicb.v1_args import V1_OPTIONS
from wkparse.aicb.v1_script import V1_TRAINING


def _generator(title: str, options: tuple[Option, ...]) -> Iterator[str]:
    yield title
    width = max(len(o.flag) for o in options)
    for option in options:
        yield f"  {option.flag:<{width}}  {option.status()}"
    yield f"  {'-h, --help':<{width}}  refused: prints the help, writes no file"


def _script(
    title: str, valued: Mapping[str, str], flags: Mapping[str, tuple[str, str]]
) -> Iterator[str]:
    yield title
    by_target: dict[str, list[str]] = {}
    for word, variable in valued.items():
        by_target.setdefault(variable, []).append(word)
    for word, (variable, _) in flags.items():
        by_target.setdefault(variable, []).append(word)
    spellings = [", ".join(words) for words in by_target.values()]
    width = max(len(s) for s in spellings)
    for words in spellings:
        yield f"  {words:<{width}}  modelled (passed on as the script passes it)"
    yield f"  {'-h, --help':<{width}}  refused: prints the usage, writes no file"
    yield f"  {'anything else':<{width}}  the script stops reading options there (wkparse says so)"


def _training(rev: Revision) -> Iterator[str]:
    era = rev.era
    script = f"sh {scripts.TRAINING_SCRIPT} (then its -m preset, then the training generator)"
    module = f"python -m workload_generator.{era.module}"
    if era.first_generator:
        yield from _script(script, V1_TRAINING.valued, V1_TRAINING.flags)
        yield ""
        yield from _generator(module, V1_OPTIONS)
        return
    valued = dict(scripts.TRAINING_VALUED)
    if era.script_gpu_type is None:
        del valued["--gpu_type"]
    yield from _script(script, valued, scripts.TRAINING_FLAGS)
    yield ""
    kept = tuple(o for o in training_args.OPTIONS if o.flag not in era.missing_options)
    yield from _generator(module, kept)


def _inference(rev: Revision) -> Iterator[str]:
    era = rev.era
    script = f"sh {scripts.INFERENCE_SCRIPT} (then the inference generator)"
    module = "python -m workload_generator.SimAI_inference_workload_generator MODEL [CONFIG]"
    if era.inference in ("first", "next"):
        yield from _script(script, FIRST_SCRIPT_VALUED, {})
        yield ""
        yield module
        yield "  MODEL [CONFIG]  modelled: every setting comes from the JSON configuration"
        yield "  anything else   ignored by AICB at this revision (wkparse says so)"
        return
    yield from _script(script, scripts.INFERENCE_VALUED, scripts.INFERENCE_FLAGS)
    yield ""
    kept = tuple(o for o in inference_args.OPTIONS if o.flag not in era.missing_options)
    yield from _generator(module, kept)


def option_list(rev: Revision | None = None) -> Iterator[str]:
    """The lines `wkparse aicb --options [--at REV]` prints (None: the current AICB)."""
    if rev is not None:
        yield f"AICB at {rev.label}"
        yield ""
    rev = rev or LATEST
    yield from _training(rev)
    yield ""
    if not rev.era.inference:
        yield "no inference generator yet (it came on 2025-09-25)"
        return
    yield from _inference(rev)
