"""A Keelhold bot whose policy was trained on ``sunbot/Keelhold-v1`` (examples/train_keelhold.py).

The policy is linear: each action index gets a score ``features(obs)[i] @ weights`` and the
best legal index wins. The features read only the environment's encoding (the published
fields: safeBays, listingBays, the hatches, the crate in hand, the trim):

    for PLACE into hatch b: [1, safe, listing-but-safe, completes a lot, same cargo already
                             there / 3, hatch fill, ballast there / 6, change of |trim| / 10,
                             |arm| / 4, 0, 0]
    for CAST_OFF:           [0, ..., 0, 1, castOffSafe]
    for END_RUN:            all zeros (the reference score 0)

Use it anywhere a strategy name goes::

    sunbot bench keelhold -s examples/keelhold_trained_bot.py:TrainedKeelhold -s random \
        --seeds 1001-1100 --cap voyages=4
    sunbot play keelhold --strategy examples/keelhold_trained_bot.py:TrainedKeelhold --seed 7

The weights are read from ``keelhold_policy.json`` beside this file, or from the file named by
the environment variable ``SUNBOT_KEELHOLD_POLICY``.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import numpy as np

from sunbot.envs.policy import PolicyStrategy

N_FEATURES = 11
DEFAULT_WEIGHTS = Path(__file__).with_name("keelhold_policy.json")


def features(obs: dict[str, Any]) -> np.ndarray:
    """``(9, 11)`` features, one row per action index (module docstring)."""
    f = np.zeros((9, N_FEATURES), dtype=np.float64)
    hold, queue, hatches = obs["hold"], obs["queue"], obs["hatches"]
    safe, listing = obs["bays"][0], obs["bays"][1]
    status, terms = obs["status"], obs["terms"][0]
    weight, kind = int(queue[0, 0]), int(queue[0, 1])
    trim, manifest, capacity = int(status[3]), int(terms[2]), max(1, int(terms[1]))
    for b in range(7):
        kinds = hold[b, :, 1]
        same = int((kinds == kind).sum()) if kind >= 2 else 0
        arm = int(hatches[b, 0])
        f[b] = (
            1.0,
            safe[b],
            listing[b],
            1.0 if kind >= 2 and same + 1 >= manifest else 0.0,
            same / 3,
            int((kinds > 0).sum()) / capacity,
            int((kinds == 1).sum()) / 6,
            (abs(trim + weight * arm) - abs(trim)) / 10,
            abs(arm) / 4,
            0.0,
            0.0,
        )
    f[7, 9] = 1.0
    f[7, 10] = 1.0 if status[7] == 1 else 0.0
    return f


class LinearPolicy:
    """``policy(obs, mask) -> index``: the legal index with the highest linear score."""

    def __init__(self, weights: np.ndarray | list[float]) -> None:
        self.weights = np.asarray(weights, dtype=np.float64)
        if self.weights.shape != (N_FEATURES,):
            raise ValueError(f"expected {N_FEATURES} weights, got shape {self.weights.shape}")

    def __call__(self, obs: dict[str, Any], mask: np.ndarray) -> int:
        scores = features(obs) @ self.weights
        scores[mask == 0] = -np.inf
        return int(np.argmax(scores))

    def save(self, path: Path) -> None:
        """Write the weights as JSON."""
        path.write_text(json.dumps({"weights": self.weights.tolist()}, indent=1) + "\n")

    @classmethod
    def load(cls, path: Path) -> LinearPolicy:
        """Read weights written by :meth:`save`."""
        return cls(json.loads(path.read_text())["weights"])


class TrainedKeelhold(PolicyStrategy):
    """The trained linear policy as a sunbot strategy."""

    game = "keelhold"

    def __init__(self, rng: random.Random) -> None:
        path = Path(os.environ.get("SUNBOT_KEELHOLD_POLICY") or DEFAULT_WEIGHTS)
        super().__init__("keelhold", LinearPolicy.load(path), rng)
