// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "devinfo.h"

static uint64_t read_u64(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

uint64_t sysfs_preferred_erase(const char *path)
{
	char sys[PATH_MAX], link[96];
	struct stat st;
	uint64_t v;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u",
		 major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(link, sys))
		return 0;
	/* a partition's card is its parent's device */
	if (strlen(sys) + 40 >= sizeof(sys))
		return 0;
	strcat(sys, "/device/preferred_erase_size");
	v = read_u64(sys);
	if (v)
		return v;
	*strrchr(sys, '/') = '\0';
	*strrchr(sys, '/') = '\0';
	*strrchr(sys, '/') = '\0';
	strcat(sys, "/device/preferred_erase_size");
	return read_u64(sys);
}
