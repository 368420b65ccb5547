#!/bin/sh
# make install puts the program, its man page, the README, doc/ and the bash
# completion under DESTDIR/PREFIX; make uninstall takes them all away.
. tests/lib.sh

D=$(pwd)/$TMP/install
rm -rf "$D"
P=/usr
if ! make -s install DESTDIR="$D" PREFIX=$P > "$TMP/install.log" 2>&1; then
	fail "make install: $(tail -n 3 "$TMP/install.log")"
	exit 0
fi
for f in bin/flashbench bin/flashbench-erase share/man/man1/flashbench.1 \
	share/man/man1/flashbench-erase.1 \
	share/doc/flashbench/README \
	$(for d in doc/*.md; do echo share/doc/flashbench/$d; done) \
	share/bash-completion/completions/flashbench \
	share/bash-completion/completions/flashbench-erase; do
	if [ -e "$D$P/$f" ]; then
		pass "make install: $P/$f"
	else
		fail "make install: $P/$f missing"
	fi
done
if "$D$P/bin/flashbench" --version | grep -q '^flashbench [0-9]'; then
	pass "make install: the installed program runs"
else
	fail "make install: the installed program does not run"
fi
# a package built from it replaces the classic one (version 62-1+b1)
v=$("$D$P/bin/flashbench" --version | awk '{ print $2 }')
if ! command -v dpkg >/dev/null 2>&1; then
	skip "version above the classic package's (no dpkg)"
elif dpkg --compare-versions "$v" gt 62-1+b1; then
	pass "version $v sorts above the classic package's 62-1+b1"
else
	fail "version $v does not sort above the classic package's 62-1+b1"
fi
if command -v man >/dev/null 2>&1 &&
	! man -l "$D$P/share/man/man1/flashbench.1" > /dev/null 2>&1; then
	fail "make install: man cannot format the installed page"
fi
make -s uninstall DESTDIR="$D" PREFIX=$P > "$TMP/install.log" 2>&1
left=$(find "$D" -type f -o -type l)
if [ -z "$left" ]; then
	pass "make uninstall: nothing left"
else
	fail "make uninstall: left $(echo $left | head -c 300)"
fi
rm -rf "$D"
