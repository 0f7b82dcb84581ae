"""Forward models checked against a server, and drafted by a language model.

- :mod:`sunbot.certify.check`: ``sunbot certify``, seeded trajectories played through the
  API with the model predicting every answer; the report and the certificate.
- :mod:`sunbot.certify.draft`: ``sunbot engine draft``, a model written by a language model
  and corrected from its divergences, run only in a sandboxed child.

Like ``sunbot check-bot`` (:mod:`sunbot.checkbot`), this lives above the API it plays
through. Guide: ``docs/guide-forward-models.md``.
"""
