"""Body-consistency rules (WK3xx): the header's `vpp`, `ga` and `pp_comm` against the rows.

The header declares how the body is built (`ga` micro-batch groups of `vpp` transformer layers,
stage-to-stage traffic `pp_comm`); `wkparse.body` counts what the rows really hold. SimAI uses
the declared numbers only in its pipeline model (bubble = non-embedding time * (pp - 1) /
(ga * vpp), exposed PP time from `pp_comm`), so a disagreement changes the simulated time
without any warning. These rules run only on transformer training files that carry the keys:
inference files (`mode: 1`), MICRO and the ASTRA-sim 1.0 policies have no groups to count.

Each rule is one module named after its catalog page; `declared` holds what they share.
Lint imports a rule's module when it runs the rule (`wkparse.checks.load`).
"""
