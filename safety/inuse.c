// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a device or image file is in use, and whether two names reach
 * the same storage.  Every block device in sysfs is mapped down to the
 * bytes it stands for: a partition to a range of its disk, a loop device
 * to a range of its backing file (or of the block device under it), any
 * other device to itself.  Two names share storage when their ranges of
 * the same bottom object intersect; a holder (device-mapper, RAID) is
 * taken to use all of what it is built on.  The mounts, swap areas and
 * holders of everything sharing the target's storage are what a write to
 * it would destroy: O_EXCL on the target alone sees none of an alias's
 * users, and an image file has no O_EXCL at all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dev.h"
#include "safety/inuse.h"

#define SYS_BLOCK "/sys/class/block"
/* Block devices looked at; far more than a machine has. */
#define MAX_BLKS 4096

/*
 * What a name stands for: bytes [start, start + len) of a bottom object,
 * a regular file (ino != 0) or a block device that maps onto nothing.
 */
struct extent {
	dev_t dev;
	ino_t ino;
	uint64_t start, len;
};

enum { RES_NEW, RES_BUSY, RES_DONE };
/* HIT_HOLDER: built on a device that shares the target's storage */
enum { HIT_NONE, HIT_OVERLAP, HIT_HOLDER };

struct blk {
	char name[NAME_MAX + 1];	/* sysfs name, e.g. "loop1p2" */
	dev_t dev;
	dev_t disk;		/* a partition's disk, else dev */
	char *on;		/* what the loop device under it sits on */
	struct extent ext;
	int res, hit;
};

struct blk_set {
	struct blk *b;
	size_t n;
	struct extent target;
	dev_t tdev;		/* the target's device number, 0 for a file */
	dev_t tdisk;		/* and its disk */
};

/* One line of /sys/class/block/NAME/ATTR, without the newline. */
static int read_attr(const char *name, const char *attr, char *buf,
		     size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), SYS_BLOCK "/%s/%s", name, attr);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -EINVAL;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static uint64_t read_attr_u64(const char *name, const char *attr)
{
	char buf[32];

	if (read_attr(name, attr, buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 10);
}

/*
 * The device node of a sysfs name: devtmpfs names it the same, with the
 * '!' of names such as "cciss!c0d0" standing for a directory.
 */
static void blk_node(const struct blk *b, char *buf, size_t len)
{
	char *p;

	snprintf(buf, len, "/dev/%s", b->name);
	for (p = buf; *p; p++)
		if (*p == '!')
			*p = '/';
}

static int overlaps(const struct extent *a, const struct extent *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->len && b->len &&
	       a->start < b->start + b->len && b->start < a->start + a->len;
}

static struct blk *find_dev(const struct blk_set *s, dev_t dev)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->b[i].dev == dev)
			return &s->b[i];
	return NULL;
}

static struct blk *find_name(const struct blk_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->b[i].name, name) == 0)
			return &s->b[i];
	return NULL;
}

static void resolve(struct blk_set *s, struct blk *b);

/* A partition: a range of its disk, the parent directory in sysfs. */
static void resolve_partition(struct blk_set *s, struct blk *b)
{
	char link[PATH_MAX], dir[PATH_MAX];
	struct blk *disk;

	snprintf(link, sizeof(link), SYS_BLOCK "/%s", b->name);
	if (!realpath(link, dir))
		return;
	disk = find_name(s, basename(dirname(dir)));
	if (!disk)
		return;
	resolve(s, disk);
	b->disk = disk->dev;
	b->ext.dev = disk->ext.dev;
	b->ext.ino = disk->ext.ino;
	b->ext.start = disk->ext.start + read_attr_u64(b->name, "start") * 512;
	if (disk->on)
		b->on = strdup(disk->on);
}

/*
 * What the loop driver itself says a loop device reads from, in struct
 * loop_info64 (LOOP_GET_STATUS64); defined here as the kernel ABI has it,
 * so a static build needs no kernel headers, as in real.c.
 */
