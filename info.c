// SPDX-License-Identifier: GPL-2.0
/*
 * --info: what a device says about itself, without timing anything.  The
 * device is opened read-only for its size; a name that only the sysfs
 * tree knows (FLASHBENCH_SYSFS, a copy of another machine's /sys) is
 * described from the tree alone.
 */
#include <errno.h>
#include <string.h>

#include "identity/identity.h"
#include "output/identity_out.h"
#include "info.h"
#include "output/json.h"
#include "lib/msg.h"
#include "output/run_json.h"

static void print_json(FILE *out, const struct front *fr, uint64_t size,
		       uint32_t sector, const struct identity *id)
{
	struct json_cmd cmd = front_cmd(fr);
	const char *path = fr->o.device;
	struct json j;

	json_init(&j, out);
	json_open(&j, NULL, '{');
	json_meta(&j, &cmd);
	json_device(&j, path, size, sector);
	identity_json(&j, id);
	json_close(&j, '}');
	json_end(&j);
}

int info_mode(const struct front *fr, FILE *out)
{
	const char *path = fr->o.device;
	struct identity id;
	uint64_t size = 0;
	uint32_t sector = 0;
	char err[MSG_MAX];
	struct dev d;

	if (dev_open(&d, path, DEV_RDONLY, err, sizeof(err)) == 0) {
		identity_read(&d, &id);
		size = d.size;
		sector = d.sector;
		dev_close(&d);
	} else if (identity_read_name(path, &id) == 0) {
		size = id.is_partition && id.part_size ? id.part_size :
		       id.dev_size;
		sector = (uint32_t)id.logical_block_size;
	} else {
		die_usage("%s", err);
	}
	if (fr->json)
		print_json(out, fr, size, sector, &id);
	else
		identity_print(out, &id);
	return 0;
}
