#!/bin/sh
# apt-status.sh PACKAGE: speaks APT's Status-Fd format, as `apt-get -o APT::Status-Fd=3` does.
. "$(dirname "$0")/lib.sh"
package=$1
for percent in 10 25 40 55; do
    say "dlstatus:1:$percent:Retrieving file 1 of 1 ($package)"
    nap 0.3
done
say "pmstatus:$package:amd64:60.0000:Preparing $package:amd64"
echo "Preparing to unpack .../${package}_2.36-9+deb12u9_amd64.deb ..."
nap 0.5
say "pmstatus:$package:amd64:75.0000:Unpacking $package:amd64 (2.36-9+deb12u9)"
echo "Unpacking $package:amd64 (2.36-9+deb12u9) over (2.36-9+deb12u8) ..."
nap 0.8
say "pmconffile:/etc/ld.so.conf:75.0000:'/etc/ld.so.conf' '/etc/ld.so.conf.dpkg-new' 1 1"
say "pmstatus:$package:amd64:90.0000:Configuring $package:amd64"
echo "Setting up $package:amd64 (2.36-9+deb12u9) ..."
nap 0.6
say "pmstatus:$package:amd64:100.0000:Installed $package:amd64"
