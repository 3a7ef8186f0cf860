"""`SimAI_analytical`'s command line before 26b4574b (`UserParam::parseArg`, b1c1eb66 …
4e66932a), from their source; the recorded runs of `../shared/simai-versions` show its
refusals word for word.

It knows `-w -g -g_p_s -r -busbw -dp_o -tp_o -ep_o -pp_o -v` (and their long spellings);
anything else prints `Error: Unknown option '<word>'.`, then `main` the help hint, exit 255.
`-busbw FILE` is read at once, relative to the working directory (`yaml_busbw`); a file that
cannot be opened exits -1 (255). `-pp_o` defaults to 0 at b1c1eb66 (it scales the bubble) and
to 1 from 03613a7a; `-v` takes a value at b1c1eb66 and is a flag from 03613a7a.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from wkparse.models.simai.busbw_file import BadYaml, YamlBusbw, parse_yaml
from wkparse.models.simai.option_values import (
    OPTION_NAMES,
    Refusal,
    SimaiOptions,
    _float,
    _int,
    result_name_start,
)
from wkparse.models.simai.versions import SimaiVersion

#: what `main` prints on stderr after a refusal (spacing as printed)
HINT = "-h,       --help                Help message"
#: what the parser of 26b4574b on knows that this one does not (`-l` came later still)
_ADDED_SINCE = {"result_folder", "nvlink", "nic", "nics_per_server", "nic_type", "gpu_type", "lang"}
#: the later parser's names (`option_values.OPTION_NAMES`) less what it added and the long
#: overlap spellings it renamed; plus `-busbw`, which 26b4574b removed
NAMES = {
    word: name
    for word, name in OPTION_NAMES.items()
    if name not in _ADDED_SINCE and not word.endswith("_overlap")
} | {
    "-busbw": "busbw",
    "--bus-bandwidth": "busbw",
    "--dp-overlap-ratio": "dp_overlap",
    "--tp-overlap-ratio": "tp_overlap",
    "--ep-overlap-ratio": "ep_overlap",
    "--pp-overlap-ratio": "pp_overlap",
}


def _refused(line: str, reason: str) -> Refusal:
    return Refusal(255, "", f"{line}\n{HINT}", reason)


def parse(
    argv: list[str],
    version: SimaiVersion,
    reason: Callable[[str, SimaiVersion], str],
    cwd: Path | None = None,
) -> SimaiOptions | Refusal:
    """What `parseArg` at `version` makes of the words after the program name; `reason`
    says why an option is refused (`options.refusal_reason`)."""
    values: dict[str, object] = {"pp_overlap": 1.0 if version.has("pp_term") else 0.0}
    busbw: YamlBusbw | None = None
    visual_takes_value = not version.has("pp_term")
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            return Refusal(255, "", HINT, "-h prints the option list")
        name = NAMES.get(arg)
        if name is None:
            return _refused(f"Error: Unknown option '{arg}'.", reason(arg, version))
        if name == "visual" and not visual_takes_value:
            values["visual"] = 1
            i += 1
            continue
        i += 1
        if i >= len(argv):
            return _refused(f"Error: Missing value for argument '{arg}'.", f"{arg} needs a value")
        value = argv[i]
        got: object
        if name in ("gpus", "gpus_per_server", "visual"):
            got = _int(arg, value)
        elif name.endswith("_overlap"):
            got = _float(arg, value)
        elif name == "busbw":
            path = Path(value) if cwd is None else cwd / value
            try:
                text = path.read_text(errors="replace")
            except OSError:
                unread = f"-busbw {value}: unreadable"
                return Refusal(255, "", f"Unable to open file: {value}", unread)
            try:
                busbw = parse_yaml(text, version.has("pp_term"))
            except BadYaml as exc:
                return Refusal(
                    134,
                    "",
                    "terminate called after throwing an instance of 'std::invalid_argument'\n"
                    "  what():  stof",
                    f"-busbw {value}: {exc} is no number",
                )
            got = value
        else:
            got = value
        if isinstance(got, Refusal):
            return got
        if not (name == "gpus" and "gpus" in values):
            values[name] = got
        i += 1
    busbw_file = values.pop("busbw", None)
    opts = SimaiOptions(given=tuple(argv), **values)  # type: ignore[arg-type]
    opts = replace(opts, busbw=busbw or YamlBusbw(), busbw_file=busbw_file)  # type: ignore[arg-type]
    if opts.gpus is not None and opts.g_p_s == 0:
        return Refusal(136, "", "", "-g / -g_p_s with -g_p_s 0 or absent: SIGFPE in the parser")
    if opts.result is None or opts.result.endswith("/"):
        named = legacy_result(opts)
        if isinstance(named, Refusal):
            return named
        opts = replace(opts, result=(opts.result or "") + named)
    return opts


def legacy_result(opts: SimaiOptions) -> str | Refusal:
    """`-r` absent (or a folder): the name parseArg builds from the workload's file name."""
    start = result_name_start(opts)
    return start if isinstance(start, Refusal) else f"{start}DP{opts.dp_overlap:g}-"
