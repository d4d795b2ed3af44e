"""Capture builds: a power may build in any home centre it owns, its own or another power's.

One folder and one entry in :mod:`arbitre.variants.registry` (written by
following ``docs/architecture.md``, "Adding a rule module"); its rule cases are
``cases.json`` here.  Choose it with ``--rules capture_builds``.
"""

from arbitre.variants.capture_builds.variant import CaptureBuilds, make_capture_builds

__all__ = ["CaptureBuilds", "make_capture_builds"]
