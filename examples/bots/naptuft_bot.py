"""A Naptuft bot: follow the cat's wish when no need is low, else tend the lowest need.

sunbot play naptuft --strategy examples/bots/naptuft_bot.py:Bot
"""

from typing import Any

CARE_FOR = {"food": "feed", "joy": "play", "cleanliness": "brush", "energy": "nap"}


class Bot:
    game = "naptuft"

    def choose(self, observation: dict[str, Any], legal_actions: list[dict[str, Any]]) -> Any:
        cares = {a["care"]: a for a in legal_actions if a["type"] == "care"}
        if not cares:  # day break: carry on to the next day
            return next(a for a in legal_actions if a["type"] == "next-day")
        needs = observation["needs"]
        lowest = min(needs, key=needs.get)
        wish = observation["wish"]
        if wish and needs[lowest] > 40:
            step = wish["actions"][wish["progress"]]
            if step in cares:
                return cares[step]
        return cares.get(CARE_FOR[lowest]) or next(iter(cares.values()))
