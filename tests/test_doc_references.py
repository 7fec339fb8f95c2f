"""Every place that sends a reader to a section of the documentation finds it there, and the README's
library example runs.

A reference is written ``docs/PAGE.md, "Section"`` (within docs/, ``PAGE.md, "Section"``; the README
as ``README, "Section"``) in code, tests, scripts, variant files and pages; the section is a heading
that starts with those words, or a paragraph whose bold lead does.  Every Markdown link to a file
of the repository points at one that exists.  (``tests/test_rules_doc.py`` does the same for rule ids.)"""
import doctest
import re
from pathlib import Path
from typing import Iterator, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = re.compile(r'(?:(docs/)?([A-Z][A-Z0-9_]*\.md)\)?|README), "([^"]+)"')      # ")": a link's end
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


def sources() -> Iterator[Path]:
    yield ROOT / "README.md"
    yield ROOT / ".ci" / "run"
    for folder, patterns in (("docs", ("*.md",)), ("xboard_engine", ("*.py", "*.js", "*.html")),
                             ("tests", ("*.py",)), ("scripts", ("*.py", "*.sh")), ("variants", ("*.ini",))):
        for pattern in patterns:
            yield from (p for p in sorted((ROOT / folder).rglob(pattern)) if p != Path(__file__).resolve())


def references() -> Iterator[Tuple[Path, str, Path, str]]:
    """(the file, the text cited, the page, the section) of every reference."""
    for path in sources():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in REFERENCE.finditer(text):
            docs_prefix, page, section = match.groups()
            if page is None:
                target = ROOT / "README.md"
            elif docs_prefix or path.parent != ROOT / "docs":
                target = ROOT / "docs" / page
            else:
                target = path.parent / page
            yield path, match.group(0), target, " ".join(section.split())


def sections(page: Path) -> List[str]:
    """A page's headings and bold paragraph leads."""
    found = []
    for line in page.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#+\s+(.*)", line)
        if heading:
            found.append(heading.group(1).strip())
        lead = re.match(r"(?:- )?\*\*([^*]+)\*\*", line)
        if lead:
            found.append(lead.group(1).strip())
    return found


def test_every_section_cited_exists():
    cited = list(references())
    assert len(cited) >= 15
    broken = []
    for path, text, page, section in cited:
        if not page.exists():
            broken.append(f"{path.relative_to(ROOT)}: {text}: no page {page.relative_to(ROOT)}")
        elif not any(s.startswith(section) for s in sections(page)):
            broken.append(f"{path.relative_to(ROOT)}: {text}: no such section in {page.relative_to(ROOT)}")
    assert not broken, "\n".join(broken)


def test_every_link_to_a_file_of_the_repository_exists():
    broken = []
    for path in [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md")):
        for match in LINK.finditer(path.read_text(encoding="utf-8")):
            target = match.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            if not (path.parent / target).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, "\n".join(broken)


def test_the_readme_is_short_and_its_library_example_runs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    blocks = re.findall(r"```pycon\n(.*?)```", text, re.S)
    assert blocks
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "README.md", str(ROOT / "README.md"), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False) == (0, len(test.examples)) and len(test.examples) >= 8
