"""Structure rules (WK1xx): the file as SimAI's reader takes it in, before any value means
anything: encoding, line ends, the policy word, the count line and each row's fields.

The parser's own codes (WK100-WK104, WK110-WK121) cover what the grammar rejects; the parser
finds them as it reads and their rules hand them on. WK105-WK107 cover what parses fine but
still stops or misleads SimAI's reader. Each rule is one module named after its catalog page;
lint imports a rule's module when it runs the rule (`wkparse.checks.load`).
"""

from wkparse.checks.structure.unknown_policy import suggest_policy
from wkparse.models.simai.tables import POLICIES

__all__ = ["POLICIES", "suggest_policy"]
