// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pseudo-filesystems kernel code registers its knobs in: sysfs
 * attribute groups under a kobject, and top-level debugfs files with
 * their file_operations. Tests reach them by path and go through the
 * kernel's own show/store and open/read/write/release, so a malformed
 * write gets the handler's own errno. seq_file files are read as
 * fs/seq_file.c reads them: a page of records at a time, each read()
 * going on from the record the last one stopped at.
 */
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <kshim/testbed.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* files: transparent_hugepage alone has some 120, most of them per size */
#define KERNFS_MAX 256
#define KERNFS_PATH 128

static struct kobject kernel_kobj_s = { .name = "kernel" };
static struct kobject mm_kobj_s = { .name = "mm", .parent = &kernel_kobj_s };
struct kobject *kernel_kobj = &kernel_kobj_s;
struct kobject *mm_kobj = &mm_kobj_s;

/*
 * sysfs files by path: a chained hash over the table, so that a boot's
 * initcalls (transparent_hugepage registers some 120 files, a world per
 * fuzz input boots them all again) cost a hash per file, not a scan of
 * the table per file
 */
#define SYSFS_HASH 512
static struct sysfs_entry {
	char path[KERNFS_PATH];
	struct kobject *kobj;
	struct kobj_attribute *attr;
	int hnext;		/* the next entry of its bucket, -1: none */
	unsigned int dir_hash;	/* fnv() of its directory's path */
} sysfs[KERNFS_MAX];
static int sysfs_head[SYSFS_HASH];	/* an entry of each bucket + 1; 0: none */
static int sysfs_top;			/* entries used since the reset */
static int sysfs_free = -1;		/* removed entries, chained by hnext */

static struct debugfs_entry {
	char name[KERNFS_PATH];
	umode_t mode;
	const struct file_operations *fops;
	const void *aux;
} debugfs[KERNFS_MAX];

/* the kobject's path from the sysfs root, "kernel/mm/..."; truncated to size */
static void kobj_path(struct kobject *kobj, char *buf, size_t size)
{
	struct kobject *k;
	size_t len = 0, n;

	for (k = kobj; k; k = k->parent)
		len += strlen(k->name) + (k != kobj);
	if (len >= size) {
		/* as deep as never happens: the slow way, truncated */
		char tail[KERNFS_PATH];

		kobj_path(kobj->parent, tail, sizeof(tail));
		snprintf(buf, size, "%s%s%s", tail, tail[0] ? "/" : "", kobj->name);
		return;
	}
	buf[len] = '\0';
	for (k = kobj; k; k = k->parent) {
		n = strlen(k->name);
		len -= n;
		memcpy(buf + len, k->name, n);
		if (len)
			buf[--len] = '/';
	}
}

