#!/bin/sh
# download.sh FILE: no progress channel; its output carries the percentages (progress: output).
. "$(dirname "$0")/lib.sh"
file=$1
for percent in 0 8 17 31 46 58 73 89 100; do
    echo "Downloading $file  $percent%"
    nap 0.35
done
# Colour codes like these are shown as text, never sent to the terminal.
printf '\033[32mDone\033[0m: %s\n' "$file"
