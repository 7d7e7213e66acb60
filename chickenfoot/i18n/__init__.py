"""The languages the service speaks: how dates and numbers are written in each (``formats``)."""
