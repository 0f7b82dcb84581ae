"""Playing runs: the one loop (:mod:`sunbot.runs.loop`) over a backend
(:mod:`sunbot.runs.backends`: the engine in-process; :mod:`sunbot.runs.remote`: any server
through the client), the match loop (:mod:`sunbot.runs.match`) and the summary a run returns
(:mod:`sunbot.runs.summary`).

Submodules are imported on use: ``sunbot.runs.backends`` and ``sunbot.runs.loop`` import no
HTTP code, so a bench worker on the engine stays light.
"""
