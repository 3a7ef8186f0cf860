"""Renderers: turn diagnostics, ASTs and explanations into text, JSON, SARIF, Markdown."""
