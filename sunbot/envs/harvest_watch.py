"""Harvest Watch as a PettingZoo ``ParallelEnv``: a six-seat match on the engine.

``parallel_env(seats=(0, 1, 2, 3, 4, 5), fill="house", max_days=None)``: the seats in
``seats`` are agents (``"seat_0"`` ... ``"seat_5"``); the others are played by ``fill``:
``"house"`` (the rules' house bots, as our server seats them, driven by the match's
``random.Random(seed)``) or the name of any registered Harvest Watch strategy (built with
``random.Random(seed * 1000 + seat)``, asked ``choose(data, legal_actions(data))`` on every
beat).

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

import functools
import random
from typing import Any

import gymnasium as gym
import numpy as np
from pettingzoo import ParallelEnv

from sunbot import strategies
from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import seat_data
from sunbot.envs.core import Mask, mask_of
from sunbot.envs.harvest_watch_codec import (
    ACTING_BEATS,
    N_ACTIONS,
    SEATS,
    HarvestWatchCodec,
    command_of,
)
from sunbot.observations.harvest_watch import legal_actions

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
        self.state_: dict[str, Any] = {}
        self._codecs: dict[int, HarvestWatchCodec] = {}
        self._masks: dict[AgentID, Mask] = {}
        self._fillers: dict[int, Any] = {}
        self._memories: dict[int, dict[str, Any]] = {}
        self._match_rng = random.Random(0)

    @functools.cache  # noqa: B019 (one space per agent name, as PettingZoo asks)
    def observation_space(self, agent: AgentID) -> gym.spaces.Box:
        """``Box(0, HIGH, (46,), float32)`` (:mod:`~sunbot.envs.harvest_watch_codec`)."""
        return HarvestWatchCodec().observation_space()

    @functools.cache  # noqa: B019
    def action_space(self, agent: AgentID) -> gym.spaces.Discrete:
        """``Discrete(56)``."""
        return gym.spaces.Discrete(N_ACTIONS)

    # ------------------------------------------------------------------ the match

    def _house(self) -> list[int]:
        return [s for s in range(SEATS) if s not in self._seat_of.values()]

    def _fill_commands(self) -> dict[int, list[dict[str, Any]]]:
        st, out = self.state_, {}
        for s in self._house():
            if not st["alive"][s]:
                continue
            if self.fill == "house":
                cmd = hw.house_command(
                    st, s, self._memories[s], self._match_rng, house_seats=self._house()
                )
            else:
                data = seat_data(st, s, can_act=True, pending=None)
                cmd = self._fillers[s].choose(data, legal_actions(data))
                if hw.validate_command(st, s, cmd) is not None:
                    continue  # refused: the seat takes the beat's default
            out[s] = [cmd]
        return out

    def _data(self, seat: int) -> dict[str, Any]:
        st = self.state_
        can_act = st["status"] != "done" and bool(st["alive"][seat])
        return seat_data(st, seat, can_act=can_act, pending=None)

    def _advance(self) -> None:
        """Resolve talk and diary beats (agents send the example) until a vote or action
        beat opens with a living agent, or the match is done."""
        for _ in range(MAX_BEATS):
            st = self.state_
            living = [s for s in self.seats if st["alive"][s]]
            if st["status"] == "done" or (st["phase"] in ACTING_BEATS and living):
                return
            for s in living:  # the codec remembers caught/collided, shown on these beats
                self._codecs[s].encode(self._data(s))
            commands = self._fill_commands()
            self.state_ = hw.resolve_beat(st, commands)
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
        self.state_ = hw.init(seed, SEATS)
        self._match_rng = random.Random(seed)
        self._codecs = {s: HarvestWatchCodec() for s in self.seats}
        self._memories = {s: {} for s in self._house()}
        self._fillers = (
            {}
            if self.fill == "house"
            else {
                s: strategies.create("harvest-watch", self.fill, random.Random(seed * 1000 + s))
                for s in self._house()
            }
        )
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
        st = self.state_
        phase = st["phase"]
        commands = self._fill_commands()
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
                commands[seat] = [cmd]
            else:
                refused[agent] = reason
        self.state_ = hw.resolve_beat(st, commands)
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
        return observations, rewards, terms, truncs, infos

    def action_masks(self, agent: AgentID) -> Mask:
        """``agent``'s current action mask (1 = legal)."""
        return self._masks[agent].copy()


def parallel_env(
    seats: tuple[int, ...] | list[int] = tuple(range(SEATS)),
    fill: str = "house",
    max_days: int | None = None,
) -> HarvestWatchParallelEnv:
    """A :class:`HarvestWatchParallelEnv` (the PettingZoo constructor convention)."""
    return HarvestWatchParallelEnv(seats=seats, fill=fill, max_days=max_days)
