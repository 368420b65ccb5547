// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated cards modelled on the seed reports: their geometry, the
 * costs solved from their tables, and what sysfs said about them.
 */
#include <string.h>

#include "sim/internal.h"

/*
 * The identity attributes of the seed cards, as their reports dumped
 * them (head of /sys/block/mmcblk0/device/ files, lsusb).
 */
#define SD_REGS(cid, csd, scr, date, manfid, oemid, name, serial, hw, fw) \
	"type=SD\ncid=" cid "\ncsd=" csd "\nscr=" scr "\ndate=" date \
	"\nmanfid=" manfid "\noemid=" oemid "\nname=" name "\nserial=" \
	serial "\nhwrev=" hw "\nfwrev=" fw "\nerase_size=512\n" \
	"preferred_erase_size=4194304\nqueue/logical_block_size=512\n" \
	"queue/physical_block_size=512\nqueue/rotational=0\n"
#define USB_READER \
	"transport=usb\nqueue/logical_block_size=512\n" \
	"queue/physical_block_size=512\nqueue/rotational=0\n"
#define USB_REGS(vid, pid) \
	USB_READER "usb/idVendor=" vid "\nusb/idProduct=" pid \
	"\nusb/manufacturer=Kingston Technology Company Inc.\n"

/*
 * Each profile is one card from the seed reports.  Geometry is what the
 * report (or the expert answering it) concluded; the costs are solved from
 * its tables: the 1 KiB read time of -a gives rd_cmd + xfer + page_rd, the
 * diff at page boundaries is page_rd and at AU boundaries page_rd +
 * au_cross; two rows of -O (a whole AU and a single page) give wr_cmd and
 * the per-page cost.  What a report does not show is marked "assumed".
 */
