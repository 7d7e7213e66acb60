"""A QR code as a flowable: segno encodes, ReportLab draws each dark module as a square."""

from __future__ import annotations

import segno
from reportlab.lib import colors
from reportlab.platypus import Flowable

#: The light margin around the symbol, in modules (ISO/IEC 18004 asks for 4).
QUIET_ZONE = 4


class QRCode(Flowable):
    """``data`` as a square QR code ``size`` points wide, quiet zone included."""

    def __init__(self, data: str, size: float) -> None:
        super().__init__()
        self.matrix = [list(row) for row in segno.make(data, error="m", micro=False).matrix]
        self.size = size
        self.width = self.height = size

    def draw(self) -> None:
        modules = len(self.matrix) + 2 * QUIET_ZONE
        step = self.size / modules
        canvas = self.canv
        canvas.setFillColor(colors.white)
        canvas.rect(0, 0, self.size, self.size, stroke=0, fill=1)
        canvas.setFillColor(colors.black)
        for y, row in enumerate(self.matrix):
            top = self.size - (y + QUIET_ZONE + 1) * step
            for x, dark in enumerate(row):
                if dark:
                    canvas.rect((x + QUIET_ZONE) * step, top, step, step, stroke=0, fill=1)
