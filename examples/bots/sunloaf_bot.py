"""A Sunloaf bot: let cats that sit in the light keep their streak; move the first cat that
can reach a tile in the band; at sunset go on to the next day.

    sunbot play sunloaf --strategy examples/bots/sunloaf_bot.py:Bot
"""

from typing import Any


class Bot:
    game = "sunloaf"

    def choose(self, observation: dict[str, Any], legal_actions: list[dict[str, Any]]) -> Any:
        by_type: dict[str, list[dict[str, Any]]] = {}
        for action in legal_actions:
            by_type.setdefault(action["type"], []).append(action)
        if "NEXT_DAY" in by_type:
            return by_type["NEXT_DAY"][0]
        # the band lights start lines p .. p + bandWidth - 1 (rows from the window side)
        p = observation["turn"] // observation["bandDwell"]
        lit = set(range(p, p + observation["bandWidth"]))
        idle = [c for c in observation["cats"] if c["tile"] // 7 not in lit]
        for move in by_type.get("MOVE", []):
            if move["tile"] // 7 in lit and any(c["id"] == move["cat"] for c in idle):
                return move
        return (by_type.get("DOZE") or legal_actions)[0]
