"""SimAI_simulator's command line as its parser reads it (`user_param_prase`,
AstraSimNetwork.cc lines 227-258: `getopt(argc, argv, "ht:w:g:s:n:c:")`), with the `VAR=VALUE`
words a shell puts before it.

`-t` threads (std::stoi), `-w` workload, `-n` topology, `-c` network config. `-g` and `-s` are
in getopt's string but have no case: they fall to `default`, which prints `-h    help message`
and makes `main` return 0 before anything runs, as does any other option and `-h`. A pasted
line may start with `sudo`, `nice -n 19`, `timeout 600` and the program's path; those words
are dropped.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

#: options that take a value, and what each is
VALUED = {"-t": "threads", "-w": "workload", "-n": "topology", "-c": "config"}
#: getopt knows these but SimAI_simulator has no case for them: usage, exit 0, no run
NO_CASE = ("-g", "-s")
PROGRAM = re.compile(r"(^|/)(SimAI_simulator|ns3\.36\.1-AstraSimNetwork-\w+)$")
ENV_WORD = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
#: the variables SimAI's sources read (`getenv`; README of ../shared/simai-traffic)
KNOWN_VARIABLES = ("AS_NVLS_ENABLE", "AS_PXN_ENABLE", "AS_SEND_LAT", "AS_LOG_LEVEL")


class Refused(ValueError):
    """A command line SimAI_simulator does not run, and why (one line)."""


@dataclass
class SimulatorCommand:
    env: dict[str, str] = field(default_factory=dict)
    workload: str | None = None
    topology: str | None = None
    config: str | None = None
    threads: int = 1


def split(words: list[str]) -> list[str]:
    """The words of a command line: one string is split as a shell would."""
    if len(words) == 1 and (" " in words[0] or "=" in words[0]):
        return shlex.split(words[0])
    return list(words)


def parse(words: list[str]) -> SimulatorCommand:
    """Read `[VAR=VALUE ...] [program] [options]`. Raises Refused (named) or ValueError
    (an unclosed quote)."""
    argv = split(words)
    command = SimulatorCommand()
    program = next((i for i, w in enumerate(argv) if PROGRAM.search(w)), None)
    if program is not None:
        before, argv = argv[:program], argv[program + 1 :]
        for w in before:
            m = ENV_WORD.match(w)
            if m:
                command.env[m.group(1)] = m.group(2)
    else:
        while argv and ENV_WORD.match(argv[0]):
            m = ENV_WORD.match(argv.pop(0))
            assert m is not None
            command.env[m.group(1)] = m.group(2)
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            break
        if not word.startswith("-") or word == "-":
            i += 1  # getopt permutes operands to the end; SimAI never reads them
            continue
        letters = word[1:]
        while letters:
            option = "-" + letters[0]
            rest = letters[1:]
            if option == "-h":
                raise Refused(
                    "-h: SimAI_simulator prints its option list and exits 0 without running"
                )
            if option in NO_CASE:
                raise Refused(
                    f"{option}: SimAI_simulator's parser accepts it but has no case for it: it "
                    "prints `-h    help message` and exits 0 without running (give the GPUs "
                    "with wkparse's own -g before --)"
                )
            if option not in VALUED:
                raise Refused(
                    f"{word}: not an option SimAI_simulator knows (it takes -t -w -n -c): it "
                    "prints `-h    help message` and exits 0 without running"
                )
            if rest:
                value = rest
            elif i + 1 < len(argv):
                i += 1
                value = argv[i]
            else:
                raise Refused(
                    f"{option} needs a value: SimAI_simulator prints `-h    help message` and "
                    "exits 0 without running"
                )
            _store(command, option, value)
            letters = ""
        i += 1
    return command


def _store(command: SimulatorCommand, option: str, value: str) -> None:
    what = VALUED[option]
    if what == "threads":
        m = re.match(r"\s*[+-]?\d+", value)
        if m is None:
            raise Refused(f"-t {value}: std::stoi throws; SimAI_simulator aborts (exit 134)")
        command.threads = int(m.group(0))
    else:
        setattr(command, what, value)


def unknown_variables(env: dict[str, str]) -> list[str]:
    """`AS_*` variables no SimAI source reads (likely misspelt)."""
    return [k for k in env if k.startswith("AS_") and k not in KNOWN_VARIABLES]
