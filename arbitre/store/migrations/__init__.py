"""Alembic migrations of the arbitre schema."""
