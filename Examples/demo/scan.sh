#!/bin/sh
# scan.sh: an update that reports no percentage at all; installtop shows it as indeterminate.
. "$(dirname "$0")/lib.sh"
for directory in /usr /usr/share /usr/lib /var /etc /opt; do
    echo "Indexing $directory"
    nap 0.9
done
