// libyaml's parser (Debian's libyaml-dev): the C library Yams wraps, read by YAMLNodes.
#include <yaml.h>