/* FNV-1a of the first n characters of s */
static unsigned int fnv(const char *s, size_t n)
{
	unsigned int h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static unsigned int sysfs_hash(const char *path)
{
	return fnv(path, strlen(path)) % SYSFS_HASH;
}

/* the entry of path (NUL-terminated, at most KERNFS_PATH - 1 long), or -1 */
static int sysfs_lookup(const char *path)
{
	int i;

	for (i = sysfs_head[sysfs_hash(path)] - 1; i >= 0; i = sysfs[i].hnext)
		if (!strcmp(sysfs[i].path, path))
			return i;
	return -1;
}

/* path's entry, a new one if it has none (each world boot runs initcalls), or NULL */
static struct sysfs_entry *sysfs_slot(const char *path)
{
	int i = sysfs_lookup(path);
	unsigned int h;

	if (i >= 0)
		return &sysfs[i];
	if (sysfs_free >= 0) {
		i = sysfs_free;
		sysfs_free = sysfs[i].hnext;
	} else if (sysfs_top < KERNFS_MAX) {
		i = sysfs_top++;
	} else {
		return NULL;
	}
	strscpy(sysfs[i].path, path, sizeof(sysfs[i].path));
	sysfs[i].dir_hash = fnv(sysfs[i].path, strrchr(sysfs[i].path, '/') ?
				strrchr(sysfs[i].path, '/') - sysfs[i].path : 0);
	h = sysfs_hash(sysfs[i].path);
	sysfs[i].hnext = sysfs_head[h] - 1;
	sysfs_head[h] = i + 1;
	return &sysfs[i];
}

static void sysfs_unlink(int i)
{
	int *pp = &sysfs_head[sysfs_hash(sysfs[i].path)];

	/* a bucket's links hold index + 1 at its head and index in entries */
	if (*pp - 1 == i) {
		*pp = sysfs[i].hnext + 1;
	} else {
		int j;

		for (j = *pp - 1; sysfs[j].hnext != i; j = sysfs[j].hnext)
			;
		sysfs[j].hnext = sysfs[i].hnext;
	}
	memset(&sysfs[i], 0, sizeof(sysfs[i]));
	sysfs[i].hnext = sysfs_free;
	sysfs_free = i;
}

/* a slot for path: its own when registered again (each world boot runs initcalls) */
static void *slot(void *table, size_t entry_size, const char *path)
{
	char *free = NULL;
	int i;

	for (i = 0; i < KERNFS_MAX; i++) {
		char *e = (char *)table + i * entry_size;

		if (!strcmp(e, path))
			return e;
		if (!free && !e[0])
			free = e;
	}
	return free;
}

/* a new world is a new kernel: its initcalls register their files again */
void kshim_kernfs_reset(void)
{
	memset(sysfs, 0, sysfs_top * sizeof(sysfs[0]));
	memset(sysfs_head, 0, sizeof(sysfs_head));
	sysfs_top = 0;
	sysfs_free = -1;
	memset(debugfs, 0, sizeof(debugfs));
}

/* directories made at run time: static, the same one again at each boot's initcall */
static struct kobject kobjs[KERNFS_MAX];

struct kobject *kobject_create_and_add(const char *name, struct kobject *parent)
{
	int i;

	for (i = 0; i < KERNFS_MAX; i++) {
		struct kobject *k = &kobjs[i];

		if (k->name && (strcmp(k->name, name) || k->parent != parent))
			continue;
		k->name = name;
		k->parent = parent;
		return k;
	}
	return NULL;
}

/* lib/kobject.c's sysfs_ops for kobj_attributes: kernfs.c calls show/store itself */
const struct sysfs_ops kobj_sysfs_ops;

int kobject_init_and_add(struct kobject *kobj, const struct kobj_type *ktype,
			 struct kobject *parent, const char *fmt, ...)
{
	va_list ap;
	char *name;

	va_start(ap, fmt);
	name = kvasprintf(GFP_KERNEL, fmt, ap);
	va_end(ap);
	if (!name)
		return -ENOMEM;
	kobj->name = name;
	kobj->parent = parent;
	kobj->ktype = ktype;
	return 0;
}

/* the last reference of an embedded kobject: its ktype releases it */
void kobject_put(struct kobject *kobj)
{
	const struct kobj_type *ktype = kobj ? kobj->ktype : NULL;

	if (!ktype)
		return;
	kfree(kobj->name);
	kobj->name = NULL;
	if (ktype->release)
		ktype->release(kobj);
}

/* the path of attribute name in kobject directory dir's group grp_name (NULL: none) */
static void sysfs_attr_path(char *path, const char *dir, const char *grp_name, const char *name)
{
	const char *part[5] = { dir, "/", grp_name ?: "", grp_name ? "/" : "", name };
	size_t len = 0, n;
	int i;

	for (i = 0; i < 5; i++) {
		n = min(strlen(part[i]), KERNFS_PATH - 1 - len);
		memcpy(path + len, part[i], n);
		len += n;
	}
	path[len] = '\0';
}

int sysfs_create_group(struct kobject *kobj, const struct attribute_group *grp)
{
	char dir[KERNFS_PATH], path[KERNFS_PATH];
	struct attribute **a;
	void *node;

	/* kernfs_create_dir_ns(): the group's directory node, which may not be had */
	node = kzalloc(sizeof(struct kobject), GFP_KERNEL);
	if (!node)
		return -ENOMEM;
	kfree(node);
	kobj_path(kobj, dir, sizeof(dir));
	for (a = grp->attrs; *a; a++) {
		struct sysfs_entry *e;

		/* a group without a name: the kobject's own directory */
		sysfs_attr_path(path, dir, grp->name, (*a)->name);
		e = sysfs_slot(path);
		if (!e)
			return -ENOSPC;
		e->kobj = kobj;
		e->attr = container_of(*a, struct kobj_attribute, attr);
	}
	return 0;
}

int sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, PAGE_SIZE, fmt, ap);
	va_end(ap);
	return n;
}

/* the attributes added to the group's directory, which must exist (else -ENOENT) */
int sysfs_merge_group(struct kobject *kobj, const struct attribute_group *grp)
{
	char dir[KERNFS_PATH], prefix[KERNFS_PATH * 2];
	unsigned int h;
	size_t len;
	int i;

	kobj_path(kobj, dir, sizeof(dir));
	len = snprintf(prefix, sizeof(prefix), "%s/%s/", dir, grp->name ?: "");
	/* a file right in the directory, found by its directory's hash */
	h = fnv(prefix, len - 1);
	for (i = 0; i < sysfs_top; i++)
		if (sysfs[i].dir_hash == h && !strncmp(sysfs[i].path, prefix, len))
			return sysfs_create_group(kobj, grp);
	/* else one in a directory below it */
	for (i = 0; i < sysfs_top; i++)
		if (!strncmp(sysfs[i].path, prefix, len))
			return sysfs_create_group(kobj, grp);
	return -ENOENT;
}

