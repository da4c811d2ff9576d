"""The README's Python examples run (STYLE principle 8).

Every ```python block of README.md is written in ``>>>`` form; the blocks run
in order, sharing one namespace, as one doctest.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
PYTHON_BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def python_blocks() -> list[str]:
    return PYTHON_BLOCK.findall(README.read_text(encoding="utf-8"))


def test_every_python_block_is_a_doctest() -> None:
    blocks = python_blocks()
    assert blocks, "README.md has no ```python block"
    for block in blocks:
        assert block.lstrip().startswith(">>>"), f"not in >>> form:\n{block}"


def test_readme_examples_run() -> None:
    text = "\n".join(python_blocks())
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, README.name, str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.attempted > 0
    assert results.failed == 0, f"{results.failed} of {results.attempted} README examples failed"
