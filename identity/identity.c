// SPDX-License-Identifier: GPL-2.0
/*
 * The identity of an open device, read where the device keeps it: sysfs,
 * or the registers its backend reports.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "identity/identity.h"
#include "identity/sysfs.h"

/* Into a fixed field, cut to fit: the sources never overrun it. */
static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

int identity_read_name(const char *path, struct identity *id)
{
	struct id_attrs s;
	char dir[sizeof(id->source)];
	int ret;

	ret = sysfs_block_attrs(path, &s, dir, sizeof(dir));
	if (ret) {
		memset(id, 0, sizeof(*id));
		id->rotational = -1;
		copy(id->note, sizeof(id->note), "sysfs has no entry for it");
		return ret;
	}
	identity_decode(&s, id);
	copy(id->source, sizeof(id->source), dir);
	return 0;
}

/* "key=value" lines, as a profile carries them. */
static void parse_lines(const char *text, struct id_attrs *s)
{
	char line[ID_KEY_LEN + ID_VAL_LEN + 2], *eq;
	size_t n;

	memset(s, 0, sizeof(*s));
	while (text && *text) {
		n = strcspn(text, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		text += n + (text[n] == '\n');
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		id_attrs_set(s, line, eq + 1);
	}
}

/* The attributes a device reports of itself, with its size and path. */
static void from_registers(const struct dev *d, const char *text,
			   const char *source, struct identity *id)
{
	struct id_attrs s;
	char size[24];

	parse_lines(text, &s);
	snprintf(size, sizeof(size), "%" PRIu64, d->size / 512);
	id_attrs_set(&s, "size", size);
	id_attrs_set(&s, "disk", d->path);
	identity_decode(&s, id);
	copy(id->source, sizeof(id->source), source);
}

int identity_read(const struct dev *d, struct identity *id)
{
	char source[sizeof(id->source)];
	const char *regs = dev_registers(d, source, sizeof(source));

	if (regs) {
		from_registers(d, regs, source, id);
		return 0;
	}
	if (!dev_has(d, DEV_CAP_SYSFS)) {
		memset(id, 0, sizeof(*id));
		copy(id->type, sizeof(id->type), "file");
		id->dev_size = d->size;
		id->rotational = -1;
		copy(id->note, sizeof(id->note),
		     "a regular file: no registers");
		return 0;
	}
	return identity_read_name(d->path, id);
}
