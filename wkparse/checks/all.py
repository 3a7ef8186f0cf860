"""Import every check module, so that each rule registers itself (`wkparse rules`, explain,
the tests). Found by walking the folder, not from the pages, so that a rule module without a
page still registers (and tests/test_rule_layout.py names it). Lint imports only the rules
it runs (`wkparse.checks.load`)."""

import importlib
import pkgutil
from pathlib import Path

for _found in pkgutil.walk_packages([str(Path(__file__).parent)], "wkparse.checks."):
    if _found.name != __name__:
        importlib.import_module(_found.name)
