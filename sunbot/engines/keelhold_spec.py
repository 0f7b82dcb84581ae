"""The self-documenting ``spec`` the local server returns on Keelhold's init.

Written in this project's own words (the published rule text is the authority and is not
copied here); the action grammar is a JSON Schema equivalent to the published one.
"""

from __future__ import annotations

from typing import Any

ACTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "type": {"const": "PLACE", "description": "Drop the crate in hand into a hatch."},
                "bay": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 6,
                    "description": "Hatch index; 3 is the keel (arm 0).",
                },
            },
            "required": ["type", "bay"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "type": {"const": "CAST_OFF", "description": "At port: start the next voyage."}
            },
            "required": ["type"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "type": {"const": "END_RUN", "description": "At port: stop and keep the score."}
            },
            "required": ["type"],
            "additionalProperties": False,
        },
    ],
}

SPEC: dict[str, Any] = {
    "goal": (
        "Load a barge crate by crate across seven hatches with lever arms, keeping the trim "
        "within the voyage's tolerance, and ship lots of matching cargo to make port."
    ),
    "scoring": (
        "Each voyage multiplies awards by M = voyage + 3. A shipped lot pays "
        "floor(10*W*A*C*M/32) (W weight out, A lever award 4/5/6/8/10 by distance from the "
        "keel, C = 2..8 for consecutive shipping turns). Flat awards floor(base*M/4): 75 for "
        "righting a listing barge, 50 for an even keel (|trim| <= 3) after a lot, 150 per rush "
        "crate shipped by its due turn. Completing a voyage adds 300 * voyage. The score never "
        "goes down."
    ),
    "rules": [
        "trim = wind + sum of weight * arm over every crate aboard; "
        "listing means |trim| > tolerance.",
        "PLACE puts the crate in hand (queue[0]) into an open, unjammed hatch with room.",
        "A hatch holding manifestSize crates of the placed crate's cargo ships them at once, "
        "with every ballast crate (cargo null) in that hatch; the weight leaving shifts the trim.",
        "safeBays lists the hatches whose placement keeps the run alive; listingBays are the "
        "safe ones that leave her listing. Placing elsewhere is legal and usually ends the run.",
        "From a level start, a placement that ships a lot may leave her listing once; the next "
        "crate must bring her back inside the tolerance.",
        "The run ends when no hatch is safe for the crate in hand (lurch if listing, noSafeStow "
        "if level) or none is legal (holdFull).",
        "A placed rush crate must ship within rushWindow turns or it turns into ballast.",
        "Some voyages jam a non-keel hatch every jamEvery turns for jamLength turns.",
        "Shipping the quota reaches port: CAST_OFF starts the next voyage (terms shown in next; "
        "hold and queue carry over), END_RUN stops and keeps the score.",
        "A refused action changes nothing; the run replays exactly from seed and actions.",
    ],
    "actionSchema": ACTION_SCHEMA,
}
