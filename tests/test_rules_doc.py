"""Every rule id the code and the tests cite has its text in docs/, and docs/ points to nothing a clone
of the repository does not have.

Ids: ``R2.2`` (rulings, docs/RULES.md), ``P1`` (project rulings, docs/RULES.md), ``E4.4`` (8 Player
Chess, docs/EIGHT_PLAYER_RULES.md), ``D9`` (web server, docs/WEB_GUARANTEES.md): a letter R, E, P or D,
a section number of one or two digits, and optionally a dot and a sub-number of one or two digits.

Where an id counts as *cited* (in tests/, xboard_engine/ and scripts/; this file is left out, since it
holds fake citations on purpose):

- the name of a test function: ``def test_R8_7_...`` cites R8.7, ``test_E5_...`` cites E5,
  ``test_P3_2019_...`` cites P3 (a sub-number has at most two digits);
- in Python files, the text of comments and of strings (docstrings included), and the whole text of the
  other files (JavaScript, HTML, ...): an id standing alone, that is not preceded by a letter, digit,
  underscore, ``/`` or ``,`` and not followed by a letter, digit, underscore, ``/``, a further ``.digit``
  or a ``,`` with no space after it.  That leaves out flake8 codes (``# noqa: E402``: three digits),
  the ranks of a FEN (``4k3/E7/8``, ``P9/10``), piece-value lists (``P1,N3,B3``) and SAN (``R2c3``),
  while ``R8.7``, ``(R5.5, R8.6)``, ``R9.1-R9.3`` and ``E4.4:`` are citations.  Python code itself
  (names such as ``R23 = [...]``) is not read.

Where an id counts as *defined*: in a Markdown file of docs/, at the start of a heading or of a list
item, followed by a space, ``.``, ``:`` or ``(``: ``## R8. Sentry ...``, ``- R8.7 On its owner's ...``,
``- P1 (pushed unit path): ...``, ``### E5.1 Modes``.  A section id cited alone (``R8``, ``E4``) needs
its heading.  Each id is defined once.
"""
import io
import os
import re
import tokenize
from typing import Dict, Iterable, List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")
CITING_DIRS = ("tests", "xboard_engine", "scripts")
THIS_FILE = os.path.abspath(__file__)

ID = r"[REPD][0-9]{1,2}(?:\.[0-9]{1,2})?"
TEXT_CITATION = re.compile(r"(?<![\w/,])(" + ID + r")(?![\w/]|\.[0-9]|,\S)")
TEST_NAME = re.compile(r"\bdef\s+test_([REPD])([0-9]{1,2})(?:_([0-9]{1,2}))?(?=_|\()")
DEFINITION = re.compile(r"^\s*(?:#{1,6}\s+|[-*]\s+)(" + ID + r")(?=[\s.:(])")
TEXT_FILES = (".py", ".js", ".html", ".css", ".ini", ".sh", ".md", ".txt", ".toml")


def citations_in_text(text: str, python: bool) -> List[str]:
    """The ids ``text`` (the contents of one file) cites."""
    found = []
    for letter, section, sub in TEST_NAME.findall(text):
        found.append(f"{letter}{section}.{sub}" if sub else f"{letter}{section}")
    if python:
        parts = []
        try:
            for token in tokenize.generate_tokens(io.StringIO(text).readline):
                if token.type in (tokenize.COMMENT, tokenize.STRING):
                    parts.append(token.string)
        except (tokenize.TokenError, SyntaxError):
            parts = [text]
    else:
        parts = [text]
    for part in parts:
        found += TEXT_CITATION.findall(part)
    return found


def collect_citations(paths: Iterable[str]) -> Dict[str, List[str]]:
    """id -> the files citing it, for every text file under ``paths`` (files or directories)."""
    files = []
    for path in paths:
        if os.path.isfile(path):
            files.append(path)
        for top, dirs, names in os.walk(path):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__"]
            files += [os.path.join(top, n) for n in names]
    out: Dict[str, List[str]] = {}
    for name in sorted(files):
        if os.path.abspath(name) == THIS_FILE or not name.endswith(TEXT_FILES):
            continue
        with open(name, encoding="utf-8") as f:
            text = f.read()
        for rule in citations_in_text(text, name.endswith(".py")):
            out.setdefault(rule, []).append(os.path.relpath(name, ROOT))
    return out