struct loop_status {
	uint64_t device, inode, rdevice, offset, sizelimit;
	uint32_t number, encrypt_type, encrypt_key_size, flags;
	uint8_t file_name[64], crypt_name[64], encrypt_key[32];
	uint64_t init[2];
};

#define LOOP_STATUS64 0x4C05

/* The kernel's own encoding of a device number, as stat() is not used. */
static dev_t kernel_dev(uint64_t d)
{
	return makedev((unsigned)((d & 0xfff00) >> 8),
		       (unsigned)((d & 0xff) | ((d >> 12) & 0xfff00)));
}

/*
 * The backing file by device and inode from the driver: the path sysfs
 * shows goes stale when that name is removed or reused, while the file
 * lives on under another link.  Without access to the device node (not
 * root), the path is all there is.
 */
static int loop_backing(const struct blk *b, const char *file,
			struct stat *st)
{
	struct loop_status ls;
	char node[PATH_MAX];
	struct stat nst;
	int fd, ok;

	blk_node(b, node, sizeof(node));
	fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return stat(file, st);
	ok = fstat(fd, &nst) == 0 && nst.st_rdev == b->dev &&
	     ioctl(fd, LOOP_STATUS64, &ls) == 0;
	close(fd);
	if (!ok)
		return stat(file, st);
	memset(st, 0, sizeof(*st));
	if (ls.rdevice) {
		st->st_mode = S_IFBLK;
		st->st_rdev = kernel_dev(ls.rdevice);
	} else {
		st->st_mode = S_IFREG;
		st->st_dev = kernel_dev(ls.device);
		st->st_ino = (ino_t)ls.inode;
	}
	return 0;
}

/* A loop device: a range of its backing file or block device. */
static void resolve_loop(struct blk_set *s, struct blk *b)
{
	char file[PATH_MAX];
	uint64_t off = read_attr_u64(b->name, "loop/offset");
	struct blk *under;
	struct stat st;

	if (read_attr(b->name, "loop/backing_file", file, sizeof(file)) ||
	    loop_backing(b, file, &st) < 0)
		return;
	if (S_ISREG(st.st_mode)) {
		b->ext.dev = st.st_dev;
		b->ext.ino = st.st_ino;
		b->ext.start = off;
	} else if (S_ISBLK(st.st_mode) && (under = find_dev(s, st.st_rdev))) {
		resolve(s, under);
		b->ext.dev = under->ext.dev;
		b->ext.ino = under->ext.ino;
		b->ext.start = under->ext.start + off;
	} else {
		return;
	}
	b->on = strdup(file);
}

/* A cycle (which the kernel forbids) leaves a device mapped to itself. */
static void resolve(struct blk_set *s, struct blk *b)
{
	char buf[8];

	if (b->res != RES_NEW)
		return;
	b->res = RES_BUSY;
	b->disk = b->dev;
	b->ext = (struct extent){ b->dev, 0, 0,
				  read_attr_u64(b->name, "size") * 512 };
	if (read_attr(b->name, "partition", buf, sizeof(buf)) == 0)
		resolve_partition(s, b);
	else
		resolve_loop(s, b);
	b->res = RES_DONE;
}

static int load_blks(struct blk_set *s)
{
	char devno[32];
	unsigned maj, min;
	struct dirent *e;
	DIR *dp = opendir(SYS_BLOCK);

	if (!dp)
		return -errno;
	s->b = calloc(MAX_BLKS, sizeof(*s->b));
	if (!s->b) {
		closedir(dp);
		return -ENOMEM;
	}
	while (s->n < MAX_BLKS && (e = readdir(dp))) {
		struct blk *b = &s->b[s->n];

		if (e->d_name[0] == '.' ||
		    read_attr(e->d_name, "dev", devno, sizeof(devno)) ||
		    sscanf(devno, "%u:%u", &maj, &min) != 2)
			continue;
		snprintf(b->name, sizeof(b->name), "%s", e->d_name);
		b->dev = makedev(maj, min);
		s->n++;
	}
	closedir(dp);
	return 0;
}

