"""dnf's configuration for the request (the installroot's, --releasever, --setopt) and its
repositories."""

import os

import dnf.conf
import dnf.rpm


def make_conf(request):
    """dnf's configuration, made before dnf.Base: a Base made without one detects releasever
    on / (dnf.Base._setup_default_conf), opening the host's rpm database even with an
    installroot (with Debian's rpm and the real HOME, creating ~/.rpmdb).

    Returns the configuration and the repository options of --setopt, which apply once the
    repositories are read.
    """
    conf = dnf.conf.Conf()
    conf.exit_on_lock = True  # a lock held elsewhere is an error here, not a wait
    root = request.installroot
    # Before any path is substituted: an unknown releasever is None, which libdnf rejects.
    conf.releasever = request.releasever or dnf.rpm.detect_releasever(root or '/')
    if root is None:
        conf.read(priority=dnf.conf.PRIO_MAINCONFIG)
        reposroot = '/'
    else:
        conf.installroot = root
        config = os.path.join(root, 'etc/dnf/dnf.conf')
        if os.path.isfile(config):
            conf.read(config, priority=dnf.conf.PRIO_MAINCONFIG)
        # dnf's API takes these paths as given; its command line re-roots them like this.
        for option in ('cachedir', 'logdir', 'persistdir'):
            conf.prepend_installroot(option)
        conf.reposdir = [os.path.join(root, path.lstrip('/')) for path in conf.reposdir]
        reposroot = root
    conf.substitutions.update_from_etc(reposroot, varsdir=conf.varsdir)
    repo_setopts = []
    for key, value in request.setopts:
        repo_glob, dot, option = key.rpartition('.')
        if dot:
            repo_setopts.append((repo_glob, option, value))
        else:
            conf.set_or_append_opt_value(key, value, dnf.conf.PRIO_COMMANDLINE)
    for path in (conf.logdir, conf.persistdir, conf.cachedir):
        os.makedirs(path, exist_ok=True)
    return conf, repo_setopts


def read_repos(base, repo_setopts):
    base.setup_loggers()  # dnf.log, dnf.rpm.log, dnf.librepo.log in logdir, as dnf's own
    base.read_all_repos()
    for repo_glob, option, value in repo_setopts:
        for repo in base.repos.get_matching(repo_glob):
            repo.set_or_append_opt_value(option, value, dnf.conf.PRIO_COMMANDLINE)
