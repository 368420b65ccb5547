#!/bin/sh
# Bash completion (completion/flashbench, installed by make install):
# every option of --help, the sim: profiles and keys of --help-sim, block
# devices, files for --out/--plot/--preserve.
. tests/lib.sh

BC=/usr/share/bash-completion/bash_completion
if ! command -v bash >/dev/null 2>&1 || [ ! -r $BC ]; then
	skip "completion (bash or bash-completion not installed)"
	exit 0
fi

# offers NAME WORD... -- WANT...: completing WORD... offers every WANT
offers() {
	_name=$1
	shift
	_words=
	while [ "$1" != -- ]; do
		_words="$_words '$1'"
		shift
	done
	shift
	bash -c ". tests/complete.bash; complete_words $_words" \
		> "$TMP/compl" 2> "$TMP/compl.err"
	for _w in "$@"; do
		if ! grep -qxF -e "$_w" "$TMP/compl"; then
			fail "completion $_name: '$_w' not offered; got: $(tr '\n' ' ' < "$TMP/compl" | head -c 300) $(head -c 200 "$TMP/compl.err")"
			return
		fi
	done
	pass "completion $_name"
}

# every long option --help describes, "=" where it takes a value
opts=$($FB --help | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z-]*=\{0,1\}\).*/\2/p')
offers "all options of --help" "$FB" - -- $opts
offers "--op" "$FB" --op -- --open-au --open-au-nr=
profiles=$($FB --help-sim | awk '/^Profiles:/ { on = 1; next }
	/^Keys/ { on = 0 } on && /^  [a-z0-9]+ / { print "sim:" $1 }')
offers "sim: profiles" "$FB" -a sim: -- $profiles sim:noise= sim:au=
offers "sim: keys after a comma" "$FB" -a sim:sd08g,no -- sim:sd08g,noise=
offers "sim: keys after a key" "$FB" -O sim:au=8M,pa -- sim:au=8M,page=
# loop devices come and go with other tests on the machine (make -j2
# check runs t_safety beside this one): only the others must be offered
devs=$(lsblk -dpno NAME,TYPE 2>/dev/null | awk '$2 != "loop" { print $1 }' |
	head -n 5)
if [ -n "$devs" ]; then
	offers "block devices" "$FB" -a /dev/ -- $devs
else
	skip "completion of block devices (lsblk lists none but loop devices here)"
fi
mkdir -p "$TMP/compl-dir"
: > "$TMP/compl-dir/card.img"
offers "image files as devices" "$FB" -a "$TMP/compl-dir/ca" -- \
	"$TMP/compl-dir/card.img"
offers "--plot takes a file" "$FB" -a --plot "$TMP/compl-dir/c" -- \
	"$TMP/compl-dir/card.img"
offers "flashbench-erase: a device first" flashbench-erase sim -- sim:
rm -rf "$TMP/compl-dir"
