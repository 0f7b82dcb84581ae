"""A Keelhold bot: stow the crate where its cargo already waits, keep her level, stop at port
when the next voyage would start unsafe.

    sunbot play keelhold --strategy examples/bots/keelhold_bot.py:Bot
"""

from typing import Any


class Bot:
    game = "keelhold"

    def choose(self, observation: dict[str, Any], legal_actions: list[dict[str, Any]]) -> Any:
        if observation["phase"] == "port":  # quota shipped: go on only if it is safe
            wanted = "CAST_OFF" if observation["castOffSafe"] else "END_RUN"
            return next(a for a in legal_actions if a["type"] == wanted)
        crate = observation["queue"][0]
        safe = [a for a in legal_actions if a.get("bay") in observation["safeBays"]]

        def value(action: dict[str, Any]) -> tuple[int, int]:
            hold = observation["hold"][action["bay"]]
            same = sum(c["cargo"] == crate["cargo"] for c in hold)  # toward a shipped lot
            lever = abs(observation["arms"][action["bay"]])
            return same, -lever

        return max(safe, key=value) if safe else legal_actions[0]
