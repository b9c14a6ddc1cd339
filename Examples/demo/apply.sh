#!/bin/sh
# apply.sh PACKAGE STEPS: a well-behaved install reporting progress on fd 3.
. "$(dirname "$0")/lib.sh"
package=$1
steps=${2:-10}
echo "Reading package lists for $package..."
i=1
while [ "$i" -le "$steps" ]; do
    percent=$((i * 100 / steps))
    if [ "$percent" -le 30 ]; then stage="Downloading"
    elif [ "$percent" -le 70 ]; then stage="Unpacking"
    else stage="Configuring"; fi
    say "progress $percent $stage $package"
    echo "$stage $package ($i/$steps)"
    nap 0.3
    i=$((i + 1))
done
echo "Setting up $package ... done"
