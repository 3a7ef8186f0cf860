"""The AICB command and revisions behind a file: `wkparse aicb --infer FILE`.

A file's content gives the run's settings (`content` for the training generators since v1.1,
`_inference_reading` for the inference one, `v1_infer` for v1.0); its name is a hint, which
decides only what the content cannot show (the model name, the GPU type, flash attention:
`Inferred.not_in_file` lists those a name did not give). What one number mixes is tried in the
order a user most likely ran it, and a nearest command is offered only when it is plausible
(`_plausible`). Each candidate command is generated at every modelled revision (`revisions`)
and compared with the file, chunk by chunk, stopping at the first difference, so a wrong guess
costs a few rows. The result is the command and the revision range that reproduce the file
exactly, or else the candidate that agrees longest and the first line where the file departs.
The side-branch commits `--at` takes (`revisions.side_branch`) that write the file are named
too: those sharing an exact revision's era, and those whose own inference generator (run once
each) writes it; a run only the side branch writes is found as well.
`wkparse aicb --at <at[0]> -- <command>` regenerates an exact file. The CSV AICB's
training/benchmark path writes (`aicb.py`) is recognised and named, never matched.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import chain
from pathlib import PurePath

from wkparse.digits import whole_number
from wkparse.models.aicb.dump import Row, Workload
from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.inference.args import BUILT_IN_CONFIGS, FAMILIES
from wkparse.models.aicb.inference.first import FAMILIES as FIRST_FAMILIES
from wkparse.models.aicb.inference.first import NEXT_CONFIGS, NEXT_FAMILY
from wkparse.models.aicb.names import parse_filename, parse_first_inference_filename
from wkparse.models.aicb.reading.content import (
    DEEPSEEK_SHAPE,
    NAME_FLAGS,
    observe,
    shapes,
    unrecorded,
)
from wkparse.models.aicb.reading.infer_text import (
    EXAMPLE,
    MOST,
    VOCABS,
    header_int,
    header_size,
    preset_settings,
    row_fields,
    row_number,
    settings,
)
from wkparse.models.aicb.revisions import LATEST, REVISIONS, Revision, side_branch
from wkparse.models.aicb.v1.infer import is_v1_header, v1_candidates


@dataclass(frozen=True, slots=True)
class Difference:
    line: int
    expected: str | None
    found: str | None


@dataclass(frozen=True, slots=True)
class Inferred:
    """What --infer reports (see `as_json`)."""

    exact: bool
    command: str
    at: tuple[str, str] | None
    first_difference: Difference | None
    #: not exact, but the command's file but for its compute times: a run of AICB with
    #: another AIOB measurement (`--comp_filepath`) than the shipped Example.txt
    other_compute_times: bool = False
    #: the same run before the training module's rename (2025-09-25), when the range spans
    #: it: (command naming the old module, (first, last) revision)
    earlier: tuple[str, tuple[str, str]] | None = None
    #: side-branch commits (`revisions.side_branch`) that write the file too, as (first, last)
    #: runs in their order; when no master revision writes it, `at` is the first of them
    side: tuple[tuple[str, str], ...] = ()
    #: settings only AICB's file name records, which this file's name did not give: the
    #: command's values for them are a guess (`content.unrecorded`)
    not_in_file: tuple[str, ...] = ()
    #: the file is the CSV of AICB's training/benchmark path (`aicb.py`), not a SimAI
    #: workload: no generator writes it, so no command is inferred
    training_output: bool = False

    @property
    def span(self) -> tuple[str, str] | None:
        """The whole range: `earlier`'s first revision to `at`'s last."""
        if self.at is None or self.earlier is None:
            return self.at
        return self.earlier[1][0], self.at[1]

    def as_json(self) -> dict[str, object]:
        diff = self.first_difference
        before = self.earlier
        return {
            "exact": self.exact,
            "command": self.command,
            "at": list(self.at) if self.at else None,
            "earlier": None if before is None else {"command": before[0], "at": list(before[1])},
            "side_branch": [list(run) for run in self.side],
            "not_in_file": list(self.not_in_file),
            "training_output": self.training_output,
            "first_difference": None
            if diff is None
            else {"line": diff.line, "expected": diff.expected, "found": diff.found},
        }


def _agreement(expected: Iterator[str], text: str) -> int:
    """How many leading characters of `text` the generated chunks reproduce (len+1: all)."""
    pos = 0
    for chunk in expected:
        if text.startswith(chunk, pos):
            pos += len(chunk)
            continue
        part = text[pos : pos + len(chunk)]
        low, high = 0, min(len(chunk), len(part))
        while low < high:  # longest common prefix of chunk and part, by halving
            mid = (low + high + 1) // 2
            if chunk[:mid] == part[:mid]:
                low = mid
            else:
                high = mid - 1
        return pos + low
    return len(text) + 1 if pos == len(text) else pos


def _training_candidates(path: str, text: str) -> Iterator[str]:
    _head, keys, names = settings(text)
    tp = header_int(keys, "model_parallel_NPU_group", 1)
    ep, pp = header_int(keys, "ep", 1), header_int(keys, "pp", 1)
    groups = text.count("\nembedding_layer\t")  # a group starts with it
    ga, world = header_int(keys, "ga", groups or 1), header_int(keys, "all_gpus", tp * pp)
    lines = text.count("\n") + 1
    if ga > lines or header_int(keys, "vpp", 0) > lines or not tp or not pp:
        return  # no AICB run writes more groups or layers than the file has lines
    dp = max(world // max(tp * pp, 1), 1)
    sp = any(n.endswith(("_column", "_row")) for n in names)  # sharded linears are listed
    moe = "mlp_moelayer" in names
    aiob = "grad_gather" in names
    name = parse_filename(PurePath(path).name)
    flags = NAME_FLAGS.search(PurePath(path).name)
    gemm, flash = (flags[1] == "True", flags[2] == "True") if flags else (moe, True)
    mbs = name.mbs if name else 1
    seq = name.seq if name else 4096
    gbs = name.gbs if name and name.gbs is not None else ga * mbs * dp
    if gbs // max(mbs * dp, 1) > lines or max(mbs, seq) > MOST:
        return  # the name asks for more micro-batches than the file has lines
    model = name.model if name else "None"
    preset = preset_settings(model)
    act = 0
    for row in ("embedding_layer", "attention_layer", "attention_column", "mlp_layer"):
        fields = row_fields(text, row)
        if fields and len(fields) > 4 and row_number(fields[4]):
            act = row_number(fields[4])
            break
    hidden = int(preset.get("hidden_size", 0)) or (act // (2 * mbs * seq) if act else 4096)
    layers_per_group = 0
    if "embedding_layer" in names:
        group = names[names.index("embedding_layer") + 1 :]
        stop = group.index("embedding_layer") if "embedding_layer" in group else len(group)
        group = group[:stop]
        per_layer = 2 if not sp else 4
        blocks = [n for n in group if n in ("attention_layer", "attention_column")]
        layers_per_group = len(blocks) or len(group) // per_layer
    stage = header_int(keys, "vpp", layers_per_group)
    layers = int(preset.get("num_layers", 0)) or stage * pp
    if preset and int(preset["num_layers"]) // pp != stage:
        layers = stage * pp
    heads = int(preset.get("num_attention_heads", 0)) or max(hidden // 128, 1)
    gpu = name.gpu_type if name else None
    # DeepSeek's MLA shape is not in the file: only its presets' runs are found
    deepseek = preset.get("frame") == "DeepSeek"
    base = ["--frame", "DeepSeek" if deepseek else "Megatron"]
    if model != "None":  # no name to give: AICB's default (None), not `--model_name None`
        base += ["--model_name", model]
    if gpu not in (None, "None"):
        base = ["--gpu_type", str(gpu), *base]
    base += [
        "--num_layers", str(layers), "--hidden_size", str(hidden),
        "--num_attention_heads", str(heads), "--world_size", str(world),
        "--tensor_model_parallel_size", str(tp), "--pipeline_model_parallel", str(pp),
        "--global_batch", str(gbs), "--micro_batch", str(mbs), "--seq_length", str(seq),
    ]  # fmt: skip
    if deepseek:
        for variable, option in DEEPSEEK_SHAPE.items():
            base += [option, preset[variable]] if variable in preset else []
    ffns: list[str | None] = [preset["ffn_hidden_size"]] if "ffn_hidden_size" in preset else []
    ffns.append(None)
    tail: list[str] = []
    if moe:
        experts, topk = _moe_shape(text, act, tp, ep, mbs, seq)
        experts = int(preset.get("num_experts", experts))
        tail += ["--moe_enable"] + (["--moe_grouped_gemm"] if gemm else [])
        tail += ["--num_experts", str(experts), "--moe_router_topk", str(topk)]
        tail += ["--expert_model_parallel_size", str(ep)]
    if sp:
        tail.append("--enable_sequence_parallel")
    if aiob:
        tail += ["--aiob_enable", "--comp_filepath", EXAMPLE]
    for ffn in ffns:
        for swiglu in (True, False):
            for vocab in VOCABS:
                for recompute in (False, True):
                    words = [*base]
                    words += ["--swiglu"] if swiglu else []
                    words += ["--use_flash_attn"] if flash else []
                    words += ["--vocab_size", str(vocab)]
                    words += ["--ffn_hidden_size", ffn] if ffn else []
                    words += [*tail]
                    words += ["--recompute_activations"] if recompute else []
                    yield " ".join(words)


class _Lazy:
    """Candidates computed as far as a search reads them: the later, costlier readings only
    where the first ones do not reproduce the file (each computed once, for every pass)."""

    def __init__(self, source: Iterator[str]) -> None:
        self._source = source
        self._read: list[str] = []

    def __iter__(self) -> Iterator[str]:
        at = 0
        while True:
            if at == len(self._read):
                following = next(self._source, None)
                if following is None:
                    return
                self._read.append(following)
            yield self._read[at]
            at += 1


def _training(path: str, text: str) -> Iterator[str]:
    """The content's readings first (`content.shapes`), then the name's."""
    seen: set[str] = set()
    read = observe(text) is not None  # the name's readings only where the content fails
    for args in chain(shapes(path, text), () if read else _training_candidates(path, text)):
        if args not in seen:
            seen.add(args)
            yield args


def _moe_shape(text: str, act: int, tp: int, ep: int, mbs: int, seq: int) -> tuple[int, int]:
    """(experts, top-k) from a MoE block's first rows (its routing and dispatch sizes; the
    dispatch's backward size, which DeepSeek does not send in FP8)."""
    at = text.find("\nmlp_moelayer\t")
    rows = text[at + 1 :].split("\n", 3)[:3] if at >= 0 else []
    fields = [r.split("\t") for r in rows]
    experts, topk = 8, 2
    try:
        first = row_number(fields[0][4])
        if len(fields) > 2 and fields[1][3].startswith("ALLTOALL_EP") and act:
            experts = first // (2 * ep * tp) if ep * tp else experts  # Megatron-Core 0.13
            topk = row_number(fields[1][7]) * tp // act or topk
        elif act:
            experts = first // (2 * mbs * seq) or experts  # the seven-row block
            topk = row_number(fields[2][7]) * tp // act or topk
    except (IndexError, ValueError):
        pass
    return max(experts, 1), max(topk, 1)


