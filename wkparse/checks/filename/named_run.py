"""What the file-name rules share: the AICB name read from the path, the guard that the header
and the name both describe a training run, and where a finding points.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

from wkparse.ast import Header, Span
from wkparse.checks import Context, FileCheck, file_check
from wkparse.checks.training import training_header, value_span
from wkparse.diagnostics import Diagnostic
from wkparse.models.aicb import AicbName, parse_filename
from wkparse.models.simai.tokens import header_value


def file_name(ctx: Context) -> AicbName | None:
    """The run the file's name records, when it follows AICB's scheme."""
    return parse_filename(ctx.path) if ctx.path else None


def _training(ctx: Context) -> tuple[Header, AicbName] | None:
    """Header and name when both describe a training run (inference names carry no gbs)."""
    header, name = training_header(ctx), file_name(ctx)
    if header is None or name is None or name.inference_phase is not None:
        return None
    return header, name


TrainingCheck = Callable[[Context, Header, AicbName], Iterator[Diagnostic]]


def training_check(code: str) -> Callable[[TrainingCheck], FileCheck]:
    """Register a check that runs only when the header and the name describe a training run.

    Most file-name checks compare a training header with a training name; the guard lives
    here once and the check receives both.
    """

    def register(fn: TrainingCheck) -> FileCheck:
        @functools.wraps(fn)
        def check(ctx: Context) -> Iterator[Diagnostic]:
            found = _training(ctx)
            if found is not None:
                yield from fn(ctx, *found)

        return file_check(code)(check)

    return register


def differs(header: Header, key: str, expected: int | None) -> tuple[int, Span] | None:
    """The header's value for `key` and where it stands, when it is not what the name gives.

    None when the name gives nothing to compare (`expected` None) or the header has no
    readable value for `key`: other rules speak of a missing or unreadable key.
    """
    declared, span = header_value(header, key), value_span(header, key)
    if expected is None or declared is None or span is None or declared == expected:
        return None
    return declared, span


def first_span(header: Header, *keys: str) -> Span:
    """The first of `keys` the header has a value for, else the policy word."""
    for key in keys:
        span = value_span(header, key)
        if span is not None:
            return span
    return header.policy_span