/* Mark what is built on a device that shares the target's storage. */
static int mark_holders(struct blk_set *s, const struct blk *b)
{
	char dir[PATH_MAX];
	struct dirent *e;
	struct blk *h;
	int changed = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), SYS_BLOCK "/%s/holders", b->name);
	dp = opendir(dir);
	if (!dp)
		return 0;
	while ((e = readdir(dp))) {
		h = find_name(s, e->d_name);
		if (!h || h->hit)
			continue;
		h->hit = HIT_HOLDER;
		if (!h->on && asprintf(&h->on, "/dev/%s", b->name) < 0)
			h->on = NULL;
		changed = 1;
	}
	closedir(dp);
	return changed;
}

/* Whether b shares the target's storage or that of a holder built on it. */
static int reaches(const struct blk_set *s, const struct blk *b)
{
	size_t i;

	if (overlaps(&b->ext, &s->target))
		return 1;
	for (i = 0; i < s->n; i++)
		if (s->b[i].hit == HIT_HOLDER && overlaps(&b->ext, &s->b[i].ext))
			return 1;
	return 0;
}

static void mark_hits(struct blk_set *s)
{
	int changed = 1;
	size_t i;

	while (changed) {
		changed = 0;
		for (i = 0; i < s->n; i++) {
			if (!s->b[i].hit && reaches(s, &s->b[i])) {
				s->b[i].hit = HIT_OVERLAP;
				changed = 1;
			}
			if (s->b[i].hit)
				changed |= mark_holders(s, &s->b[i]);
		}
	}
}

static void free_set(struct blk_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->b[i].on);
	free(s->b);
}

/*
 * Everything that shares the storage of target, a block device or a
 * regular file.  Without sysfs a block device is mapped to itself alone.
 */
static int load_set(struct blk_set *s, const char *target)
{
	struct stat st;
	struct blk *b;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (dev_path_has(target, DEV_CAP_NO_BACKING) || stat(target, &st) < 0 ||
	    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		return -ENODEV;
	if (load_blks(s) == -ENOMEM)
		return -ENOMEM;
	for (i = 0; i < s->n; i++)
		resolve(s, &s->b[i]);
	if (S_ISREG(st.st_mode)) {
		s->target = (struct extent){ st.st_dev, st.st_ino, 0,
					     (uint64_t)st.st_size };
	} else {
		s->tdev = s->tdisk = st.st_rdev;
		s->target = (struct extent){ st.st_rdev, 0, 0, UINT64_MAX };
		b = find_dev(s, st.st_rdev);
		if (b) {
			s->target = b->ext;
			s->tdisk = b->disk;
		}
	}
	mark_hits(s);
	return 0;
}

/*
 * "/dev/loop2 (on /srv/card.img)": what the device sits on, where that
 * is not plain from the target's own name (itself and its partitions).
 */
static void describe(const struct blk_set *s, const struct blk *b, char *buf,
		     size_t len)
{
	if (b->on && (!s->tdisk || b->disk != s->tdisk))
		snprintf(buf, len, "/dev/%s (on %s)", b->name, b->on);
	else
		snprintf(buf, len, "/dev/%s", b->name);
}

static const struct blk *find_hit(const struct blk_set *s, dev_t dev)
{
	const struct blk *b = find_dev(s, dev);

	return b && b->hit ? b : NULL;
}

/* A path naming a device or a file that shares the target's storage. */
static const struct blk *find_path(const struct blk_set *s, const char *path,
				   int *file)
{
	struct stat st;
	struct extent e;

	*file = 0;
	if (stat(path, &st) < 0)
		return NULL;
	if (S_ISBLK(st.st_mode))
		return find_hit(s, st.st_rdev);
	e = (struct extent){ st.st_dev, st.st_ino, 0, (uint64_t)st.st_size };
	*file = S_ISREG(st.st_mode) && overlaps(&e, &s->target);
	return NULL;
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
	int at = 0, file;
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
	b = find_hit(s, makedev(maj, min));
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
	return src[0] == '/' ? find_path(s, src, &file) : NULL;
}

static int check_mounts(const struct blk_set *s, char *msg, size_t msglen)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL, *mnt, name[PATH_MAX + NAME_MAX + 16];
	size_t cap = 0;
	const struct blk *b = NULL;

	if (!f)
		return 0;
	while (!b && getline(&line, &cap, f) > 0) {
		b = mount_match(s, line, &mnt);
		if (b) {
			describe(s, b, name, sizeof(name));
			snprintf(msg, msglen, "%s is mounted on %s", name, mnt);
		}
	}
	free(line);
	fclose(f);
	return b != NULL;
}

