"""Import every rule area so that each rule registers itself."""

from wkparse.checks import (  # noqa: F401
    aicb,
    analytical,
    consistency,
    filename,
    header,
    ns3,
    rows,
    structure,
)
