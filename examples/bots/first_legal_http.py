#!/usr/bin/env python3
"""An HTTP bot (any game): answer each POSTed decision with its first legal action.
Start it with `python3 first_legal_http.py 8080`, then play against it with
sunbot play naptuft --strategy http://127.0.0.1:8080/move
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Move(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        body = json.dumps({"id": request["id"], "action": request["legalActions"][0]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Move).serve_forever()
