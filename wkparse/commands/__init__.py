"""Command implementations behind wkparse.cli: each returns an exit code."""