const struct sim_profile sim_profiles[] = {
	/*
	 * seed 002, SanDisk SD08G: 7948206080 bytes; -a: 1 KiB reads
	 * ~820us, diff 215us at 4 MiB and up, ~20us from 16 KiB to 2 MiB,
	 * ~0 below: 4 MiB AU, 16 KiB page; -O: 6 open AUs (7 collapse),
	 * --random collapses even with one AU; 8.0 M/s at 4 MiB, 6.1 M/s
	 * at 16 KiB; -f: the 2nd AU runs at 3.35 M/s against 8 M/s.  With
	 * 7 AUs the collapse from 2 MiB to 256 KiB recovers at 128 KiB and
	 * below (7.8 M/s at 64 KiB): small writes skip the AU slots.
	 */
	{ .name = "sd08g",
	  .card = "SanDisk SD08G 8 GB SD (seed 002)",
	  .size = 7948206080ull, .au = 4 << 20, .page = 16 << 10,
	  .open = 6, .random = 0, .fat = 1, .fatstart = 1,
	  .t = { .rd_cmd = 759000, .wr_cmd = 623000, .xfer_ps = 40000,
		 .page_rd = 20000, .au_cross = 195000, .prog_kib = 86875,
		 .erase = 3000000, .discard_cmd = 250000 },
	  .r = { .edge = 60000, .zone_aus = 4, .drift = 8, .slowau = 5 },
	  .w = { .merge = 100, .small = 128 << 10 },
	  .regs = SD_REGS("035344534430384780a11ce23a00c400",
			"400e00325b5900003b377f800a404000", "0235800100000000",
			"04/2012", "0x000003", "0x5344", "SD08G", "0xa11ce23a",
			"0x8", "0x0") },
	/*
	 * seed 001, SanDisk SU04G class 4: 2 open 4 MiB AUs (3 collapse);
	 * 9.06 M/s at 4 MiB, 8.29 M/s at 32 KiB but 3.14 M/s at 16 KiB,
	 * hence a 32 KiB page.  Past two AUs the rate levels off at ~2.3
	 * M/s at every size ("performance is still basically constant, so
	 * the card is doing something smart"): a quarter of the normal rate.
	 * Size (that of the SD04G in seed 000), read times (no -a in the
	 * report) and no FAT area are assumed.
	 */
	{ .name = "su04g",
	  .card = "SanDisk SU04G 4 GB SD class 4 (seed 001)",
	  .size = 3965190144ull, .au = 4 << 20, .page = 32 << 10,
	  .open = 2, .random = 0, .fat = 0, .fatstart = 0,
	  .t = { .rd_cmd = 734000, .wr_cmd = 339000, .xfer_ps = 40000,
		 .page_rd = 25000, .au_cross = 195000, .prog_kib = 71875,
		 .erase = 3000000, .discard_cmd = 250000 },
	  .r = { .drift = 3, .slowau = 2 },
	  .w = { .merge = 100, .level = 25 },
	  .regs = "type=SD\nmanfid=0x000003\noemid=0x5344\nname=SU04G\n"
		"serial=0x03a847f0\ndate=10/2010\nqueue/rotational=0\n" },
	/*
	 * seed 004, Samsung EVO 32GB MB-MP32D: -a: 1 KiB reads ~1.37ms,
	 * diff ~320us at 16 MiB and up, ~205us from 16 KiB to 8 MiB, ~0
	 * below: 16 MiB AU, 16 KiB page.  The report has no write tests:
	 * size, 20 M/s (UHS-1 class 10) and 7 open AUs taking any order
	 * (as the Samsung of seed 003) are assumed.
	 */
	{ .name = "evo32",
	  .card = "Samsung EVO 32GB MB-MP32D microSDHC (seed 004)",
	  .size = 31914983424ull, .au = 16 << 20, .page = 16 << 10,
	  .open = 7, .random = 7, .fat = 0, .fatstart = 0,
	  .t = { .rd_cmd = 1145000, .wr_cmd = 547000, .xfer_ps = 20000,
		 .page_rd = 205000, .au_cross = 115000, .prog_kib = 30700,
		 .erase = 4000000, .discard_cmd = 250000 },
	  .r = { .edge = 100000, .zone_aus = 1, .drift = 6, .slowau = 3 },
	  .w = { .merge = 100 },
	  .regs = USB_READER },
	/*
	 * seed 003, Samsung 16 GB SD (oemid SM, 2013): 15719727104 bytes;
	 * -a: 1 KiB reads ~225us, diff ~38us from 16 KiB; -O with 8 MiB
	 * units: 17.3 M/s, 16 KiB ~10 M/s with --random, still as fast with
	 * 7 AUs in either order and with 31 linear: the smart controller
	 * whose open-AU test never collapses (no more was measured, so 32
	 * and 8 are the least the report allows), random writes at no extra
	 * cost.  The AU diff (the report shows none above 8 MiB) is assumed.
	 */
	{ .name = "samsung16",
	  .card = "Samsung 16 GB SD, 2013 (seed 003)",
	  .size = 15719727104ull, .au = 8 << 20, .page = 16 << 10,
	  .open = 32, .random = 8, .fat = 0, .fatstart = 0,
	  .t = { .rd_cmd = 141000, .wr_cmd = 692000, .xfer_ps = 45000,
		 .page_rd = 38000, .au_cross = 112000, .prog_kib = 13000,
		 .erase = 3000000, .discard_cmd = 250000 },
	  .r = { .edge = 65000, .zone_aus = 2, .drift = 4, .slowau = 3 },
	  .w = { .merge = 100 },
	  .regs = SD_REGS("1b534d3030303030107b156f8000d900",
			"400e00325b590000751e7f800a404000", "02b5800200000000",
			"09/2013", "0x00001b", "0x534d", "00000", "0x7b156f80",
			"0x1", "0x0") },
	/*
	 * seed 000, Patriot Xporter XT Boost 16 GB USB stick: -a: 1 KiB
	 * reads ~660us, diff ~215us at 8 MiB and up, 20-40us below: 8 MiB
	 * AU; -O: 15 M/s at 8 MiB, 10.9 M/s at 32 KiB, 3.12 M/s at 16 KiB
	 * (32 KiB page); 8 open AUs (9 hit the wall), 8 in random order
	 * cope, "but not perfect" (about half the linear rate at 1 MiB to
	 * 32 KiB); no FAT area.  Past the limit the rate declines gradually
	 * (14.7, 13.9, 12.3, 10 M/s from 8 MiB to 1 MiB, "log-structured"):
	 * a write costs ~45 ms, a tenth of an AU's copy.  16 KiB and smaller
	 * writes stay fast with 9 AUs.  Exact size assumed.
	 */
	{ .name = "xporter",
	  .card = "Patriot Xporter XT Boost 16 GB USB (seed 000)",
	  .size = 15938355200ull, .au = 8 << 20, .page = 32 << 10,
	  .open = 8, .random = 8, .fat = 0, .fatstart = 0,
	  .t = { .rd_cmd = 597000, .wr_cmd = 825000, .xfer_ps = 33000,
		 .page_rd = 30000, .au_cross = 185000, .prog_kib = 34375,
		 .erase = 3000000, .discard_cmd = 250000 },
	  .r = { .edge = -115000, .zone_aus = 1, .drift = 5, .slowau = 3 },
	  .w = { .merge = 10, .small = 16 << 10, .rcost = 100 },
	  .regs = USB_REGS("13fe", "3100") },
	/*
	 * seed 000, Patriot Rage XT 16 GB USB stick: 12 MiB (3 x 4 MiB)
	 * units, 12 open (13 collapse), tested with 24 KiB blocks; 13.5
	 * M/s at 12 MiB; --random inconclusive, so none.  With 13 the
	 * rate falls 12.9, 11.5, 8.35, 5.13 M/s from 12 MiB to 1.5 MiB: a
	 * write costs ~0.25 s, half an AU's copy.  Page 24 KiB, size and
	 * read times assumed (the report has no -a).  No power of two is
	 * an AU or page boundary: -a needs --blocksize=3072.
	 */
	{ .name = "rage",
	  .card = "Patriot Rage XT 16 GB USB, 12 MiB AU (seed 000)",
	  .size = 16106127360ull, .au = 12 << 20, .page = 24 << 10,
	  .open = 12, .random = 0, .fat = 0, .fatstart = 0,
	  .t = { .rd_cmd = 637000, .wr_cmd = 1254000, .xfer_ps = 33000,
		 .page_rd = 30000, .au_cross = 170000, .prog_kib = 41958,
		 .erase = 4000000, .discard_cmd = 250000 },
	  .r = { .drift = 4, .slowau = 3 },
	  .w = { .merge = 50 },
	  .regs = USB_REGS("13fe", "3800") },
};

const size_t sim_nprofiles = sizeof(sim_profiles) / sizeof(sim_profiles[0]);

const struct sim_profile *sim_find_profile(const char *name)
{
	size_t i;

	for (i = 0; i < sim_nprofiles; i++)
		if (strcmp(sim_profiles[i].name, name) == 0)
			return &sim_profiles[i];
	return NULL;
}

const struct sim_profile *sim_profile_of(const struct sim_params *p)
{
	const struct sim_profile *pr = sim_find_profile(p->profile);

	return pr ? pr : &sim_profiles[0];
}
