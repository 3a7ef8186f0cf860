"""`SimAI_analytical`'s command line, read the way its parser reads it (`UserParam::parse`).

Options are spelled as SimAI spells them (`-g 128 -g_p_s 8 -nv 360 -nic 48.5 -n_p_s 8`, or
the long forms). A value is read with `std::stoi` or `std::stof`; an option given twice keeps
the last value, except `-g`, which adds a dimension (only the first is used here). An option
the parser does not know (for example `-busbw`, which SimAI's README shows but this commit
never wired) makes `main` print one usage line on stderr and return -1: exit 255 before the
workload is read. `-h` prints the option list on stdout and does the same.

Options SimAI leaves uninitialised when absent (`-g_p_s`, `-n_p_s`, `-g_type`) read 0 in
every measured run (fresh heap memory): `-g_p_s` 0 divides by zero in the parser.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import replace
from pathlib import Path, PurePath, PurePosixPath

from wkparse.cpp import INT_MAX, stoi
from wkparse.encoding import shown
from wkparse.i18n import _
from wkparse.models.simai.header import first_line, read_header
from wkparse.models.simai.ieee import f32
from wkparse.models.simai.option_values import OPTION_NAMES, _float, _int, result_name_start
from wkparse.models.simai.option_values import Refusal as Refusal
from wkparse.models.simai.option_values import SimaiOptions as SimaiOptions
from wkparse.models.simai.versions import DEFAULT, VERSIONS, SimaiVersion, accepting

#: SimAI's stderr line when its parser refuses the command line (then exit 255)
USAGE_LINE = "-h,     --help              Help message"
#: SimAI's stdout for `-h` (then the usage line on stderr and exit 255)
HELP_TEXT = (
    "-w,     --workload          Workloads, default none\n"
    "-g,     --gpus              Number of GPUs, default 1\n"
    "-g_p_s, --gpus-per-server   GPUs per server\n"
    "-r,     --result            Output results path\n"
    "-nv, --nvlink     Nvlink\n"
    "-nic, --nic_busbw     NIC busbw\n"
    "-n_p_s, --bus-bandwidth     Bus bandwidth file\n"
    "-nic_t, --nic_type     NIC type(cx7,bf3),choose when disable nic \n"
    "-g_type, --gpu_type     GPU type(A100,H100),choose when disable nvlink \n"
    "-v, --visual    Enable visual output\n"
    "-dp_o, --dp_overlap    dp overlap ratio(Default 0)\n"
    "-ep_o, --ep_overlap    ep overlap ratio(Default 0)\n"
    "-tp_o, --tp_overlap    tp overlap ratio(Default 0)\n"
    "-pp_o, --pp_overlap    pp overlap ratio(Default 1)\n"
    "-l, --lang               Language of the report (en or ja), default en\n"
)
#: GPU type names SimAI knows, and their enum value (anything else: NONE)
GPU_TYPES = {"A100": 0, "A800": 1, "H100": 2, "H800": 3, "H20": 5}
GPU_NONE = 4
#: what a pasted command line may start with before the options
PROGRAM = re.compile(r"(^|/)SimAI_analytical$")


#: the option set wkparse states when the user gives none: -g = all_gpus (filled in by the
#: caller), 8 GPUs and 8 NICs per server, SimAI's default bandwidths (A100 NVLink 240 GB/s,
#: CX7 NICs 48.5 GB/s)
STATED = ("-g_p_s", "8", "-n_p_s", "8")


#: a shell's `NAME=value` word before a program: a variable of the program's environment
ENVIRONMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
#: what a shell line may put before the program besides variables (`sudo -E`, `env`)
_LAUNCHERS = ("sudo", "-E", "env")
#: what SimAI_analytical makes of its environment: nothing. SimAI's `getenv` calls are in the
#: ns-3 frontend (`AS_SEND_LAT`) and in MockNccl (`AS_NVLS_ENABLE`, `AS_PXN_ENABLE`, and
#: `AS_LOG_LEVEL` for its log file at 1854d899), which only the ns-3 build initialises
#: (`Sys::mock_nccl_comms_init` is under `NS3_MTP`/`NS3_MPI`/`PHY_MTP`)
ENVIRONMENT_READ: tuple[str, ...] = ()


def split_command(words: list[str] | str) -> list[str]:
    """The words of a command line as users paste it: a string is split as a shell would,
    and a leading program path (`./bin/SimAI_analytical`, after `NAME=value` variables and
    `sudo`) is dropped; the variables stay in front of the options (`environment` reads
    them)."""
    if isinstance(words, str):
        words = shlex.split(words)
    words = list(words)
    start = 0
    while start < len(words) and (ENVIRONMENT.match(words[start]) or words[start] in _LAUNCHERS):
        start += 1
    if start < len(words) and PROGRAM.search(words[start]):
        return [w for w in words[:start] if w not in _LAUNCHERS] + words[start + 1 :]
    return words


def is_command(words: list[str]) -> bool:
    """Whether `words` are a pasted SimAI_analytical command line (variables first or not)."""
    rest = split_command(words)
    return len(rest) < len(words)


def environment(words: list[str]) -> tuple[list[str], list[str]]:
    """The `NAME=value` variables before the options (as `split_command` leaves them), and
    the options."""
    start = 0
    while start < len(words) and ENVIRONMENT.match(words[start]):
        start += 1
    return words[:start], words[start:]


#: options the parser of 26b4574b and later does not know before the version named
_LATER = {"-l": "lang_option", "--lang": "lang_option"}


def knows(version: SimaiVersion, arg: str) -> bool:
    """Whether SimAI's option parser at `version` accepts the option word `arg`."""
    if not version.has("option_parser"):
        from wkparse.models.simai.legacy_options import NAMES

        return arg in NAMES or arg in ("-h", "--help")
    return (arg in OPTION_NAMES or arg in ("-h", "--help")) and (
        arg not in _LATER or version.has(_LATER[arg])
    )


