"""AICB's training generator: its options, scripts, presets, layers and rows."""
