/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_TEXT_H
#define FLASHBENCH_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Names come from the user and the system as bytes: a file name may hold
 * an escape sequence or bytes that are not UTF-8.  These keep them from
 * reaching a terminal raw or making a JSON document invalid.
 */

/*
 * Length of the well-formed UTF-8 character at p (1 for ASCII), its code
 * point in *cp; 0 for a byte that starts none (overlong, surrogate, cut
 * short, above U+10FFFF).
 */
size_t utf8_char(const unsigned char *p, uint32_t *cp);

/* A control character: C0, DEL or C1 (which terminals act on). */
int is_control(uint32_t cp);

/* s with control characters and stray bytes as \xHH (\n as \n). */
void put_safe(FILE *f, const char *s);

/*
 * One line "PROG: message" on f, the names in it made safe with
 * put_safe() and a name longer than 160 bytes shown by its two ends, so
 * that the reason after it is neither cut nor scrolled off (a final
 * newline in fmt is optional).
 */
void say_va(FILE *f, const char *prog, const char *fmt, va_list ap);

#endif
