#!/bin/sh
# rank-trees: installs the pinned trees of bench/rank/corpora.tsv into
# $1 (outside the repository), one folder per tree, each with a .pin file
# naming its package, version and folders. A tree whose .pin matches is
# kept.
set -eu
dest=${1:?usage: trees.sh DEST}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
apt_ready=
grep -v '^#' "$here/corpora.tsv" | while IFS='	' read -r name lang source pkg version folders; do
	[ -n "$name" ] || continue
	pin="$source $pkg $version $folders"
	if [ -f "$dest/$name/.pin" ] && [ "$(cat "$dest/$name/.pin")" = "$pin" ]; then
		continue
	fi
	echo "rank-trees: $name ($pin)"
	case $source in
	go)
		root=$(cd "$here/../.." && go mod download -json "$pkg@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
		;;
	npm)
		(cd "$tmp" && npm pack --silent "$pkg@$version" >/dev/null && mkdir -p "npm-$name" && tar xzf ./*.tgz -C "npm-$name" && rm -f ./*.tgz)
		root="$tmp/npm-$name/package"
		;;
	deb|jdk)
		have=$(dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null || true)
		if [ "$have" != "$version" ]; then
			if [ -z "$apt_ready" ]; then apt-get update -qq; apt_ready=1; fi
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$pkg=$version" >/dev/null
		fi
		have=$(dpkg-query -W -f '${Version}' "$pkg")
		if [ "$have" != "$version" ]; then
			echo "rank-trees: $pkg is $have, the pin is $version" >&2
			exit 1
		fi
		root=/
		if [ "$source" = jdk ]; then
			zip=$(dpkg -L "$pkg" | grep '/src\.zip$' | head -1)
			mkdir -p "$tmp/jdk-$name"
			(cd "$tmp/jdk-$name" && unzip -q -o "$zip" $(echo "$folders" | tr ',' '\n' | sed 's|$|/*|'))
			root="$tmp/jdk-$name"
		fi
		;;
	*)
		echo "rank-trees: $name: unknown source $source" >&2
		exit 1
		;;
	esac
	rm -rf "$dest/$name"
	mkdir -p "$dest/$name"
	for f in $(echo "$folders" | tr ',' ' '); do
		case $f in
		/*) src=$f ;;
		*) src="$root/$f" ;;
		esac
		# Each folder keeps its path below the package's root, without a
		# shared prefix of absolute paths.
		if [ "$f" = . ] || [ "${f%/.}" != "$f" ]; then
			cp -R "$src/." "$dest/$name/"
		else
			part=$(basename "$src")
			cp -R "$src" "$dest/$name/$part"
		fi
	done
	chmod -R u+w "$dest/$name"
	find "$dest/$name" -name __pycache__ -prune -exec rm -rf {} +
	echo "$pin" >"$dest/$name/.pin"
done
