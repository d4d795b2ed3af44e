"""Per-viewer views, built by allow-list: what is not put in cannot leak."""

from arbitre.views.build import build_view, check_viewer, next_position_data, public_results_data
from arbitre.views.data import position_data, report_data, results_data, view_to_data
from arbitre.views.model import (
    MASTER,
    OBSERVER,
    ReportLine,
    View,
    VisibleDislodged,
    VisibleOrder,
    VisibleUnit,
)

__all__ = [
    "MASTER",
    "OBSERVER",
    "ReportLine",
    "View",
    "VisibleDislodged",
    "VisibleOrder",
    "VisibleUnit",
    "build_view",
    "check_viewer",
    "next_position_data",
    "position_data",
    "public_results_data",
    "report_data",
    "results_data",
    "view_to_data",
]
