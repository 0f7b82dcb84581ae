"""Hostile take-away models: each misbehaves in one way a model's author (or an attacker)
might, and certify must count it as one divergence with a one-line reason."""

from __future__ import annotations

import sys
from typing import Any

from tests.forward.models import TakeAway


class Exits(TakeAway):
    def step(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        sys.exit(0)


class RaisesBase(TakeAway):
    def step(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        raise BaseException


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no str")


class RaisesUnprintable(TakeAway):
    def step(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        raise _Unprintable


class RaisesValueError(TakeAway):
    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        raise ValueError("nope")


class HugeScore(TakeAway):
    def score(self, state: dict[str, Any]) -> float:
        return 10**5000  # type: ignore[return-value]


class _Observed(TakeAway):
    def extra(self) -> Any:
        raise NotImplementedError

    def observation(self, state: dict[str, Any]) -> dict[str, Any]:
        return {**super().observation(state), "x": self.extra()}


class HugeInt(_Observed):
    def extra(self) -> Any:
        return 10**5000


class HoldsItself(TakeAway):
    def observation(self, state: dict[str, Any]) -> dict[str, Any]:
        obs = super().observation(state)
        obs["x"] = obs
        return obs


class IntKeys(_Observed):
    def extra(self) -> Any:
        return {1: 2}


class Deep(_Observed):
    def extra(self) -> Any:
        value: list[Any] = []
        for _ in range(100_000):
            value = [value]
        return value


class Chatty(TakeAway):
    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        print("chatty from_observation")
        return super().from_observation(observation)

    def step(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        print("chatty step")
        return super().step(state, action)
