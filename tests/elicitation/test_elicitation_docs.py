"""docs/elicitation.md: its Python example runs as written."""

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "elicitation.md"


def test_elicitation_doc_example_runs():
    (block,) = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
    namespace: dict = {}
    exec(compile(block, str(DOC), "exec"), namespace)
    assert namespace["best"].threshold == namespace["result"].decision.threshold
