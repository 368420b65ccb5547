// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a block device is in use: its device number and those of its
 * partitions come from sysfs and are looked up in the mount table, the
 * swap list and the holders directories, the way lsblk does it.  O_EXCL
 * alone says only "busy"; this names what would be destroyed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inuse.h"

/* Partitions looked at; more than any partition table in use has. */
#define MAX_BLKS 256

struct blk {
	dev_t dev;
	char name[NAME_MAX + 1];	/* sysfs name, e.g. "sdb1" */
};

struct blk_set {
	struct blk b[MAX_BLKS];
	size_t n;
};

/* A "major:minor" file under the directory dirfd. */
static int read_devno(int dirfd, const char *rel, dev_t *dev)
{
	unsigned maj, min;
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC);
	FILE *f;
	int ok;

	if (fd < 0)
		return -errno;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	ok = fscanf(f, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*dev = makedev(maj, min);
	return 0;
}

static void add_blk(struct blk_set *s, dev_t dev, const char *name)
{
	size_t len = strnlen(name, NAME_MAX);

	if (s->n == MAX_BLKS)
		return;
	s->b[s->n].dev = dev;
	memcpy(s->b[s->n].name, name, len);
	s->b[s->n].name[len] = '\0';
	s->n++;
}

/* Partitions are the subdirectories of the disk's that have "partition". */
static void add_partitions(struct blk_set *s, const char *dir)
{
	char rel[NAME_MAX + 16];
	struct dirent *e;
	dev_t dev = 0;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "%s/partition", e->d_name);
		if (faccessat(dirfd(dp), rel, F_OK, 0) < 0)
			continue;
		snprintf(rel, sizeof(rel), "%s/dev", e->d_name);
		if (read_devno(dirfd(dp), rel, &dev) == 0)
			add_blk(s, dev, e->d_name);
	}
	closedir(dp);
}

/*
 * The device and its partitions.  Without sysfs the set holds the
 * device alone, named by fallback (the last part of its path).
 */
static void blk_set_of(struct blk_set *s, dev_t rdev, const char *fallback)
{
	char link[64], dir[PATH_MAX];
	const char *name;

	s->n = 0;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev),
		 minor(rdev));
	if (!realpath(link, dir)) {
		add_blk(s, rdev, fallback);
		return;
	}
	name = strrchr(dir, '/');
	add_blk(s, rdev, name ? name + 1 : dir);
	add_partitions(s, dir);
}

static const struct blk *find_blk(const struct blk_set *s, dev_t dev)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->b[i].dev == dev)
			return &s->b[i];
	return NULL;
}

/* A path naming a block device in the set (mount source, swap file). */
static const struct blk *find_path(const struct blk_set *s, const char *path)
{
	struct stat st;

	if (path[0] != '/' || stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return NULL;
	return find_blk(s, st.st_rdev);
}

/* Undo the octal escapes (\040 for a space) of /proc/self/mountinfo. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/*
 * One mountinfo line: "36 35 98:0 /root /mnt opts... - ext4 /dev/x rw".
 * The source is compared too: btrfs reports an anonymous device number.
 */
static const struct blk *mount_match(const struct blk_set *s, char *line,
				     char **mnt)
{
	unsigned maj, min;
	int at = 0;
	char *src, *sp;
	const struct blk *b;

	if (sscanf(line, "%*u %*u %u:%u %*s %n", &maj, &min, &at) != 2 || !at)
		return NULL;
	*mnt = line + at;
	sp = strchr(*mnt, ' ');
	if (!sp)
		return NULL;
	*sp = '\0';
	unescape(*mnt);
	b = find_blk(s, makedev(maj, min));
	if (b)
		return b;
	src = strstr(sp + 1, " - ");
	if (!src)
		return NULL;
	src = strchr(src + 3, ' ');
	if (!src)
		return NULL;
	src++;
	src[strcspn(src, " \n")] = '\0';
	unescape(src);
	return find_path(s, src);
}

static int check_mounts(const struct blk_set *s, char *msg, size_t msglen)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL, *mnt;
	size_t cap = 0;
	const struct blk *b = NULL;

	if (!f)
		return 0;
	while (!b && getline(&line, &cap, f) > 0) {
		b = mount_match(s, line, &mnt);
		if (b)
			snprintf(msg, msglen, "/dev/%s is mounted on %s",
				 b->name, mnt);
	}
	free(line);
	fclose(f);
	return b != NULL;
}

static int check_swaps(const struct blk_set *s, char *msg, size_t msglen)
{
	FILE *f = fopen("/proc/swaps", "r");
	char *line = NULL;
	size_t cap = 0;
	const struct blk *b = NULL;

	if (!f)
		return 0;
	while (!b && getline(&line, &cap, f) > 0) {
		line[strcspn(line, " \t\n")] = '\0';
		unescape(line);
		b = find_path(s, line);
		if (b)
			snprintf(msg, msglen, "/dev/%s is an active swap area",
				 b->name);
	}
	free(line);
	fclose(f);
	return b != NULL;
}

/* "dm-0 (vg-data)": the kernel name and, for device-mapper, its own. */
static void holder_name(const char *holder, char *buf, size_t len)
{
	char file[PATH_MAX], dm[128] = "";
	FILE *f;

	snprintf(file, sizeof(file), "/sys/class/block/%s/dm/name", holder);
	f = fopen(file, "r");
	if (f) {
		if (!fgets(dm, sizeof(dm), f))
			dm[0] = '\0';
		fclose(f);
		dm[strcspn(dm, "\n")] = '\0';
	}
	if (dm[0])
		snprintf(buf, len, "%s (%s)", holder, dm);
	else
		snprintf(buf, len, "%s", holder);
}

static int check_holders(const struct blk *b, char *msg, size_t msglen)
{
	char dir[PATH_MAX], name[NAME_MAX + 160];
	struct dirent *e;
	DIR *dp;
	int found = 0;

	snprintf(dir, sizeof(dir), "/sys/class/block/%s/holders", b->name);
	dp = opendir(dir);
	if (!dp)
		return 0;
	while (!found && (e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		holder_name(e->d_name, name, sizeof(name));
		snprintf(msg, msglen, "/dev/%s is used by %s", b->name, name);
		found = 1;
	}
	closedir(dp);
	return found;
}

int dev_in_use(const char *path, char *msg, size_t msglen)
{
	const char *base = strrchr(path, '/');
	struct blk_set *s;
	struct stat st;
	size_t i;
	int ret;

	if (strncmp(path, "sim:", 4) == 0 || stat(path, &st) < 0 ||
	    !S_ISBLK(st.st_mode))
		return 0;
	s = malloc(sizeof(*s));
	if (!s)
		return 0;
	blk_set_of(s, st.st_rdev, base ? base + 1 : path);
	ret = check_mounts(s, msg, msglen) || check_swaps(s, msg, msglen);
	for (i = 0; !ret && i < s->n; i++)
		ret = check_holders(&s->b[i], msg, msglen);
	free(s);
	return ret;
}

int dev_contains(dev_t rdev, dev_t dev)
{
	struct blk_set *s = malloc(sizeof(*s));
	int ret;

	if (!s)
		return rdev == dev;
	blk_set_of(s, rdev, "");
	ret = find_blk(s, dev) != NULL;
	free(s);
	return ret;
}
