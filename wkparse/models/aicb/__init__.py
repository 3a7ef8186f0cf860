"""A model of AICB's workload generators: what AICB would write for a command.

AICB (aliyun/aicb, the 2025-12 generator, commit 23eec3c) writes SimAI workload files from a
command line. This package reproduces those files without AICB, torch or a GPU, one concern a
module:

- `command`: a command line as a user typed it -> which generator runs with which arguments;
- `scripts`: AICB's two shell scripts, their presets and defaults applied as the scripts do;
- `options`: the generators' argument parsers (Python's argparse rules: prefixes, `=`, ints);
- `training_args`, `inference_args`: each generator's options, defaults and checks;
- `presets`: the model presets of the training script;
- `layers`: the layer list AICB's mocked models give, with parameter counts;
- `aiob`: measured compute times (AIOB files, and the shipped `Example.txt` values);
- `training`, `inference`: the rows each generator writes;
- `dump`: the text of a file; `names`: AICB's file names, both ways;
- `generation`: all of it behind one call, `generate(command, at=None)` (imported on first
  use: the file-name checks need only `names`);
- `revisions`: AICB's history, every revision that changed the output and what changed (the
  eras the model switches on); `history`: a command as AICB at a revision runs it;
- `infer`: the command and revision range behind a file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wkparse.models.aicb.errors import AicbError
from wkparse.models.aicb.names import AicbName, parse_filename
from wkparse.models.aicb.training.presets import PRESETS, Preset

if TYPE_CHECKING:
    from wkparse.models.aicb.generation import Generated, generate

__all__ = [
    "PRESETS",
    "AicbError",
    "AicbName",
    "Generated",
    "Preset",
    "generate",
    "parse_filename",
]


def __getattr__(name: str) -> Any:
    """`generate` and `Generated`, imported when first asked for: lint names every file's
    AICB configuration (`parse_filename`) but regenerates a file only for --aicb-command."""
    if name in ("Generated", "generate"):
        from wkparse.models.aicb import generation

        return getattr(generation, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
