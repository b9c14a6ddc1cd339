#!/bin/sh
# remove.sh PACKAGE: an uninstall (INSTALLTOP_OPERATION=uninstall).
. "$(dirname "$0")/lib.sh"
package=$1
echo "Removing $package ($INSTALLTOP_OPERATION) ..."
say "progress 40 Removing $package"
nap 0.6
echo "update-initramfs: Deleting /boot/initrd.img-${package#linux-image-}-amd64"
say "progress 80 Updating GRUB"
nap 0.6
say "progress 100 Removed"
