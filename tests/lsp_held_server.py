"""`wkparse server` whose work on one file waits while hold files exist, so that a test can ask
its questions while that work surely runs, however fast or slow the machine is.

    python tests/lsp_held_server.py FILE HOLD [PUBLISHING]

While HOLD exists, lints of FILE wait before they start. While PUBLISHING exists, each
publishDiagnostics of FILE, once made on the lint thread, waits there before it goes to the
event loop, and the file PUBLISHING.reached says it does. The server is wkparse's own; only
what runs on its lint thread is wrapped.
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


def wait(hold: Path | None) -> None:
    deadline = time.monotonic() + LONGEST
    while hold is not None and hold.exists() and time.monotonic() < deadline:
        time.sleep(0.01)


def main() -> None:
    held, hold = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    publishing = Path(sys.argv[3]) if len(sys.argv) > 3 else None

    class Held(Analysis):
        def __init__(self, text: Version, path: Path | None, version: int | None = None) -> None:
            if path is not None and path.resolve() == held:
                wait(hold)
            super().__init__(text, path, version)

    publication = server.WorkloadServer.publication

    def held_publication(ls: server.WorkloadServer, uri: str, analysis: Analysis) -> bytes:
        message = publication(ls, uri, analysis)
        mine = analysis.path is not None and analysis.path.resolve() == held
        if mine and publishing is not None and publishing.exists():
            publishing.with_name(publishing.name + ".reached").touch()
            wait(publishing)
        return message

    server.Analysis = Held
    server.WorkloadServer.publication = held_publication  # type: ignore[method-assign]
    server.serve()


if __name__ == "__main__":
    main()
