// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pseudo-filesystems kernel code registers its knobs in: sysfs
 * attribute groups under a kobject, and top-level debugfs files with
 * their file_operations. Tests reach them by path and go through the
 * kernel's own show/store and open/read/write/release, so a malformed
 * write gets the handler's own errno. seq_file files are read with one
 * pass over the reader's buffer.
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

#define KERNFS_MAX 32
#define KERNFS_PATH 128

static struct kobject kernel_kobj_s = { .name = "kernel" };
static struct kobject mm_kobj_s = { .name = "mm", .parent = &kernel_kobj_s };
struct kobject *kernel_kobj = &kernel_kobj_s;
struct kobject *mm_kobj = &mm_kobj_s;

static struct sysfs_entry {
	char path[KERNFS_PATH];
	struct kobject *kobj;
	struct kobj_attribute *attr;
} sysfs[KERNFS_MAX];

static struct debugfs_entry {
	char name[KERNFS_PATH];
	const struct file_operations *fops;
} debugfs[KERNFS_MAX];

static void kobj_path(struct kobject *kobj, char *buf, size_t size)
{
	char tail[KERNFS_PATH];

	if (!kobj) {
		buf[0] = '\0';
		return;
	}
	kobj_path(kobj->parent, tail, sizeof(tail));
	snprintf(buf, size, "%s%s%s", tail, tail[0] ? "/" : "", kobj->name);
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

int sysfs_create_group(struct kobject *kobj, const struct attribute_group *grp)
{
	char dir[KERNFS_PATH], path[KERNFS_PATH];
	struct attribute **a;

	kobj_path(kobj, dir, sizeof(dir));
	for (a = grp->attrs; *a; a++) {
		struct sysfs_entry *e;

		snprintf(path, sizeof(path), "%s/%s/%s", dir, grp->name, (*a)->name);
		e = slot(sysfs, sizeof(*e), path);
		if (!e)
			return -ENOSPC;
		strscpy(e->path, path, sizeof(e->path));
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

static struct sysfs_entry *sysfs_find(const char *path)
{
	int i;

	for (i = 0; i < KERNFS_MAX; i++)
		if (sysfs[i].attr && !strcmp(sysfs[i].path, path))
			return &sysfs[i];
	return NULL;
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

struct dentry *debugfs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops)
{
	struct debugfs_entry *e = slot(debugfs, sizeof(*e), name);

	if (!e)
		return ERR_PTR(-ENOSPC);
	strscpy(e->name, name, sizeof(e->name));
	e->fops = fops;
	return (struct dentry *)e;
}

static const struct file_operations *debugfs_find(const char *name)
{
	int i;

	for (i = 0; i < KERNFS_MAX; i++)
		if (debugfs[i].fops && !strcmp(debugfs[i].name, name))
			return debugfs[i].fops;
	return NULL;
}

/* open, one read or write, release: what cat and echo do */
static ssize_t debugfs_io(const char *name, char *rbuf, const char *wbuf, size_t size)
{
	struct file file = { .f_op = debugfs_find(name) };
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
	if (wbuf)
		ret = file.f_op->write(&file, wbuf, size, &pos);
	else
		ret = file.f_op->read(&file, rbuf, size, &pos);
	if (file.f_op->release)
		file.f_op->release(NULL, &file);
	return ret;
}

ssize_t tb_debugfs_read(const char *name, char *buf, size_t size)
{
	ssize_t n = debugfs_io(name, buf, NULL, size - 1);

	buf[n >= 0 ? n : 0] = '\0';
	return n;
}

ssize_t tb_debugfs_write(const char *name, const char *cmd)
{
	return debugfs_io(name, NULL, cmd, strlen(cmd));
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

ssize_t seq_read(struct file *file, char __user *buf, size_t size, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	loff_t pos = 0;
	void *v;
	int err = 0;

	m->buf = buf;
	m->size = size;
	m->count = 0;
	v = m->op->start(m, &pos);
	while (v && !IS_ERR(v)) {
		err = m->op->show(m, v);
		if (err < 0 || seq_has_overflowed(m))
			break;
		v = m->op->next(m, v, &pos);
	}
	m->op->stop(m, v);
	if (IS_ERR(v))
		return PTR_ERR(v);
	if (seq_has_overflowed(m))
		return -EFBIG;
	*ppos += m->count;
	return err < 0 ? err : (ssize_t)m->count;
}

loff_t seq_lseek(struct file *file, loff_t offset, int whence)
{
	return -ESPIPE;
}

int seq_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	file->private_data = NULL;
	return 0;
}
