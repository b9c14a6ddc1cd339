#!/bin/sh
# broken.sh: fails the way dpkg does, with exit status 3.
. "$(dirname "$0")/lib.sh"
say "progress 20 Building kernel module"
echo "Building module nvidia/535.183.01 for 6.1.0-27-amd64 ..."
nap 0.8
say "progress 60 Building kernel module"
echo "make: *** [Makefile:82: modules] Error 2" >&2
echo "dpkg: error processing package nvidia-driver (--configure):" >&2
echo " installed nvidia-driver package post-installation script subprocess returned error exit status 10" >&2
nap 0.3
exit 3
