"""WK605 aicb-name-differs: the file name records another run than the AICB command; why and
examples in rules/WK605.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.aicb.expected import NAME, START, expected
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _

_NAME_FIELDS = ("model", "world", "tp", "pp", "ep", "gbs", "mbs", "seq", "moe", "inference_phase")


@file_check(NAME)
def aicb_name_differs(ctx: Context) -> Iterator[Diagnostic]:
    made = expected(ctx)
    if made is None or ctx.path is None:
        return
    from wkparse.models.aicb import parse_filename

    have, want = parse_filename(ctx.path), parse_filename(made.filename)
    if have is None or want is None:
        return
    differ = [
        f"{name} {getattr(have, name)} (AICB: {getattr(want, name)})"
        for name in _NAME_FIELDS
        if getattr(have, name) != getattr(want, name)
        and not (name == "model" and have.model.replace("x", "*") == want.model.replace("x", "*"))
    ]
    if differ:
        yield Diagnostic(
            NAME,
            _("the file name records another run: {fields}; AICB names it {name}").format(
                fields=", ".join(differ), name=made.filename
            ),
            START,
        )
