"""`wkparse parse --format json`."""
