/// The demo's files, kept here so the binary carries them wherever it runs (DemoFolder writes
/// them out). Each script is plain POSIX sh.
enum DemoFiles {
    struct File {
        let name: String
        let contents: String
        var isExecutable: Bool { name.hasSuffix(".sh") && name != "lib.sh" }
    }

    static let all: [File] = [
        File(name: "demo.yaml", contents: #"""
            # The installtop demo: real child processes, one script per kind of update.
            # installtop writes this folder to a temporary directory and removes it afterwards.
            defaults:
              timeout: 10m
              abort_grace: 5s

            jobs:
              - name: Security updates
                operation: install
                updates:
                  - id: openssl
                    title: OpenSSL 3.0.15 security fix
                    install: [./apply.sh, openssl, "12"]
                    severity: critical
                    size: 4200000
                  - id: libc6
                    title: libc6 2.36-9+deb12u9 (APT status lines)
                    install: [./apt-status.sh, libc6]
                    size: 2900000
                  - id: curl
                    title: curl 7.88.1 (progress read from its output)
                    install: [./download.sh, curl_7.88.1-10+deb12u8_amd64.deb]
                    progress: output

              - name: Kernel 6.1.0-27
                updates:
                  - id: linux-image-6.1.0-27
                    title: Linux kernel 6.1.0-27 (asks for a reboot)
                    install: [./kernel.sh, 6.1.0-27]
                    reboot: may

              - name: Tools
                updates:
                  - id: jq
                    title: jq 1.6
                    install: [./apply.sh, jq, "5"]
                  - id: locate-db
                    title: Rebuild the locate database (reports no progress)
                    install: [./scan.sh]
                    progress: none

              - name: Drivers
                updates:
                  - id: wifi-firmware
                    title: Wi-Fi firmware 20230210 (succeeds with a warning)
                    install: [./warn.sh]
                  - id: nvidia-driver
                    title: NVIDIA driver 535 (fails)
                    install: [./broken.sh]

              - name: Database migration
                updates:
                  - id: db-migrate
                    title: Migrate the inventory database (slow; worth aborting)
                    install: [./migrate.sh]

              - name: Remove old kernels
                operation: uninstall
                updates:
                  - id: linux-image-6.1.0-25
                    title: Linux kernel 6.1.0-25
                    uninstall: [./remove.sh, linux-image-6.1.0-25]
            """#),
        File(name: "lib.sh", contents: #"""
            # Shared by the demo scripts. INSTALLTOP_DEMO_SPEED=4 runs everything four times faster.
            speed=${INSTALLTOP_DEMO_SPEED:-1}

            # nap SECONDS: sleep, scaled by the demo speed.
            nap() {
                sleep "$(awk -v s="$1" -v k="$speed" 'BEGIN { printf "%.3f", s / k }')"
            }

            # say LINE: one line on installtop's progress channel (fd 3).
            say() {
                printf '%s\n' "$*" >&"${INSTALLTOP_PROGRESS_FD:-3}"
            }
            """#),
        File(name: "apply.sh", contents: #"""
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
            """#),
        File(name: "apt-status.sh", contents: #"""
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
            """#),
        File(name: "download.sh", contents: #"""
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
            """#),
        File(name: "kernel.sh", contents: #"""
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
            """#),
        File(name: "scan.sh", contents: #"""
            #!/bin/sh
            # scan.sh: an update that reports no percentage at all; installtop shows it as indeterminate.
            . "$(dirname "$0")/lib.sh"
            for directory in /usr /usr/share /usr/lib /var /etc /opt; do
                echo "Indexing $directory"
                nap 0.9
            done
            """#),
        File(name: "warn.sh", contents: #"""
            #!/bin/sh
            # warn.sh: succeeds, but reports an error on the progress channel (succeededWithErrors).
            . "$(dirname "$0")/lib.sh"
            say "progress 30 Copying firmware blobs"
            nap 0.6
            say "error iwlwifi-ty-a0-gf-a0-77.ucode: checksum file missing, installed unverified"
            echo "W: Possible missing firmware /lib/firmware/iwlwifi-ty-a0-gf-a0-77.ucode" >&2
            say "progress 100 Firmware installed"
            nap 0.4
            """#),
        File(name: "broken.sh", contents: #"""
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
            """#),
        File(name: "migrate.sh", contents: #"""
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
            """#),
        File(name: "remove.sh", contents: #"""
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
            """#),
    ]
}