/* kernfs_remove_by_name() of each attribute in the group's directory */
void sysfs_remove_group(struct kobject *kobj, const struct attribute_group *grp)
{
	char dir[KERNFS_PATH], path[KERNFS_PATH];
	struct attribute **a;
	int i;

	kobj_path(kobj, dir, sizeof(dir));
	for (a = grp->attrs; *a; a++) {
		sysfs_attr_path(path, dir, grp->name, (*a)->name);
		i = sysfs_lookup(path);
		if (i >= 0 && sysfs[i].kobj == kobj && sysfs[i].attr &&
		    &sysfs[i].attr->attr == *a)
			sysfs_unlink(i);
	}
}

/* fs/sysfs/file.c: a show()'s output from offset at on, in its page */
int sysfs_emit_at(char *buf, int at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (WARN(at < 0 || at >= PAGE_SIZE, "invalid sysfs_emit_at: at:%d\n", at))
		return 0;
	va_start(ap, fmt);
	n = vscnprintf(buf + at, PAGE_SIZE - at, fmt, ap);
	va_end(ap);
	return n;
}

static struct sysfs_entry *sysfs_find(const char *path)
{
	int i;

	if (strlen(path) >= KERNFS_PATH)
		return NULL;
	i = sysfs_lookup(path);
	return i >= 0 && sysfs[i].attr ? &sysfs[i] : NULL;
}

ssize_t tb_sysfs_read(const char *path, char *buf, size_t size)
{
	struct sysfs_entry *e = sysfs_find(path);
	char page[PAGE_SIZE];
	ssize_t n;

	if (!e)
		return -ENOENT;
	if (!e->attr->show)
		return -EACCES;
	n = e->attr->show(e->kobj, e->attr, page);
	if (n >= 0)
		strscpy(buf, page, size);
	return n;
}

ssize_t tb_sysfs_write(const char *path, const char *val)
{
	struct sysfs_entry *e = sysfs_find(path);
	char page[PAGE_SIZE];

	if (!e)
		return -ENOENT;
	if (!e->attr->store)
		return -EACCES;
	/* sysfs hands store() a NUL-terminated page */
	strscpy(page, val, sizeof(page));
	return e->attr->store(e->kobj, e->attr, page, strlen(page));
}

struct dentry *debugfs_create_file_aux(const char *name, umode_t mode, struct dentry *parent,
				       void *data, const void *aux,
				       const struct file_operations *fops)
{
	struct debugfs_entry *e = slot(debugfs, sizeof(*e), name);

	if (!e)
		return ERR_PTR(-ENOSPC);
	strscpy(e->name, name, sizeof(e->name));
	e->mode = mode;
	e->fops = fops;
	e->aux = aux;
	return (struct dentry *)e;
}

struct dentry *debugfs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops)
{
	return debugfs_create_file_aux(name, mode, parent, data, NULL, fops);
}

void *debugfs_get_aux(const struct file *file)
{
	return (void *)file->kshim_aux;
}

static struct debugfs_entry *debugfs_find(const char *name)
{
	int i;

	for (i = 0; i < KERNFS_MAX; i++)
		if (debugfs[i].fops && !strcmp(debugfs[i].name, name))
			return &debugfs[i];
	return NULL;
}

int tb_debugfs_mode(const char *name)
{
	struct debugfs_entry *e = debugfs_find(name);

	return e ? e->mode : -ENOENT;
}

/*
 * open, then one write, or read()s of at most chunk bytes until the end
 * of the file or of the buffer, then release: what echo, cat and dd do
 */
static ssize_t debugfs_io(const char *name, char *rbuf, const char *wbuf, size_t size,
			  size_t chunk)
{
	struct debugfs_entry *e = debugfs_find(name);
	struct file file = { .f_op = e ? e->fops : NULL, .kshim_aux = e ? e->aux : NULL };
	loff_t pos = 0;
	ssize_t ret;

	if (!file.f_op)
		return -ENOENT;
	if (wbuf ? !file.f_op->write : !file.f_op->read)
		return -EINVAL;	/* what vfs_read/vfs_write return without the op */
	if (file.f_op->open) {
		ret = file.f_op->open(NULL, &file);
		if (ret)
			return ret;
	}
	if (wbuf) {
		ret = file.f_op->write(&file, wbuf, size, &pos);
	} else {
		do {
			ret = file.f_op->read(&file, rbuf + pos, min_t(size_t, chunk, size - pos), &pos);
		} while (ret > 0 && pos < size);
		if (ret >= 0)
			ret = pos;
	}
	if (file.f_op->release)
		file.f_op->release(NULL, &file);
	return ret;
}

