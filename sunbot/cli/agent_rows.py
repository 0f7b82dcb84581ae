"""Summary rows of an agent's totals (``RunSummary.agent``, a match's ``agent``): what
``sunbot play`` shows of a model's calls and tokens and of a clocked bot's decision times,
for a single-player run and a match alike."""

from __future__ import annotations

from typing import Any

from sunbot._text.terminal import printable


def model_line(agent: dict[str, Any]) -> str:
    """``MODEL · N calls · IN in / OUT out tokens`` (and ``· $COST`` with a price)."""
    return (
        f"{agent.get('model')} · {agent.get('calls', 0)} calls · "
        f"{agent.get('promptTokens', 0):,} in / {agent.get('completionTokens', 0):,} out tokens"
        + (f" · ${agent['costUsd']:.4f}" if agent.get("costUsd") is not None else "")
    )


def usage_line(agent: dict[str, Any]) -> str | None:
    """What a model's token counts rest on, when not only the endpoint's word: its
    ``usage`` not believed (over what the request could use: cut; under a floor: raised),
    calls estimated (no ``usage``, or cut before an answer), answers from the cache;
    ``None`` when every count is the endpoint's own."""
    parts = []
    cut, raised = int(agent.get("usageCut") or 0), int(agent.get("usageRaised") or 0)
    if cut:
        parts.append(
            f"the endpoint over-reported {cut} counts (charged at the prompt's size and the"
            " answer's length)"
        )
    if raised:
        parts.append(f"{raised} counts under-reported (raised to the text's size)")
    if estimated := int(agent.get("usageEstimated") or 0):
        parts.append(f"{estimated} calls estimated (no usage, or cut before an answer)")
    if hits := int(agent.get("cacheHits") or 0):
        parts.append(f"{hits} answers from the cache (0 tokens)")
    return " · ".join(parts) if parts else None


def agent_rows(agent: dict[str, Any]) -> dict[str, str]:
    """Rows ``model``, ``model answers`` (a model's calls, tokens, re-asks, fallbacks and
    cost; its decisions the move clock cut, a match's missed beats, beside its own late
    ones), ``model usage`` (:func:`usage_line`, when there is one) and ``decision time``
    (p50/p95/max ms of a clocked or external bot; the percentiles left out when unknown,
    as over several seats); ``{}`` for ``{}``."""
    rows: dict[str, str] = {}
    if agent.get("kind") == "llm":
        rows["model"] = model_line(agent)
        clock = agent.get("clock")
        missed = int(clock.get("timeouts") or 0) if isinstance(clock, dict) else 0
        late = f"{agent.get('late', 0)} late" + (f" ({missed} past the clock)" if missed else "")
        rows["model answers"] = (
            f"{agent.get('reasks', 0)} re-asked · {agent.get('fallbacks', 0)} fallbacks · "
            f"{late} · {agent.get('errors', 0)} errors"
        )
        if (usage := usage_line(agent)) is not None:
            rows["model usage"] = usage
    if agent.get("kind") == "search":
        rows.update(search_rows(agent))
    clock = agent.get("clock")
    if isinstance(clock, dict) and clock.get("decisions"):
        quantiles = (("p50", "p50Ms"), ("p95", "p95Ms"))
        known = [f"{q} {clock[k]} ms" for q, k in quantiles if clock.get(k) is not None]
        rows["decision time"] = " · ".join([*known, f"max {clock.get('maxMs')} ms"])
    return {k: printable(v) for k, v in rows.items()}


def search_rows(agent: dict[str, Any]) -> dict[str, str]:
    """Rows ``search`` (iterations, the objective and where it was read), ``model`` (the
    forward model, its hash and whether it was certified), ``lookahead`` (requests, per
    decision, the cache, the decision the run's budget was spent in) and ``clairvoyant``
    of the ``search`` strategy's totals."""
    rows = {
        "search": f"{agent.get('iterations', 0):,} iterations over {agent.get('decisions', 0)}"
        f" decisions · objective {agent.get('objectiveSource') or agent.get('objective')}",
    }
    model = agent.get("model")
    if isinstance(model, dict):
        cert = model.get("certified")
        said = (
            f"certified on {cert.get('server')} seeds {cert.get('seeds')}"
            if isinstance(cert, dict)
            else "not certified"
            + (" (its certificate is not signed by this sunbot)"
               if model.get("certificateRefused") else "")
        )  # fmt: skip
        sha = str(model.get("sha256") or "")[:12]
        rows["model"] = f"{model.get('spec')} · sha256 {sha or '-'} · {said}"
    look = agent.get("lookahead")
    if isinstance(look, dict):
        rows["lookahead"] = (
            f"{look.get('requests', 0):,} requests ({look.get('requestsPerDecision', 0)} a"
            f" decision, at most {look.get('perDecision')}; budget {look.get('budget'):,})"
            f" · {look.get('cacheHits', 0):,} from the cache · {look.get('retries', 0)} retries"
        )
        if isinstance(look.get("spentAt"), int):
            rows["lookahead"] += (
                f" · budget spent at decision {look['spentAt']:,}: no lookahead after it"
            )
    if agent.get("clairvoyant") is True:
        rows["clairvoyant"] = "yes: it looked ahead through answers that hold what the player"
        rows["clairvoyant"] += " cannot see (--allow-peek); no honest player's score"
    return rows


__all__ = ["agent_rows", "model_line", "search_rows", "usage_line"]
