"""Hostile input for the attack tests: hypothesis strategies and the profiles that size the runs.

Profiles: ``hostile-ci`` (short, the default) and ``hostile-long`` (thousands of
examples), chosen with ``ARBITRE_HYPOTHESIS_PROFILE=long``; ``ARBITRE_HOSTILE_EXAMPLES=N``
sets the number of examples of every hostile test of either profile.
"""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

settings.register_profile(
    "hostile-ci",
    max_examples=20,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
settings.register_profile(
    "hostile-long",
    max_examples=2500,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
HOSTILE = settings.get_profile(
    "hostile-long" if os.environ.get("ARBITRE_HYPOTHESIS_PROFILE") == "long" else "hostile-ci"
)
if os.environ.get("ARBITRE_HOSTILE_EXAMPLES", "").isdigit():
    HOSTILE = settings(HOSTILE, max_examples=int(os.environ["ARBITRE_HOSTILE_EXAMPLES"]))
"""The settings of every hostile-input test (``@HOSTILE``)."""

WORDS = [
    "A PAR - BUR",
    "F BRE - MAO",
    "A MUN S A PAR - BUR",
    "SPY MUN",
    "A PAR H",
    "BUILD A PAR",
    "F LON",
    "FRANCE",
    "ENGLAND",
    "standard",
    "colonial",
    "submarines",
    "espionnite",
    "S1901M",
    "F1901R",
    "W1901A",
    "master",
    "observer",
    "*",
    "MASTER",
    "orders",
    "ready",
    "phase",
    "units",
    "dislodged",
    "retreats",
]

bad_chars = st.sampled_from(
    [
        "\x00",
        "\x07",
        "\x1b",
        "\x7f",
        "\x85",
        "\u2028",
        "\u2029",
        "\ufeff",
        "\ufffe",
        "\ud800",
        "\udfff",
        "\udc80",
        "\r",
        "\n",
        "\f",
        "\t",
        "é",
        "\U0001f600",
        "'",
        "<",
        "&",
    ]
)
"""Characters that break naive readers: controls, lone surrogates, line separators, markup."""


def texts() -> st.SearchStrategy[str]:
    """Short strings, known words with bad characters spliced in, and huge strings."""
    spliced = st.tuples(st.sampled_from(WORDS), bad_chars, st.integers(0, 12)).map(
        lambda t: t[0][: t[2]] + t[1] + t[0][t[2] :]
    )
    return st.one_of(
        st.sampled_from(WORDS),
        spliced,
        st.text(max_size=20),
        st.text(st.characters(categories=["Cs", "Cc", "Zl", "Zp", "Co"]), max_size=8),
        st.sampled_from([10**3, 10**4, 70_000]).map(lambda n: "x" * n),
    )


def numbers() -> st.SearchStrategy[Any]:
    """Integers and floats, huge and non-finite ones included."""
    return st.one_of(
        st.integers(-10, 10**6),
        st.sampled_from([2**31, 2**53, 2**63, -(2**63), 10**30]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.booleans(),
    )


def json_values(depth: int = 3) -> st.SearchStrategy[Any]:
    """Any JSON-shaped value, with hostile leaves."""
    leaves = st.one_of(st.none(), numbers(), texts())
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.one_of(st.sampled_from(WORDS), texts()), inner, max_size=4)
        ),
        max_leaves=12,
    )


def dumps_loose(value: Any) -> str:
    """JSON text of ``value`` (NaN, Infinity and lone surrogates written as Python writes them)."""
    return json.dumps(value, ensure_ascii=True)


def raw_documents(base: dict[str, Any]) -> st.SearchStrategy[bytes]:
    """Raw request bodies built around ``base``: valid, mutated, duplicated fields, deeply nested, huge
    integers, invalid UTF-8, truncated, or not JSON at all."""

    def mutate(t: tuple[str, Any, int, int]) -> bytes:
        how, value, n, cut = t
        field = next(iter(base), "x")
        doc = dict(base)
        if how == "replace":
            doc[field] = value
            return dumps_loose(doc).encode()
        if how == "add":
            doc[f"extra{n}"] = value
            return dumps_loose(doc).encode()
        text = dumps_loose(doc)
        if how == "duplicate":
            return (text[:-1] + f', "{field}": ' + dumps_loose(value) + "}").encode()
        if how == "deep":
            return (text[:-1] + f', "{field}": ' + "[" * (n * 40) + "]" * (n * 40) + "}").encode()
        if how == "digits":
            return (text[:-1] + f', "{field}": ' + "9" * (n * 1000 + 1) + "}").encode()
        if how == "bad_utf8":
            raw = text.encode()
            return raw[: cut % (len(raw) + 1)] + b"\xff\xc3\x28\xed\xa0\x80" + raw[cut % (len(raw) + 1) :]
        if how == "truncate":
            return text[: cut % (len(text) + 1)].encode()
        return b"not json " + text.encode()

    return st.tuples(
        st.sampled_from(
            ["replace", "add", "duplicate", "deep", "digits", "bad_utf8", "truncate", "garbage", "replace", "replace"]
        ),
        json_values(),
        st.integers(1, 5),
        st.integers(0, 500),
    ).map(mutate)
