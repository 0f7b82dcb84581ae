"""Runs played again from their transcripts, through the API: a language model's run from
its recorded answers (:mod:`sunbot.rerun.llm`, ``sunbot replay --rerun``)."""
