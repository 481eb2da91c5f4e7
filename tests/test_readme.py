"""The README's and the guide's Python examples run as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    assert blocks, "the README lost its Python example"
    for block in blocks:
        namespace: dict = {}
        exec(compile(block, str(README), "exec"), namespace)
        assert 0 <= namespace["best"].value <= 1


GUIDE = README.parent / "docs" / "guide.md"


def test_guide_blocks_run_in_order():
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.DOTALL)
    assert len(blocks) >= 5
    namespace: dict = {}
    for block in blocks:  # the guide's blocks build on each other
        exec(compile(block, str(GUIDE), "exec"), namespace)
    assert namespace["mix"].tpr >= namespace["point"].recall - 1e-12
