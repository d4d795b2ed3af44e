"""Rule cases as data: one case format for every source, one runner through the JSON interface.

A case file holds a header naming its source and a list of cases; each case is a position,
an ordered list of steps (orders, the Espionnite reveal and changes, further phases) and what is
expected after each step, for the master or for a named viewer.  The format is documented in
``docs/cases.md``; :func:`run_case` plays a case through :func:`arbitre.interface.process` only.
"""

from arbitre.cases.file import CASE_FORMAT, CaseFileError, read_case_file
from arbitre.cases.runner import run_case
from arbitre.cases.words import WORDS, word_holds

__all__ = ["CASE_FORMAT", "WORDS", "CaseFileError", "read_case_file", "run_case", "word_holds"]
