"""The orders of the current step, one row per power, with the ready switch."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbitre.store.models import OrderRow


def orders_of_step(session: Session, game_id: int, phase: str, step: str) -> dict[str, OrderRow]:
    """Every power's order row for one step of one phase."""
    rows = session.scalars(
        select(OrderRow).where(OrderRow.game_id == game_id, OrderRow.phase == phase, OrderRow.step == step)
    )
    return {r.power: r for r in rows}


def order_row(session: Session, game_id: int, phase: str, step: str, power: str) -> OrderRow | None:
    """One power's order row, if it has given orders."""
    return session.scalars(
        select(OrderRow).where(
            OrderRow.game_id == game_id, OrderRow.phase == phase, OrderRow.step == step, OrderRow.power == power
        )
    ).first()


def save_orders(
    session: Session,
    game_id: int,
    phase: str,
    step: str,
    power: str,
    lines: list[str] | None,
    ready: bool,
    now: datetime,
) -> OrderRow:
    """Replace the power's orders (when ``lines`` is given) and store its ready switch (the engine's
    progress's value, :func:`arbitre.life.stored.ready_of`)."""
    row = order_row(session, game_id, phase, step, power)
    if row is None:
        row = OrderRow(game_id=game_id, phase=phase, step=step, power=power, lines=[], ready=False, updated_at=now)
        session.add(row)
    if lines is not None:
        row.lines = [line.strip() for line in lines if line.strip()]
    row.ready = ready
    row.updated_at = now
    session.flush()
    return row
