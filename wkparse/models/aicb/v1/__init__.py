"""AICB v1.0 (2024-07-31 .. 2024-09-11): its script, options and rows, and reading its
files back."""
