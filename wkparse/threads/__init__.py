"""`wkparse triage`: from an issue's text to an answer a maintainer can post.

One job a module:

- `reading`: the issue as given (Markdown or plain text, `gh issue view --json`, front matter);
- `fences`: where code blocks and inline code sit, so prose and pasted output are told apart;
- `commands`: AICB and SimAI command lines and topology generator commands, however pasted;
- `topology`: topology names, generator commands and pasted topology files, and their GPU count;
- `artefacts`: every artefact of the thread with its line (kinds as `--format json` names them);
- `language`, `scope`: which language to answer in, and whether the thread is about a workload;
- `sources`: the workload files (attached, rebuilt from the AICB command, pasted);
- `edits`: what the user says they changed in the rebuilt file (its first rows deleted);
- `models`: lint, explain and SimAI on one file; `symptoms`: what the user says SimAI did;
- `versions`: which SimAI and AICB the user ran; `logs`: where a pasted SimAI log stopped;
- `checks`: the pieces against each other (command, file name, header, attachment, topology);
- `meaning`: what the thread asks a result, a size, a group or a topology line to mean,
  from the models (`meaning_phrases` its words); `retry`: a refused option dropped and run again;
- `cause`: the likely cause and what is missing; `evidence`: how a statement names its source;
- `pipeline`: the pieces put together and answered, `result`: what it concludes;
- `phrases`: the answer's sentences in English and Chinese; `render`: Markdown, text, JSON.

`triage(text, attachments=..., date=...)` is the whole of it (`wkparse.threads`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wkparse.threads.pipeline import triage
    from wkparse.threads.result import Triage

__all__ = ["Triage", "triage"]


def __getattr__(name: str) -> Any:
    if name == "triage":
        from wkparse.threads import pipeline

        return pipeline.triage
    if name == "Triage":
        from wkparse.threads import result

        return result.Triage
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
