"""Import every check module so that each registers itself."""

from wkparse.checks import (  # noqa: F401
    aicb,
    consistency,
    filename,
    header,
    ns3,
    rows,
    structure,
)
