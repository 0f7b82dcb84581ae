"""Text we write, made safe first (private: the modules below are imported by their names).

- :mod:`sunbot._text.safe`: secrets scrubbed by value, free text clipped, for every message.
- :mod:`sunbot._text.terminal`: outside text made printable for the terminal.
- :mod:`sunbot._text.redaction`: seat tokens out of log records, for the client and the server.
- :mod:`sunbot._text.atomic_write`: an output file written whole or not at all.
"""
