#!/bin/sh
# migrate.sh: a slow update (about 90 s). On SIGTERM it rolls back for a moment, then stops.
. "$(dirname "$0")/lib.sh"
trap 'echo "Abort requested: rolling back the current batch..."; say "message Rolling back"; nap 1.5; echo "Rolled back."; exit 130' TERM
batch=1
while [ "$batch" -le 100 ]; do
    say "progress $batch Migrating batch $batch of 100"
    echo "Migrated batch $batch of 100 (250 rows)"
    nap 0.9 &
    wait $!
    batch=$((batch + 1))
done