def collect_definitions(docs: str = DOCS) -> Dict[str, List[str]]:
    """id -> the places (file:line) of docs/ that define it."""
    out: Dict[str, List[str]] = {}
    for name in sorted(os.listdir(docs)):
        if not name.endswith(".md"):
            continue
        with open(os.path.join(docs, name), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = DEFINITION.match(line)
                if m:
                    out.setdefault(m.group(1), []).append(f"docs/{name}:{number}")
    return out


def undefined(citations: Dict[str, List[str]], definitions: Dict[str, List[str]]) -> Dict[str, List[str]]:
    return {rule: sorted(set(where)) for rule, where in citations.items() if rule not in definitions}


def _sources() -> List[str]:
    return [os.path.join(ROOT, d) for d in CITING_DIRS]


def test_every_cited_rule_id_is_defined_in_docs():
    citations = collect_citations(_sources())
    # The collector finds the citations it must: a ruling, a project ruling, an 8 Player ruling and a
    # web guarantee, each from a test name and from text.
    assert {"R8.7", "R2.2", "P1", "P7", "E4.4", "E3.3", "D9", "D10", "R8"} <= set(citations)
    missing = undefined(citations, collect_definitions())
    assert missing == {}, "cited but not defined in docs/: " + "; ".join(
        f"{rule} ({', '.join(where[:3])})" for rule, where in sorted(missing.items()))


def test_each_rule_id_is_defined_once():
    twice = {rule: where for rule, where in collect_definitions().items() if len(where) > 1}
    assert twice == {}


def test_the_checker_reports_a_citation_without_text_and_ignores_what_is_no_citation(tmp_path):
    fake = "R" + "99"
    source = tmp_path / "test_fake.py"
    source.write_text(
        "import os  # noqa: E402\n"
        f"def test_{fake}_9_pushed_unit_flies():\n"
        f"    # see {fake}.9 and R8.7\n"
        "    fens = ['4k3/E7/8/8/8/8/8/4K3 w - - 0 1', '4k5/P9/10/10/10/10/10/4K5 w - - 0 1']\n"
        "    points = 'P1,N3,B3,R5,Q9,K25'\n"
        "    R23 = ['Rd2', 'R2c3']\n"
        f"    '''{fake[0]}98: a docstring citation'''\n", encoding="utf-8")
    script = tmp_path / "page.js"
    script.write_text(f"// the rule E{'98'}.1 applies\n", encoding="utf-8")
    citations = collect_citations([str(tmp_path)])
    assert sorted(citations) == sorted(["R99.9", "R8.7", "R98", "E98.1"])
    assert citations["R99.9"] == [os.path.relpath(str(source), ROOT)] * 2     # the name and the comment
    missing = undefined(citations, collect_definitions())
    assert sorted(missing) == ["E98.1", "R98", "R99.9"]                           # R8.7 has its text


def test_a_definition_needs_the_start_of_a_heading_or_list_item(tmp_path):
    (tmp_path / "x.md").write_text("## R8. Sentry\n- R8.7 text\n  - P1 (name): text\n"
                                   "### E5.1 Modes\nSee R2.2 for this.\n- see R3.1\n", encoding="utf-8")
    assert sorted(collect_definitions(str(tmp_path))) == ["E5.1", "P1", "R8", "R8.7"]


# The repository's readers have no copy of the files the rules were first written in: nothing may
# point them there.
_OUTSIDE = re.compile(r"\bshared/|RULINGS|\bseeds/|(?<![\w])EIGHT_PLAYER\.md")


def test_docs_and_sources_point_to_no_file_outside_the_repository():
    places = [os.path.join(ROOT, "README.md"), DOCS, os.path.join(ROOT, "variants")] + _sources()
    hits = []
    for place in places:
        names = [place] if os.path.isfile(place) else [
            os.path.join(top, n) for top, dirs, files in os.walk(place) for n in files]
        for name in names:
            if os.path.abspath(name) == THIS_FILE or not name.endswith(TEXT_FILES):
                continue
            with open(name, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    if _OUTSIDE.search(line):
                        hits.append(f"{os.path.relpath(name, ROOT)}:{number}: {line.strip()[:80]}")
    assert hits == []


def test_the_outside_reference_pattern_catches_the_old_pointers():
    for line in ("see shared/RULINGS.md R8.7", "seeds/chess80.txt", "(EIGHT_PLAYER.md E4.4)", "RULINGS R3.6"):
        assert _OUTSIDE.search(line), line
    for line in ("docs/EIGHT_PLAYER_RULES.md E4.4", "shared_table.py", "seeds, and", "the seed texts"):
        assert not _OUTSIDE.search(line), line
