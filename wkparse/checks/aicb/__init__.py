"""AICB rules. WK6xx: where a file departs from what AICB writes for the command that made it;
WK901 (opt-in): where what AICB writes departs from what the training it describes runs.

The WK6xx rules run only when lint is told the command (`--aicb-command`, or `aicb-command` in the
configuration, per file by glob). `wkparse.models.aicb` regenerates the file AICB writes for it; the
rules compare header, count line and rows with it, value by value, and report each departure
at its first line. A row departure that repeats across micro-batch groups is one finding that
says in how many groups it occurs. An original AICB file gives no finding at all.

Each rule is one module named after its catalog page; `expected` holds what they share.
Lint imports a rule's module when it runs the rule (`wkparse.checks.load`).
"""
