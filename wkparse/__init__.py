"""wkparse: parse, lint, explain and format SimAI workload files."""

from wkparse.parse import Limits, ParseResult, parse_bytes, parse_file, parse_text

__version__ = "0.1.0"
__all__ = ["Limits", "ParseResult", "__version__", "parse_bytes", "parse_file", "parse_text"]
