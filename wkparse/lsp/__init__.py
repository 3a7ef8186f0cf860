"""The language server (`wkparse server`): lint, explain and fmt inside the editor.

`analysis` and `text` are plain Python; `server` needs pygls (`pip install 'wkparse[lsp]'`),
and nothing else in wkparse imports it.
"""
