"""SimAI-Analytical result checks (WK7xx): where the real SimAI-Analytical's result for a file
is broken - it hangs, gives no result, or an infinite time. Each is backed by a run of the
real binary (`../shared/simai-oracle-2`, named on the rule's page) and says what SimAI does;
they fire on unedited AICB output too, since users need to hear it before they run SimAI.

The facts come from the backend model in `wkparse.models.simai` (`timeline`, `comm`, `ratios`);
`common` asks it once per file. Lint imports a rule's module when it runs the rule
(`wkparse.checks.load`).
"""
