"""`wkparse concept` and `wkparse concepts`: a concept page as Markdown (which the terminal
renders and the documentation site is built from) or JSON, and the list of pages."""
