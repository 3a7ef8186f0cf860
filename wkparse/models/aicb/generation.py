"""One call from a command line to the file AICB would write: `generate(command)`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from wkparse.i18n import _
from wkparse.models.aicb.command import Invocation, invocation
from wkparse.models.aicb.dump import Workload
from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.inference import rows as inference
from wkparse.models.aicb.inference.args import InferenceArgs, inference_args
from wkparse.models.aicb.inference.first import first_inference_args, first_inference_script
from wkparse.models.aicb.names import V1Name, inference_name, training_name, v1_training_name
from wkparse.models.aicb.options import parse
from wkparse.models.aicb.revisions import LATEST, Revision, resolve
from wkparse.models.aicb.training import aiob
from wkparse.models.aicb.training import rows as training
from wkparse.models.aicb.training.args import OPTIONS, TrainingArgs, training_args
from wkparse.models.aicb.training.scripts import TRAINING
from wkparse.models.aicb.v1 import rows as v1_training
from wkparse.models.aicb.v1.args import v1_args
from wkparse.models.aicb.v1.script import V1_TRAINING


@dataclass(slots=True)
class Generated:
    """What AICB writes for a command: the workload, its file name, and what to tell the user.

    `notes` are facts a user should see (a script that dropped words, options without effect,
    where compute times came from, AICB's own warnings); `directory` is where AICB puts it.
    """

    invocation: Invocation
    workload: Workload
    filename: str
    directory: str
    args: TrainingArgs | InferenceArgs
    notes: list[str] = field(default_factory=list)
    #: the AICB revision whose behaviour was reproduced
    revision: Revision = LATEST

    def text(self) -> str:
        return self.workload.text()


def _training(run: Invocation, rev: Revision = LATEST) -> Generated:
    era = rev.era
    if rev is not LATEST:
        from wkparse.models.aicb import history

        if run.via_script:
            run.argv = history.script_argv(run.argv, run.typed, rev)
        history.check_options(parse(run.argv, OPTIONS).given, rev)
    args, idle = training_args(run.argv)
    if args.deepseek and not era.deepseek:
        raise AicbError(f"AICB at {rev.label} stops: argument --frame: invalid choice: 'DeepSeek'")
    notes = [*run.notes, *(note for dest, note in idle if run.user_gave(dest))]
    table = _compute_times(args, args.recompute and era.recompute_doubles_flash, notes)
    work = training.workload(args, table, era)
    if args.ga < 1:
        notes.append(_("AICB prints: {warning}").format(warning=training.GA_WARNING))
    name = training_name(
        gpu_type=args.gpu_type,
        model=args.model_name,
        world=args.world_size,
        tp=args.tp,
        pp=args.pp,
        ep=args.ep,
        gbs=args.global_batch,
        mbs=args.micro_batch,
        seq=args.seq_length,
        moe=args.moe_enable,
        gemm=args.grouped_gemm,
        flash=args.use_flash_attn,
        with_gpu_type=era.name_gpu_type,
    )
    return Generated(run, work, name, "results/workload/", args, notes, rev)


def _compute_times(args: TrainingArgs, recompute: bool, notes: list[str]) -> dict[str, int] | None:
    """The AIOB table of an --aiob_enable run (None without), and where its times came from."""
    if not args.aiob_enable:
        if args.comp_filepath is not None:
            notes.append(_("--comp_filepath: has no effect without --aiob_enable"))
        return None
    assert args.comp_filepath is not None
    table, source = aiob.load(args.comp_filepath, recompute)
    notes.append(source)
    return table


def _v1_training(run: Invocation, rev: Revision) -> Generated:
    """AICB v1.0's training generator (2024-07-31 .. 2024-09-11)."""
    args, idle = v1_args(run.argv, moe_only=rev.era.moe_only)
    notes = [*run.notes, *(note for dest, note in idle if run.user_gave(dest))]
    work = v1_training.workload(args, _compute_times(args, False, notes))
    if args.ga < 1:
        notes.append(_("AICB prints: {warning}").format(warning=training.GA_WARNING))
    a = args
    name = V1Name(
        str(a.model_name), a.world_size, a.tp, a.pp, a.global_batch, a.micro_batch,
        a.seq_length, a.use_flash_attn,
    )  # fmt: skip
    return Generated(run, work, v1_training_name(name), "results/workload/", args, notes, rev)


def _inference(run: Invocation, rev: Revision) -> Generated:
    first = rev.era.inference in ("first", "next")
    if first:
        args, notes = first_inference_args(run.argv, rev.era.inference == "next")
        notes = [*run.notes, *notes]
    else:
        era = rev.era
        args, idle = inference_args(run.argv, era.missing_options, era.early_inference_configs)
        notes = [*run.notes, *(note for dest, note in idle if run.user_gave(dest))]
    name = inference_name(
        model=args.model_name,
        world=args.world_size,
        tp=args.tp,
        pp=args.pp,
        ep=args.ep,
        bs=args.micro_batch,
        seq=args.seq_length,
        phase=args.phase,
    )
    if not first:
        notes += [
            _(
                "compute times are AICB's default 1: without --aiob_enable AICB reads measured "
                "times only from an earlier run's results/aiob_outputs/ file, assumed absent here"
            )
        ]
    style = {"first": inference.FIRST, "next": inference.NEXT}.get(rev.era.inference)
    work = inference.workload(args, style or inference.CURRENT)
    return Generated(run, work, name, args.result_dir, args, notes, rev)


def handed(
    command: str | Sequence[str], at: str | Revision | None = None
) -> tuple[Invocation, Revision]:
    """What `command` hands its generator at AICB `at` (the script's option loop and presets
    applied), and that revision: the generator itself is not run, so an option is seen
    reaching it even where the generator would then refuse the run."""
    rev = LATEST if at is None else at if isinstance(at, Revision) else resolve(at)
    notes: list[str] = []
    if rev is not LATEST:
        from wkparse.models.aicb import history

        adapted = history.adapt(command, rev)
        command, notes = adapted.words, adapted.notes
    script = V1_TRAINING if rev.era.first_generator else TRAINING
    if rev.era.inference in ("first", "next"):
        branch = rev.era.inference == "next"
        run = invocation(command, script, partial(first_inference_script, next_branch=branch))
    else:
        run = invocation(command, script)
    run.notes[:0] = notes
    return run, rev


def generate(command: str | Sequence[str], at: str | Revision | None = None) -> Generated:
    """The file AICB writes for `command` (a string as typed, or its words).

    `at` is an AICB revision (commit or date, see `revisions.resolve`); None: the current one.
    Raises AicbError when AICB writes no file for it, or wkparse cannot reproduce the run.
    """
    run, rev = handed(command, at)
    if run.generator == "training":
        return _v1_training(run, rev) if rev.era.first_generator else _training(run, rev)
    return _inference(run, rev)
