/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_STRINGIFY_H
#define _KSHIM_LINUX_STRINGIFY_H
#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)
#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#endif
