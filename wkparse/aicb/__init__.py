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
- `generate`: all of it behind one call, `generate(command)`.
"""

from __future__ import annotations

from wkparse.aicb.errors import AicbError
from wkparse.aicb.generate import Generated, generate
from wkparse.aicb.names import AicbName, parse_filename
from wkparse.aicb.presets import PRESETS, Preset

__all__ = [
    "PRESETS",
    "AicbError",
    "AicbName",
    "Generated",
    "Preset",
    "generate",
    "parse_filename",
]
