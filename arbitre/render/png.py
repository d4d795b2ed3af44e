"""PNG export of a drawn view, through cairosvg (the ``render`` extra)."""

from __future__ import annotations

from arbitre.render.board import Geometry
from arbitre.render.svg import render_svg
from arbitre.views.model import View


class PngUnavailableError(RuntimeError):
    """Raised when cairosvg is not installed (``pip install 'arbitre[render]'``)."""


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """Rasterise an SVG document to PNG bytes; ``scale`` 2 doubles the pixel size."""
    try:
        import cairosvg  # type: ignore[import-untyped]  # cairosvg ships no type stubs
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise PngUnavailableError("PNG output needs cairosvg: pip install 'arbitre[render]'") from err
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale, background_color="white")
    assert isinstance(png, bytes)
    return png


def render_png(view: View, geometry: Geometry | None = None, *, scale: float = 1.0) -> bytes:
    """Draw ``view`` and return PNG bytes."""
    return svg_to_png(render_svg(view, geometry), scale)