/* Swap partitions, and swap files: an image may be one. */
static int check_swaps(const struct blk_set *s, char *msg, size_t msglen)
{
	FILE *f = fopen("/proc/swaps", "r");
	char *line = NULL, name[PATH_MAX + NAME_MAX + 16];
	size_t cap = 0;
	const struct blk *b = NULL;
	int file = 0;

	if (!f)
		return 0;
	while (!b && !file && getline(&line, &cap, f) > 0) {
		line[strcspn(line, " \t\n")] = '\0';
		unescape(line);
		b = find_path(s, line, &file);
		if (b)
			describe(s, b, name, sizeof(name));
		else if (file)
			snprintf(name, sizeof(name), "%s", line);
		if (b || file)
			snprintf(msg, msglen, "%s is an active swap area",
				 name);
	}
	free(line);
	fclose(f);
	return b || file;
}

/* "dm-0 (vg-data)": the kernel name and, for device-mapper, its own. */
static void holder_name(const char *holder, char *buf, size_t len)
{
	char dm[128];

	if (read_attr(holder, "dm/name", dm, sizeof(dm)) == 0 && dm[0])
		snprintf(buf, len, "%s (%s)", holder, dm);
	else
		snprintf(buf, len, "%s", holder);
}

static int check_holders(const struct blk_set *s, char *msg, size_t msglen)
{
	char dir[PATH_MAX], name[PATH_MAX + NAME_MAX + 16];
	char holder[NAME_MAX + 160];
	struct dirent *e;
	size_t i;
	DIR *dp;
	int found = 0;

	for (i = 0; !found && i < s->n; i++) {
		if (!s->b[i].hit)
			continue;
		snprintf(dir, sizeof(dir), SYS_BLOCK "/%s/holders",
			 s->b[i].name);
		dp = opendir(dir);
		while (dp && !found && (e = readdir(dp))) {
			if (e->d_name[0] == '.')
				continue;
			describe(s, &s->b[i], name, sizeof(name));
			holder_name(e->d_name, holder, sizeof(holder));
			snprintf(msg, msglen, "%s is used by %s", name, holder);
			found = 1;
		}
		if (dp)
			closedir(dp);
	}
	return found;
}

int held_by_kernel(const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return errno == EBUSY;
	close(fd);
	return 0;
}

int dev_in_use(const char *path, char *msg, size_t msglen)
{
	struct blk_set s;
	int ret;

	if (load_set(&s, path))
		return 0;
	ret = check_mounts(&s, msg, msglen) || check_swaps(&s, msg, msglen) ||
	      check_holders(&s, msg, msglen);
	free_set(&s);
	return ret;
}

