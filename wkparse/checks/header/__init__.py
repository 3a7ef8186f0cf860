"""Header checks (WK201-WK222): what SimAI's reader makes of line 1's `key: value` pairs.

SimAI splits line 1 on whitespace and, for every token that is a key it knows (`ep:`, ...),
hands the *next token*, whatever it is, to `std::stoi`; a key given twice is read twice and the
last one wins. `wkparse.models.simai` models that once per header; each check below reports
one way the result differs from what the file says. Transformer policies are read for
`model_parallel_NPU_group ep pp vpp ga all_gpus` (and `checkpoints` under
HYBRID_TRANSFORMER_FWD_IN_BCKWD), the DLRM policies for `DLRM_LAST_BOTTOM_LAYER`, and every
policy for `pp_comm`; other policies need no key, so these checks stay quiet on them.

Each rule is one module named after its catalog page (`missing_key` is WK201 missing-key);
`reading` holds what they share. Lint imports a rule's module when it runs the rule
(`wkparse.checks.load`).
"""

from wkparse.checks.header.reading import suggest_key
from wkparse.models.simai.tokens import reading

__all__ = ["reading", "suggest_key"]
