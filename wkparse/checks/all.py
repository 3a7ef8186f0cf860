"""Import every check module so that each registers itself."""

from wkparse.checks import (  # noqa: F401
    aicb,
    analytical,
    consistency,
    filename,
    header,
    rows,
    structure,
)
