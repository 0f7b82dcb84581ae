"""Harvest Watch as a PettingZoo ``ParallelEnv``: a six-seat match on the engine.

``parallel_env(seats=(0, 1, 2, 3, 4, 5), fill="house", max_days=None)``: the seats in
``seats`` are agents (``"seat_0"`` ... ``"seat_5"``); the others are played by ``fill``:
``"house"`` (the rules' house bots, as our server seats them, driven by the match's
``random.Random(seed)``) or the name of any registered Harvest Watch strategy (built with
``random.Random(seed * 1000 + seat)``, each playing its seat through the one seat loop,
:func:`sunbot.runs.seats.play_seat`, as in a benchmark). The match is played on the engine
in-process (:class:`sunbot.runs.seat_engine.EngineTable`): the environment stores its agents'
commands there and the table resolves each beat once every living seat has stored.

Agents decide on the vote and action beats only: on the talk and diary beats (whose only
effect is free text) each agent sends the beat's example command, and the match moves on.
So one ``step`` is one vote or action beat for every living agent. Encoding and actions:
:mod:`sunbot.envs.harvest_watch_codec`; the action mask of the beat is in
``infos[agent]["action_mask"]`` (and :meth:`HarvestWatchParallelEnv.action_masks`). An index
the beat does not accept is refused: the seat takes the beat's default (abstain / guard), as
a server applies to a seat that stored nothing, and ``infos[agent]["refused"]`` says why.

Reward: 0 until the agent's seat goes out or the match ends, then the number of seats
ranked strictly below it (0..5; the rank is final when a seat goes out: the living outrank
it, and seats out the same night are ordered by their stores before that night's cost).
``terminations`` flip then; ``truncations`` flip for everyone when ``max_days`` days are
done (checked as a vote beat opens). A match always ends: each night costs every seat more
than any act makes.
"""

from __future__ import annotations

import asyncio
import functools
import random
from typing import Any

import gymnasium as gym
import numpy as np
from pettingzoo import ParallelEnv

from sunbot import strategies
from sunbot.engines import harvest_watch as hw
from sunbot.envs.core import Mask, mask_of
from sunbot.envs.harvest_watch_codec import (
    ACTING_BEATS,
    N_ACTIONS,
    SEATS,
    HarvestWatchCodec,
    command_of,
)
from sunbot.observations.harvest_watch import legal_actions
from sunbot.runs.seat_engine import EngineTable, TablePlay, play_table

AgentID = str
#: Upper bound on beats resolved in one step or reset (a match cannot reach it).
MAX_BEATS = 10_000


def agent_name(seat: int) -> AgentID:
    """``"seat_<n>"``."""
    return f"seat_{seat}"


