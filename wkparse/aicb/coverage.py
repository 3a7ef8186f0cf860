"""Every option AICB's entry points accept, and what wkparse does with it (`--options`).

Built from the option tables the model parses with, so the list cannot drift from the code.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from wkparse.aicb import inference_args, scripts, training_args
from wkparse.aicb.options import Option


def _generator(title: str, options: tuple[Option, ...]) -> Iterator[str]:
    yield title
    width = max(len(o.flag) for o in options)
    for option in options:
        yield f"  {option.flag:<{width}}  {option.status()}"
    yield f"  {'-h, --help':<{width}}  refused: prints the help, writes no file"


def _script(title: str, valued: Mapping[str, str], flags: Mapping[str, object]) -> Iterator[str]:
    yield title
    by_target: dict[str, list[str]] = {}
    for word, variable in valued.items():
        by_target.setdefault(variable, []).append(word)
    for word, (variable, _) in flags.items():  # type: ignore[misc]
        by_target.setdefault(variable, []).append(word)
    spellings = [", ".join(words) for words in by_target.values()]
    width = max(len(s) for s in spellings)
    for words in spellings:
        yield f"  {words:<{width}}  modelled (passed on as the script passes it)"
    yield f"  {'-h, --help':<{width}}  refused: prints the usage, writes no file"
    yield f"  {'anything else':<{width}}  the script stops reading options there (wkparse says so)"


def option_list() -> Iterator[str]:
    """The lines `wkparse aicb --options` prints."""
    yield from _script(
        f"sh {scripts.TRAINING_SCRIPT} (then its -m preset, then the training generator)",
        scripts.TRAINING_VALUED,
        scripts.TRAINING_FLAGS,
    )
    yield ""
    yield from _generator(
        "python -m workload_generator.SimAI_training_workload_generator",
        training_args.OPTIONS,
    )
    yield ""
    yield from _script(
        f"sh {scripts.INFERENCE_SCRIPT} (then the inference generator)",
        scripts.INFERENCE_VALUED,
        scripts.INFERENCE_FLAGS,
    )
    yield ""
    yield from _generator(
        "python -m workload_generator.SimAI_inference_workload_generator MODEL [CONFIG]",
        inference_args.OPTIONS,
    )