/* "the device under test" or "/dev/loop2 (on x.img), which ...". */
static void why_blk(const struct blk_set *s, const struct blk *b, char *why,
		    size_t len)
{
	char name[PATH_MAX + NAME_MAX + 16];

	if (b->dev == s->tdev) {
		snprintf(why, len, "the device under test");
		return;
	}
	describe(s, b, name, sizeof(name));
	snprintf(why, len, "%s, which shares storage with the device under "
		 "test", name);
}

int shares_storage(const char *target, const char *other, char *why,
		   size_t len)
{
	struct blk_set s;
	const struct blk *b;
	int file;

	if (load_set(&s, target))
		return 0;
	b = find_path(&s, other, &file);
	if (b)
		why_blk(&s, b, why, len);
	else if (file && s.tdev)
		snprintf(why, len, "the image file behind the device under "
			 "test");
	else if (file)
		snprintf(why, len, "the device under test");
	free_set(&s);
	return b || file;
}

int fs_on_storage(const char *target, dev_t fsdev, char *why, size_t len)
{
	struct blk_set s;
	const struct blk *b;

	if (load_set(&s, target))
		return 0;
	b = find_hit(&s, fsdev);
	if (b)
		why_blk(&s, b, why, len);
	free_set(&s);
	return b != NULL;
}

/* One /proc/swaps line: the name, first, with \040 for a space. */
static int swap_line_is(char *line, const struct stat *st)
{
	struct stat sw;

	line[strcspn(line, " \t\n")] = '\0';
	unescape(line);
	return line[0] == '/' && stat(line, &sw) == 0 &&
	       S_ISREG(sw.st_mode) && sw.st_dev == st->st_dev &&
	       sw.st_ino == st->st_ino;
}

int file_is_swap(const char *path, char *msg, size_t msglen)
{
	char *line = NULL;
	size_t cap = 0;
	struct stat st;
	int found = 0;
	FILE *f;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	f = fopen("/proc/swaps", "r");
	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0)
		found = swap_line_is(line, &st);
	free(line);
	fclose(f);
	if (found)
		snprintf(msg, msglen, "%s is an active swap file", path);
	return found;
}

/* The image file under the target, where a name still reaches it. */
static void image_under(const struct blk_set *s, const char *target,
			struct sharers *sh)
{
	const struct blk *b = s->tdev ? find_dev(s, s->tdev) : NULL;
	const char *file = s->tdev ? (b ? b->on : NULL) : target;
	struct stat st;

	if (!s->target.ino || !file || stat(file, &st) < 0 ||
	    st.st_dev != s->target.dev || st.st_ino != s->target.ino)
		return;
	snprintf(sh->file, sizeof(sh->file), "%s", file);
	sh->start = s->target.start;
	/* a file itself: to its end, however far it grows */
	sh->len = s->tdev ? s->target.len : 0;
}

int sharers_load(const char *target, struct sharers *sh)
{
	struct sharer *x;
	struct blk_set s;
	size_t i, n = 0;
	int ret;

	memset(sh, 0, sizeof(*sh));
	ret = load_set(&s, target);
	if (ret)
		return ret;
	for (i = 0; i < s.n; i++)
		n += s.b[i].hit != HIT_NONE;
	sh->s = calloc(n ? n : 1, sizeof(*sh->s));
	if (!sh->s) {
		free_set(&s);
		return -ENOMEM;
	}
	for (i = 0; i < s.n; i++) {
		if (s.b[i].hit == HIT_NONE)
			continue;
		x = &sh->s[sh->n++];
		x->dev = s.b[i].dev;
		x->disk = s.b[i].disk;
		blk_node(&s.b[i], x->node, sizeof(x->node));
		describe(&s, &s.b[i], x->desc, sizeof(x->desc));
	}
	sh->tdev = s.tdev;
	sh->tdisk = s.tdisk;
	image_under(&s, target, sh);
	free_set(&s);
	return 0;
}

void sharers_free(struct sharers *sh)
{
	free(sh->s);
	sh->s = NULL;
	sh->n = 0;
}
