"""Diff's outputs: terminal text, Markdown and JSON."""
