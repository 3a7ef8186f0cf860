"""Every thing the models know has its concept page (issue 39): a model change without its page
fails here. Checked against the models' own tables: SimAI_analytical's option words at every
modelled version (removed ones too), SimAI_simulator's options and the environment it reads,
every header key, row field, collective type and suffix, every output file of both backends,
every EndToEnd.csv column, the formulas, the SimAI switches, and AICB's options and presets
(whose pages are written from the AICB model: they must be what it gives now)."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest

from wkparse import concepts
from wkparse.ast import ROW_FIELDS
from wkparse.explanation import aicb_pages
from wkparse.models.aicb import formulas as aicb_formulas
from wkparse.models.aicb.inference import args as inference_args
from wkparse.models.aicb.training import args as training_args
from wkparse.models.aicb.training import scripts
from wkparse.models.aicb.training.presets import SCRIPT_PRESETS, V1_SCRIPT_PRESETS
from wkparse.models.aicb.v1.args import V1_OPTIONS
from wkparse.models.simai import header, ns3, report, surface, tables
from wkparse.models.simai.legacy_options import NAMES as LEGACY_NAMES
from wkparse.models.simai.option_values import OPTION_NAMES
from wkparse.models.simai.options import knows
from wkparse.models.simai.versions import SWITCHES, VERSIONS

PAGES = concepts.concepts()


def _page(name: str) -> concepts.ConceptPage:
    page = concepts.find(name)
    assert page is not None, f"no concept page names {name!r}"
    return page


def _analytical_words() -> list[str]:
    """Every option word some modelled SimAI_analytical accepts."""
    words = [*OPTION_NAMES, *LEGACY_NAMES, "-h", "--help"]
    return sorted({w for w in words if any(knows(v, w) for v in VERSIONS)})


@pytest.mark.parametrize("word", _analytical_words())
def test_every_simai_analytical_option_at_every_version(word: str) -> None:
    page = _page(word)
    assert page.kind == "option" and "SimAI_analytical" in page.programs


def test_the_removed_options_are_among_them() -> None:
    assert {"-busbw", "--bus-bandwidth", "--dp-overlap-ratio"} <= set(_analytical_words())


@pytest.mark.parametrize("word", surface.SIMULATOR_OPTIONS)
def test_every_simai_simulator_option(word: str) -> None:
    page = _page(word)
    assert page.kind == "option" and "SimAI_simulator" in page.programs


@pytest.mark.parametrize("name", [*surface.ENVIRONMENT_READ, *surface.ENVIRONMENT_DOCUMENTED_ONLY])
def test_every_environment_variable_read_or_documented(name: str) -> None:
    page = _page(name)
    assert page.kind == "environment-variable"
    cited = {s.file for s in page.sources}
    if name in surface.ENVIRONMENT_READ:
        assert surface.ENVIRONMENT_READ[name] in cited
    else:
        assert page.default.en == "read nowhere"


KEYS = [
    *header.SIZE_KEYS,
    *header.CHECKPOINT_KEYS,
    *header.PP_COMM_KEYS,
    header.DLRM_KEY,
    *header.MEANINGS,
]


@pytest.mark.parametrize("key", KEYS)
def test_every_header_key(key: str) -> None:
    assert _page(key).kind == "header-key"


@pytest.mark.parametrize("policy", tables.POLICIES)
def test_every_policy(policy: str) -> None:
    assert _page(policy).id == "policy"


#: the row's 13th field is `policy` in ROW_FIELDS, the word that names line 1's policy page
ROW_NAMES = {"policy": "row policy"}


@pytest.mark.parametrize("field", ROW_FIELDS)
def test_every_row_field(field: str) -> None:
    assert _page(ROW_NAMES.get(field, field)).kind == "row-field"


@pytest.mark.parametrize("token", sorted(tables.KNOWN_COMMS))
def test_every_collective_type_and_suffix(token: str) -> None:
    prefix = next((c.value for c in tables.ComType if token.startswith(c.value)), token)
    assert _page(prefix).kind == "collective"
    suffix = token[len(prefix) :]
    if suffix:
        assert _page(suffix).kind == "collective"
        assert suffix in tables.SUFFIXES


OUTPUTS = [
    "EndToEnd.csv",
    ns3.END_TO_END,
    ns3.DETAILED.format(nodes="*"),
    ns3.UTILIZATION,
    ns3.SEND,
    *(PurePosixPath(p).name for p in (ns3.FCT, ns3.PFC, ns3.TRACE, ns3.LOG)),
]


@pytest.mark.parametrize("name", OUTPUTS)
def test_every_output_file_and_where_it_goes(name: str) -> None:
    page = _page(name)
    assert page.kind in ("output-file", "configuration-key")
    located = " ".join(page.definition.en.split())
    assert "working directory" in located or "/etc/astra-sim" in located


COLUMNS = [
    *(c.strip() for c in report.SUMMARY_KEYS.split(",")),
    *(c.format(run=report.RUN_NAME) for c in report.LAYER_HEADER.split(",")),
]


@pytest.mark.parametrize("column", sorted(set(COLUMNS)))
def test_every_end_to_end_column(column: str) -> None:
    page = _page(column)
    assert page.kind in ("output-column", "formula")
    assert page.unit.en or page.id in {"column-layer-name", "column-run-name", "column-file-name"}


#: the formula functions of the models (AICB's inverses, `*_of`, answer the same pages)
FORMULAS = [
    "wkparse.models.simai.comm.bandwidths",
    "wkparse.models.simai.parallel.data_parallel",
    "wkparse.models.simai.ns3.make_groups",
    "wkparse.models.simai.busbw.cal_busbw",
    "wkparse.models.simai.report.Reporter",
    *(
        f"wkparse.models.aicb.formulas.{name}"
        for name in ("activation", "pp_comm", "data_parallel", "ga", "moe_dispatch", "moe_routing")
    ),
]


@pytest.mark.parametrize("model", FORMULAS)
def test_every_formula_has_a_page_that_names_its_function(model: str) -> None:
    assert any(p.model == model for p in PAGES)


def test_the_aicb_formulas_listed_are_all_of_them() -> None:
    public = {
        n
        for n, f in vars(aicb_formulas).items()
        if callable(f) and not n.startswith("_") and f.__module__ == aicb_formulas.__name__
    }
    inverses = {n for n in public if n.endswith("_of")} | {"pp_comm_bytes", "is_inference"}
    listed = {m.rsplit(".", 1)[1] for m in FORMULAS if ".aicb." in m}
    assert public - inverses == listed


@pytest.mark.parametrize("switch", [s.name for s in SWITCHES])
def test_every_simai_switch_has_a_behaviour_page(switch: str) -> None:
    assert any(p.kind == "behaviour" and switch in p.switches for p in PAGES)


def _aicb_flags() -> list[str]:
    flags = [o.flag for o in (*training_args.OPTIONS, *inference_args.OPTIONS, *V1_OPTIONS)]
    for table in (scripts.TRAINING_VALUED, scripts.TRAINING_FLAGS):
        flags += list(table)
    flags += [w for w in (*scripts.INFERENCE_VALUED, *scripts.INFERENCE_FLAGS)]
    return sorted(set(flags))


@pytest.mark.parametrize("flag", _aicb_flags())
def test_every_aicb_option(flag: str) -> None:
    pages = [p for p in PAGES if p.kind == "aicb-option" and f"`{flag}`" in p.definition.en]
    assert pages, f"no AICB option page says {flag}"


PRESETS = [
    *(f"-m {size}" for size in SCRIPT_PRESETS),
    *(f"-m {size} (AICB v1.0)" for size in V1_SCRIPT_PRESETS),
    *(f"-m {size}" for size in scripts.INFERENCE_MODELS),
]


@pytest.mark.parametrize("name", PRESETS)
def test_every_aicb_preset(name: str) -> None:
    assert _page(name).kind == "aicb-preset"


def test_the_aicb_pages_are_what_the_model_gives_now() -> None:
    """`python -m wkparse.explanation.aicb_pages` writes them; rerun it after a model change."""
    made = aicb_pages.pages()
    stored = {
        p.stem: p.read_text(encoding="utf-8")
        for p in concepts.page_files()
        if p.stem.startswith(aicb_pages.PREFIX)
    }
    assert sorted(stored) == sorted(made)
    stale = [stem for stem, text in made.items() if stored[stem] != text]
    assert not stale, f"rerun python -m wkparse.explanation.aicb_pages: {stale[:5]}"
