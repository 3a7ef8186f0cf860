"""Moved to `wkparse.cpp` (the parser reads line 2 with the same `stoi`); kept only until the
checks being split into one module per rule import it from there."""

from wkparse.cpp import INT_MAX, U32, stoi

__all__ = ["INT_MAX", "U32", "stoi"]