def refusal_reason(arg: str, version: SimaiVersion) -> str:
    """An option SimAI refuses, named, with the SimAI versions that accept it."""
    takers = tuple(v for v in VERSIONS if knows(v, arg))
    if not takers:
        where = _("no SimAI version accepts it")
    elif takers[-1] is not VERSIONS[-1]:
        after = VERSIONS[VERSIONS.index(takers[-1]) + 1]
        where = _("accepted until {commit}: SimAI {versions}").format(
            commit=after.short, versions=accepting(takers)
        )
    else:
        where = _("accepted from {commit}: SimAI {versions}").format(
            commit=takers[0].short, versions=accepting(takers)
        )
    return _("SimAI {version}'s option parser does not know {option} ({where})").format(
        version=version.short, option=shown(arg), where=where
    )


def parse(
    words: list[str] | str, version: SimaiVersion = DEFAULT, cwd: Path | None = None
) -> SimaiOptions | Refusal:
    """What SimAI's parser at `version` makes of the words after the program name (`cwd`:
    where SimAI runs, which a `-busbw` file is read relative to)."""
    env, argv = environment(split_command(words))
    if not version.has("option_parser"):
        from wkparse.models.simai import legacy_options

        legacy = legacy_options.parse(argv, version, refusal_reason, cwd)
        if isinstance(legacy, SimaiOptions):
            return replace(legacy, environment=tuple(env))
        return legacy
    values: dict[str, object] = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            return Refusal(255, HELP_TEXT, USAGE_LINE, "-h prints the option list")
        name = OPTION_NAMES.get(arg) if knows(version, arg) else None
        if name is None:
            return Refusal(255, "", USAGE_LINE, refusal_reason(arg, version))
        i += 1
        if i >= len(argv):
            # `if (++i < argc)`: an option without a value is skipped
            break
        value = argv[i]
        got: object
        if name in ("gpus", "gpus_per_server", "nics_per_server", "visual"):
            got = _int(arg, value)
        elif name in ("nvlink", "nic", "dp_overlap", "tp_overlap", "ep_overlap", "pp_overlap"):
            got = _float(arg, value)
        elif name == "gpu_type":
            got = GPU_TYPES.get(value.upper() if value in (value.upper(), value.lower()) else "")
            got = GPU_NONE if got is None else got
        elif name == "lang":
            if value not in ("en", "ja"):
                return Refusal(
                    255,
                    "",
                    f"Error: Invalid language '{value}'. Please use 'en' or 'ja'.\n{USAGE_LINE}",
                    f"-l {shown(value)}: only en and ja",
                )
            got = value
        else:
            got = value
        if isinstance(got, Refusal):
            return got
        if name == "gpus" and "gpus" in values:
            # a second -g adds a dimension; the analytical model reads the first
            i += 1
            continue
        values[name] = got
        i += 1
    opts = SimaiOptions(given=tuple(argv), environment=tuple(env), **values)  # type: ignore[arg-type]
    if opts.gpus is not None and opts.g_p_s == 0:
        return Refusal(
            136,
            "",
            "",
            "-g / -g_p_s with -g_p_s "
            + ("0" if opts.gpus_per_server is not None else "absent (read as 0)")
            + ": SIGFPE in the option parser",
        )
    if opts.result is None:
        named = default_result(opts)
        if isinstance(named, Refusal):
            return named
    return opts


def gpu_type_name(value: int) -> str:
    for name, v in GPU_TYPES.items():
        if v == value:
            return name
    return "NONE"


def _fixed1(x: float) -> str:
    return f"{x:.1f}"


