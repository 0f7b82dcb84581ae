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

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sunbot.engines import IllegalAction
from sunbot.games import GAMES, LOCAL_CHOICES, GameInfo, get_game
from sunbot.mirror import UNKNOWN_FIELD, Divergence, Finding, Mirror, diff
from sunbot.mirror.fields import pattern
from sunbot.mirror.harvest_watch import MatchMirror
from sunbot.transcripts.integrity import Misfit, answer_problem, check_lines, index_problem
from sunbot.transcripts.jsonl import Transcript
from sunbot.transcripts.stream import TranscriptLines


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
    #: The divergences the result line says the run found as it was played (its mirror, or
    #: the forward model a run of a generic game was checked by), or ``None`` without one.
    recorded_divergences: int | None = None
    #: The lines whose answers had unknown fields cut when recorded, each as ``{"type",
    #: "index", "cut"}`` (:func:`sunbot.transcripts.bounds.cut_note` words them).
    cut: list[dict[str, Any]] = field(default_factory=list)

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
    checks (:class:`sunbot.generic.checks.GenericChecks`) and never re-played. The report's
    ``positions`` hold every recorded position (:func:`replay_file` checks a file without
    holding it).

    Raises:
        sunbot.transcripts.integrity.Misfit: lines that do not fit one run of the header's
            game (a step index not 1, 2, 3, ... in order, answers of another game); nothing
            of such a file is checked.
        KeyError: the header names a game sunbot knows but cannot run here.
    """
    check_lines(t)
    checker = Checker(t.header, local, keep_positions=True)
    for rec in [*([t.init] if t.init is not None else []), *t.steps, *t.other]:
        checker.feed(0, rec, checked=True)
    return checker.finish(t.result)


def replay_file(
    path: Path, local: bool | None = None, *, keep_positions: bool = False
) -> tuple[ReplayReport, TranscriptLines]:
    """Check the transcript file at ``path`` as :func:`replay` does, reading it one line
    at a time: memory is bounded by its largest line, not by the file (a run of 100,000-seat
    views is checked in the memory of a few of them). ``keep_positions``: keep every
    recorded position in the report (``sunbot replay --show``), which holds them all.

    Returns:
        The report, and the read file (:class:`~sunbot.transcripts.stream.TranscriptLines`:
        its header, record counts, and where and why reading stopped, if it did).

    Raises:
        ValueError: not a transcript (no valid header), not a regular file.
        OSError: the file cannot be read.
        sunbot.transcripts.integrity.Misfit: a line that does not fit one run of the
            header's game; the report is dropped.
        KeyError: the header names a game sunbot knows but cannot run here.
    """
    lines = TranscriptLines(path)
    checker: Checker | None = None
    result: dict[str, Any] | None = None
    for number, rec in lines:
        if checker is None:
            checker = Checker(rec, local, keep_positions=keep_positions)
        elif rec["type"] == "result":
            result = rec
        else:
            checker.feed(number, rec)
    assert checker is not None  # the reader raises on a file without a header
    return checker.finish(result), lines


@dataclass
class _Tallies:
    """What the result line is checked against (:func:`check_result`), counted line by line."""

    divergences: int = 0
    steps: int = 0
    refused: int = 0
    commands: int = 0
    views: int = 0
    last_index: Any = None
    last_answer: dict[str, Any] | None = None
    has_init: bool = False


class Checker:
    """The replay's checks, fed one record at a time in file order (the header first, to
    the constructor; the result line to :meth:`finish`): the mirror (or the generic checks,
    or each seat's match mirror), the engine re-play, the line checks
    (:mod:`sunbot.transcripts.integrity`) and what the result line must say. Holds the
    latest answer, never the whole run (unless ``keep_positions``).

    Raises:
        KeyError: the header names a game sunbot knows but cannot run here.
    """

    def __init__(
        self, header: dict[str, Any], local: bool | None, *, keep_positions: bool = False
    ) -> None:
        self.header, self.keep = header, keep_positions
        slug = str(header.get("game"))
        self.game = get_game(slug) if slug in GAMES else None
        self.mode = "generic" if self.game is None else self.game.kind
        self.report = ReplayReport(game=slug, checks="generic" if self.game is None else "rules")
        self.tally = _Tallies()
        self._foreign: dict[str, list[Any]] = {}  # kind -> [count, first index]
        self._mirrors: dict[int, MatchMirror] = {}
        self._prev: dict[str, Any] | None = None
        self._position = 0  # step lines fed
        self.checks: Any = None
        self._want_local = False
        self._engine_state: dict[str, Any] | None = None
        self._local_off = False
        if self.game is None:
            from sunbot.generic.checks import GenericChecks

            self.checks = GenericChecks(slug)
        elif self.mode != "match":
            self.checks = Mirror(self.game.slug)
            self._want_local = recorded_by_us(header) if local is None else local

    def feed(self, number: int, rec: dict[str, Any], *, checked: bool = False) -> None:
        """Check one record (``number``: its line in the file); ``checked``: its lines were
        already checked (:func:`~sunbot.transcripts.integrity.check_lines`).

        Raises:
            Misfit: a step index out of order, or an answer of another game.
        """
        kind = rec.get("type")
        t = self.tally
        if isinstance(rec.get("cut"), dict):
            self.report.cut.append({"type": kind, "index": rec.get("index"), "cut": rec["cut"]})
        mirror = rec.get("mirror")
        recorded = mirror.get("divergences", []) if isinstance(mirror, dict) else []
        if kind in ("init", "step", "view"):
            t.divergences += len(recorded) if isinstance(recorded, list) else 0
        if kind == "step":
            self._position += 1
            if not checked:
                why = index_problem(rec.get("index"), self._position)
                if why is not None:
                    raise Misfit(f"line {number}: {why}")
        if kind in ("init", "step") and not checked and self.mode == "single":
            assert self.game is not None
            why = answer_problem(self.game, rec.get("response"))
            if why is not None:
                raise Misfit(f"line {number}: {why}")
        if kind == "init":
            t.has_init = True
        elif kind == "step":
            t.steps += 1
            t.last_index = rec.get("index")
            t.refused += rec["response"].get("ok") is False
        elif kind == "command":
            t.commands += 1
        elif kind == "view":
            t.views += 1
        if kind in ("init", "step") and rec["response"].get("ok") is not False:
            t.last_answer = rec["response"]
        if self.mode == "match":
            self._feed_match(rec)
        else:
            self._feed_single(rec)

    def _note_foreign(self, rec: dict[str, Any]) -> None:
        seen = self._foreign.setdefault(str(rec.get("type")), [0, _first_index(rec)])
        seen[0] += 1

    def _feed_match(self, rec: dict[str, Any]) -> None:
        """A match line: each seat's views through its match mirror, in the order read, with
        the commands the seat stored (no local re-play: a transcript holds one side's views,
        not the other seats' choices)."""
        kind = rec["type"]
        if kind in ("init", "step"):
            self._note_foreign(rec)
            return
        seat = int(rec.get("seat") or 0)
        mirror = self._mirrors.setdefault(seat, MatchMirror(seat))
        if kind == "command":
            answer = rec.get("answer")
            if isinstance(answer, dict) and answer.get("ok") is True:
                body = rec.get("body") or {}
                mirror.note_command(
                    int(body.get("round", rec.get("round", 0))), body.get("actions", [])
                )
        elif kind == "view" and isinstance(rec.get("body"), dict):
            mirror.check(rec["body"])
            if self.keep and seat == min(self._mirrors):
                self.report.positions.append((int(rec.get("index", 0)), rec["body"]))

    def _feed_single(self, rec: dict[str, Any]) -> None:
        """A single-player (or unknown game's) line: the checks from the answer before it
        and the action sent, then the engine's re-play."""
        kind = rec["type"]
        if kind in ("view", "command"):
            self._note_foreign(rec)
            return
        if kind not in ("init", "step"):
            return
        response = rec["response"]
        index = 0 if kind == "init" else int(rec["index"])
        state = response.get("state") or response.get("observation")
        if self.keep and response.get("ok") is not False and isinstance(state, dict):
            self.report.positions.append((index, state))
        if kind == "init":
            self.checks.check_init(response)
            self._prev = response
            self._replay_init(response)
            return
        if self._prev is None:  # a step before any init: nothing to check it from
            return
        self.checks.check_action(index, self._prev, rec["action"], response)
        if response.get("ok") is not False:
            self._prev = response
        self._replay_step(index, rec["action"], response)

    def _replay_init(self, response: dict[str, Any]) -> None:
        if not self._want_local or self.game is None:
            return
        seed = self.header.get("seed")
        if not isinstance(seed, int):
            self._local([Divergence(0, "header.seed", "an integer seed", seed, "cannot re-play")])
            self._local_off = True
            return
        self._engine_state = self.game.engine.init(seed)
        self._local([Divergence(0, *f) for f in _compare(self.game, self._engine_state, response)])

    def _replay_step(self, index: int, action: Any, recorded: dict[str, Any]) -> None:
        state, game = self._engine_state, self.game
        if self._local_off or state is None or game is None:
            return
        eng = game.engine
        try:
            nxt = eng.step(state, action)
        except IllegalAction as exc:
            if recorded.get("ok") is not False:
                self._local([Divergence(index, "ok", False, True, f"the engine refuses: {exc}")])
            else:
                legal = diff(eng.legal_actions(state), recorded.get("legalActions"), "legalActions")
                self._local([Divergence(index, *f) for f in legal])
            return
        if recorded.get("ok") is False:
            self._local([Divergence(index, "ok", True, False, "the engine accepts this action")])
            return
        self._local([Divergence(index, *f) for f in _compare(game, nxt, recorded)])
        self._engine_state = nxt

    def _local(self, found: list[Divergence]) -> None:
        """Re-play findings: a field our engine does not serve is an unknown field, ignored
        as the mirror and play ignore it (the project brief), not a mismatch."""
        for d in found:
            if d.note == UNKNOWN_FIELD:
                self.report.unknown_fields.add(pattern(d.path))
            else:
                self.report.mismatches.append(d)

    def finish(self, result: dict[str, Any] | None) -> ReplayReport:
        """The report, once every line was fed (``result``: the result line, if any)."""
        report, t = self.report, self.tally
        said = result.get("divergences") if isinstance(result, dict) else None
        if isinstance(said, int) and not isinstance(said, bool):
            report.recorded_divergences = said
        if self.mode == "match":
            mirrors = self._mirrors.values()
            report.divergences = [d for m in mirrors for d in m.divergences]
            report.checked = sum(m.responses_checked for m in mirrors)
            report.inconsistent = self._check_result(result)
            report.foreign = self._foreign_lines("a match")
            return report
        if self.game is None:
            count = sum(n for n, _ in self._foreign.values())
            if count:
                report.foreign = [Divergence(0, "view/command lines", "none", count, "not checked")]
        else:
            report.foreign = self._foreign_lines("a single-player game")
        if not t.has_init:
            report.mismatches, report.unknown_fields = [], set()
            return report
        report.divergences = list(self.checks.divergences)
        report.checked = self.checks.responses_checked
        report.inconsistent = self._check_result(result)
        if self.game is not None:
            report.unknown_fields |= set(self.checks.unknown_fields)
            report.replayed = self._want_local
        return report

    def _foreign_lines(self, where: str) -> list[Divergence]:
        slug = self.report.game
        return [
            Divergence(
                first,
                f"{kind} lines",
                f"no {kind} line in {where}",
                count,
                f"{count} {kind} line(s) do not fit {slug}; not checked",
            )
            for kind, (count, first) in self._foreign.items()
        ]

    def _check_result(self, result: dict[str, Any] | None) -> list[Divergence]:
        """Where the result line disagrees with the lines fed (none without one)."""
        if result is None:
            return []
        t = self.tally
        expected: dict[str, Any] = {"divergences": t.divergences}
        if t.has_init:
            last = t.last_answer or {}
            expected.update(
                steps=t.steps,
                score=last.get("score"),
                gameOver=last.get("gameOver"),
                refused=t.refused,
            )
        else:
            expected["steps"] = t.commands
        last_index = t.last_index if t.steps else t.views
        return [
            Divergence(int(last_index), f"result.{key}", value, result.get(key), "result line")
            for key, value in expected.items()
            if result.get(key) != value
        ]


def _first_index(rec: dict[str, Any]) -> int:
    index = rec.get("index", 0)
    return index if isinstance(index, int) and not isinstance(index, bool) else 0


def _compare(game: GameInfo, state: dict[str, Any], recorded: dict[str, Any]) -> list[Finding]:
    found: list[Finding] = []
    for key, value in game.served_fields(state).items():
        if key in recorded:
            found += diff(value, recorded[key], key)
    return found
