"""`wkparse server`: the language server over stdio, when pygls is installed (exit 2 when not)."""

from __future__ import annotations

import sys

INSTALL = "pip install 'wkparse[lsp]'"


def run() -> int:
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        sys.stderr.write(
            f"error: wkparse server needs pygls, the optional 'lsp' extra: {INSTALL}\n"
        )
        return 2
    from wkparse.lsp.server import serve

    serve()
    return 0
