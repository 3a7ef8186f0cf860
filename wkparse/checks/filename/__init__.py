"""File-name rules (WK5xx): an AICB file name records the run that wrote the file.

AICB names its output `...-world_size{W}-tp{T}-pp{P}-ep{E}-gbs{G}-mbs{M}-seq{S}-...txt` from the
configuration that really ran (`wkparse.models.aicb.parse_filename`), so a header that disagrees
with
its name was edited, or the file renamed; and the name lets lint redo the generator's floored
arithmetic (ga, layers per stage) to show what it silently dropped. Names that do not follow
the scheme are not checked. The file has no position for its name, so each diagnostic points
at the header value (or row) the name is compared with.

Each rule is one module named after its catalog page; `named_run` holds what they share.
Lint imports a rule's module when it runs the rule (`wkparse.checks.load`).
"""
