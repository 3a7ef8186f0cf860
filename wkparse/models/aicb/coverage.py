"""Every option AICB's entry points accept, and what wkparse does with it (`--options`).

Built from the option tables the model parses with, so the list cannot drift from the code.
`--at REV` lists the entry points of that revision, as `wkparse aicb --at REV` runs them: v1.0's
`--tp_num` generator and script, the old module name, the options that did not exist yet left
out, the first inference generator that read only its JSON. For the latest, an option a later
revision added is marked with it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from wkparse.models.aicb.inference import args as inference_args
from wkparse.models.aicb.inference.first import SCRIPT_VALUED as FIRST_SCRIPT_VALUED
from wkparse.models.aicb.options import Option
from wkparse.models.aicb.revisions import LATEST, REVISIONS, Revision, side_branch
from wkparse.models.aicb.training import args as training_args
from wkparse.models.aicb.training import scripts
from wkparse.models.aicb.v1.args import V1_OPTIONS
from wkparse.models.aicb.v1.script import V1_TRAINING


def _generator(
    title: str, options: tuple[Option, ...], since: Mapping[str, str] | None = None
) -> Iterator[str]:
    yield title
    width = max(len(o.flag) for o in options)
    for option in options:
        came = f" [AICB {since[option.flag]} on]" if since and option.flag in since else ""
        yield f"  {option.flag:<{width}}  {option.status()}{came}"
    yield f"  {'-h, --help':<{width}}  refused: prints the help, writes no file"


def _since(options: tuple[Option, ...], revisions: Sequence[Revision]) -> dict[str, str]:
    """flag -> the revision that added it, for options the generator's first revision lacked."""
    out = {}
    for option in options:
        rev = next((r for r in revisions if option.flag not in r.era.missing_options), None)
        if rev is not None and rev is not revisions[0]:
            out[option.flag] = rev.label
    return out


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
    later = [r for r in REVISIONS if not r.era.first_generator]
    yield from _generator(module, kept, _since(kept, later) if rev is LATEST else None)


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
    # today's inference generator ran on the side branch first (2025-11-04 ..)
    current = [r for r in (*side_branch(), LATEST) if r.era.inference == "current"]
    yield from _generator(module, kept, _since(kept, current) if rev is LATEST else None)


def option_list(rev: Revision | None = None) -> Iterator[str]:
    """The lines `wkparse aicb --options [--at REV]` prints (None: the latest AICB, where each
    option a later revision added is marked with it)."""
    if rev is not None:
        yield f"AICB at {rev.label}"
    else:
        yield (
            f"AICB {LATEST.label}, the latest modelled ([AICB REV on]: an option added at REV; "
            "--at REV lists an older AICB's options)"
        )
    yield ""
    rev = rev or LATEST
    yield from _training(rev)
    yield ""
    if not rev.era.inference:
        yield "no inference generator yet (it came on 2025-09-25)"
        return
    yield from _inference(rev)