ssize_t tb_debugfs_read_by(const char *name, char *buf, size_t size, size_t chunk)
{
	ssize_t n = debugfs_io(name, buf, NULL, size - 1, chunk);

	buf[n >= 0 ? n : 0] = '\0';
	return n;
}

ssize_t tb_debugfs_read(const char *name, char *buf, size_t size)
{
	return tb_debugfs_read_by(name, buf, size, size);
}

ssize_t tb_debugfs_write(const char *name, const char *cmd)
{
	return debugfs_io(name, NULL, cmd, strlen(cmd), 0);
}

ssize_t tb_debugfs_write_unmapped(const char *name, size_t len)
{
	/* a user address in the zero page: not NULL, which means a read here */
	return debugfs_io(name, NULL, (const char *)1, len, 0);
}

int seq_open(struct file *file, const struct seq_operations *op)
{
	struct seq_file *m = kzalloc(sizeof(*m), GFP_KERNEL);

	if (!m)
		return -ENOMEM;
	m->op = op;
	m->file = file;
	file->private_data = m;
	return 0;
}

/*
 * The records printed into the kernel buffer, as many as fit in it and
 * in what the reader asked for, after the one already there; each
 * ->next() must move the index on: one that does not is reported and the
 * index moved for it, as fs/seq_file.c does.
 */
static void seq_fill(struct seq_file *m, void *p, size_t want)
{
	for (;;) {
		size_t offs = m->count;
		loff_t index = m->index;
		int err;

		p = m->op->next(m, p, &m->index);
		if (m->index == index) {
			pr_info("seq_file: buggy .next function %p did not update position index\n",
				m->op->next);
			m->index++;
		}
		if (!p || IS_ERR(p) || m->count >= want)
			break;
		err = m->op->show(m, p);
		if (err > 0) {
			m->count = offs;	/* ->show() skips the record */
		} else if (err || seq_has_overflowed(m)) {
			m->count = offs;	/* the record waits for the next read() */
			break;
		}
	}
	m->op->stop(m, p);
}

/*
 * read(2) of a seq_file, as fs/seq_file.c's seq_read_iter() does it, less
 * the seek (seq_lseek() is refused here): what the last read() left in the
 * kernel buffer first, then records from m->index on (->start() gets it),
 * the buffer doubled and the record printed again when one alone does not
 * fit a page.
 */
ssize_t seq_read(struct file *file, char __user *buf, size_t size, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	size_t copied = 0, n;
	int err = 0;
	void *p;

	if (!size)
		return 0;
	if (*ppos != m->read_pos)
		return -ESPIPE;
	if (!*ppos) {
		m->index = 0;
		m->count = 0;
	}
	if (!m->buf) {
		m->size = PAGE_SIZE;
		m->buf = kvmalloc(m->size, GFP_KERNEL);
		if (!m->buf)
			return -ENOMEM;
	}
	if (m->count) {
		n = min(m->count, size);
		memcpy(buf, m->buf + m->from, n);
		m->count -= n;
		m->from += n;
		copied = n;
		if (m->count)
			goto done;
	}
	m->from = 0;
	p = m->op->start(m, &m->index);
	for (;;) {
		err = PTR_ERR(p);
		if (!p || IS_ERR(p))
			break;
		err = m->op->show(m, p);
		if (err < 0)
			break;
		if (err)
			m->count = 0;
		if (!m->count) {
			p = m->op->next(m, p, &m->index);
			continue;
		}
		if (!seq_has_overflowed(m)) {
			seq_fill(m, p, size - copied);
			n = min(m->count, size - copied);
			memcpy(buf + copied, m->buf, n);
			copied += n;
			m->count -= n;
			m->from = n;
			goto done;
		}
		m->op->stop(m, p);
		kvfree(m->buf);
		m->count = 0;
		m->size <<= 1;
		m->buf = kvmalloc(m->size, GFP_KERNEL);
		if (!m->buf) {
			err = -ENOMEM;
			goto done;
		}
		p = m->op->start(m, &m->index);
	}
	m->op->stop(m, p);
	m->count = 0;
done:
	if (!copied)
		return err;
	*ppos += copied;
	m->read_pos += copied;
	return copied;
}

loff_t seq_lseek(struct file *file, loff_t offset, int whence)
{
	return -ESPIPE;
}

int seq_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	kvfree(m->buf);
	kfree(m);
	file->private_data = NULL;
	return 0;
}
