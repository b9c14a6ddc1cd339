#!/bin/sh
# kernel.sh VERSION: installs a "kernel" and says a reboot is required.
. "$(dirname "$0")/lib.sh"
version=$1
for step in 10 30 50 70 90; do
    say "progress $step Generating initramfs for $version"
    echo "update-initramfs: Generating /boot/initrd.img-$version-amd64 ($step%)"
    nap 0.6
done
say "message Updating GRUB"
echo "Generating grub configuration file ..."
nap 0.5
say "reboot-required"
say "progress 100 Installed"
