"""The rule book's text, held once in the library, matches the rules page (``docs/rules.md``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from fivehundred._engine.rulebook import RULE_TEXT, cited
from test_docs import RULE_IDS

ROOT: Final = Path(__file__).resolve().parent.parent
RULES_PAGE: Final = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
SECTIONS: Final = tuple(f"R{n}" for n in range(1, 10))


def page_rows() -> dict[str, list[str]]:
    """The cells of every table row of the rules page that starts with a rule ID."""
    rows = {}
    for line in RULES_PAGE.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] in RULE_TEXT:
            rows[cells[0]] = cells[1:]
    return rows


def test_every_rule_of_the_book_has_a_text_and_nothing_else_does() -> None:
    assert list(RULE_TEXT) == [*SECTIONS, *RULE_IDS]
    assert all(text.strip() == text and text for text in RULE_TEXT.values())


def test_the_rules_page_shows_the_library_s_text_for_every_rule() -> None:
    rows = page_rows()
    assert set(rows) == set(RULE_IDS), sorted(set(rows) ^ set(RULE_IDS))
    for rule in RULE_IDS:
        # the default game and the tables: | ID | text | where |; variants: | ID | option | text |
        text = rows[rule][1] if rule.startswith("V-") else rows[rule][0]
        assert text == RULE_TEXT[rule], rule


def test_the_rules_page_names_each_section_as_the_library_does() -> None:
    for section in SECTIONS:
        assert f"{section} {RULE_TEXT[section]}" in " ".join(RULES_PAGE.split()), section


def test_every_rule_the_library_cites_has_a_text() -> None:
    """Every ID in a message of the library can be shown by ``why``."""
    token = re.compile(r"\b(R\d(?:\.\d)?|V-[A-Z0-9]+(?:-[A-Z0-9]+)*|P-END|P\d)(?!\w)")
    unknown = {
        f"{path.name}: {rule}"
        for path in (ROOT / "src" / "fivehundred").rglob("*.py")
        for rule in token.findall(path.read_text(encoding="utf-8"))
        if rule not in RULE_TEXT
    }
    assert not unknown, sorted(unknown)


def test_cited_reads_rules_sections_variants_tables_and_ranges() -> None:
    assert cited("seat 1 has passed and may not call again in this auction (R3.7)") == ["R3.7"]
    assert cited("(R5.3, R7.3-R7.5)") == ["R5.3", "R7.3", "R7.4", "R7.5"]
    assert cited("the deck (R1.1, V-45, P2–P6)") == ["R1.1", "V-45", "P2", "P3", "P5", "P6"]
    assert cited("P5: the contractor calls a partner (P5, not in misère)") == ["P5"]
    assert cited("single_round (V-AMERICAN) and V-SELF-RAISE; the game is over (R9)") == [
        "V-AMERICAN",
        "V-SELF-RAISE",
        "R9",
    ]
    # not rule IDs: a card, a bid, a score, an unknown variant
    assert cited("played 10H over 7NT for R500 (V-NOTHING, R0.1, P9)") == []
