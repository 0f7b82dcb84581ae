"""A bench's options reach only the agents they belong to: ``-s search -s llm:MODEL
--lookahead N`` builds both (each job's options are the bench's, shared)."""

from __future__ import annotations

from sunbot.agents.llm import LLMStrategy
from sunbot.bench.jobs import Job, _start
from sunbot.strategies.search import Search

OPTIONS = (
    ("base_url", "http://127.0.0.1:9/v1"),
    ("lookahead", 5),
    ("lookahead_budget", 50),
    ("max_tokens", 64),
)


def test_search_gets_the_search_options_and_the_llm_its_own() -> None:
    search = _start(Job("maze-runner", "search", 1, server="http://127.0.0.1:9", options=OPTIONS))
    assert isinstance(search, Search)
    assert search.lookahead is not None
    assert (search.lookahead.per_decision, search.lookahead.budget) == (5, 50)
    assert search.lookahead.server == "http://127.0.0.1:9"
    search.close()
    llm = _start(Job("maze-runner", "llm:legal", 1, server="http://127.0.0.1:9", options=OPTIONS))
    assert isinstance(llm, LLMStrategy)
    assert llm.max_tokens == 64


def test_random_ignores_the_search_options() -> None:
    bot = _start(Job("maze-runner", "random", 1, server="http://127.0.0.1:9", options=OPTIONS))
    assert bot.choose({}, [{"a": 1}]) == {"a": 1}
