"""SimAI-Simulation checks (WK8xx, target `simai-ns3`): what SimAI's ns-3 backend does with a
file that SimAI-Analytical runs through. Each rule is one module named after its page; `walk`
holds what they share: the run `wkparse.models.simai.ns3` predicts for the file's header and rows.

These rules speak only for `--target simai-ns3` (or `target = "simai-ns3"`): the default
(analytical) target stays quiet on what that backend copes with, and lint does not import
them for it (`wkparse.checks.load`).
"""
