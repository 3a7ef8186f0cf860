"""Lint's outputs: text, JSON, SARIF, GitHub annotations, statistics."""
