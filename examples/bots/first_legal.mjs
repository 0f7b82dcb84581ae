#!/usr/bin/env node
// A bot in another process (any game): read one JSON line per decision, answer the first
// legal action on one line. Run it with: sunbot play naptuft --strategy "exec:node first_legal.mjs"
import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin }); // ends when sunbot closes our stdin
for await (const line of lines) {
  const request = JSON.parse(line);
  process.stdout.write(JSON.stringify(request.legalActions[0]) + "\n");
}
