"""The row fields the row rules point at, and how a message names a phase's column."""

from __future__ import annotations

from wkparse.ast import PHASES, ROW_FIELDS
from wkparse.i18n import N_

#: the three comm type fields: what the comm type rules read
COMM_FIELDS = tuple(f"{phase}_comm" for phase in PHASES)
COMM_FIELD = {phase: ROW_FIELDS.index(f"{phase}_comm") for phase in PHASES}
SIZE_FIELD = {phase: ROW_FIELDS.index(f"{phase}_size") for phase in PHASES}
RESERVED = ROW_FIELDS.index("reserved")
#: "in the ... column", translated where used
COLUMN = {
    "fwd": N_("in the forward column"),
    "ig": N_("in the input-gradient column"),
    "wg": N_("in the weight-gradient column"),
}
#: SimAI reads the reserved field into a signed 32-bit int
INT32 = (-(2**31), 2**31 - 1)