def default_result(opts: SimaiOptions) -> str | Refusal:
    """`-r` when absent: SimAI builds a name from the workload's file name (`world_size`,
    `tp`, `pp`, ... numbers in it). A name without `tp` and `pp` numbers divides by zero."""
    start = result_name_start(opts)
    if isinstance(start, Refusal):
        return start
    return f"{start}{_fixed1(f32(opts.nic * 8))}G-DP{_fixed1(opts.dp_overlap)}-"


def result_name(opts: SimaiOptions) -> str | Refusal:
    """The `File name` of the summary line: `-r` (with `-r_f` before it) after its last /."""
    res = opts.result if opts.result is not None else default_result(opts)
    if isinstance(res, Refusal):
        return res
    if opts.result_folder is not None:
        folder = opts.result_folder
        res = folder + res if folder.endswith("/") else folder + "/" + res
    return res.rsplit("/", 1)[-1]


def with_gpus(opts: SimaiOptions, gpus: int) -> SimaiOptions:
    return replace(opts, gpus=gpus)


def example_busbw() -> str:
    """The path of SimAI's `example/busbw.yaml` as wkparse ships it (`data/SOURCE.md`)."""
    from importlib import resources

    return str(resources.files("wkparse.models.simai").joinpath("data").joinpath("busbw.yaml"))


def stated(workload: str, gpus: int, version: SimaiVersion = DEFAULT) -> SimaiOptions:
    """wkparse's stated option set: `-g` (all_gpus unless told), 8 GPUs and 8 NICs per
    server, SimAI's default bandwidths (no -nv/-nic/-g_type/-nic_t: A100 NVLink 240 GB/s,
    CX7 NICs 48.5 GB/s), and `-r` named after the file so no name is derived. Before
    26b4574b, which knows no -n_p_s and takes bandwidths from a file: `-g_p_s 8` and
    `-busbw` SimAI's example busbw.yaml."""
    stem = PurePosixPath(workload).name.rsplit(".", 1)[0] or "workload"
    bandwidths = (
        STATED if version.has("option_parser") else ("-g_p_s", "8", "-busbw", example_busbw())
    )
    words = ["-w", workload, "-g", str(gpus), *bandwidths, "-r", f"{stem}-"]
    got = parse(words, version)
    assert isinstance(got, SimaiOptions)
    return replace(got, stated=True)


def command_line(opts: SimaiOptions) -> str:
    """The options as a SimAI command line (its environment variables first, as given)."""
    return shlex.join([*opts.environment, "SimAI_analytical", *opts.given])


def unread_environment(opts: SimaiOptions) -> tuple[str, ...]:
    """The variables the command line sets that SimAI_analytical never reads (all of them:
    `ENVIRONMENT_READ`)."""
    names = (w.split("=", 1)[0] for w in opts.environment)
    return tuple(n for n in names if n not in ENVIRONMENT_READ)


def environment_note(opts: SimaiOptions) -> str | None:
    """What SimAI_analytical makes of the variables the command line sets: none of them
    changes its run; None when it sets none."""
    ignored = unread_environment(opts)
    if not ignored:
        return None
    return (
        f"{', '.join(ignored)}: SimAI_analytical reads no environment variable (SimAI's "
        "getenv calls are all in its ns-3 backend), so the run is the same without "
        + ("it" if len(ignored) == 1 else "them")
    )


def options_for(
    path: PurePath | str,
    data: bytes,
    gpus: int | None,
    words: list[str],
    version: SimaiVersion = DEFAULT,
) -> SimaiOptions | Refusal:
    """The options the run uses at `version`: the user's (with -w filled in when absent), or
    the stated set when they give none or only -g. `NAME=value` variables in front of the
    words are kept with the options (SimAI_analytical reads none of them)."""
    env, words = environment(split_command(words))
    if env:
        got = options_for(path, data, gpus, words, version)
        return replace(got, environment=tuple(env)) if isinstance(got, SimaiOptions) else got
    alone = [w for w in words if w not in ("-g", "--gpus")]
    only_g = len(words) == 2 and len(alone) == 1 and alone[0].isascii() and alone[0].isdigit()
    given = stoi(alone[0]).value if only_g else None  # past an int: stoi refuses it, below
    if given is not None and given > 0:
        # only -g: wkparse's stated set with that -g, as `wkparse simai FILE -g N`
        words, gpus = [], given
    if not words:
        if gpus is None:
            gpus = read_header(first_line(data)).value("all_gpus") or 1
        if gpus <= INT_MAX:
            return stated(str(path), gpus, version)
        words = ["-g", str(gpus)]  # out of int range: SimAI's stoi refuses it (`parse`)
    if "-w" not in words and "--workload" not in words:
        words = ["-w", str(path), *words]
    return parse(words, version)
