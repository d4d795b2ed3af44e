"""Two servers alike in everything a reader may see: for hidden-information pairs that compare ids too.

Two games of one site differ by construction in their game ids, and every id counted across the site
(messages, votes, notifications…) had to be set aside when comparing them.  Two servers built here
differ in nothing but what a test does to them: fresh databases, the same signing key (so that what the
site signs or digests, e-mail ``Message-ID`` tags and unsubscribe links, is the same), the same manual
clock, the same settings.  A test plays the same visible moves on both, adds hidden state to one, and
compares a reader's answers byte for byte, ids included.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from arbitre.server.app import make_site
from arbitre.server.clock import ManualClock
from arbitre.server.site import Settings, Site
from arbitre.store import migrate, open_database
from arbitre.store.models import SiteSetting
from tests.server.conftest import PG_URL, _admin_url

KEY = "twin-servers-signing-key-" + "k" * 40
"""The signing key both servers share."""


@contextmanager
def fresh_database(backend: str, folder: Path, name: str) -> Iterator[str]:
    """A new empty database of ``backend`` (``sqlite`` or ``postgresql``), dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / f'{name}.sqlite3'}"
        return
    if not PG_URL:
        pytest.skip("ARBITRE_TEST_POSTGRES_URL is not set")
    admin = _admin_url()
    db = f"arbitre_t_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{db}"'))
    try:
        yield admin.set(database=db).render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
        engine.dispose()


@contextmanager
def twin_site(backend: str, folder: Path, name: str, **settings: object) -> Iterator[Site]:
    """A migrated site on a fresh database, with the shared signing key and a manual clock at the usual start."""
    with fresh_database(backend, folder, name) as url:
        db = open_database(url)
        migrate(db)
        with db.writing() as s:
            s.merge(SiteSetting(name="secret_key", value=KEY))
        db.dispose()
        site = make_site(Settings(database_url=url, run_worker=False, **settings), ManualClock())  # type: ignore[arg-type]
        try:
            yield site
        finally:
            site.db.dispose()
