"""The generic LRU (:mod:`arbitre.caching`): it behaves like a plain reference model under any sequence of
gets, puts, makes and discards, never holds more than its bound, and is safe to share between threads."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.caching import LRU

KEYS = st.integers(min_value=0, max_value=7)
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("get"), KEYS, st.none()),
        st.tuples(st.just("put"), KEYS, st.integers()),
        st.tuples(st.just("make"), KEYS, st.integers()),
        st.tuples(st.just("make_unkept"), KEYS, st.integers()),
        st.tuples(st.just("discard"), KEYS, st.none()),
    ),
    max_size=80,
)


class Model:
    """The reference: a list of (key, value), least recently used first, cut to ``size`` from the front."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: list[tuple[int, int]] = []

    def _take(self, key: int) -> int | None:
        for i, (k, v) in enumerate(self.items):
            if k == key:
                del self.items[i]
                return v
        return None

    def get(self, key: int) -> int | None:
        found = self._take(key)
        if found is not None:
            self.items.append((key, found))
        return found

    def put(self, key: int, value: int) -> None:
        self._take(key)
        self.items.append((key, value))
        del self.items[: max(0, len(self.items) - self.size)]


@settings(max_examples=300, deadline=None)
@given(size=st.integers(min_value=1, max_value=5), ops=OPS)
def test_the_lru_behaves_like_the_reference_model(size: int, ops: list[tuple[str, int, int | None]]) -> None:
    lru: LRU[int, int] = LRU(size)
    model = Model(size)
    made: list[int] = []
    for op, key, value in ops:
        if op == "get":
            assert lru.get(key, None) == model.get(key)
        elif op == "put":
            assert value is not None
            lru.put(key, value)
            model.put(key, value)
        elif op in ("make", "make_unkept"):
            assert value is not None
            kept = op == "make"
            expected = model.get(key)
            before = len(made)
            got = lru.get_or_make(key, lambda v=value: made.append(v) or v, keep=lambda _v, k=kept: k)
            if expected is not None:
                assert got == expected and len(made) == before  # found: nothing made
            else:
                assert got == value and made[-1] == value  # made once
                if kept:
                    model.put(key, value)
        else:
            lru.discard(key)
            model._take(key)
        assert len(lru) <= size
        assert lru.keys() == [k for k, _v in model.items]


def test_a_kept_none_is_found() -> None:
    lru: LRU[str, int | None] = LRU(2)
    calls: list[int] = []
    assert lru.get_or_make("a", lambda: calls.append(1)) is None
    assert lru.get_or_make("a", lambda: calls.append(1)) is None
    assert calls == [1] and "a" in lru and lru.hits == 1 and lru.misses == 1


def test_the_bound_is_at_least_one() -> None:
    with pytest.raises(ValueError, match="at least one"):
        LRU(0)


def test_threads_share_it_and_the_bound_holds() -> None:
    lru: LRU[int, int] = LRU(16)
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            for i in range(2000):
                key = (i * 7 + seed) % 40
                assert lru.get_or_make(key, lambda k=key: k * k) == key * key
                assert len(lru) <= 16
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(lru) == 16
