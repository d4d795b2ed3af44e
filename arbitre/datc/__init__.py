"""Readers for DATC (Diplomacy Adjudicator Test Cases) data files.

Two formats are understood, both parsed from text the caller supplies:

* :func:`parse_datc_html` reads the machine-readable HTML of DATC v3.1+
  (chapter 6) into :class:`DatcCase` values with per-order results;
* :func:`parse_judge_text` reads the jDip/godip ``CASE`` … ``END`` text
  format into :class:`JudgeTextCase` values with full before/after states.
"""

from arbitre.datc.html_cases import (
    DatcCase,
    DatcOrder,
    DatcParseError,
    OwnershipFact,
    parse_datc_html,
)
from arbitre.datc.text_cases import JudgeTextCase, parse_judge_text

__all__ = [
    "DatcCase",
    "DatcOrder",
    "DatcParseError",
    "JudgeTextCase",
    "OwnershipFact",
    "parse_datc_html",
    "parse_judge_text",
]
