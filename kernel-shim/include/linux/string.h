/* SPDX-License-Identifier: GPL-2.0-only */
#ifdef KSHIM_IN_SYSTEM_HEADERS
#include_next <linux/string.h>
#else
#ifndef _KSHIM_LINUX_STRING_H
#define _KSHIM_LINUX_STRING_H
#include <string.h>
#include <linux/types.h>
#include <linux/slab.h>
/* strscpy: copy at most size-1 bytes, -E2BIG on truncation, as lib/string.c */
static inline ssize_t kshim_strscpy(char *dest, const char *src, size_t count)
{
	size_t len = strnlen(src, count);

	if (!count)
		return -E2BIG;
	if (len == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return len;
}
/* the size may be left out for an array (linux/string.h's strscpy()) */
#define kshim_strscpy2(dest, src) kshim_strscpy(dest, src, sizeof(dest))
#define kshim_strscpy3(dest, src, count) kshim_strscpy(dest, src, count)
#define kshim_strscpy_pick(_1, _2, _3, name, ...) name
#define strscpy(...) \
	kshim_strscpy_pick(__VA_ARGS__, kshim_strscpy3, kshim_strscpy2)(__VA_ARGS__)
#define sized_strscpy kshim_strscpy
/* lib/string_helpers.c, real: the index of s among an array's strings */
int __sysfs_match_string(const char * const *array, size_t n, const char *s);
#define sysfs_match_string(_a, _s) __sysfs_match_string(_a, ARRAY_SIZE(_a), _s)
void *memchr_inv(const void *s, int c, size_t n);	/* lib/string.c, real */
char *strim(char *s);		/* lib/string_helpers.c, real */
char *skip_spaces(const char *str);	/* lib/string_helpers.c, real */
bool sysfs_streq(const char *s1, const char *s2);	/* lib/string_helpers.c, real */
static inline __must_check char *strstrip(char *str)
{
	return strim(str);
}
char *kstrdup(const char *s, gfp_t gfp);
char *kmemdup_nul(const char *s, size_t len, gfp_t gfp);
const char *kstrdup_const(const char *s, gfp_t gfp);
char *kvasprintf(gfp_t gfp, const char *fmt, va_list args);
char *kasprintf(gfp_t gfp, const char *fmt, ...) __printf(2, 3);
const char *kvasprintf_const(gfp_t gfp, const char *fmt, va_list args);
#endif
#endif
