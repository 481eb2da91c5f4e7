import os
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

# The tests mirror the package's layout (tests/_core, tests/metrics, tests/spaces, ...) and import
# the shared helpers of this folder (_naive, _data, registry) by their bare names: put this folder
# on sys.path whatever pytest's import mode (prepend does it for a rootdir conftest, importlib not).
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def rng():
    return np.random.default_rng(20261121)
