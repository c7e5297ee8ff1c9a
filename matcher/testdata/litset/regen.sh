#!/bin/sh
# Regenerates rg-o.txt, ripgrep 15's answer for the literal-set test.
# Usage: sh matcher/testdata/litset/regen.sh /opt/rg15/rg
set -eu
cd "$(dirname "$0")"
"${1:-/opt/rg15/rg}" --no-config -o -n -f pats.txt text.txt > rg-o.txt
