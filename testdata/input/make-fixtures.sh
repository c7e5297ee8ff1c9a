#!/usr/bin/env bash
# Regenerates the fixtures of internal/input with the reference tools
# (gzip, bzip2, xz, lz4, zstd, brotli, compress from ncompress, python3).
# The outputs are committed; run this only to change them.
set -euo pipefail
cd "$(dirname "$0")"

# plain.txt is the text every compressed fixture holds.
cat > plain.txt <<'TXT'
evgrep input fixture
the quick brown fox jumps over the lazy dog
needle in a haystack
naïve café — UTF-8 text
last line without a newline
TXT
printf 'tail' >> plain.txt

gzip -9 -n -c plain.txt > plain.txt.gz
bzip2 -9 -c plain.txt > plain.txt.bz2
xz -c plain.txt > plain.txt.xz
lz4 -q -c plain.txt > plain.txt.lz4
xz --format=lzma -c plain.txt > plain.txt.lzma
brotli -c plain.txt > plain.txt.br
zstd -q -c plain.txt > plain.txt.zst
compress -c plain.txt > plain.txt.Z

# Concatenations the tools accept: gzip members, bzip2/xz streams, lz4/zstd frames.
for e in gz bz2 xz lz4 zst; do cat "plain.txt.$e" "plain.txt.$e" > "double.txt.$e"; done
# gzip -d also reads compress(1) data, and xz -d also reads .lzma data.
cp plain.txt.Z gzip-reads-lzw.gz
cp plain.txt.gz lzw-name-gzip-data.Z
cp plain.txt.lzma xz-reads-lzma.xz

# compress(1) at several code widths, on text long enough to widen the codes
# and to make compress clear its table (mixed compressible/incompressible runs).
python3 - <<'PY'
import random
random.seed(13)
words = ["alpha", "beta", "gamma", "needle", "haystack", "\n", "evgrep", "ripgrep"]
parts = []
for i in range(12):
    if i % 3 == 2:
        parts.append("".join(chr(random.randrange(33, 127)) for _ in range(1500)))
    else:
        parts.append(" ".join(random.choice(words) for _ in range(400)))
open("lzw-source.txt", "w").write("".join(parts))
PY
# (-b 9 is left out: ncompress cannot read its own 9-bit output back.)
for b in 10 12 16; do compress -c -b "$b" lzw-source.txt > "lzw-b$b.txt.Z"; done

# Encodings.
printf '\xff\xfe' > utf16le-bom.txt
printf 'hello UTF-16LE\r\nnaïve 日本 \xf0\x9f\x98\x80\nend\n' | iconv -f UTF-8 -t UTF-16LE >> utf16le-bom.txt
printf '\xfe\xff' > utf16be-bom.txt
printf 'hello UTF-16BE\nnaïve 日本 \xf0\x9f\x98\x80\nend\n' | iconv -f UTF-8 -t UTF-16BE >> utf16be-bom.txt
printf 'hello UTF-16LE without BOM\n' | iconv -f UTF-8 -t UTF-16LE > utf16le-nobom.txt
# Lone lead and trail surrogates, a lead before a non-surrogate, and an odd final byte.
printf '\xff\xfea\x00\x00\xd8b\x00\x00\xdcc\x00\n\x00\x3d\xd8\x00\xde\n\x00\x00\xd8\x00\xd8d\x00\n\x00x' > utf16le-broken.txt
printf '\xef\xbb\xbfhello UTF-8 with BOM\nna\xc3\xafve\n' > utf8-bom.txt
printf 'caf\xe9 na\xefve \xa9 latin-1 / windows-1252 \x80\n' > latin1.txt
printf 'hello Shift_JIS \x93\xfa\x96\x7b\x8c\xea \x82\xa0\n' > shift_jis.txt
printf 'hello EUC-JP \xc6\xfc\xcb\xdc\xb8\xec\n' > euc-jp.txt
printf 'bad UTF-8: \xe2\x82 x \xf0\x80 y \xed\xa0\x80 z \xff\n' > invalid-utf8.txt
# UTF-16 inside a compressed file: decompressed first, then transcoded.
gzip -9 -n -c utf16le-bom.txt > utf16le-bom.txt.gz
