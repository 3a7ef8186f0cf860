"""`wkparse triage`'s outputs: the comment to post (Markdown), plain text and JSON."""
