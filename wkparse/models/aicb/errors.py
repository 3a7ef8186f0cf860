"""The one error the AICB model raises: a command AICB would reject, or one we cannot model."""

from __future__ import annotations


class AicbError(Exception):
    """A command that writes no file: AICB stops on it, or wkparse cannot reproduce it.

    The message is one line naming the option or the check, as a user would want to read it.
    """