def _inference_candidates(path: str, text: str) -> Iterator[str]:
    """The inference runs the content shows (`_inference_reading`), the name's first."""
    name = parse_filename(PurePath(path).name)
    if name is not None and name.inference_phase is not None:
        for family, _model, _frame in FAMILIES:
            if family not in name.model:
                continue
            for config in BUILT_IN_CONFIGS:
                if family.lower().replace("-", "_") not in config.replace("-", "_"):
                    continue
                yield (
                    f"{name.model} {config} --phase {name.inference_phase} "
                    f"--seq_length {name.seq} --micro_batch {name.mbs} --world_size "
                    f"{name.world} --tensor_model_parallel_size {name.tp} "
                    f"--expert_model_parallel_size {name.ep} --pipeline_model_parallel {name.pp}"
                )
    yield from _inference_reading(path, text)


def _inference_reading(path: str, text: str) -> Iterator[str]:
    """Current inference runs from the content: the header's parallelism; the tokens (the
    batch when decoding, the sequence in prefill) from the first sizes, against the same
    run of one token; the other of batch and sequence from pp_comm (else 1). Every shipped
    configuration and both phases are tried; the model is the name's, else the family's."""
    from wkparse.models.aicb.generation import generate

    _head, keys, _names = settings(text)
    tp, ep, pp = (header_int(keys, k, 0) for k in ("model_parallel_NPU_group", "ep", "pp"))
    world, pp_comm = header_int(keys, "all_gpus", 0), header_size(keys, "pp_comm")
    if not (tp and ep and pp and world):
        return
    hinted = parse_filename(PurePath(path).name)
    lines = text.split("\n", 40)[2:40]
    parallel = (
        f"--world_size {world} --tensor_model_parallel_size {tp} "
        f"--expert_model_parallel_size {ep} --pipeline_model_parallel {pp}"
    )
    for family, model, _frame in FAMILIES:
        if hinted is not None and family in hinted.model:
            model = hinted.model
        for config, shape in BUILT_IN_CONFIGS.items():
            if family.lower().replace("-", "_") not in config.replace("-", "_"):
                continue
            hidden = shape.get("hidden_size")
            if not isinstance(hidden, int) or not hidden:
                continue
            for phase in ("decode", "prefill"):
                unit = f"{model} {config} --phase {phase} --seq_length 1 --micro_batch 1 {parallel}"
                try:
                    made = generate(_command(unit, LATEST, True), at=LATEST).text()
                except (AicbError, ArithmeticError, ValueError):
                    continue
                for tokens in _scales(made.split("\n", 40)[2:40], lines):
                    if not 0 < tokens <= MOST:
                        continue
                    other = pp_comm // (2 * tokens * hidden) if pp_comm else 1
                    mbs, seq = (tokens, other) if phase == "decode" else (other, tokens)
                    yield (
                        f"{model} {config} --phase {phase} --seq_length {max(seq, 1)} "
                        f"--micro_batch {max(mbs, 1)} {parallel}"
                    )


