/* SPDX-License-Identifier: GPL-2.0-only */
#ifdef KSHIM_IN_SYSTEM_HEADERS
#include_next <linux/stddef.h>
#else
#ifndef _KSHIM_LINUX_STDDEF_H
#define _KSHIM_LINUX_STDDEF_H
#include <stddef.h>
#include <stdbool.h>
#include <linux/compiler_types.h>
#define sizeof_field(TYPE, MEMBER) sizeof((((TYPE *)0)->MEMBER))
#define offsetofend(TYPE, MEMBER) (offsetof(TYPE, MEMBER) + sizeof_field(TYPE, MEMBER))
#define struct_group(NAME, MEMBERS...) union { struct { MEMBERS }; struct { MEMBERS } NAME; }
#define DECLARE_FLEX_ARRAY(TYPE, NAME) struct { struct { } __empty_ ## NAME; TYPE NAME[]; }
#endif
#endif
