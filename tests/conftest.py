import math
import os
import sys
from pathlib import Path

# One OpenMP and one BLAS thread per test process, set before NumPy or scikit-learn is first imported (no
# pytest plugin imports them earlier) and inherited by the child processes the tests start (the demo, Sphinx,
# the child pytest). `./run test` starts one worker per core, so threads would only oversubscribe the cores:
# an OpenMP or OpenBLAS thread that waits for a descheduled sibling spins, and scikit-learn's gradient
# boosting in `isometrics demo` took 25 CPU seconds instead of 8 with two threads per worker. Results do
# not depend on it (the IRT fit already runs on one BLAS thread); set a variable to run with more.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

# The tests mirror the package's layout (tests/_core, tests/metrics, tests/spaces, ...) and import
# the shared helpers of this folder (_naive, _data, registry) by their bare names: put this folder
# on sys.path whatever pytest's import mode (prepend does it for a rootdir conftest, importlib not).
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_configure(config):
    # pytest-xdist registers it; declared here too so that --strict-markers passes without xdist
    config.addinivalue_line("markers", "xdist_group(name): run these tests on one pytest-xdist worker")
    config.pluginmanager.register(_GroupSuffix(), "isometrics-group-suffix")


class _GroupSuffix:
    """``--dist loadgroup`` groups tests by an ``@group`` suffix that each worker appends to their node ids
    (pytest-xdist's own ``pytest_collection_modifyitems``). pytest-xdist 3.8 appends it by setting
    ``item._nodeid``, which pytest 9 no longer reads (the node id is derived from ``item._id``): the suffix
    was lost, and every "group" was spread over the workers, each building the module's fixtures (a report,
    a Chromium, a Dask cluster, the child pytest) again. After xdist's hook, append the suffix where it is
    missing (tests/test_xdist_groups.py checks it)."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        if not config.getoption("loadgroup", False) or not os.environ.get("PYTEST_XDIST_WORKER"):
            return
        for item in items:
            group = _group_of(item)
            if group is not None and item.nodeid.rfind("@") <= item.nodeid.rfind("]"):
                _set_nodeid(item, f"{item.nodeid}@{group}")


def _set_nodeid(item: pytest.Item, nodeid: str) -> None:
    identifier = getattr(item, "_id", None)
    if identifier is not None and hasattr(type(identifier), "parse"):  # pytest >= 9: a structured NodeId
        item._id = type(identifier).parse(nodeid)
    else:  # pytest < 9 reads _nodeid (xdist set it already, so this is not reached there)
        item._nodeid = nodeid


#: The few tests that take a minute or so by themselves (a Sphinx build, mypy over the package, scikit-learn's
#: own metric tests in a child pytest): run first, so that under xdist they overlap the many short tests
#: instead of finishing alone at the end.
LONG_FIRST = (
    "tests/test_docs.py::test_sphinx_build_has_no_warning",
    "tests/test_typing.py::",
    "tests/test_sklearn_suite.py::",
)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Under ``pytest -n N --dist loadgroup`` (``./run test``), keep the tests of a module that share one of
    its module-scoped fixtures (a report built once, a Chromium, a Dask cluster, a child pytest run)
    on one worker, so that the fixture is built once; every other test goes to whichever worker is free."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        shared = any(
            defs and defs[-1].scope in ("module", "class", "package")
            for name, defs in info.name2fixturedefs.items()
            if name in item.fixturenames
        )
        if shared:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
    # `./run test` passes --no-loadscope-reorder, so xdist hands out work in this order: the long single tests
    # first, then the groups, largest first (a group runs on one worker), then the rest in collection order.
    # (With xdist's own reordering the groups go out first and the long single tests last, ending alone.)
    size: dict[str, int] = {}
    for item in items:
        group = _group_of(item)
        if group is not None:
            size[group] = size.get(group, 0) + 1

    def order(item: pytest.Item) -> tuple[int, int, str]:
        if item.nodeid.startswith(LONG_FIRST):
            return 0, 0, ""
        group = _group_of(item)
        return (1, -size[group], group) if group is not None else (2, 0, "")

    items.sort(key=order)  # stable: otherwise in collection order


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` with constant-time bookkeeping per test (tests/_xdist_scheduling.py; it subclasses
    pytest-xdist 3.x's scheduler, hence the pin in pyproject.toml): the stock
    scheduler's controller did work quadratic in the number of tests."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from _xdist_scheduling import QuickGroupScheduling  # not at the top: only the controller needs xdist's internals

    return QuickGroupScheduling(config, log)


def _group_of(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("xdist_group")
    if marker is None:
        return None
    return str(marker.args[0] if marker.args else marker.kwargs.get("name"))


@pytest.fixture
def rng():
    return np.random.default_rng(20261121)


@pytest.fixture(scope="session")
def local_cluster_nan_run(tmp_path_factory):
    """``isometrics evaluate nan.parquet --label y --score s --local-cluster 1`` as users run it (a subprocess),
    on eight rows whose score column ``s`` holds one NaN: the worker's task fails. A local cluster of worker
    processes costs about 3 CPU seconds and as many of waiting, so one run serves the two tests of what it
    prints (tests/presentation/test_cli_hostile_input.py, tests/scale/test_scale_hostile_input.py), marked
    ``xdist_group("local-cluster-nan")`` to go to one worker. The CompletedProcess."""
    pytest.importorskip("distributed")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from _cli import run  # not at the top: it imports the command line into every test process

    path = tmp_path_factory.mktemp("local_cluster_nan") / "nan.parquet"
    pq.write_table(pa.table({"y": [0, 1, 0, 1, 1, 0, 0, 1], "s": [0.1, math.nan, 0.35, 0.4, 0.9, 0.2, 0.6, 0.7]}), path)
    return run("evaluate", path, "--label", "y", "--score", "s", "--local-cluster", "1")
