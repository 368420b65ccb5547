// SPDX-License-Identifier: GPL-2.0
/*
 * Bit fields of the SD and MMC card registers.  Positions are bit
 * numbers with 0 the least significant bit of the register, as in the
 * specifications' tables ("C_SIZE [69:48]").
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "identity/sd_regs.h"

#define REG_MAX_BYTES 64	/* the SSR */

struct reg {
	unsigned char b[REG_MAX_BYTES];
	unsigned nbytes;
};

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Exactly bits/4 hex digits (an optional "0x" and blanks around). */
static int reg_parse(const char *hex, unsigned bits, struct reg *r)
{
	size_t n;
	unsigned i;

	if (!hex)
		return -1;
	while (isspace((unsigned char)*hex))
		hex++;
	if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
		hex += 2;
	n = strlen(hex);
	while (n && isspace((unsigned char)hex[n - 1]))
		n--;
	if (n != bits / 4)
		return -1;
	r->nbytes = bits / 8;
	for (i = 0; i < r->nbytes; i++) {
		int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		r->b[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

/* Field [lsb + width - 1 : lsb], width at most 32. */
static uint32_t bits(const struct reg *r, unsigned lsb, unsigned width)
{
	uint32_t v = 0;
	unsigned i;

	for (i = lsb + width; i-- > lsb;) {
		unsigned byte = r->nbytes - 1 - i / 8;

		v = v << 1 | ((r->b[byte] >> (i % 8)) & 1);
	}
	return v;
}

/* nchars characters from bit msb down; hex when any is not printable. */
static void text_field(const struct reg *r, unsigned msb, unsigned nchars,
		       char *out, size_t len)
{
	unsigned i, n;
	int printable = 1;

	for (i = 0; i < nchars && i + 1 < len; i++) {
		uint32_t c = bits(r, msb - 8 * i - 7, 8);

		printable &= isprint((int)c) != 0;
		out[i] = (char)c;
	}
	out[i] = '\0';
	if (printable)
		return;
	n = (unsigned)snprintf(out, len, "0x");
	for (i = 0; i < nchars && n + 2 < len; i++, n += 2)
		snprintf(out + n, len - n, "%02x",
			 (unsigned)bits(r, msb - 8 * i - 7, 8));
}

/* PRV: product revision n.m, a BCD byte. */
static void set_prv(struct sd_cid *c, uint32_t prv)
{
	c->prv_major = prv >> 4;
	c->prv_minor = prv & 15;
}

int sd_cid_decode(const char *hex, struct sd_cid *c)
{
	struct reg r;

	memset(c, 0, sizeof(*c));
	if (reg_parse(hex, 128, &r))
		return -1;
	c->manfid = bits(&r, 120, 8);
	text_field(&r, 119, 2, c->oemid, sizeof(c->oemid));
	text_field(&r, 103, 5, c->name, sizeof(c->name));
	set_prv(c, bits(&r, 56, 8));
	c->serial = bits(&r, 24, 32);
	c->year = 2000 + bits(&r, 12, 8);
	c->month = bits(&r, 8, 4);
	return 0;
}

/*
 * MMC 1.x cards put a 24-bit manufacturer ID and seven characters where
 * later ones put the OEM ID; eMMC 4.41 and later count years from 2013
 * (JEDEC reuses the 4-bit field), which a CSD alone cannot tell apart
 * from 1997-2012 except by SPEC_VERS 4 cards of that era being rare.
 */
int mmc_cid_decode(const char *hex, unsigned spec_vers, struct sd_cid *c)
{
	struct reg r;

	memset(c, 0, sizeof(*c));
	if (reg_parse(hex, 128, &r))
		return -1;
	if (spec_vers <= 1) {
		c->manfid = bits(&r, 104, 24);
		text_field(&r, 103, 7, c->name, sizeof(c->name));
		c->prv_major = bits(&r, 44, 4);
		c->prv_minor = bits(&r, 40, 4);
		c->serial = bits(&r, 16, 24);
		c->year = 1997 + bits(&r, 8, 4);
		c->month = bits(&r, 12, 4);
		return 0;
	}
	c->manfid = bits(&r, 120, 8);
	text_field(&r, 111, 1, c->oemid, sizeof(c->oemid));
	text_field(&r, 103, 6, c->name, sizeof(c->name));
	set_prv(c, bits(&r, 48, 8));
	c->serial = bits(&r, 16, 32);
	c->month = bits(&r, 12, 4);
	c->year = 1997 + bits(&r, 8, 4);
	if (spec_vers >= 4 && c->year < 2010)
		c->year += 16;
	return 0;
}

/* TRAN_SPEED: a mantissa (tenths) times a power of ten, in bit/s. */
static uint64_t tran_speed(uint32_t v)
{
	static const unsigned mant[16] = {
		0, 10, 12, 13, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 70, 80,
	};
	static const uint64_t unit[8] = { 10000, 100000, 1000000, 10000000 };

	return mant[(v >> 3) & 15] * unit[v & 7];
}

/* The fields SD and MMC share; -1 if hex is not a CSD. */
static int csd_common(const char *hex, struct reg *r, struct sd_csd *c)
{
	memset(c, 0, sizeof(*c));
	if (reg_parse(hex, 128, r))
		return -1;
	c->has = 1;
	c->structure = bits(r, 126, 2);
	c->tran_speed = tran_speed(bits(r, 96, 8));
	c->ccc = bits(r, 84, 12);
	c->read_bl_len = 1u << bits(r, 80, 4);
	c->write_bl_len = 1u << bits(r, 22, 4);
	c->copy = bits(r, 14, 1);
	c->perm_wp = bits(r, 13, 1);
	c->tmp_wp = bits(r, 12, 1);
	return 0;
}

/* v1.0: (C_SIZE + 1) * 2^(C_SIZE_MULT + 2) blocks of READ_BL_LEN. */
static uint64_t csd_v1_capacity(const struct reg *r)
{
	uint64_t blocks = (uint64_t)(bits(r, 62, 12) + 1)
			  << (bits(r, 47, 3) + 2);

	return blocks << bits(r, 80, 4);
}

int sd_csd_decode(const char *hex, struct sd_csd *c)
{
	struct reg r;

	if (csd_common(hex, &r, c))
		return -1;
	switch (c->structure) {
	case 0:
		c->capacity = csd_v1_capacity(&r);
		break;
	case 1:		/* SDHC/SDXC: 512 KiB units */
		c->capacity = (uint64_t)(bits(&r, 48, 22) + 1) << 19;
		break;
	case 2:		/* SDUC */
		c->capacity = (uint64_t)(bits(&r, 48, 28) + 1) << 19;
		break;
	default:
		c->has = 0;
		return -1;
	}
	c->erase_blk_en = bits(&r, 46, 1);
	/* SECTOR_SIZE counts write blocks */
	c->erase_unit = (uint64_t)(bits(&r, 39, 7) + 1) * c->write_bl_len;
	c->wp_grp = (uint64_t)(bits(&r, 32, 7) + 1) * c->erase_unit;
	return 0;
}

int mmc_csd_decode(const char *hex, struct sd_csd *c)
{
	struct reg r;

	if (csd_common(hex, &r, c))
		return -1;
	c->spec_vers = bits(&r, 122, 4);
	/* C_SIZE all ones: the size is in EXT_CSD, which sysfs lacks */
	if (bits(&r, 62, 12) != 0xfff)
		c->capacity = csd_v1_capacity(&r);
	c->erase_unit = (uint64_t)(bits(&r, 42, 5) + 1) *
			(bits(&r, 37, 5) + 1) * c->write_bl_len;
	c->wp_grp = (uint64_t)(bits(&r, 32, 5) + 1) * c->erase_unit;
	return 0;
}

int sd_scr_decode(const char *hex, struct sd_scr *s)
{
	static const char *const specx[] = {
		"4.xx", "5.xx", "6.xx", "7.xx", "8.xx", "9.xx",
	};
	unsigned spec, spec3, spec4, x;
	struct reg r;

	memset(s, 0, sizeof(*s));
	if (reg_parse(hex, 64, &r))
		return -1;
	s->has = 1;
	s->structure = bits(&r, 60, 4);
	spec = bits(&r, 56, 4);
	spec3 = bits(&r, 47, 1);
	spec4 = bits(&r, 42, 1);
	x = bits(&r, 38, 4);
	s->data_stat_after_erase = bits(&r, 55, 1);
	s->security = bits(&r, 52, 3);
	s->bus_widths = bits(&r, 48, 4);
	s->cmd_support = bits(&r, 32, 4);
	if (spec < 2)
		snprintf(s->spec, sizeof(s->spec), "%s", spec ? "1.10" : "1.0");
	else if (spec > 2)
		snprintf(s->spec, sizeof(s->spec), "?%u", spec & 15u);
	else if (!spec3)
		snprintf(s->spec, sizeof(s->spec), "2.00");
	else if (x && x <= 5)
		snprintf(s->spec, sizeof(s->spec), "%s", specx[x]);
	else
		snprintf(s->spec, sizeof(s->spec), "%s", spec4 ? "4.xx" : "3.0x");
	return 0;
}

static uint64_t au_bytes(unsigned code)
{
	static const unsigned kib[16] = {
		0, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 12288,
		16384, 24576, 32768, 65536,
	};

	return (uint64_t)kib[code & 15] << 10;
}

int sd_ssr_decode(const char *hex, struct sd_ssr *s)
{
	static const unsigned speed_class[] = { 0, 2, 4, 6, 10 };
	struct reg r;
	unsigned sc;

	memset(s, 0, sizeof(*s));
	if (reg_parse(hex, 512, &r))
		return -1;
	s->has = 1;
	s->bus_width = bits(&r, 510, 2) == 2 ? 4 : 1;
	s->secured = bits(&r, 509, 1);
	s->card_type = bits(&r, 480, 16);
	s->protected_bytes = bits(&r, 448, 32);
	sc = bits(&r, 440, 8);
	s->speed_class = sc < 5 ? speed_class[sc] : 0;
	s->perf_move = bits(&r, 432, 8);
	s->au_size = au_bytes(bits(&r, 428, 4));
	s->erase_size = bits(&r, 408, 16);
	s->erase_timeout = bits(&r, 402, 6);
	s->erase_offset = bits(&r, 400, 2);
	s->uhs_grade = bits(&r, 396, 4);
	s->uhs_au_size = au_bytes(bits(&r, 392, 4));
	s->video_class = bits(&r, 384, 8);
	s->app_class = bits(&r, 336, 4);
	s->discard = bits(&r, 313, 1);
	s->fule = bits(&r, 312, 1);
	return 0;
}

struct manf {
	unsigned id;
	const char *name;
};

/* Observed in the wild; the SD Association and JEDEC do not publish these. */
static const struct manf sd_manf[] = {
	{ 0x01, "Panasonic" }, { 0x02, "Toshiba/Kioxia" },
	{ 0x03, "SanDisk" }, { 0x09, "ATP" }, { 0x1b, "Samsung" },
	{ 0x1d, "ADATA" }, { 0x27, "Phison" }, { 0x28, "Lexar" },
	{ 0x31, "Silicon Power" }, { 0x41, "Kingston" },
	{ 0x6f, "STEC" }, { 0x74, "Transcend" }, { 0x76, "Patriot" },
	{ 0x82, "Sony" }, { 0x9c, "Angelbird/Hoodman" },
	{ 0x9f, "Taishin" }, { 0xad, "Longsys" },
};

static const struct manf mmc_manf[] = {
	{ 0x02, "SanDisk" }, { 0x11, "Toshiba/Kioxia" },
	{ 0x13, "Micron" }, { 0x15, "Samsung" }, { 0x45, "SanDisk" },
	{ 0x70, "Kingston" }, { 0x88, "Foresee" }, { 0x90, "SK Hynix" },
	{ 0xfe, "Micron" },
};

const char *sd_manf_hint(unsigned manfid, int mmc)
{
	const struct manf *t = mmc ? mmc_manf : sd_manf;
	size_t i, n = mmc ? sizeof(mmc_manf) / sizeof(mmc_manf[0])
			  : sizeof(sd_manf) / sizeof(sd_manf[0]);

	for (i = 0; i < n; i++)
		if (t[i].id == manfid)
			return t[i].name;
	return NULL;
}

/*
 * The MMC core's stab at a good erase size for cards without an AU:
 * by capacity, rounded up to a multiple of the erase size.
 */
uint64_t sd_kernel_pref_erase(uint64_t capacity, uint64_t erase_size)
{
	uint64_t mib = capacity >> 20, p;

	if (mib < 128)
		p = 512 << 10;
	else if (mib < 512)
		p = 1 << 20;
	else if (mib < 1024)
		p = 2 << 20;
	else
		p = 4 << 20;
	if (erase_size && p < erase_size)
		return erase_size;
	if (erase_size && p % erase_size)
		p += erase_size - p % erase_size;
	return p;
}
