#!/usr/bin/env bash
# Installs the real source trees of the structural differential
# (bench/structdiff, `make struct-trees`) into DIR, one folder a language,
# each taken from a package of a pinned version: Debian packages (unpacked
# with dpkg-deb, not installed), npm packages (npm pack) and Go modules
# (the module cache). DIR/MANIFEST lists what was installed; structdiff
# refuses trees whose MANIFEST is not bench/structdiff/MANIFEST.
set -euo pipefail
DIR=${1:?usage: trees.sh DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
if cmp -s "$DIR/MANIFEST" "$HERE/MANIFEST"; then
  echo "trees.sh: $DIR is up to date"
  exit 0
fi
rm -f "$DIR/MANIFEST"
WORK="$DIR/.download"
rm -rf "$WORK" && mkdir -p "$WORK"
MANIFEST="$WORK/MANIFEST"
: > "$MANIFEST"

# deb LANG PACKAGE=VERSION PATH...: the package's files under PATH (paths
# inside the package) into DIR/LANG/PACKAGE.
deb() {
  local lang=$1 spec=$2; shift 2
  local name=${spec%%=*}
  (cd "$WORK" && apt-get download -qq "$spec" >/dev/null 2>&1) ||
    { echo "trees.sh: apt-get download $spec failed (apt-get update first?)" >&2; exit 1; }
  local x="$WORK/x-$name"
  mkdir -p "$x" && dpkg-deb -x "$WORK/${name}_"*.deb "$x"
  mkdir -p "$DIR/$lang/$name"
  for p in "$@"; do
    cp -r "$x/$p" "$DIR/$lang/$name/"
  done
  echo "$lang deb $spec $*" >> "$MANIFEST"
}

# npmpkg LANG NAME@VERSION PATH...: the package's files under PATH.
npmpkg() {
  local lang=$1 spec=$2; shift 2
  local name=${spec%@*}
  (cd "$WORK" && npm pack --silent "$spec" >/dev/null) ||
    { echo "trees.sh: npm pack $spec failed" >&2; exit 1; }
  local x="$WORK/x-$name"
  mkdir -p "$x" && tar -xzf "$WORK/$name-"*.tgz -C "$x"
  mkdir -p "$DIR/$lang/$name"
  for p in "$@"; do
    cp -r "$x/package/$p" "$DIR/$lang/$name/"
  done
  echo "$lang npm $spec $*" >> "$MANIFEST"
}

# gomod LANG MODULE@VERSION DEPTH GLOB...: files of a Go module whose
# names match GLOB, at most DEPTH folders deep (1: the module root only).
gomod() {
  local lang=$1 spec=$2 depth=$3; shift 3
  local d
  d=$(cd "$HERE" && go mod download -json "$spec" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$d" ] || { echo "trees.sh: go mod download $spec failed" >&2; exit 1; }
  local name=${spec%@*}; name=${name##*/}
  mkdir -p "$DIR/$lang/$name"
  for g in "$@"; do
    (cd "$d" && find . -maxdepth "$depth" -type f -name "$g" -print0 | xargs -0 -r cp --parents -t "$DIR/$lang/$name/")
  done
  chmod -R u+w "$DIR/$lang/$name"
  echo "$lang gomod $spec $depth $*" >> "$MANIFEST"
}

for l in typescript javascript css python ruby php rust java c cpp go bash lua; do rm -rf "${DIR:?}/$l"; done

npmpkg typescript rxjs@7.8.1 src
npmpkg javascript lodash@4.17.21 .
npmpkg css bootstrap@5.3.3 dist/css
deb python python3-requests=2.28.1+dfsg-1 usr/lib/python3/dist-packages/requests
deb python python3-pygments=2.14.0+dfsg-1 usr/lib/python3/dist-packages/pygments
deb ruby ruby-rack=2.2.22-0+deb12u2 usr/share/rubygems-integration/all/gems/rack-2.2.22
deb ruby rake=13.0.6-3 usr/share/rubygems-integration/all/gems/rake-13.0.6
deb php php-symfony-console=5.4.53+dfsg-0+deb12u1 usr/share/php/Symfony/Component/Console
deb php php-guzzlehttp-guzzle=7.4.5-1 usr/share/php/GuzzleHttp
deb rust librust-serde-dev=1.0.152-2 usr/share/cargo/registry/serde-1.0.152
deb rust librust-serde-json-dev=1.0.87-1 usr/share/cargo/registry/serde_json-1.0.87
deb c nettle-dev=3.8.1-2 usr/share/doc/nettle-dev/examples
deb c zlib1g-dev=1:1.2.13.dfsg-1+deb12u1 usr/share/doc/zlib1g-dev/examples
gomod c github.com/smacker/go-tree-sitter@v0.0.0-20240827094217-dd81d9e9be82 1 '*.c' '*.h'
deb cpp nlohmann-json3-dev=3.11.2-2 usr/include/nlohmann
deb cpp googletest=1.12.1-0.2 usr/src/googletest/googletest/src usr/src/googletest/googlemock/src
deb bash git=1:2.39.5-0+deb12u3 usr/share/doc/git/contrib
deb bash linux-perf=6.1.192-3 usr/lib/perf-core/tests/shell
deb lua lua-penlight=1.13.1-3 usr/share/lua/5.1/pl
gomod go github.com/go-git/go-git/v5@v5.19.3 99 '*.go'

# Java: the java.util tree of the JDK's own sources.
(cd "$WORK" && apt-get download -qq openjdk-17-source=17.0.21.1+2-1~deb12u1 >/dev/null 2>&1) ||
  { echo "trees.sh: apt-get download openjdk-17-source failed" >&2; exit 1; }
mkdir -p "$WORK/x-jdk" && dpkg-deb -x "$WORK"/openjdk-17-source_*.deb "$WORK/x-jdk"
mkdir -p "$DIR/java/openjdk-17"
python3 - "$WORK/x-jdk" "$DIR/java/openjdk-17" <<'PY'
import glob, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
z = zipfile.ZipFile(glob.glob(src + "/usr/lib/jvm/*/lib/src.zip")[0])
z.extractall(dst, [n for n in z.namelist() if n.startswith("java.base/java/util/") and n.endswith(".java")])
PY
echo "java deb openjdk-17-source=17.0.21.1+2-1~deb12u1 src.zip:java.base/java/util" >> "$MANIFEST"

# Only the searched languages' files stay (bash: the shell scripts).
find "$DIR/bash" -type f ! -name '*.sh' -delete
find "$DIR" -path "$WORK" -prune -o -type l -print0 | xargs -0 -r rm -f
mv "$MANIFEST" "$DIR/MANIFEST"
rm -rf "$WORK"
if ! cmp -s "$DIR/MANIFEST" "$HERE/MANIFEST"; then
  echo "trees.sh: $DIR/MANIFEST differs from bench/structdiff/MANIFEST" >&2
  diff "$HERE/MANIFEST" "$DIR/MANIFEST" >&2 || true
  exit 1
fi
du -sh "$DIR"/* | sed "s|$DIR/||"
