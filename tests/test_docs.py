"""The documentation site builds offline with warnings as errors, and its examples run.

The user guide's Python blocks run in order, page by page; the gallery's examples are
executed by the Sphinx build itself (sphinx-gallery), and each checks its numbers against a
hand derivation with assertions, so a wrong number fails the build.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted((DOCS / "user_guide").glob("*.md")) + [DOCS / "getting_started.md"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_user_guide_blocks_run_in_order(page):
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    if page.name != "index.md":
        assert blocks, f"{page.name} lost its examples"
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(page), "exec"), namespace)


def test_every_user_guide_page_is_in_the_toctree():
    index = (DOCS / "user_guide" / "index.md").read_text(encoding="utf-8")
    for page in (DOCS / "user_guide").glob("*.md"):
        if page.name != "index.md":
            assert f"\n{page.stem}\n" in index, f"{page.name} is not listed in user_guide/index.md"


#: What the build writes into its source folder (git-ignored): autosummary's pages, the API pages conf.py
#: writes, sphinx-gallery's pages and its timings. The test builds a copy of docs/ without them.
BUILD_OUTPUTS = ("_build", "generated", "generated_examples", "api", "api.rst", "sg_execution_times.rst")


def test_sphinx_build_has_no_warning(tmp_path):
    """Build a copy of docs/ in tmp_path, as on a clean checkout: the source tree is left as it was, a stale page
    that autosummary wrote there for a removed name cannot fail (or pass) the build here only, and sphinx-gallery,
    which skips an example whose source is unchanged since its last run in that folder, runs every example
    against the package as it is now."""
    pytest.importorskip("sphinx")
    pytest.importorskip("sphinx_gallery")
    pytest.importorskip("pydata_sphinx_theme")
    untouched = {path: path.stat().st_mtime_ns for path in DOCS.rglob("*")}
    source = tmp_path / "docs"
    shutil.copytree(DOCS, source, ignore=lambda folder, names: BUILD_OUTPUTS if Path(folder) == DOCS else ())
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=str(ROOT / "src"))
    out = tmp_path / "html"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-b",
            "html",
            "-q",
            "-d",
            str(tmp_path / "doctrees"),
            str(source),
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    assert {path: path.stat().st_mtime_ns for path in DOCS.rglob("*")} == untouched, "the build wrote into docs/"
    for page in [
        "index.html",
        "getting_started.html",
        "api.html",
        "user_guide/choose_threshold.html",
        "generated_examples/plot_models_a_and_b.html",
        "generated/isometrics.best_threshold.html",
    ]:
        assert (out / page).is_file(), page
    gallery = list((out / "generated_examples").glob("plot_*.html"))
    assert len(gallery) >= 6
    for page in gallery:  # every example drew its figure
        assert "<img" in page.read_text(encoding="utf-8"), page.name
    api = (out / "api.html").read_text(encoding="utf-8")
    import isometrics

    missing = [name for name in isometrics.__all__ if not name.startswith("__") and f"isometrics.{name}" not in api]
    assert not missing, f"public names missing from the API reference: {missing}"
    for namespace in isometrics._NAMESPACES:  # one page per namespace (issue 24, item 4)
        module = getattr(isometrics, namespace)
        page = (out / "api" / f"{namespace}.html").read_text(encoding="utf-8")
        missing = [
            name
            for name in module.__all__
            if callable(getattr(module, name))
            and f"isometrics.{namespace}.{name}" not in page
            and f"isometrics.{name}" not in api
        ]
        assert not missing, f"isometrics.{namespace}: names missing from its API page: {missing}"


MODULES = sorted(
    ".".join(p.relative_to(ROOT / "src").with_suffix("").parts)
    for p in (ROOT / "src" / "isometrics").rglob("*.py")
    if p.name != "__main__.py"
)


@pytest.mark.parametrize("module", MODULES)
def test_sphinx_reads_every_module_source(module):
    """Sphinx reads each module's source for attribute docs; a construct its parser cannot read
    (``{**in_body(...), ...}`` in a decorator, for one) fails the build only where a documented
    class needs it, so every module is read here (write ``in_body(...) | {...}`` instead). The
    parser reads the file: ``ModuleAnalyzer.for_module`` would import the module first to find it,
    the whole package and its dependencies (2 of the 5.5 CPU seconds of these tests, and not what they check)."""
    pycode = pytest.importorskip("sphinx.pycode")
    path = ROOT / "src" / Path(*module.split(".")).with_suffix(".py")
    pycode.ModuleAnalyzer.for_file(path, module.replace(".__init__", "")).analyze()


def test_module_source_check_catches_an_unreadable_construct(tmp_path):
    """The check above can fail: the construct that once failed the build, read the same way."""
    pycode = pytest.importorskip("sphinx.pycode")
    module = tmp_path / "unreadable.py"
    module.write_text(
        "def in_body(**kw):\n    return kw\n\n\ndef declare(**kw):\n    return lambda f: f\n\n\n"
        '@declare(**{**in_body(a=1), "b": 2})\ndef f():\n    pass\n',
        encoding="utf-8",
    )
    with pytest.raises(pycode.PycodeError):
        pycode.ModuleAnalyzer.for_file(module, "unreadable").analyze()
