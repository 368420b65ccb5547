// SPDX-License-Identifier: GPL-2.0
/*
 * Replays fuzz inputs through the fuzz targets' entry functions without
 * libFuzzer, so any compiler can run them: every saved crash input in
 * tests/fuzz-regress/{size,report}/, the size seeds and the seed reports.
 * Each input runs in a child process, so a crash or abort() is one FAIL
 * line rather than the end of the test.
 *
 * unit_fuzz_replay                      replay the saved inputs
 * unit_fuzz_replay size|report FILE...  replay these files
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FUZZ_REPLAY
#include "../fuzz/fuzz_size.c"
#include "../fuzz/fuzz_report.c"

#include "check.h"

typedef int (*fuzz_fn)(const uint8_t *data, size_t size);

static int read_all(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0, cap = 4096, got;
	uint8_t *buf = malloc(cap), *nb;

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return -1;
	}
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	*data = buf;
	*size = n;
	return 0;
}

static void replay(const char *target, fuzz_fn fn, const char *path)
{
	uint8_t *data;
	size_t size;
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (read_all(path, &data, &size))
			_exit(125);
		fn(data, size);
		free(data);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		CHECK(0, "fuzz %s %s: cannot run: %s", target, path,
		      strerror(errno));
		return;
	}
	if (WIFSIGNALED(st))
		CHECK(0, "fuzz %s %s: killed by signal %d", target, path,
		      WTERMSIG(st));
	else
		CHECK(WEXITSTATUS(st) == 0, "fuzz %s %s%s", target, path,
		      WEXITSTATUS(st) == 125 ? ": cannot read" :
		      WEXITSTATUS(st) ? ": failed" : "");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file in dir (sorted, hidden files skipped); 0 if none. */
static int replay_dir(const char *target, fuzz_fn fn, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, **nn, path[4096];
	size_t n = 0, i;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn)
			break;
		names = nn;
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		replay(target, fn, path);
		free(names[i]);
	}
	free(names);
	return (int)n;
}

int main(int argc, char **argv)
{
	fuzz_fn fn;
	int i, n;

	if (argc > 1) {
		if (strcmp(argv[1], "size") == 0) {
			fn = fuzz_size_one;
		} else if (strcmp(argv[1], "report") == 0) {
			fn = fuzz_report_one;
		} else {
			fprintf(stderr, "usage: %s [size|report FILE...]\n",
				argv[0]);
			return 2;
		}
		for (i = 2; i < argc; i++)
			replay(argv[1], fn, argv[i]);
		return CHECK_DONE();
	}
	n = replay_dir("size", fuzz_size_one, "tests/fuzz-regress/size");
	n += replay_dir("size", fuzz_size_one, "fuzz/seeds-size");
	n += replay_dir("report", fuzz_report_one, "tests/fuzz-regress/report");
	replay_dir("report", fuzz_report_one, "tests/seeds");
	CHECK(n > 0, "fuzz replay found its saved inputs (%d)", n);
	return CHECK_DONE();
}
