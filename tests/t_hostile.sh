#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Hostile values for every option of options.c's table (0, negative,
# 2^63, 2^64, suffix garbage, empty, 8 KiB strings) on sim: and on a
# regular file: exit 2, one line naming the option, no output, no I/O.
# The driver is tests/hostile.py; it reads the options from the table.
. tests/lib.sh

if ! command -v python3 >/dev/null 2>&1; then
	skip "hostile: python3 not installed"
	exit 0
fi
F=$TMP/hostile.img
trap 'rm -f "$F"' EXIT
rm -f "$F"
# not sparse: a write of zeros over a hole would leave the digest as it was
head -c 1048576 /dev/urandom > "$F"
truncate -s 128M "$F"
python3 tests/hostile.py "$FB" options.c "$F"
