"""The game server: FastAPI pages and JSON API, accounts, deadlines worker (see ``create_app``)."""
