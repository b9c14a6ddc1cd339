#!/bin/sh
# warn.sh: succeeds, but reports an error on the progress channel (succeededWithErrors).
. "$(dirname "$0")/lib.sh"
say "progress 30 Copying firmware blobs"
nap 0.6
say "error iwlwifi-ty-a0-gf-a0-77.ucode: checksum file missing, installed unverified"
echo "W: Possible missing firmware /lib/firmware/iwlwifi-ty-a0-gf-a0-77.ucode" >&2
say "progress 100 Firmware installed"
nap 0.4
