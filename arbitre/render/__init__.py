"""Drawings of views: SVG (and PNG through cairosvg) of a board as one viewer sees it.

The renderer draws a :class:`~arbitre.views.model.View`, never a game, so a
power's map cannot show more than that power's view.
"""

from arbitre.render.board import Geometry, UnknownGeometryError, available_geometries, load_geometry
from arbitre.render.png import PngUnavailableError, render_png, svg_to_png
from arbitre.render.svg import POWER_STYLES, PowerStyle, phase_title, power_style, render_svg

__all__ = [
    "POWER_STYLES",
    "Geometry",
    "PngUnavailableError",
    "PowerStyle",
    "UnknownGeometryError",
    "available_geometries",
    "load_geometry",
    "phase_title",
    "power_style",
    "render_png",
    "render_svg",
    "svg_to_png",
]
