// SPDX-License-Identifier: GPL-2.0
/*
 * Opening the report, the backup and the backup read back so that no
 * other user can steer them: no symbolic link followed where another user
 * could have put it, no file trusted that another user could have written.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safety/safefile.h"

/* Anyone may create or replace names in the directory of path. */
static int dir_world_writable(const char *path)
{
	char copy[PATH_MAX];
	struct stat st;

	snprintf(copy, sizeof(copy), "%s", path);
	return stat(dirname(copy), &st) == 0 && (st.st_mode & S_IWOTH);
}

FILE *open_report(const char *path, char *err, size_t errlen)
{
	int shared = dir_world_writable(path);
	struct stat st;
	FILE *f;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC |
		  (shared ? O_NOFOLLOW : 0), 0666);
	/* a kernel protecting links may say EACCES rather than ELOOP */
	if (fd < 0 && shared && (errno == ELOOP || (errno == EACCES &&
	    lstat(path, &st) == 0 && S_ISLNK(st.st_mode)))) {
		snprintf(err, errlen, "%s: a symbolic link in a world-writable "
			 "directory; not followed (name the file it points to)",
			 path);
		return NULL;
	}
	if (fd < 0 || fstat(fd, &st) < 0)
		goto fail;
	/*
	 * Text written onto a disk overwrites its partition table or file
	 * system.  Streams (a FIFO, /dev/stdout, /dev/null) stay allowed:
	 * they keep nothing.  Opening wrote nothing yet.
	 */
	if (S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s: a block device; results and plots "
			 "go to files", path);
		close(fd);
		return NULL;
	}
	if (shared && S_ISREG(st.st_mode) && st.st_uid != geteuid()) {
		snprintf(err, errlen, "%s: another user's file in a "
			 "world-writable directory; not overwritten", path);
		close(fd);
		return NULL;
	}
	if (S_ISREG(st.st_mode) && ftruncate(fd, 0) < 0)
		goto fail;
	f = fdopen(fd, "w");
	if (f)
		return f;
fail:
	snprintf(err, errlen, "%s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return NULL;
}

int create_private(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		      O_CLOEXEC, 0600);

	return fd < 0 ? -errno : fd;
}

static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* Why another user could have written the file, or NULL. */
static const char *untrusted(const struct stat *st, char *buf, size_t len)
{
	if (st->st_uid != geteuid() && st->st_uid != 0) {
		snprintf(buf, len, "owned by user %u, not by you or root: "
			 "another user could have written it",
			 (unsigned)st->st_uid);
		return buf;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(buf, len, "writable by %s (mode %04o): another user "
			 "could have changed it (chmod go-w it if you trust "
			 "it)", st->st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned)(st->st_mode & 07777));
		return buf;
	}
	return NULL;
}

int open_trusted(const char *path, char *err, size_t errlen)
{
	char why[160];
	struct stat st;
	int fd;

	/* O_NONBLOCK: a FIFO must not hang the open; cleared below */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP) {
		snprintf(err, errlen, "%s: a symbolic link; name the file "
			 "itself", path);
		return -EINVAL;
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		if (fd >= 0)
			close(fd);
		return e == ENOENT ? -EINVAL : -e;
	}
	if (!S_ISREG(st.st_mode) || untrusted(&st, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", path, S_ISREG(st.st_mode) ?
			 why : file_kind(st.st_mode));
		close(fd);
		return -EINVAL;
	}
	fcntl(fd, F_SETFL, 0);
	return fd;
}
