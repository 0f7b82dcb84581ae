"""A Sunloaf bot: cats stay put (a streak only grows while a cat rests), except that a cat
moves when a tile it can reach stays warm for more than 3 turns longer, today, than its own;
at sunset go on to the next day.

    sunbot play sunloaf --strategy examples/bots/sunloaf_bot.py:Bot

It leans on the engine's ``warm(state, tile, turn)`` (the rules' light, shade, cloud and
hearth, computed from the observation alone). Seeds 1-20 capped at 10 days: mean 67,310,
twice always-REST's 34,364 (the built-in `rest`), far below the default `planner`:

    sunbot bench sunloaf -s examples/bots/sunloaf_bot.py:Bot -s rest --seeds 1-20 --cap days=10
"""

from typing import Any

from sunbot.engines.sunloaf import warm


class Bot:
    game = "sunloaf"

    def choose(self, observation: dict[str, Any], legal_actions: list[dict[str, Any]]) -> Any:
        kinds = {action["type"]: action for action in legal_actions}
        if "NEXT_DAY" in kinds:
            return kinds["NEXT_DAY"]
        now, end = observation["turn"], observation["turnsInDay"]

        def warm_turns(tile: int) -> int:  # turns after this one on which the tile is warm
            return sum(warm(observation, tile, t) > 0 for t in range(now + 1, end))

        tiles = {cat["id"]: cat["tile"] for cat in observation["cats"]}
        moves = [a for a in legal_actions if a["type"] == "MOVE"]
        gain = {id(m): warm_turns(m["tile"]) - warm_turns(tiles[m["cat"]]) for m in moves}
        best = max(moves, key=lambda m: gain[id(m)], default=None)
        return best if best is not None and gain[id(best)] > 3 else kinds["REST"]
