# SPDX-License-Identifier: GPL-2.0
CC ?= cc
CFLAGS ?= -O2 -g
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man

FB_CFLAGS = -std=gnu11 -Wall -Wextra -D_FILE_OFFSET_BITS=64 -D_GNU_SOURCE
FB_LDLIBS = -lm

ifeq ($(SANITIZE),1)
FB_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	     -fno-sanitize-recover=undefined
FB_LDFLAGS += -fsanitize=address,undefined
endif

# Everything but the front end; tests and fuzzers link against it.
LIB_OBJS = units.o table.o json.o dev.o real.o sim.o vm.o prog.o devinfo.o \
	align.o openau.o fat.o erase.o scatter.o interval.o run.o \
	inuse.o preserve.o analysis.o report.o

UNIT_TESTS = $(patsubst %.c,%,$(wildcard tests/unit_*.c))

all: flashbench

%.o: %.c $(wildcard *.h)
	$(CC) $(FB_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

libflashbench.a: $(LIB_OBJS)
	$(AR) rcs $@ $^

flashbench: flashbench.o libflashbench.a
	$(CC) $(FB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(FB_LDLIBS) $(LDLIBS)

tests/unit_%: tests/unit_%.c tests/check.h libflashbench.a
	$(CC) $(FB_CFLAGS) -I. $(CPPFLAGS) $(CFLAGS) $(FB_LDFLAGS) $(LDFLAGS) \
		-o $@ $< libflashbench.a $(FB_LDLIBS) $(LDLIBS)

check: flashbench $(UNIT_TESTS)
	@sh tests/run.sh

install: flashbench
	install -D -m 755 flashbench $(DESTDIR)$(BINDIR)/flashbench
	install -D -m 644 flashbench.1 $(DESTDIR)$(MANDIR)/man1/flashbench.1

clean:
	rm -f flashbench *.o libflashbench.a $(UNIT_TESTS)
	rm -rf tests/tmp

.PHONY: all check install clean
