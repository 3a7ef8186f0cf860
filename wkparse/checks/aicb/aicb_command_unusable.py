"""WK601 aicb-command-unusable: the AICB command lint was given cannot be reproduced; why and
examples in rules/WK601.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

from wkparse.checks import Context, file_check
from wkparse.checks.aicb.expected import START, UNUSABLE, generated
from wkparse.diagnostics import Diagnostic
from wkparse.i18n import _


@file_check(UNUSABLE)
def aicb_command_unusable(ctx: Context) -> Iterator[Diagnostic]:
    if ctx.aicb_command is None:
        return
    from wkparse.models.aicb import AicbError

    made = generated(ctx.aicb_command)
    if isinstance(made, AicbError):
        message = _("the AICB command cannot be reproduced: {error}").format(error=made)
        yield Diagnostic(UNUSABLE, message, START)
