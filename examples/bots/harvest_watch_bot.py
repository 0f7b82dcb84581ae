"""A Harvest Watch bot: say what it does, never vote a fine, guard while it is the richest
seat, else farm; a short diary.

    sunbot play harvest-watch --strategy examples/bots/harvest_watch_bot.py:Bot
"""

from typing import Any


class Bot:
    game = "harvest-watch"

    def choose(self, observation: dict[str, Any], legal_actions: list[dict[str, Any]]) -> Any:
        phase, summary = observation["phase"], observation["summary"]
        me = summary["you"]
        richest = max(summary["foods"]) == summary["food"]
        if phase in ("speech1", "speech2"):
            return {"speech": f"Seat {me}: I {'guard' if richest else 'farm'} today."}
        if phase == "vote":
            return {"punish": None}  # legal_actions lists every valid ballot
        if phase == "action":
            wanted = {"act": "guard"} if richest else {"act": "farm"}
            return wanted if wanted in legal_actions else legal_actions[0]
        return {"diary": f"Day {summary['day']}: {summary['food']:.1f} food."}
