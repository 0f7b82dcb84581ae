#!/bin/sh
# A Keelhold bot in shell + jq: the lowest safe bay; at port cast off while it is safe.
# Run it with: sunbot play keelhold --strategy "exec:sh keelhold_first.sh"
while IFS= read -r line; do  # ends when sunbot closes our stdin
  printf '%s\n' "$line" | jq -c '. as $r | $r.observation as $o
    | if $o.phase == "port" then {type: (if $o.castOffSafe then "CAST_OFF" else "END_RUN" end)}
      elif ($o.safeBays | length) > 0 then {type: "PLACE", bay: $o.safeBays[0]}
      else $r.legalActions[0] end
    | {id: $r.id, action: .}' || exit 1
done
