"""`wkparse simai`'s outputs: text (both backends) and JSON."""
