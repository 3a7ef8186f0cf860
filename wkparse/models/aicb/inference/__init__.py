"""AICB's inference generators: the first one (2025-09) and the current one."""