def _scales(unit: list[str], found: list[str]) -> list[int]:
    """The factors between a one-token run's sizes and the file's, likeliest first (an FP8
    size is rounded, so a ratio that is not whole is tried rounded too)."""
    whole: list[int] = []
    near: list[int] = []
    for ours, theirs in zip(unit, found, strict=False):
        a, b = ours.split("\t"), theirs.split("\t")
        for at in (4, 7, 10):
            x = row_number(a[at]) if len(a) > at else 0
            y = row_number(b[at]) if len(b) > at else 0
            if x and y:
                (whole if y % x == 0 else near).append(y // x if y % x == 0 else round(y / x))
    counted = sorted(set(whole), key=whole.count, reverse=True)
    return [*counted, *(n for n in dict.fromkeys(near) if n not in counted)][:3]


def _first_inference_candidates(path: str) -> Iterator[str]:
    """The first inference generator (2025-09-25) took every setting from its configuration:
    only runs of the shipped ones are found (the side branch's Qwen3-Next ones too); a name
    of its own narrows the families tried."""
    name = parse_first_inference_filename(PurePath(path).name)
    for family, defaults, _any in (*FIRST_FAMILIES, NEXT_FAMILY):
        if name is None or family in name.model:
            next_family = family == NEXT_FAMILY[0]
            for config in NEXT_CONFIGS:
                if family.lower().split("-")[0] in config and next_family == ("next" in config):
                    yield f"{defaults['model_name']} {config}"


def _command(args: str, rev: Revision, inference: bool) -> str:
    module = "SimAI_inference_workload_generator" if inference else rev.era.module
    return f"python -m workload_generator.{module} {args}"


def _output_key(rev: Revision) -> object:
    """What of a revision's era can change a python -m run's file: revisions alike in it write
    the same file for the same arguments (the module name aside), so one is generated."""
    era = rev.era
    return replace(
        era,
        module="",
        script_gpu_type=None,
        missing_presets=frozenset(),
        inference="",
    )


def _masked_line(r: Row) -> str:
    return (
        f"{r.name}\t-1\t-\t{r.fwd_comm}\t{r.fwd_size}\t-\t{r.ig_comm}\t{r.ig_size}\t-\t"
        f"{r.wg_comm}\t{r.wg_size}\t100\n"
    )


def _masked_chunks(work: Workload) -> Iterator[str]:
    """The file's text with every compute time written as `-` (groups cached, as `chunks`)."""
    yield f"{work.header}\n{work.row_count}\n"
    yield "".join(map(_masked_line, work.prologue))
    cache: dict[int, str] = {}
    for group in work.groups:
        text = cache.get(id(group))
        if text is None:
            text = cache[id(group)] = "".join(map(_masked_line, group))
        yield text
    yield "".join(map(_masked_line, work.epilogue))


def _masked(text: str) -> str:
    """A file's text with the compute times of its 12-field rows written as `-`."""
    lines = text.split("\n")
    for i in range(2, len(lines)):
        fields = lines[i].split("\t")
        if len(fields) == 12:
            fields[2] = fields[5] = fields[8] = "-"
            lines[i] = "\t".join(fields)
    return "\n".join(lines)


def _scores(
    args: str, text: str, revs: list[Revision], inference: bool, masked: bool = False
) -> dict[Revision, int]:
    """How far the file agrees with each revision's output for `args` (absent: AICB fails);
    `masked`: `text` is `_masked` and compute times are not compared."""
    from wkparse.models.aicb.generation import generate

    words = args.split()
    done: dict[object, int | None] = {}
    scores: dict[Revision, int] = {}
    for rev in revs:
        key = rev.era.inference if inference else _output_key(rev)
        if key not in done:
            module = "SimAI_inference_workload_generator" if inference else rev.era.module
            argv = ["python", "-m", f"workload_generator.{module}", *words]
            try:
                made = generate(argv, at=rev)
            except (AicbError, ArithmeticError, ValueError):
                done[key] = None
            else:
                chunks = _masked_chunks(made.workload) if masked else made.workload.chunks()
                done[key] = _agreement(chunks, text)
        score = done[key]
        if score is not None:
            scores[rev] = score
    return scores


#: the first line of the CSV AICB's training/benchmark path writes (`aicb.py`, run by
#: `scripts/megatron_gpt.sh`: a `LogItem`'s fields, in `results/mocked_workload/*_workload.csv`
#: and `results/comm_logs/*_log.csv`, every AICB revision); it never writes a SimAI file
TRAINING_CSV = "comm_type,comm_group,comm_group_size,msg_size,stage"


def infer(path: str, text: str) -> Inferred:
    """The command and revision range that reproduce `text` (the file at `path`)."""
    if text.lstrip("\ufeff").startswith(TRAINING_CSV):
        return Inferred(False, "", None, None, training_output=True)
    found = _infer(path, text)
    if not found.command:
        return found
    head = text.split("\n", 1)[0]
    first = is_v1_header(settings(head)[1])
    return replace(found, not_in_file=unrecorded(path, "mode: 1" in head, first))


#: the training settings a nearest command must have to be offered (at least these values)
_PLAUSIBLE = {"--num_layers": 1, "--global_batch": 1, "--seq_length": 2, "--hidden_size": 2}


def _plausible(args: str) -> bool:
    """Whether a training command is one a user could have run: at least a layer, a sample,
    two tokens and a hidden width of two (a search over a hostile file can end on less)."""
    words = args.split()
    for option, least in _PLAUSIBLE.items():
        if option in words[:-1]:
            value = whole_number(words[words.index(option) + 1])
            if value is None or value < least:
                return False
    return True


def _infer(path: str, text: str) -> Inferred:
    from wkparse.models.aicb.generation import generate

    head = text.split("\n", 1)[0]
    inference = "mode: 1" in head
    first = not inference and is_v1_header(settings(head)[1])
    candidates: Iterable[str]
    if inference:
        candidates = [*_first_inference_candidates(path), *_inference_candidates(path, text)]
        everywhere = [r for r in REVISIONS if r.era.inference]
    else:
        found = v1_candidates(path, text) if first else _training(path, text)
        candidates = _Lazy(found)
        everywhere = [r for r in REVISIONS if r.era.first_generator == first]
    if inference and parse_first_inference_filename(PurePath(path).name) is not None:
        # the first generator's own name (no phase): its runs first, the side branch's too
        firsts = list(_first_inference_candidates(path))
        score, args, revs = _search(firsts, text, everywhere, inference)
        if score <= len(text):
            for candidate in firsts:
                side = _side_runs(candidate, text, [], inference)
                if side:
                    command = _command(candidate, _side_rev(side[0][0]), True)
                    return Inferred(True, command, side[0], None, side=side)
    score, args, revs = _search(candidates, text, everywhere, inference)
    if inference and score <= len(text):  # maybe a run only the side branch writes
        for candidate in candidates:
            side = _side_runs(candidate, text, [], inference)
            if side:
                command = _command(candidate, _side_rev(side[0][0]), True)
                return Inferred(True, command, side[0], None, side=side)
    if not inference and 0 <= score <= len(text) and not _plausible(args):
        plausible = [c for c in candidates if _plausible(c)]  # a nearest one, or none
        score, args, revs = _search(plausible, text, everywhere, inference)
    if score < 0:
        return Inferred(False, "", None, Difference(1, None, head))
    run, earlier = _by_module(_latest_run(revs), args, inference)
    command = _command(args, run[0], inference)
    at = (run[0].short, run[-1].short)
    if score > len(text):
        side = _side_runs(args, text, revs, inference)
        return Inferred(True, command, at, None, earlier=earlier, side=side)
    made = generate(command, at=run[0])
    difference = _first_difference(made.text(), text, score)
    if "\ngrad_gather\t" in text and not inference:  # measured times: maybe another AIOB file
        masked = _masked(text)
        other, args2, revs2 = _search(candidates, masked, everywhere, inference, masked=True)
        if other > len(masked):
            run, before = _by_module(_latest_run(revs2), args2, inference)
            command = _command(args2, run[0], inference)
            made = generate(command, at=run[0])
            score = _agreement(made.workload.chunks(), text)
            difference = _first_difference(made.text(), text, score)
            at = (run[0].short, run[-1].short)
            return Inferred(False, command, at, difference, True, before)
    return Inferred(False, command, at, difference, earlier=earlier)


_SIDE = side_branch()


def _side_rev(short: str) -> Revision:
    return next(s for s in _SIDE if s.short == short)


def _side_runs(
    args: str, text: str, exact: list[Revision], inference: bool
) -> tuple[tuple[str, str], ...]:
    """The side-branch commits that write `text` for `args` too, as (first, last) runs: those
    whose era a revision of `exact` shares, and those generated and found exact (only the
    side branch's own inference generators are generated: one run per generator)."""

    def key(rev: Revision) -> object:
        return rev.era.inference if inference else _output_key(rev)

    known = {key(r) for r in exact}
    # a training side commit has a master revision's era: only inference ones can differ
    rest = [s for s in _SIDE if inference and s.era.inference and key(s) not in known]
    scores = _scores(args, text, rest, inference) if rest else {}
    runs: list[tuple[str, str]] = []
    previous = False
    for side in _SIDE:
        writes = key(side) in known or scores.get(side, -1) > len(text)
        if writes and previous:
            runs[-1] = (runs[-1][0], side.short)
        elif writes:
            runs.append((side.short, side.short))
        previous = writes
    return tuple(runs)


def _by_module(
    run: list[Revision], args: str, inference: bool
) -> tuple[list[Revision], tuple[str, tuple[str, str]] | None]:
    """The part of `run` whose training module is the last revision's (its command names
    it), and the part before the module's rename as (its command, its range)."""
    last = run[-1].era.module
    split = next(i for i, r in enumerate(run) if r.era.module == last)
    if split == 0 or inference:
        return run, None
    before = run[:split]
    command = _command(args, before[0], inference)
    return run[split:], (command, (before[0].short, before[-1].short))


def _search(
    candidates: Iterable[str],
    text: str,
    revs: list[Revision],
    inference: bool,
    masked: bool = False,
) -> tuple[int, str, list[Revision]]:
    """(agreement, arguments, revisions) of the candidate that agrees with `text` longest."""
    best: tuple[int, str, list[Revision]] = (-1, "", [])
    first_line = text.find("\n") + 1
    for args in candidates:
        scores = _scores(args, text, revs, inference, masked)
        if not scores:
            continue
        # the header does not depend on the settings tried below: later candidates are
        # generated only where this one's header already agrees
        revs = [r for r in revs if scores.get(r, -1) >= first_line] or revs
        top = max(scores.values())
        if top > best[0]:
            best = (top, args, [r for r in REVISIONS if scores.get(r) == top])
        if top > len(text):
            break
    return best


def _latest_run(revs: list[Revision]) -> list[Revision]:
    """The last unbroken run of modelled revisions in `revs`."""
    order = list(REVISIONS)
    run = [revs[-1]]
    for rev in reversed(revs[:-1]):
        if order.index(rev) + 1 != order.index(run[0]):
            break
        run.insert(0, rev)
    return run


def _first_difference(expected: str, found: str, agreed: int) -> Difference:
    """The first line where `found` departs from `expected`, which agree on `agreed` chars."""
    start = found.rfind("\n", 0, agreed) + 1
    line = found.count("\n", 0, start) + 1

    def at(text: str) -> str | None:
        if start >= len(text):
            return None
        end = text.find("\n", start)
        return text[start : end if end >= 0 else len(text)]

    return Difference(line, at(expected), at(found))


__all__ = ["LATEST", "Difference", "Inferred", "infer"]
