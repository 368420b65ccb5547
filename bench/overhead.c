// SPDX-License-Identifier: GPL-2.0
/*
 * What flashbench adds to each timed I/O: bare pread() against dev_read()
 * and against a read run by the engine, on the same file, interleaved in
 * rounds so a noisy machine hits all three alike.  Prints medians and
 * ratios to the bare pread measured in the same run.
 *
 * usage: overhead FILE [reads-per-round] [rounds]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "testdesc.h"
#include "dev.h"
#include "vm.h"

#define LEN 4096

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ns per read of bare pread, clock around the call */
static double bare(int fd, void *buf, uint64_t n, uint64_t span)
{
	struct lfsr l;
	uint64_t i, t0 = now_ns();

	lfsr_init(&l, span);
	for (i = 0; i < n; i++)
		if (pread(fd, buf, LEN, (off_t)(lfsr_next(&l) * LEN)) != LEN)
			return -1;
	return (double)(now_ns() - t0) / (double)n;
}

static double via_dev(struct dev *d, void *buf, uint64_t n, uint64_t span)
{
	struct lfsr l;
	uint64_t i, ns, t0 = now_ns();

	lfsr_init(&l, span);
	for (i = 0; i < n; i++)
		if (dev_read(d, buf, LEN, lfsr_next(&l) * LEN, &ns))
			return -1;
	return (double)(now_ns() - t0) / (double)n;
}

static double via_vm(struct dev *d, void *buf, uint64_t n, uint64_t span)
{
	struct vm_node io = { .op = VM_IO, .io = IO_READ };
	const struct vm_node *kid[] = { &io };
	struct vm_node loop = { .op = VM_LOOP, .var = VAR_POS,
				.order = ORD_LFSR, .reduce = RED_TOTAL,
				.kids = kid, .nkids = 1 };
	struct vm vm = { .dev = d, .buf = buf };
	uint64_t t0;

	io.off = expr_var(VAR_POS, 0);
	io.len = expr_const(LEN);
	loop.stride = expr_const(LEN);
	loop.count = expr_const((int64_t)(n < span ? n : span));
	t0 = now_ns();
	if (vm_run(&vm, &loop))
		return -1;
	return (double)(now_ns() - t0) / (double)(n < span ? n : span);
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 4000, span;
	unsigned rounds = argc > 3 ? (unsigned)atoi(argv[3]) : 7, r;
	double b[64], dv[64], v[64];
	char err[256];
	struct dev d;
	void *buf;
	int fd;

	if (argc < 2 || rounds == 0 || rounds > 64) {
		fprintf(stderr, "usage: overhead FILE [reads] [rounds<=64]\n");
		return 2;
	}
	if (dev_open(&d, argv[1], DEV_RDONLY, err, sizeof(err))) {
		fprintf(stderr, "overhead: %s\n", err);
		return 1;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	buf = dev_alloc(LEN);
	span = d.size / LEN;
	if (fd < 0 || !buf || span < n) {
		fprintf(stderr, "overhead: %s: cannot set up\n", argv[1]);
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		b[r] = bare(fd, buf, n, span);
		dv[r] = via_dev(&d, buf, n, span);
		v[r] = via_vm(&d, buf, n, span);
		if (b[r] < 0 || dv[r] < 0 || v[r] < 0) {
			fprintf(stderr, "overhead: read failed\n");
			return 1;
		}
	}
	printf("per 4KiB read, median of %u rounds of %llu reads\n", rounds,
	       (unsigned long long)n);
	printf("bare pread\t%.0fns\t1.000\n", median(b, rounds));
	printf("dev_read\t%.0fns\t%.3f\n", median(dv, rounds),
	       median(dv, rounds) / median(b, rounds));
	printf("engine\t%.0fns\t%.3f\n", median(v, rounds),
	       median(v, rounds) / median(b, rounds));
	return 0;
}
