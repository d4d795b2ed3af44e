"""A game's life, as application code: creation's start (seating), submissions, steps and their deadlines,
processing, votes carried out, bots playing their seats.

It runs the engine (:class:`arbitre.judge.Game` and its phase progress) and asks :mod:`arbitre.store`
only to persist: rows in, rows out.  An import-linter contract keeps the store from importing this
package, the phase progress, the steps, the seating or the adjudicator.
"""
