"""Paper for events at the table: table cards, score sheets, pairings sheets, and a
competition's standings and crosstable to print, as PDF.

``fonts`` registers the faces, ``shaping`` shapes every text with HarfBuzz, ``layout`` holds
what every sheet shares (user text escaped for ReportLab's markup, styles, the page), ``qr``
draws a QR code; one module per sheet.

A new sheet is built from ``layout`` alone, so that its text is shaped and set in each
script's face like the others': ``para`` for any text (a name, a reason, the sheet's own
words), ``grid`` for a ruled table (a string cell becomes a ``para``; in the columns it is
told hold the sheet's own figures, a ``Figures``: short lines shaped the same way, without a
paragraph's cost, for a table of thousands of cells), ``OneLine`` for a text
never to be broken (it shrinks instead), ``draw_text`` for what is drawn straight on a page's
canvas (a running header, a page number), ``style`` when a ``Paragraph`` is made by hand, and
``build`` for the document. Its test can hold each name against HarfBuzz's shaping of it with
``tests.games.pdf_glyphs.shaped_as_harfbuzz``. The scoring app reaches a sheet through its
port (``scoring.ports``), as the table cards and pairings are.
"""