class HarvestWatchParallelEnv(ParallelEnv):  # type: ignore[misc]
    """See the module docstring.

    Raises:
        ValueError: ``seats`` empty, repeated or outside 0..5; ``max_days`` below 1.
        sunbot.strategies.UnknownStrategy: ``fill`` names no Harvest Watch strategy.
    """

    metadata: dict[str, Any] = {"name": "sunbot_harvest_watch_v1", "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        seats: tuple[int, ...] | list[int] = tuple(range(SEATS)),
        fill: str = "house",
        max_days: int | None = None,
    ) -> None:
        chosen = sorted(set(seats))
        if not chosen or len(chosen) != len(seats) or not all(0 <= s < SEATS for s in chosen):
            raise ValueError(f"seats must be distinct seats 0..5, got {list(seats)!r}")
        if max_days is not None and max_days < 1:
            raise ValueError(f"max_days must be at least 1, got {max_days}")
        if fill != "house" and fill not in strategies.names("harvest-watch"):
            valid = ", ".join(["house", *strategies.names("harvest-watch")])
            raise strategies.UnknownStrategy(f"unknown fill strategy {fill!r}; valid: {valid}")
        self.seats = chosen
        self.fill = fill
        self.max_days = max_days
        self.possible_agents: list[AgentID] = [agent_name(s) for s in chosen]
        self.agents: list[AgentID] = []
        self._seat_of = {agent_name(s): s for s in chosen}
        self._table: EngineTable | None = None
        self._codecs: dict[int, HarvestWatchCodec] = {}
        self._masks: dict[AgentID, Mask] = {}
        self._runner: asyncio.Runner | None = None
        self._fills: asyncio.Task[TablePlay] | None = None

    @property
    def state_(self) -> dict[str, Any]:
        """The match's engine state now (``{}`` before :meth:`reset`)."""
        return self._table.state if self._table is not None else {}

    @functools.cache  # noqa: B019 (one space per agent name, as PettingZoo asks)
    def observation_space(self, agent: AgentID) -> gym.spaces.Box:
        """``Box(0, HIGH, (46,), float32)`` (:mod:`~sunbot.envs.harvest_watch_codec`)."""
        return HarvestWatchCodec().observation_space()

    @functools.cache  # noqa: B019
    def action_space(self, agent: AgentID) -> gym.spaces.Discrete:
        """``Discrete(56)``."""
        return gym.spaces.Discrete(N_ACTIONS)

    # ------------------------------------------------------------------ the match

    def _others(self) -> list[int]:
        return [s for s in range(SEATS) if s not in self._seat_of.values()]

    def _play_fills(self, seed: int) -> None:
        """Seat the fill strategies and start their seat loops (on the environment's own
        event loop, which runs while the match waits for them: :meth:`_pump`)."""
        assert self._table is not None
        if self._runner is None:
            self._runner = asyncio.Runner()
        bots = {
            s: strategies.create("harvest-watch", self.fill, random.Random(seed * 1000 + s))
            for s in self._others()
        }
        for bot in bots.values():
            strategies.notify_start(bot, "harvest-watch", seed, None)
        loop = self._runner.get_loop()
        self._fills = loop.create_task(play_table(self._table, list(bots.items())))
        self._pump()

    def _pump(self) -> None:
        """Let the fill seats play until each has stored for the current beat (or the match
        is over)."""
        if self._runner is not None and self._fills is not None and self._table is not None:
            self._runner.run(self._table.settled(self._others()))

    def _end_fills(self) -> None:
        """End the fill seats' loops of the match in play, if any (their on_end, close):
        a match that is over ends them by its rules, one that is not is stopped. Then
        close the event loop they ran on."""
        if self._fills is not None and self._runner is not None and self._table is not None:
            if not self._fills.done():
                if not self._table.done:
                    self._table.stop(RuntimeError("the environment was reset or closed"))
                self._runner.run(asyncio.wait_for(self._fills, 60))
            self._fills = None
        if self._runner is not None:
            self._runner.close()
            self._runner = None

    def _data(self, seat: int) -> dict[str, Any]:
        assert self._table is not None
        return self._table.view(seat).data

    def _advance(self) -> None:
        """Play talk and diary beats (agents send the example) until a vote or action beat
        opens with a living agent, or the match is done."""
        table = self._table
        assert table is not None
        for _ in range(MAX_BEATS):
            self._pump()
            st = table.state
            living = [s for s in self.seats if st["alive"][s]]
            if table.done or (st["phase"] in ACTING_BEATS and living):
                return
            for s in living:  # the codec remembers caught/collided, shown on these beats
                self._codecs[s].encode(self._data(s))
            example = hw.default_command(st["phase"])
            for s in living:
                table.store(s, st["round"], [example])
        raise RuntimeError(f"no vote or action beat within {MAX_BEATS} beats")

    def _observe(self, agent: AgentID) -> np.ndarray[Any, np.dtype[np.float32]]:
        seat = self._seat_of[agent]
        data = self._data(seat)
        legal = hw.legal_commands(self.state_, seat) or []
        if data["phase"] == "vote" and self.state_["alive"][seat]:
            legal = legal_actions(data)
        self._masks[agent] = mask_of(self._codecs[seat], legal)
        return self._codecs[seat].encode(data)

    def _info(self, agent: AgentID) -> dict[str, Any]:
        st = self.state_
        return {
            "action_mask": self._masks[agent].copy(),
            "seat": self._seat_of[agent],
            "day": st["day"],
            "phase": st["phase"],
        }

    # ------------------------------------------------------------------ PettingZoo API

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[AgentID, Any], dict[AgentID, dict[str, Any]]]:
        """A new match on seed ``seed`` (drawn at random when ``None``)."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self._end_fills()
        house = self._others() if self.fill == "house" else []
        self._table = EngineTable(seed, random.Random(seed), house)
        self._codecs = {s: HarvestWatchCodec() for s in self.seats}
        if self.fill != "house":
            self._play_fills(seed)
        self._advance()
        self.agents = [a for a in self.possible_agents if self.state_["alive"][self._seat_of[a]]]
        observations = {a: self._observe(a) for a in self.agents}
        return observations, {a: self._info(a) for a in self.agents}

    def step(self, actions: dict[AgentID, Any]) -> tuple[
        dict[AgentID, Any],
        dict[AgentID, float],
        dict[AgentID, bool],
        dict[AgentID, bool],
        dict[AgentID, dict[str, Any]],
    ]:  # fmt: skip
        """Every living agent's action index for this vote or action beat.

        Raises:
            RuntimeError: the match is over (call :meth:`reset`).
        """
        if not self.agents:
            raise RuntimeError("the match is over: call reset()")
        table = self._table
        assert table is not None
        st = table.state
        phase, round_ = st["phase"], st["round"]
        refused: dict[AgentID, str] = {}
        for agent in self.agents:
            seat = self._seat_of[agent]
            index = int(actions.get(agent, 0))
            try:
                cmd = command_of(index, phase)
                reason = hw.validate_command(st, seat, cmd)
            except ValueError as exc:
                reason = str(exc)
            if reason is None:
                table.store(seat, round_, [cmd])
            else:  # the beat's default, as a server applies to a seat that stored nothing
                refused[agent] = reason
                table.miss(seat, round_)
        self._advance()
        new = self.state_
        done = new["status"] == "done"
        ranks = hw.ranks(new)
        stepped = list(self.agents)
        rewards: dict[AgentID, float] = {}
        terms: dict[AgentID, bool] = {}
        for agent in stepped:
            seat = self._seat_of[agent]
            out = done or not new["alive"][seat]
            terms[agent] = out
            rewards[agent] = float(sum(r > ranks[seat] for r in ranks)) if out else 0.0
        capped = self.max_days is not None and not done and new["day"] > self.max_days
        truncs = {a: capped and not terms[a] for a in stepped}
        observations = {a: self._observe(a) for a in stepped}
        infos = {a: self._info(a) for a in stepped}
        for agent, reason in refused.items():
            infos[agent]["refused"] = reason
        self.agents = [a for a in stepped if not (terms[a] or truncs[a])]
        if not self.agents:  # the episode is over: the fill seats' loops end with it
            self._end_fills()
        return observations, rewards, terms, truncs, infos

    def action_masks(self, agent: AgentID) -> Mask:
        """``agent``'s current action mask (1 = legal)."""
        return self._masks[agent].copy()

    def close(self) -> None:
        """End the fill seats of the match in play and the environment's event loop."""
        self._end_fills()


def parallel_env(
    seats: tuple[int, ...] | list[int] = tuple(range(SEATS)),
    fill: str = "house",
    max_days: int | None = None,
) -> HarvestWatchParallelEnv:
    """A :class:`HarvestWatchParallelEnv` (the PettingZoo constructor convention)."""
    return HarvestWatchParallelEnv(seats=seats, fill=fill, max_days=max_days)
