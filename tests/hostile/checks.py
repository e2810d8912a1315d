"""Checks that an executed notebook's outputs show hostile text as text: no live markup, no maths."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from tests.hostile.corpus import FORBIDDEN_TAGS

NO_MATH = ("mathjax_ignore", "tex2jax_ignore")
MATH_START = re.compile(r"(?<!\\)\$|\\\(|\\\[")
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class _Scan(HTMLParser):
    """Tags, attributes and the text MathJax would scan (outside ignore blocks and code)."""

    VOID = {"br", "hr", "img", "input", "meta", "link", "col", "area", "base", "wbr", "source"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # (tag, ignores maths)

    def _ignored(self) -> bool:
        return any(ignore for _, ignore in self.stack)

    def handle_starttag(self, tag, attrs):
        if tag in FORBIDDEN_TAGS:
            self.problems.append(f"live <{tag}> tag")
        for name, value in attrs:
            if name.lower().startswith("on"):
                self.problems.append(f"event handler {name}= on <{tag}>")
            if name.lower() in ("href", "src", "action", "formaction") and value:
                if (
                    re.sub(r"[\s\x00-\x1f]", "", value)
                    .lower()
                    .startswith(("javascript:", "vbscript:"))
                ):
                    self.problems.append(f"script URL in {name}= on <{tag}>")
        classes = dict(attrs).get("class") or ""
        ignore = tag in ("code", "pre") or any(c in classes.split() for c in NO_MATH)
        if tag not in self.VOID:
            self.stack.append((tag, ignore))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self._ignored() and MATH_START.search(data):
            self.problems.append(f"maths delimiter outside an ignore block: {data.strip()[:60]!r}")


def html_problems(fragment: str) -> list[str]:
    """Everything in an HTML fragment that would run or be typeset."""
    scan = _Scan()
    scan.feed(fragment)
    scan.close()
    return scan.problems


def markdown_problems(source: str) -> list[str]:
    """Markdown output rendered the way nbconvert (and, for these constructs, JupyterLab) does."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    return html_problems(markdown2html_mistune(source))


def notebook_problems(nb: dict) -> list[str]:
    """Every unsafe thing in an executed notebook's outputs, with the cell it is in."""
    out = []
    for i, cell in enumerate(nb.get("cells", [])):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            found = []
            if "text/html" in data:
                found += html_problems(_text(data["text/html"]))
            if "text/markdown" in data:
                found += markdown_problems(_text(data["text/markdown"]))
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                found.append(f"stderr: {_text(output.get('text', ''))[:200]}")
            if output.get("output_type") == "error":
                found.append(f"error output: {output.get('ename')}: {output.get('evalue')}")
            out += [f"cell {i}: {p}" for p in found]
    return out


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)
