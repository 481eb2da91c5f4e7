"""The package and its user documentation cite papers, never files outside the repository.

A docstring that says "see ``shared/reference/004``" or "ALGORITHMS.md section 6" points a reader
at a file they do not have, and "issue 14, item 2" at a tracker they may never see. Sources are
cited as papers (authors, year, title, venue, section); what an issue asked for is said plainly.
This test scans every text file under ``src/isometrics`` (Python, templates, scripts, styles) and
the user documentation (``docs/*.md``, ``docs/user_guide/*.md``).
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "isometrics"
DOCS = ROOT / "docs"
TEXT_SUFFIXES = {".py", ".pyi", ".j2", ".html", ".js", ".css", ".md", ".txt", ".toml", ".json"}

#: Each forbidden citation, with a name for the failure message. ``#12`` counts as an issue
#: reference when it stands on its own ("(#12)", "see #12"); colours such as ``"#999"`` or
#: ``color: #222;`` do not.
FORBIDDEN = {
    "file outside the repository (shared/...)": re.compile(r"shared/(reference|ALGORITHMS|STYLE)", re.I),
    "ALGORITHMS.md": re.compile(r"ALGORITHMS\.md", re.I),
    "STYLE.md": re.compile(r"STYLE\.md", re.I),
    "ERRATA.md": re.compile(r"ERRATA\.md", re.I),
    "issue number": re.compile(r"\bissues?\s+#?\d+", re.I),
    "#N issue reference": re.compile(r"(?<![\w&\"'#:/=-])#\d+\b(?![\w;\"'.%-])"),
}


def _files():
    package = [p for p in sorted(PACKAGE.rglob("*")) if p.is_file() and p.suffix in TEXT_SUFFIXES]
    docs = sorted(DOCS.glob("*.md")) + sorted((DOCS / "user_guide").glob("*.md"))
    return package + docs


def _offences(text):
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for what, pattern in FORBIDDEN.items():
            match = pattern.search(line)
            if match:
                found.append(f"line {number}: {what}: {match.group(0)!r}")
    return found


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_cites_papers_not_files_or_issues(path):
    offences = _offences(path.read_text(encoding="utf-8", errors="replace"))
    assert not offences, (
        f"{path.relative_to(ROOT)} cites what a reader cannot open; cite the paper "
        "(authors, year, title, venue, section) or say what the code does:\n" + "\n".join(offences)
    )


@pytest.mark.parametrize(
    "line",
    [
        "See ``shared/reference/004``.",
        "(ALGORITHMS.md 5.2 b)",
        "house rules in STYLE.md",
        "corrected by ERRATA.md",
        "CSV out of core (issue 23, item 4).",
        "as Issue 11 asked",
        "fixed in #12",
        "(see #7)",
        "issues 22 and 23",
    ],
)
def test_pattern_catches(line):
    assert _offences(line)


@pytest.mark.parametrize(
    "line",
    [
        "color: #222;",
        'stroke="#999"',
        "fill: '#fff'",
        "{color: #666; font-size: 0.9em}",
        "an issue with ties",
        "--issue22 benchmark flag",
        "x = 1  # 2 items",
        "href='#section-3'",
        "Hand (2009), section 4",
        "&#39;",
    ],
)
def test_pattern_spares(line):
    assert not _offences(line)
