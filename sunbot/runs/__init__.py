"""Playing runs and matches: the one loop (:mod:`sunbot.runs.loop`) over a backend
(:mod:`sunbot.runs.backends`: the engine in-process; :mod:`sunbot.runs.remote`: any server
through the client), the one seat loop of a match (:mod:`sunbot.runs.seats`) over a seat
backend (:mod:`sunbot.runs.seat_engine`: the engine in-process; :mod:`sunbot.runs.seat_http`:
any match server), a match run on a server with its mirrors and transcript
(:mod:`sunbot.runs.match`), and the summaries a run and a match return
(:mod:`sunbot.runs.summary`).

Submodules are imported on use: ``sunbot.runs.backends``, ``sunbot.runs.loop`` and the seat
loop import no HTTP code, so a bench worker on the engine stays light.
"""
