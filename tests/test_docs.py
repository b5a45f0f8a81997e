"""The documentation holds together: every link in README.md and docs/ points at a file (and a
heading) that exists, and no code cites a document outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
CODE_DIRS = ("app", "engines", "tests", "scripts", "bench", "templates", "static")
CODE_SUFFIXES = {".py", ".html", ".js", ".css", ".sh", ".txt", ".cfg", ".toml"}


OUTSIDE = re.compile(r"\.\./shared|shared/(?:rules|seeds|design\.md)|(?<![\w/.-])design\.md")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def prose(text: str) -> str:
    """The Markdown without its code (fenced blocks, indented blocks, inline code)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file."""
    return {
        slug(line.lstrip("#"))
        for line in prose(path.read_text(encoding="utf-8")).splitlines()
        if line.startswith("#")
    }


def links(path: Path) -> list[str]:
    """The local link targets of a Markdown file (web and mail links left out)."""
    found = LINK.findall(prose(path.read_text(encoding="utf-8")))
    return [t for t in found if not re.match(r"[a-z]+:", t)]


def test_the_docs_exist() -> None:
    assert (ROOT / "docs" / "architecture.md").is_file()
    assert len(DOCS) > 10


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves(doc: Path) -> None:
    broken = []
    for target in links(doc):
        file_part, _, anchor = target.partition("#")
        dest = (doc.parent / file_part).resolve() if file_part else doc
        missing_heading = (
            dest.exists() and anchor and dest.suffix == ".md" and anchor not in anchors(dest)
        )
        if not dest.exists() or missing_heading:
            broken.append(target)
    assert not broken, f"{doc.relative_to(ROOT)} links to missing files or headings: {broken}"


def test_links_are_checked() -> None:
    """The checker sees links, images and anchors, and skips code and web addresses."""
    sample = ROOT / "docs" / "glossary.md"
    assert "architecture.md#the-engine-contract" in links(sample)
    assert slug("Copy abilities: Denial, Embody, Mimic") == "copy-abilities-denial-embody-mimic"
    assert LINK.findall("see ![shot](docs/a.png) and [x](b.md#c)") == ["docs/a.png", "b.md#c"]
    assert LINK.findall(prose("`[x](nowhere.md)`\n\n    [y](nowhere.md)")) == []


def test_code_cites_only_what_the_repository_holds() -> None:
    offenders = []
    for top in CODE_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix not in CODE_SUFFIXES or not path.is_file():
                continue
            if path == Path(__file__).resolve() or "/vendor/" in rel or "/node_modules/" in rel:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if OUTSIDE.search(line):
                    offenders.append(f"{rel}:{number}: {line.strip()}")
    assert not offenders, "cite docs/ instead:\n" + "\n".join(offenders)


def test_the_citation_pattern_catches_outside_paths() -> None:
    assert OUTSIDE.search("see ../shared/design.md")
    assert OUTSIDE.search("Rule source: shared/rules/ganges.md")
    assert OUTSIDE.search("The move path (design.md): parse")
    assert not OUTSIDE.search("Rule source: docs/rules/ganges.md")
    assert not OUTSIDE.search("see docs/architecture.md")
