#!/usr/bin/env bash
# Deploys the service to one host.
set -euo pipefail

readonly VERSION="1.4.2"
export DEPLOY_ROOT=/srv/app
declare -r MAX_RETRIES=3
log_file=/tmp/deploy.log

# log writes a timestamped line.
log() {
	printf '%s %s\n' "$(date +%T)" "$*" >>"$log_file"
}

_retry() {
	local n=0
	until "$@"; do
		n=$((n + 1))
		if [ "$n" -ge "$MAX_RETRIES" ]; then
			return 1
		fi
	done
}

function upload {
	local host=$1
	_retry scp -q build.tar.gz "$host:$DEPLOY_ROOT/"
	helper() {
		echo "nested"
	}
}

function restart() { ssh "$1" systemctl restart app; }

main() {
	log "deploying $VERSION"
	for h in "$@"; do
		upload "$h"
		restart "$h"
	done
}

main "$@"
