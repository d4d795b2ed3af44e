"""MILA's websocket protocol on the site's own port: MILA's ``diplomacy`` clients (PyPI ``diplomacy`` 1.1.2,
``diplomacy.client.connection.connect(host, port)``) play the site's games with the site's accounts.

* :mod:`.names` carries orders and press between MILA's notation and arbitre's;
* :mod:`.board` builds MILA's states (with MILA's state hash, :mod:`arbitre.interface.mila.zobrist`), phase
  data and game objects from a viewer's allow-list views;
* :mod:`.protocol` checks each incoming request at the boundary (pydantic) and writes MILA's errors;
* :mod:`.access` says who a client is in a game and what it may read (roles, seats, press);
* :mod:`.reading` builds what a client is told from its own view (game objects, phases, notifications);
* :mod:`.service` does what each request asks through the site's application services;
* :mod:`.session` is one websocket connection: its tokens, its games, the notifications it is owed;
* :mod:`.route` is the websocket endpoint at ``/`` (the address MILA's client opens).

Written from MILA's documented formats and observed behaviour; no MILA code is used (it is AGPL-3.0).
"""
