"""Structure rules (WK1xx): the file as SimAI's reader takes it in, before any value means
anything: encoding, line ends, the policy word, the count line and each row's fields.

The parser's own codes (WK100-WK104, WK110-WK121) cover what the grammar rejects; the parser
finds them as it reads and their rules hand them on. WK105-WK107 cover what parses fine but
still stops or misleads SimAI's reader. Each rule is one module named after its catalog page;
importing this package registers them all.
"""

from wkparse.checks.structure import (  # noqa: F401
    blank_policy_line,
    count_mismatch,
    count_not_integer,
    count_trailing_junk,
    cr_line_ends,
    empty_file,
    extra_field,
    file_too_large,
    fractional_number,
    invalid_utf8,
    line_too_long,
    missing_count,
    missing_field,
    negative_number,
    not_text,
    number_for_comm_type,
    unknown_policy,
    utf8_bom,
    utf16_file,
    word_for_number,
)
from wkparse.checks.structure.unknown_policy import suggest_policy
from wkparse.models.simai.tables import POLICIES

__all__ = ["POLICIES", "suggest_policy"]
