"""Row rules (WK4xx): comm types SimAI does not know, sizes that disagree with their type,
numbers SimAI cannot read, and the reserved field.

SimAI picks a collective by the type's prefix (`ALLREDUCE...`) and a group by its exact
suffix; any other spelling silently costs nothing. The rules that point at something to fix
on each line are row checks (run once per distinct row value, reported on every line carrying
it). Zero-size collectives and sizes next to NONE are things real AICB output does thousands
of times per file, so they are reported once per pattern with a count, not once per line.

Each rule is one module named after its catalog page; `fields`, `classify` and `patterns`
hold what they share. Lint imports a rule's module when it runs the rule
(`wkparse.checks.load`).
"""

from wkparse.checks.rows.classify import classify

__all__ = ["classify"]
