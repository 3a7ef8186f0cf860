"""A real training run against the workload simulated for it: where a thread shows both the
Megatron-LM command it trained with and the AICB command that wrote its workload, the model
settings in which the two differ (the AICB side as wkparse's AICB model ran the command), so a
"simulated time differs from the real one" is first checked against "is it the same run?"."""

from __future__ import annotations

import re
from dataclasses import dataclass

from wkparse.models.aicb.formulas import ga as micro_batches
from wkparse.threads import evidence
from wkparse.threads.phrases import say
from wkparse.threads.result import Answer, Triage
from wkparse.threads.sources import Rebuild

#: a Megatron-LM training launch (`pretrain_gpt.py`, `pretrain_bert.py` ...)
MEGATRON = re.compile(r"\bpretrain_\w+\.py\b")
_FLAG = re.compile(r"(?<!\S)--([a-z][a-z0-9_-]*)(?:[ =](?!--)(\S+))?")
#: Megatron-LM's dtype flags
_DTYPES = (("fp16", "float16"), ("bf16", "bfloat16"))


@dataclass(frozen=True)
class Megatron:
    line: int
    flags: dict[str, str]

    def number(self, name: str) -> int | None:
        value = self.flags.get(name, "")
        return int(value) if value.isdigit() else None

    def has(self, name: str) -> bool:
        return name in self.flags


def megatron_command(t: Triage) -> Megatron | None:
    """The first Megatron-LM launch the thread shows, its `--flags` (a flag alone: "")."""
    lines = [(n, x) for n, x in t.found.prose]
    for i, (number, text) in enumerate(lines):
        if not MEGATRON.search(text):
            continue
        whole = text
        j = i
        while whole.rstrip().endswith("\\") and j + 1 < len(lines):
            j += 1
            whole = whole.rstrip()[:-1] + " " + lines[j][1]
        flags = {m.group(1): m.group(2) or "" for m in _FLAG.finditer(whole)}
        return Megatron(number, flags)
    return None


def compare(t: Triage, rebuilds: list[Rebuild]) -> Answer | None:
    """The settings in which the thread's training command and its AICB command differ; None
    where the thread shows no pair, or they agree on every setting both say."""
    from wkparse.models.aicb.training.args import TrainingArgs

    real = megatron_command(t)
    made = [r for r in rebuilds if isinstance(r.args, TrainingArgs)]
    if real is None or not made or made[0].artefact.command is None:
        return None
    rb = made[0]
    args = rb.args
    assert isinstance(args, TrainingArgs) and rb.artefact.command is not None
    words = list(rb.artefact.command.words)
    lang = t.language
    diffs: list[str] = []

    def differ(what: str, theirs: object, aicb: object) -> None:
        if theirs is not None and theirs != aicb:
            diffs.append(say("train-diff", lang, what=say(what, lang), real=theirs, aicb=aicb))

    differ("train-heads", real.number("num-attention-heads"), args.num_attention_heads)
    differ("train-hidden", real.number("hidden-size"), args.hidden_size)
    pp = real.number("pipeline-model-parallel-size") or 1
    layers = real.number("num-layers")
    differ("train-layers", layers // pp if layers else None, args.num_layers)
    differ("train-seq", real.number("seq-length"), args.seq_length)
    differ("train-tp", real.number("tensor-model-parallel-size"), args.tp)
    differ("train-ffn", real.number("ffn-hidden-size"), args.ffn_hidden_size)
    mbs = real.number("micro-batch-size")
    same_batch = ""
    if mbs is not None and mbs != args.micro_batch:
        gpus = real.number("nproc_per_node") or real.number("nproc-per-node")
        nodes = real.number("nnodes") or 1
        tp = real.number("tensor-model-parallel-size") or 1
        dp = gpus * nodes // (tp * pp) if gpus else None
        gbs = real.number("global-batch-size") or (mbs * dp if dp else None)
        theirs = micro_batches(gbs, mbs, dp) if gbs and dp else None
        if gbs and theirs is not None:
            # the AICB options that give the timed run's batch
            same_batch = say("train-same-batch", lang, mbs=mbs, gbs=gbs, ga=theirs)
        diffs.append(
            say(
                "train-mbs",
                lang,
                real=mbs,
                aicb=args.micro_batch,
                ga=args.ga,
                real_ga=theirs if theirs is not None else "?",
            )
        )
    for flag, aicb_flag, what in (
        ("swiglu", "--swiglu", "train-swiglu"),
        ("use-flash-attn", "--use_flash_attn", "train-flash"),
    ):
        real_on, aicb_on = real.has(flag), aicb_flag in words
        if real_on != aicb_on:
            diffs.append(say(what + ("-aicb" if aicb_on else "-real"), lang))
    real_recompute = real.has("recompute-activations") or real.has("recompute-granularity")
    if real_recompute != args.recompute:
        diffs.append(say("train-recompute-" + ("real" if real_recompute else "aicb"), lang))
    real_dtype = next((d for f, d in _DTYPES if real.has(f)), "float32")
    aicb_dtype = _option(words, "--dtype") or "bfloat16"
    if real_dtype != aicb_dtype:
        diffs.append(say("train-dtype", lang, real=real_dtype, aicb=aicb_dtype))
    if not diffs:
        return None
    text = say("a-train-differs", lang, diffs=say("list-sep", lang).join(diffs)) + same_batch
    if "--aiob_enable" in words and _option(words, "--comp_filepath") is None:
        # the compute times are AIOB's, measured where AICB ran, for AICB's model and batch
        text += say("train-aiob-measured", lang, mbs=args.micro_batch, dtype=aicb_dtype)
    ev = [
        evidence.line_of(real.line, lang),
        evidence.line_of(rb.artefact.line, lang),
        say("evidence-aicb", lang, revision=rb.source.revision if rb.source else ""),
    ]
    return Answer(say("q-train", lang), text, ev)


def _option(words: list[str], name: str) -> str | None:
    for i, w in enumerate(words):
        if w == name and i + 1 < len(words):
            return words[i + 1]
        if w.startswith(name + "="):
            return w.split("=", 1)[1]
    return None
