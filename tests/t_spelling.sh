#!/bin/sh
# A misspelt long option names the one meant, in one line, exit 2:
# "flashbench: --erase-size=4M: unknown option; did you mean --erasesize?"
# An option that is no misspelling of ours gets no guess.
. tests/lib.sh

# meant TYPED OPTION: TYPED is refused with a hint naming --OPTION
meant() {
	expect_status "spelling: $1" 2 $FB "$1" -a sim:sd08g
	if [ "$(cat "$TMP/err")" = \
	     "flashbench: $1: unknown option; did you mean --$2?" ]; then
		pass "spelling: $1: did you mean --$2"
	else
		fail "spelling: $1: want one line naming --$2: $(head -c 300 "$TMP/err")"
	fi
}

meant --erase-size=4M erasesize
meant --block-size=4k blocksize
meant --erase_size=4M erasesize
meant --fatnr=3 fat-nr
meant --openau-nr=3 open-au-nr
meant --blocksise=4k blocksize
meant --scatter-spam=8M scatter-span

for typed in --frobnicate --in --align=3; do
	expect_status "spelling: $typed" 2 $FB "$typed" sim:sd08g
	if grep -q "did you mean" "$TMP/err"; then
		fail "spelling: $typed: guessed: $(head -c 300 "$TMP/err")"
	else
		pass "spelling: $typed: no guess"
	fi
done
