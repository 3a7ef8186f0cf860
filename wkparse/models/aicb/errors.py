"""The one error the AICB model raises: a command AICB would reject, or one we cannot model."""

from __future__ import annotations


class AicbError(Exception):
    """A command that writes no file: AICB stops on it, or wkparse cannot reproduce it.

    The message is one line naming the option or the check, as a user would want to read it.
    """


class MeasuredOnGpu(AicbError):
    """`--aiob_enable` without `--comp_filepath`: AICB times the kernels on the user's GPU.
    No file can be reproduced (its compute times are that GPU's), though its rows, sizes and
    ga do not depend on those times: a caller that wants only the layout may stand AICB's
    shipped times in, saying so."""
