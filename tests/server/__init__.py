"""Tests of the store and the game server."""
