"""The JSON interface used by bots, other sites and the acceptance checks."""

from arbitre.interface.adjudicate import (
    RequestError,
    answer_lines,
    parse_request,
    process,
    process_bytes,
    process_text,
)

__all__ = ["RequestError", "answer_lines", "parse_request", "process", "process_bytes", "process_text"]
