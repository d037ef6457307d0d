/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * prog.h - the program name braidctl's messages start with (defined in
 * braidctl.c), apart so that mgmtc.c needs no more of braidctl.h.
 */
#ifndef BRAIDCTL_PROG_H
#define BRAIDCTL_PROG_H

extern const char *braidctl_prog;

#endif
