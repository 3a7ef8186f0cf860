"""SimAI's `-busbw` file as `UserParam::parseYaml` reads it (b1c1eb66 … 4e66932a, from their
source): the first line is skipped; `SECTION:` lines open TP, DP, EP (and PP, read from
03613a7a); `collective,: value` lines give GB/s as `std::stof` reads it; `null` leaves -1.
The model that uses the figures is `yaml_busbw`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wkparse.models.simai.ieee import stof

_COLLECTIVES = ("allreduce", "allgather", "reducescatter", "alltoall")


class BadYaml(ValueError):
    """A value `std::stof` refuses: SimAI aborts with `std::invalid_argument`."""


@dataclass(frozen=True)
class YamlBusbw:
    """The GB/s SimAI read, per (section, collective); absent or `null`: -1."""

    values: dict[tuple[str, str], float] = field(default_factory=dict)
    #: the PP section's busbw (03613a7a on; b1c1eb66 ignores the section)
    pp: float = -1.0

    def get(self, section: str, collective: str) -> float:
        return self.values.get((section, collective), -1.0)


def parse_yaml(text: str, with_pp: bool) -> YamlBusbw:
    """`UserParam::parseYaml`; raises BadYaml where stof throws."""
    values: dict[tuple[str, str], float] = {}
    pp = -1.0
    section = ""
    for raw in text.split("\n")[1:]:
        line = raw.strip(" ")
        if not line or line.startswith("#"):
            continue
        if line.endswith(":"):
            section = line[:-1]
            continue
        if ":" not in line:
            continue
        key, rest = line.split(":", 1)
        words = rest.split()
        if not words:
            continue
        key = key.rstrip(" ").split(",", 1)[0]
        if words[0] == "null":
            continue
        value = stof(words[0])
        if value is None:
            raise BadYaml(words[0])
        if section in ("TP", "DP", "EP") and key in _COLLECTIVES:
            values[(section, key)] = value
        elif section == "PP" and key == "busbw" and with_pp:
            pp = value
    return YamlBusbw(values, pp)
