"""`./run test` keeps the tests that share a module-scoped fixture on one pytest-xdist worker.

tests/conftest.py marks such tests with ``xdist_group`` and ``--dist loadgroup`` sends a group to one worker,
so that the fixture (a report, a Chromium, a Dask cluster, a child pytest) is built once. With pytest 9 and
pytest-xdist 3.8 the group's ``@name`` suffix never reached the node ids and the groups were spread over
the workers; the conftest appends it. A child ``pytest -n 2 --dist loadgroup`` over a module of twenty
tests sharing one module-scoped fixture shows where the fixture was built.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("xdist")

MODULE = """
import os
import pytest

@pytest.fixture(scope="module")
def shared():
    with open(os.environ["BUILT"], "a") as f:
        f.write(os.environ.get("PYTEST_XDIST_WORKER", "main") + "\\n")

@pytest.mark.parametrize("k", range(20))
def test_uses_the_shared_fixture(shared, k):
    pass

@pytest.mark.parametrize("k", range(20))
def test_alone(k):
    pass
"""


def test_a_module_fixture_is_built_once_under_loadgroup(tmp_path):
    for helper in ("conftest.py", "_xdist_scheduling.py"):
        shutil.copy(Path(__file__).with_name(helper), tmp_path / helper)
    (tmp_path / "test_grouped.py").write_text(MODULE, encoding="utf-8")
    built = tmp_path / "built.txt"
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", "--dist", "loadgroup"]
        + ["--no-loadscope-reorder", "-rA", str(tmp_path / "test_grouped.py")],
        cwd=tmp_path,
        env=dict(os.environ, BUILT=str(built)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert built.read_text().split() in (["gw0"], ["gw1"]), built.read_text()
    # the node ids carry the group, as pytest-xdist's reports show it
    assert "test_uses_the_shared_fixture[0]@test_grouped.py" in res.stdout, res.stdout[-3000:]
