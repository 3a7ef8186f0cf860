"""`wkparse traffic`'s renderings: text, JSON, CSV and an HTML heat map."""
