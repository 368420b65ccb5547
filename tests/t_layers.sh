#!/bin/sh
# The layers of the source tree, top to bottom (the table, and why this
# order, is in tests/layers.py):
#
#   front end    flashbench.c options.c info.c offline.c flashbench_erase.c
#   procedures   survey/
#   output       output/
#   safety       safety/
#   tests        align.c erase.c fat.c openau.c scatter.c interval.c
#                prog.c run.c
#   identity     identity/ (sysfs and the device)
#   engine       vm.c
#   device       dev.c real.c sim/
#   report       report/ (feeds analysis; uses identity decoding)
#   analysis     analysis/
#   identity decoding  identity/sd_regs.c identity/decode.c
#   lib          lib/
#
# Calls (from nm of the objects make builds) and includes go down only,
# and no files call each other round a cycle.  The checker first proves
# it can fail, on edges made up to break each rule.
. tests/lib.sh

for t in python3 nm; do
	if ! command -v $t >/dev/null 2>&1; then
		skip "layers ($t not installed)"
		exit 0
	fi
done
python3 tests/layers.py --self-test
objs=$(printf 'objs:\n\t@echo $(FRONT_OBJS) $(ERASE_OBJS) $(LIB_OBJS)\n' |
	make -s --no-print-directory -f Makefile -f - objs)
if [ -z "$objs" ]; then
	fail "layers: make lists no objects"
	exit 0
fi
python3 tests/layers.py $objs
