"""Paper for events at the table: table cards, score sheets and pairings sheets, as PDF.

``fonts`` registers the typeface, ``layout`` holds what every sheet shares (user text escaped
for ReportLab's markup, styles, the page), ``qr`` draws a QR code; one module per sheet.
"""
