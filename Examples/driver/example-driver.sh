#!/usr/bin/env bash
# A driver in a few lines (Documentation/DRIVER-PROTOCOL.md): one job of three updates, each
# reported as it runs. Messages go to fd 3 as JSON Lines; stop requests come on fd 4.
#   installtop drive -- Examples/driver/example-driver.sh
#   installtop run Examples/driver/manifest.yaml
# EXAMPLE_STEP_SECONDS sets how long each quarter of a step takes (default 0.2).
say() { printf '%s\n' "$1" >&3; }

say '{"type":"hello","protocol":1,"driver":"example"}'
say '{"type":"plan","job":"example","name":"Example driver","operation":"install","updates":[{"id":"fetch","title":"Fetch the files"},{"id":"apply","title":"Apply them"},{"id":"verify","title":"Verify"}]}'
for step in fetch apply verify; do
    # A stop request ends the job before the next step: the steps left are not started.
    if read -r -t 0.01 -u 4 line && [[ $line == *'"stop"'* ]]; then
        say '{"type":"jobEnded","job":"example","reason":"stopped on request"}'
        exit 0
    fi
    say "{\"type\":\"started\",\"job\":\"example\",\"update\":\"$step\"}"
    for percent in 25 50 75 100; do
        sleep "${EXAMPLE_STEP_SECONDS:-0.2}"
        say "{\"type\":\"progress\",\"job\":\"example\",\"update\":\"$step\",\"percent\":$percent}"
    done
    say "{\"type\":\"finished\",\"job\":\"example\",\"update\":\"$step\",\"result\":\"succeeded\"}"
done
say '{"type":"jobEnded","job":"example","reason":"done"}'
