// SPDX-License-Identifier: GPL-2.0
/*
 * What the simulated card stores: the data of small writes, sector by
 * sector, so that a read gives back what was written (the capacity
 * check, --preserve's verification) without holding the gigabytes a
 * survey writes.  Writes larger than SIM_KEEP_IO forget the sectors
 * they cover: their data is the test's fill pattern, which no one reads
 * back.  Once anything is kept, a sector never kept reads as zeros, the
 * erased state.
 *
 * fake=SIZE[:wrap|:zero] maps each sector as a fake-capacity card does:
 * zero drops what lies at or above SIZE; wrap, as a controller that
 * ignores the address lines above its flash, takes the address modulo
 * the smallest power of two at least SIZE (the module), and drops what
 * lands between SIZE and the module.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"

/*
 * Slots of the table, a power of two: 4 MiB of data, room for the few
 * hundred blocks of a capacity check and the restore after it.
 */
#define STORE_SLOTS 8192u
/* Keys stop being added at three quarters full, so probes stay short. */
#define STORE_KEYS_MAX (STORE_SLOTS / 4 * 3)
/*
 * Writes up to this size keep their data: the capacity check's blocks
 * and --preserve's restore chunks, not the MiB writes of -O and -f.
 */
#define SIM_KEEP_IO (64u << 10)

/* Where the sector at off lives on a fake card; 0: nowhere (dropped). */
static int fake_map(const struct sim_params *p, uint64_t off, uint64_t *phys)
{
	uint64_t module = 1;

	*phys = off;
	if (!p->fake_size || off < p->fake_size)
		return 1;
	if (!p->fake_wrap)
		return 0;
	while (module < p->fake_size)
		module <<= 1;
	*phys = off & (module - 1);
	return *phys < p->fake_size;
}

static size_t slot_of(uint64_t key)
{
	key ^= key >> 31;
	key *= 0x9e3779b97f4a7c15ull;
	return (size_t)(key >> 40) & (STORE_SLOTS - 1);
}

/* The slot holding sector key, or the empty one where it would go. */
static size_t probe(const struct sim_store *st, uint64_t key)
{
	size_t i = slot_of(key);

	while (st->key[i] && st->key[i] != key)
		i = (i + 1) & (STORE_SLOTS - 1);
	return i;
}

static int store_alloc(struct sim_store *st)
{
	if (st->key)
		return 0;
	st->key = calloc(STORE_SLOTS, sizeof(*st->key));
	st->valid = calloc(STORE_SLOTS, 1);
	st->data = malloc((size_t)STORE_SLOTS * SIM_SECTOR);
	if (st->key && st->valid && st->data)
		return 0;
	store_free(st);
	return -1;
}

/* Keys are sector numbers + 1: 0 marks an empty slot. */
static void put(struct sim_store *st, uint64_t phys, const void *src)
{
	uint64_t key = phys / SIM_SECTOR + 1;
	size_t i = probe(st, key);

	if (!st->key[i]) {
		/* full: the sector is lost, as it reads back */
		if (st->nkeys >= STORE_KEYS_MAX)
			return;
		st->key[i] = key;
		st->nkeys++;
	}
	memcpy(st->data + i * SIM_SECTOR, src, SIM_SECTOR);
	st->valid[i] = 1;
}

static void forget(struct sim_store *st, uint64_t phys)
{
	size_t i;

	if (!st->nkeys)
		return;
	i = probe(st, phys / SIM_SECTOR + 1);
	if (st->key[i])
		st->valid[i] = 0;
}

void store_write(struct sim_store *st, const struct sim_params *p,
		 const void *buf, uint64_t off, uint64_t len)
{
	const unsigned char *b = buf;
	int keep = buf && len <= SIM_KEEP_IO && !store_alloc(st);
	uint64_t s, phys;

	if (!keep && !st->nkeys)
		return;
	for (s = 0; s < len; s += SIM_SECTOR) {
		if (!fake_map(p, off + s, &phys))
			continue;
		if (keep)
			put(st, phys, b + s);
		else
			forget(st, phys);
	}
}

void store_read(const struct sim_store *st, const struct sim_params *p,
		void *buf, uint64_t off, uint64_t len)
{
	unsigned char *b = buf;
	uint64_t s, phys;
	size_t i;

	/*
	 * Nothing kept: the buffer stays as it is, untouched, so that a
	 * read of GiBs does not fault in its pages (tests/t_limits.sh);
	 * none at all: a call for its time only (the unit tests).
	 */
	if (!st->nkeys || !buf)
		return;
	memset(buf, 0, len);
	for (s = 0; s < len; s += SIM_SECTOR) {
		if (!fake_map(p, off + s, &phys))
			continue;
		i = probe(st, phys / SIM_SECTOR + 1);
		if (st->key[i] && st->valid[i])
			memcpy(b + s, st->data + i * SIM_SECTOR, SIM_SECTOR);
	}
}

void store_free(struct sim_store *st)
{
	free(st->key);
	free(st->valid);
	free(st->data);
	memset(st, 0, sizeof(*st));
}
