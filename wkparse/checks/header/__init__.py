"""Header checks (WK201-WK222): what SimAI's reader makes of line 1's `key: value` pairs.

SimAI splits line 1 on whitespace and, for every token that is a key it knows (`ep:`, ...),
hands the *next token*, whatever it is, to `std::stoi`; a key given twice is read twice and the
last one wins. `wkparse.models.simai` models that once per header; each check below reports one way
the
result differs from what the file says. Transformer policies are read for
`model_parallel_NPU_group ep pp vpp ga all_gpus` (and `checkpoints` under
HYBRID_TRANSFORMER_FWD_IN_BCKWD), the DLRM policies for `DLRM_LAST_BOTTOM_LAYER`, and every
policy for `pp_comm`; other policies need no key, so these checks stay quiet on them.

Each rule is one module named after its catalog page (`missing_key` is WK201 missing-key);
`reading` holds what they share. Importing this package registers them all.
"""

from wkparse.checks.header import (  # noqa: F401
    all_gpus_not_divisible,
    all_gpus_unset,
    checkpoint_index,
    checkpoint_list,
    conflicting_duplicate_key,
    dlrm_bottom_layer_bare,
    dlrm_bottom_layer_missing,
    dp_not_divisible_by_ep,
    float_value,
    inference_mode,
    key_without_colon,
    key_without_value,
    missing_key,
    missing_pp_comm,
    positional_header,
    pp_comm_without_colon,
    pp_comm_without_pipeline,
    pp_comm_zero_with_pipeline,
    repeated_key,
    unknown_key,
    value_misread,
    value_overflow,
    zero_or_negative_size,
)
from wkparse.checks.header.reading import suggest_key
from wkparse.models.simai.tokens import reading

__all__ = ["reading", "suggest_key"]
