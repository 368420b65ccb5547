/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SD_REGS_H
#define FLASHBENCH_SD_REGS_H

#include <stdint.h>

/*
 * The SD and MMC card registers as the kernel prints them in sysfs: hex,
 * most significant bit first (CID and CSD 128 bits, SCR 64, SSR 512).
 * Layouts: SD Physical Layer Simplified Specification; JEDEC eMMC for
 * MMC.  Pure decoding, no I/O.
 */

struct sd_cid {
	unsigned manfid;
	char oemid[8];		/* two characters, hex if not printable */
	char name[20];		/* five (SD), six or seven (MMC) characters */
	unsigned prv_major, prv_minor;	/* product revision n.m */
	uint32_t serial;
	unsigned year, month;
};

struct sd_csd {
	int has;
	unsigned structure;	/* CSD_STRUCTURE: 0 = v1.0, 1 = v2.0, ... */
	unsigned spec_vers;	/* MMC only: SPEC_VERS (system spec) */
	uint64_t capacity;	/* bytes; 0 = not in the CSD (eMMC > 2 GB) */
	uint64_t tran_speed;	/* bit/s, default-speed mode */
	unsigned ccc;		/* card command classes, bit mask */
	unsigned read_bl_len, write_bl_len;	/* bytes */
	int erase_blk_en;	/* SD: erase works on single blocks */
	uint64_t erase_unit;	/* SD SECTOR_SIZE, MMC erase group: bytes */
	uint64_t wp_grp;	/* write-protect group, bytes */
	int copy, perm_wp, tmp_wp;
};

struct sd_scr {
	int has;
	unsigned structure;
	char spec[8];		/* physical layer version: "2.00", "3.0x" */
	unsigned bus_widths;	/* bit 0: 1-bit, bit 2: 4-bit */
	int data_stat_after_erase;	/* erased data reads as 1s */
	unsigned security;	/* 0 none, 2 SDSC, 3 SDHC, 4 SDXC */
	unsigned cmd_support;	/* bit 0 CMD20, 1 CMD23, 2 CMD48/49, 3 CMD58/59 */
};

struct sd_ssr {
	int has;
	unsigned bus_width;		/* 1 or 4 */
	int secured;
	unsigned card_type;		/* SD_CARD_TYPE: 0 regular, 1 ROM, ... */
	uint64_t protected_bytes;
	unsigned speed_class;		/* 0, 2, 4, 6, 10 */
	unsigned perf_move;		/* MB/s, 0 = sequential write */
	uint64_t au_size;		/* bytes, 0 = not defined */
	unsigned erase_size;		/* AUs erased at a time, 0 = none */
	unsigned erase_timeout;		/* seconds for erase_size AUs */
	unsigned erase_offset;		/* seconds */
	unsigned uhs_grade;		/* U0, U1, U3 */
	uint64_t uhs_au_size;		/* bytes */
	unsigned video_class;		/* V6 ... V90, 0 = none */
	unsigned app_class;		/* 1 = A1, 2 = A2, 0 = none */
	int discard, fule;		/* DISCARD_SUPPORT, FULE_SUPPORT */
};

/* Each returns 0, or -1 when the text is not a register of that size. */
int sd_cid_decode(const char *hex, struct sd_cid *c);
/* spec_vers: the CSD's SPEC_VERS, which selects the CID layout. */
int mmc_cid_decode(const char *hex, unsigned spec_vers, struct sd_cid *c);
int sd_csd_decode(const char *hex, struct sd_csd *c);
int mmc_csd_decode(const char *hex, struct sd_csd *c);
int sd_scr_decode(const char *hex, struct sd_scr *s);
int sd_ssr_decode(const char *hex, struct sd_ssr *s);

/*
 * A name for a manufacturer ID from the unofficial lists people keep
 * (the IDs are assigned privately), or NULL.  mmc: the MMC/eMMC list.
 */
const char *sd_manf_hint(unsigned manfid, int mmc);

/* The kernel's preferred_erase_size when a card gives no AU (MMC core). */
uint64_t sd_kernel_pref_erase(uint64_t capacity, uint64_t erase_size);

#endif
