"""`wkparse server` whose lints of one file wait while a hold file exists, so that a test can
ask its questions while that lint is surely running, however fast or slow the machine is.

    python tests/lsp_held_server.py FILE HOLD

The server is wkparse's own; only the analysis it makes on its lint thread is wrapped.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from wkparse.lsp import server
from wkparse.lsp.analysis import Analysis
from wkparse.lsp.text import Version

#: how long a lint is held at most (a test that forgets to let go fails, it does not hang)
LONGEST = 600.0


def main() -> None:
    held, hold = Path(sys.argv[1]).resolve(), Path(sys.argv[2])

    class Held(Analysis):
        def __init__(self, text: Version, path: Path | None, version: int | None = None) -> None:
            deadline = time.monotonic() + LONGEST
            mine = path is not None and path.resolve() == held
            while mine and hold.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            super().__init__(text, path, version)

    server.Analysis = Held
    server.serve()


if __name__ == "__main__":
    main()
