"""The service's languages: their codes and names, the catalogs (extracted and compiled), and
how dates and numbers are written in each (``formats``)."""
