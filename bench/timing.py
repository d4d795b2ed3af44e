"""CPU timing shared by the bench scripts: one call's CPU time on this thread, garbage collector off (as ``timeit``)."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


def cpu(call: Callable[[], Any]) -> float:
    """This thread's CPU seconds for one call, garbage collector off (as ``timeit``): other work on the
    machine inflates it less than wall time."""
    gc.collect()
    gc.disable()
    try:
        start = time.thread_time()
        call()
        return time.thread_time() - start
    finally:
        gc.enable()
