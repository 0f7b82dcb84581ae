#!/usr/bin/env python3
"""A bot in another process (any game): read one JSON line per decision, answer the first
legal action on one line. Run it with: sunbot play naptuft --strategy "exec:python3 first_legal.py"
"""

import json
import sys

for line in sys.stdin:  # ends when sunbot closes our stdin
    request = json.loads(line)
    print(json.dumps({"id": request["id"], "action": request["legalActions"][0]}), flush=True)
