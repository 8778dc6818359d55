#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# Fetches and unpacks a Debian source package into DIR: the first of the
# specs (PACKAGE or PACKAGE=VERSION) that apt-get source finds. As root
# (unless HYLA_NO_APT is set), first adds Debian 12's deb-src entry where no
# source list has one, and refreshes the indexes.
#   scripts/debian-source.sh DIR SPEC [SPEC ...]
set -eu
dir=$1
shift
if [ -z "${HYLA_NO_APT:-}" ] && [ "$(id -u)" = 0 ]; then
	if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ &&
		! grep -qs '^deb-src' /etc/apt/sources.list; then
		cat > /etc/apt/sources.list.d/hyla-src.sources <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	fi
	apt-get update -qq
fi
cd "$dir"
for spec in "$@"; do
	if apt-get source -qq "$spec" >apt-source.log 2>&1; then
		rm -f apt-source.log
		exit 0
	fi
done
cat apt-source.log >&2
echo "debian-source: apt-get source found none of: $* (deb-src entries are added as root)" >&2
exit 1
