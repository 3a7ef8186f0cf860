"""What the WK7xx checks share: the header as SimAI-Analytical holds it, asked once per file,
and the backend model's answer for one collective under wkparse's stated option set."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from wkparse.checks import Context
from wkparse.checks.header.reading import TP, header_reading
from wkparse.cpp import c_div, scaled
from wkparse.models.simai.parallel import data_parallel
from wkparse.models.simai.tables import FWD_IN_BCKWD, TRANSFORMER_POLICIES, GroupType
from wkparse.record import record

if TYPE_CHECKING:
    from wkparse.models.simai.comm import Network


@record(slots=False)
class Facts:
    """The header values SimAI-Analytical computes with (unset keys read 0)."""

    tp: int
    ep: int
    dp: int
    raise_small: bool
    gpus: int

    @cached_property
    def network(self) -> Network:
        """The backend's collective model, made when a rule first times a collective (most
        files need none: a lint of a small file does not import it)."""
        from wkparse.models.simai.comm import Network
        from wkparse.models.simai.options import stated

        return Network(stated("workload.txt", max(self.gpus, 1)), self.tp, self.ep)


def facts(ctx: Context) -> Facts | None:
    """None where SimAI-Analytical never reaches the report (not a transformer policy, TP or
    PP of 0: other rules say so)."""
    cached = ctx.__dict__.get("_analytical_facts", False)
    if cached is not False:
        return cached  # type: ignore[no-any-return]
    got: Facts | None = None
    r = header_reading(ctx, TRANSFORMER_POLICIES)
    if r is not None:
        tp, pp, ep = (r.value(k) or 0 for k in (TP, "pp", "ep"))
        gpus = r.value("all_gpus") or 0
        if tp > 0 and pp > 0:
            raise_small = r.header.policy == FWD_IN_BCKWD
            got = Facts(tp, ep, data_parallel(gpus, tp, pp) or 0, raise_small, gpus)
    ctx.__dict__["_analytical_facts"] = got
    return got


def simulated_size(f: Facts, phase: str, size: int) -> int:
    """The bytes SimAI-Analytical times: through its float scale, and a forward size of
    1-4095 B raised to 4096 under HYBRID_TRANSFORMER_FWD_IN_BCKWD."""
    s = scaled(size)
    if phase == "fwd" and f.raise_small and 0 < s < 4096:
        s = 4096
    return s


def ranks(f: Facts, phase: str, group: GroupType) -> int:
    if phase == "wg":
        return c_div(f.dp, f.ep) if group is GroupType.DP_EP and f.ep else f.dp
    return f.ep if group is GroupType.EP else f.tp
