"""Tools for testing sunbot against servers other than its own (``otherserver``)."""
