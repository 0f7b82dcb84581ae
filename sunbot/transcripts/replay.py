"""Re-check a transcript offline: the mirror over every step, and a local re-play.

Two independent checks:

- **mirror**: every recorded answer is checked against the rules from the answer before it
  and the action sent (:class:`sunbot.mirror.Mirror`), exactly as during play. Works for
  transcripts of any server.
- **re-play** (runs of this project's engine, e.g. the embedded server): the same game, seed
  and actions played through the engine must reproduce the recorded answers exactly (every
  field but the token). A mismatch is reported as such: it means the engine changed since
  the run was recorded, or the transcript was edited.

Match transcripts (Harvest Watch) get the first check only: each seat's views through the
match mirror (:class:`sunbot.mirror.harvest_watch.MatchMirror`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sunbot.engines import IllegalAction
from sunbot.games import GAMES, LOCAL_CHOICES, GameInfo, get_game
from sunbot.mirror import UNKNOWN_FIELD, Divergence, Finding, Mirror, diff
from sunbot.mirror.fields import pattern
from sunbot.mirror.harvest_watch import MatchMirror
from sunbot.transcripts.integrity import check_lines
from sunbot.transcripts.jsonl import Transcript


@dataclass
class ReplayReport:
    """What a replay found.

    ``divergences``: the mirror's findings; ``mismatches``: where the local re-play differs
    from the recorded answers (empty when ``replayed`` is false); ``inconsistent``: where the
    result line disagrees with the recorded lines (score, steps, divergences, …); ``positions``: the
    recorded positions in order (init first) with the step index that produced each;
    ``foreign``: lines that do not fit the header's game (init or step lines in a match
    transcript, view or command lines in a single-player one: another game's lines under a
    relabelled header), which nothing else checks; ``unknown_fields``: path patterns of the
    fields the answers held that the rules do not define (ignored, as ``play`` ignores them).
    """

    game: str
    divergences: list[Divergence] = field(default_factory=list)
    mismatches: list[Divergence] = field(default_factory=list)
    inconsistent: list[Divergence] = field(default_factory=list)
    replayed: bool = False
    checked: int = 0
    positions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    foreign: list[Divergence] = field(default_factory=list)
    unknown_fields: set[str] = field(default_factory=set)
    #: ``"rules"`` (the game's mirror) or ``"generic"`` (a game sunbot has no engine for:
    #: the platform's envelope and the served action grammar only).
    checks: str = "rules"

    @property
    def ok(self) -> bool:
        """No divergence, no mismatch, no foreign line, and a result line that agrees with
        the steps."""
        return not (self.divergences or self.mismatches or self.inconsistent or self.foreign)


def recorded_by_us(header: dict[str, Any]) -> bool:
    """Whether a transcript was recorded from a server with this project's local choices,
    so that our engines re-play it exactly: its header's ``serverIdentity`` (what the server
    said in ``GET /api/games``) names :data:`~sunbot.games.LOCAL_CHOICES`. Transcripts from
    before identities were recorded count as ours only when played on the embedded server.
    The host name proves nothing (any server can listen on 127.0.0.1)."""
    identity = header.get("serverIdentity")
    if isinstance(identity, dict):
        return identity.get("localChoices") == LOCAL_CHOICES
    return "serverIdentity" not in header and header.get("server") == "embedded"


def replay(t: Transcript, local: bool | None = None) -> ReplayReport:
    """Check transcript ``t``. ``local``: force (True) or skip (False) the engine re-play;
    ``None`` re-plays runs recorded from a server with our local choices
    (:func:`recorded_by_us`).

    A game sunbot has no engine for (any game a server lists) is checked by the generic
    checks (:class:`sunbot.generic.checks.GenericChecks`) and never re-played.

    Raises:
        sunbot.transcripts.integrity.Misfit: lines that do not fit one run of the header's
            game (a step index not 1, 2, 3, ... in order, answers of another game); nothing
            of such a file is checked.
    """
    check_lines(t)
    slug = str(t.header["game"])
    if slug not in GAMES:
        return _replay_generic(slug, t)
    game = get_game(slug)
    if game.kind == "match":
        report = _replay_match(game, t)
        report.inconsistent = check_result(t)
        report.foreign = foreign_lines(game, t)
        return report
    report = ReplayReport(game=game.slug, foreign=foreign_lines(game, t))
    if t.init is None:
        return report
    mirror = Mirror(game.slug)
    _check_lines(t, mirror, report)
    report.unknown_fields = set(mirror.unknown_fields)
    want = recorded_by_us(t.header) if local is None else local
    if want:
        report.replayed = True
        found = _replay_locally(game, t)
        # a field our engine does not serve is an unknown field, ignored as the mirror
        # and play ignore it (the project brief), not a mismatch
        unknown = [d for d in found if d.note == UNKNOWN_FIELD]
        report.unknown_fields.update(pattern(d.path) for d in unknown)
        report.mismatches = [d for d in found if d.note != UNKNOWN_FIELD]
    return report


def _replay_generic(slug: str, t: Transcript) -> ReplayReport:
    """A run of a game sunbot does not know: the generic checks over every recorded answer,
    as ``sunbot play`` ran them."""
    from sunbot.generic.checks import GenericChecks

    misfits = [r for r in t.other if r.get("type") in ("view", "command")]
    foreign = (
        [Divergence(0, "view/command lines", "none", len(misfits), "not checked")]
        if misfits
        else []
    )
    report = ReplayReport(game=slug, foreign=foreign, checks="generic")
    if t.init is None:
        return report
    _check_lines(t, GenericChecks(slug), report)
    return report


def _check_lines(t: Transcript, checks: Any, report: ReplayReport) -> None:
    """Run ``checks`` (the mirror, or the generic checks) over every recorded answer in
    order, as ``sunbot play`` ran them, and fill ``report``'s positions, findings, count and
    result-line check. ``t`` has an init line."""
    assert t.init is not None
    for index, response in _answers(t):
        state = response.get("state") or response.get("observation")
        if response.get("ok") is not False and isinstance(state, dict):
            report.positions.append((index, state))
    checks.check_init(t.init["response"])
    prev = t.init["response"]
    for step in t.steps:
        checks.check_action(int(step["index"]), prev, step["action"], step["response"])
        if step["response"].get("ok") is not False:
            prev = step["response"]
    report.divergences = list(checks.divergences)
    report.checked = checks.responses_checked
    report.inconsistent = check_result(t)


def foreign_lines(game: GameInfo, t: Transcript) -> list[Divergence]:
    """One finding per kind of line that does not belong in a transcript of ``game``:
    ``init``/``step`` lines in a match transcript, ``view``/``command`` lines in a
    single-player one. Such lines are never checked (a Keelhold run relabelled
    ``harvest-watch`` would otherwise pass as "0 answers checked")."""
    if game.kind == "match":
        misfits = ([t.init] if t.init is not None else []) + t.steps
    else:
        misfits = [r for r in t.other if r.get("type") in ("view", "command")]
    kinds: dict[str, list[dict[str, Any]]] = {}
    for rec in misfits:
        kinds.setdefault(str(rec.get("type")), []).append(rec)
    where = "a match" if game.kind == "match" else "a single-player game"
    return [
        Divergence(
            _first_index(recs),
            f"{kind} lines",
            f"no {kind} line in {where}",
            len(recs),
            f"{len(recs)} {kind} line(s) do not fit {game.slug}; not checked",
        )
        for kind, recs in kinds.items()
    ]


def _first_index(recs: list[dict[str, Any]]) -> int:
    index = recs[0].get("index", 0)
    return index if isinstance(index, int) and not isinstance(index, bool) else 0


def check_result(t: Transcript) -> list[Divergence]:
    """Where the ``result`` line disagrees with the lines before it (none without one)."""
    if t.result is None:
        return []
    recorded = [s["mirror"]["divergences"] for s in t.steps]
    if t.init is not None:
        recorded.append(t.init["mirror"]["divergences"])
    views = [r for r in t.other if r["type"] == "view"]
    recorded += [r.get("mirror", {}).get("divergences", []) for r in views]
    expected: dict[str, Any] = {"divergences": sum(len(d) for d in recorded)}
    if t.init is not None:
        answers = [t.init["response"], *(s["response"] for s in t.steps)]
        last = [a for a in answers if a.get("ok") is not False][-1]
        expected.update(
            steps=len(t.steps),
            score=last.get("score"),
            gameOver=last.get("gameOver"),
            refused=sum(1 for s in t.steps if s["response"].get("ok") is False),
        )
    else:
        expected["steps"] = sum(1 for r in t.other if r["type"] == "command")
    last_index = t.steps[-1]["index"] if t.steps else len(views)
    return [
        Divergence(int(last_index), f"result.{key}", value, t.result.get(key), "result line")
        for key, value in expected.items()
        if t.result.get(key) != value
    ]


def _replay_match(game: GameInfo, t: Transcript) -> ReplayReport:
    """A match transcript: every seat's views re-checked by the match mirror, in the order
    they were read, with the commands the seat stored. There is no local re-play: a
    transcript holds one side's views, not the other seats' choices."""
    report = ReplayReport(game=game.slug)
    mirrors: dict[int, MatchMirror] = {}
    for rec in t.other:
        seat = int(rec.get("seat") or 0)
        mirror = mirrors.setdefault(seat, MatchMirror(seat))
        if rec["type"] == "command":
            answer = rec.get("answer")
            if isinstance(answer, dict) and answer.get("ok") is True:
                body = rec.get("body") or {}
                mirror.note_command(
                    int(body.get("round", rec.get("round", 0))), body.get("actions", [])
                )
        elif rec["type"] == "view" and isinstance(rec.get("body"), dict):
            mirror.check(rec["body"])
            if seat == min(mirrors):
                report.positions.append((int(rec.get("index", 0)), rec["body"]))
    report.divergences = [d for m in mirrors.values() for d in m.divergences]
    report.checked = sum(m.responses_checked for m in mirrors.values())
    return report


def _answers(t: Transcript) -> Iterator[tuple[int, dict[str, Any]]]:
    assert t.init is not None
    yield 0, t.init["response"]
    for step in t.steps:
        yield int(step["index"]), step["response"]


def _replay_locally(game: GameInfo, t: Transcript) -> list[Divergence]:
    assert t.init is not None
    eng = game.engine
    seed = t.header.get("seed")
    if not isinstance(seed, int):
        return [Divergence(0, "header.seed", "an integer seed", seed, "cannot re-play")]
    state = eng.init(seed)
    out = [Divergence(0, *f) for f in _compare(game, state, t.init["response"])]
    for step in t.steps:
        index, action, recorded = int(step["index"]), step["action"], step["response"]
        try:
            nxt = eng.step(state, action)
        except IllegalAction as exc:
            if recorded.get("ok") is not False:
                out.append(Divergence(index, "ok", False, True, f"the engine refuses: {exc}"))
            else:
                legal = diff(eng.legal_actions(state), recorded.get("legalActions"), "legalActions")
                out += [Divergence(index, *f) for f in legal]
            continue
        if recorded.get("ok") is False:
            out.append(Divergence(index, "ok", True, False, "the engine accepts this action"))
            continue
        out += [Divergence(index, *f) for f in _compare(game, nxt, recorded)]
        state = nxt
    return out


def _compare(game: GameInfo, state: dict[str, Any], recorded: dict[str, Any]) -> list[Finding]:
    found: list[Finding] = []
    for key, value in game.served_fields(state).items():
        if key in recorded:
            found += diff(value, recorded[key], key)
    return found
