// SPDX-License-Identifier: GPL-2.0
/*
 * Register decoding: seed cards' registers against what the kernel's
 * attributes in the same dumps say, and registers built here field by
 * field at the positions the SD specification gives.
 */
#include <string.h>

#include "check.h"
#include "identity/sd_regs.h"

/* Set field [lsb + width - 1 : lsb] of a register of n bytes. */
static void put(unsigned char *b, unsigned n, unsigned lsb, unsigned width,
		uint32_t v)
{
	unsigned i;

	for (i = 0; i < width; i++) {
		unsigned bit = lsb + i, byte = n - 1 - bit / 8;

		if (v >> i & 1)
			b[byte] |= (unsigned char)(1u << bit % 8);
	}
}

static void hex(const unsigned char *b, unsigned n, char *out)
{
	unsigned i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static void seed_cids(void)
{
	struct sd_cid c;

	/* seed 000, Kingston: manfid 0x000002 oemid 0x544d SA04G hwrev 0x0
	 * fwrev 0x6 serial 0x2263db5f date 12/2010 */
	CHECK(sd_cid_decode("02544d5341303447062263db5f00ac00", &c) == 0 &&
	      c.manfid == 2 && !strcmp(c.oemid, "TM") &&
	      !strcmp(c.name, "SA04G") && c.prv_major == 0 &&
	      c.prv_minor == 6 && c.serial == 0x2263db5f && c.year == 2010 &&
	      c.month == 12, "seed 000 Kingston CID");
	/* seed 003: 0x00001b 0x534d 00000 0x7b156f80 09/2013 hwrev 0x1 */
	CHECK(sd_cid_decode("1b534d3030303030107b156f8000d900", &c) == 0 &&
	      c.manfid == 0x1b && !strcmp(c.oemid, "SM") &&
	      !strcmp(c.name, "00000") && c.prv_major == 1 &&
	      c.serial == 0x7b156f80 && c.year == 2013 && c.month == 9,
	      "seed 003 Samsung CID");
	CHECK(sd_cid_decode("1b534d30303030", &c) < 0, "short CID refused");
	CHECK(sd_cid_decode("1b534d3030303030107b156f8000d9zz", &c) < 0,
	      "non-hex CID refused");
}

static void seed_csds(void)
{
	struct sd_csd c;

	/* seed 002: fdisk says 7948206080 bytes */
	CHECK(sd_csd_decode("400e00325b5900003b377f800a404000", &c) == 0 &&
	      c.structure == 1 && c.capacity == 7948206080ull &&
	      c.tran_speed == 25000000 && c.ccc == 0x5b5 &&
	      c.read_bl_len == 512 && c.erase_blk_en &&
	      c.erase_unit == 65536 && c.copy && !c.perm_wp,
	      "seed 002 CSD: capacity %llu",
	      (unsigned long long)c.capacity);
}

static void csd_v1(void)
{
	unsigned char b[16] = { 0 };
	char h[33];
	struct sd_csd c;

	put(b, 16, 96, 8, 0x32);	/* TRAN_SPEED 25 Mbit/s */
	put(b, 16, 80, 4, 10);		/* READ_BL_LEN 1024 */
	put(b, 16, 62, 12, 3857);	/* C_SIZE */
	put(b, 16, 47, 3, 7);		/* C_SIZE_MULT */
	put(b, 16, 39, 7, 31);		/* SECTOR_SIZE: 32 write blocks */
	put(b, 16, 22, 4, 9);		/* WRITE_BL_LEN 512 */
	hex(b, 16, h);
	CHECK(sd_csd_decode(h, &c) == 0 && c.structure == 0 &&
	      c.capacity == 3858ull * 512 * 1024 && c.erase_unit == 16384 &&
	      !c.erase_blk_en, "CSD v1.0: capacity %llu, sector %llu",
	      (unsigned long long)c.capacity,
	      (unsigned long long)c.erase_unit);
}

static void scrs(void)
{
	unsigned char b[8] = { 0 };
	struct sd_scr s;
	char h[17];

	CHECK(sd_scr_decode("02b5800200000000", &s) == 0 &&
	      !strcmp(s.spec, "3.0x") && s.bus_widths == 5 &&
	      s.data_stat_after_erase && s.security == 3 &&
	      s.cmd_support == 2, "seed 003 SCR: %s", s.spec);
	CHECK(sd_scr_decode("0235000000000000", &s) == 0 &&
	      !strcmp(s.spec, "2.00") && !s.data_stat_after_erase,
	      "seed 000 Extreme III SCR: %s", s.spec);
	put(b, 8, 56, 4, 2);
	put(b, 8, 47, 1, 1);
	put(b, 8, 42, 1, 1);
	put(b, 8, 38, 4, 2);
	hex(b, 8, h);
	CHECK(sd_scr_decode(h, &s) == 0 && !strcmp(s.spec, "6.xx"),
	      "SCR SD_SPECX 2: %s", s.spec);
}

static void ssr(void)
{
	unsigned char b[64] = { 0 };
	struct sd_ssr s;
	char h[129];

	put(b, 64, 510, 2, 2);		/* 4-bit bus */
	put(b, 64, 440, 8, 4);		/* class 10 */
	put(b, 64, 428, 4, 9);		/* AU 4 MiB */
	put(b, 64, 408, 16, 16);	/* 16 AUs erased ... */
	put(b, 64, 402, 6, 20);		/* ... in 20 s */
	put(b, 64, 400, 2, 1);		/* + 1 s */
	put(b, 64, 396, 4, 1);		/* U1 */
	put(b, 64, 392, 4, 10);		/* UHS AU 8 MiB */
	put(b, 64, 384, 8, 10);		/* V10 */
	put(b, 64, 336, 4, 1);		/* A1 */
	put(b, 64, 313, 1, 1);		/* discard */
	hex(b, 64, h);
	CHECK(sd_ssr_decode(h, &s) == 0 && s.bus_width == 4 &&
	      s.speed_class == 10 && s.au_size == 4u << 20 &&
	      s.erase_size == 16 && s.erase_timeout == 20 &&
	      s.erase_offset == 1 && s.uhs_grade == 1 &&
	      s.uhs_au_size == 8u << 20 && s.video_class == 10 &&
	      s.app_class == 1 && s.discard && !s.fule,
	      "SSR fields at their positions");
	h[127] = '\0';
	CHECK(sd_ssr_decode(h, &s) < 0, "127-digit SSR refused");
}

static void mmc(void)
{
	struct sd_cid c;
	struct sd_csd d;

	CHECK(mmc_csd_decode("d0270132 0f5903ff f6dbffef 8e40400d", &d) < 0,
	      "blanks inside a register refused");
	CHECK(mmc_csd_decode("d02701320f5903fff6dbffef8e40400d", &d) == 0 &&
	      d.spec_vers == 4 && d.capacity == 0,
	      "eMMC CSD: SPEC_VERS 4, size in EXT_CSD");
	CHECK(mmc_cid_decode("150101424a5444345212123456783401", 4, &c) == 0 &&
	      c.manfid == 0x15 && !strcmp(c.name, "BJTD4R") &&
	      !strcmp(c.oemid, "0x01") && c.serial == 0x12345678 &&
	      c.year == 2017 && c.month == 3, "eMMC CID: %s %u-%u", c.name,
	      c.year, c.month);
}

static void pref_guess(void)
{
	CHECK(sd_kernel_pref_erase(100ull << 20, 512) == 512 << 10 &&
	      sd_kernel_pref_erase(300ull << 20, 512) == 1 << 20 &&
	      sd_kernel_pref_erase(700ull << 20, 512) == 2 << 20 &&
	      sd_kernel_pref_erase(7948206080ull, 512) == 4 << 20 &&
	      sd_kernel_pref_erase(8ull << 30, 3 << 20) == 6 << 20 &&
	      sd_kernel_pref_erase(8ull << 30, 8 << 20) == 8 << 20,
	      "the kernel's preferred_erase_size guess by capacity");
}

int main(void)
{
	seed_cids();
	seed_csds();
	csd_v1();
	scrs();
	ssr();
	mmc();
	pref_guess();
	return CHECK_DONE();
}
