"""The private HOME that puts rpm's database inside the installroot."""

import os
import tempfile


def make_private_home():
    """A HOME whose .rpmmacros puts rpm's database inside the installroot.

    rpm reads ~/.rpmmacros once, when it is first imported; Debian's rpm defaults %_dbpath to
    ~/.rpmdb, so with the real HOME it would create /root/.rpmdb. Must run before rpm or dnf is
    imported.
    """
    home = tempfile.mkdtemp(prefix='installtop-dnf-home-')
    with open(os.path.join(home, '.rpmmacros'), 'w') as macros:
        macros.write('%_dbpath /var/lib/rpm\n')
    os.environ['HOME'] = home
    return home
