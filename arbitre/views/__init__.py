"""Per-viewer views, built by allow-list: what is not put in cannot leak."""

from arbitre.views.model import (
    MASTER,
    OBSERVER,
    ReportLine,
    View,
    VisibleDislodged,
    VisibleOrder,
    VisibleUnit,
)

__all__ = ["MASTER", "OBSERVER", "ReportLine", "View", "VisibleDislodged", "VisibleOrder", "VisibleUnit"]
