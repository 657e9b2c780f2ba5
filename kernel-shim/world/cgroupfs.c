// SPDX-License-Identifier: GPL-2.0-only
/*
 * cgroupfs: directories are struct cgroup (one css each, of the mounted
 * controller); control files are looked up in the controller's default
 * cftypes and those added with cgroup_add_dfl_cftypes(). A write is
 * what kernfs_fop_write_iter() + cgroup_file_write() do: at most
 * PAGE_SIZE bytes (else -E2BIG), copied and NUL-terminated, handed to
 * ->write or parsed for ->write_u64/->write_s64; a read is
 * cgroup_seqfile_show(). Directory operations take cgroupfs_mutex.
 */
#include <linux/fs.h>
#include <linux/cgroup.h>
#include <linux/kernfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/err.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/kstrtox.h>
#include <asm/page.h>
#include <kshim/cgroupfs.h>

#define CFT_SETS 4
static struct cgroup_subsys *fs_ss;
static struct cftype *cft_sets[CFT_SETS];
static struct cgroup *fs_root;
static DEFINE_MUTEX(cgroupfs_mutex);

#if TB_HAVE_cgroup_of_peak
static_assert(sizeof(struct kshim_of_peak) == sizeof(struct cgroup_of_peak));
static_assert(offsetof(struct kshim_of_peak, list) == offsetof(struct cgroup_of_peak, list));
#endif

int cgroup_add_dfl_cftypes(struct cgroup_subsys *ss, struct cftype *cfts)
{
	int i;

	for (i = 0; i < CFT_SETS; i++) {
		if (cft_sets[i] == cfts)
			return 0;
		if (!cft_sets[i]) {
			cft_sets[i] = cfts;
			return 0;
		}
	}
	return -ENOSPC;
}

/* kernfs's node ids: the root's is 1, the rest count up (never reused here) */
static u64 kernfs_ids = 1;

static struct cgroup *cgroup_new(struct cgroup *parent, const char *name, size_t len)
{
	int level = parent ? parent->level + 1 : 0;
	struct cgroup *cgrp = kzalloc(struct_size(cgrp, ancestors, level + 1), GFP_KERNEL);

	if (!cgrp)
		return NULL;
	if (parent)
		memcpy(cgrp->ancestors, parent->ancestors, level * sizeof(*cgrp->ancestors));
	cgrp->ancestors[level] = cgrp;
	INIT_LIST_HEAD(&cgrp->kshim_children);
	INIT_LIST_HEAD(&cgrp->kshim_sibling);
	memcpy(cgrp->kshim_name, name, len);
	cgrp->kshim_parent = parent;
	cgrp->kshim_fs = true;
	cgrp->level = level;
	cgrp->kshim_kn.id = kernfs_ids++;
	cgrp->kn = &cgrp->kshim_kn;
	return cgrp;
}

/* css_create(): ->css_alloc, link, ->css_online; the cgroup dies with the css */
static int cgroup_attach_css(struct cgroup *cgrp, struct cgroup *parent)
{
	struct cgroup_subsys_state *pcss = parent ? parent->subsys[0] : NULL;
	struct cgroup_subsys_state *css = fs_ss->css_alloc(pcss);
	int ret;

	if (IS_ERR(css))
		return PTR_ERR(css);
	css->cgroup = cgrp;
	cgrp->subsys[0] = css;
	/* cgroup_init_subsys(): the root css is not reference counted */
	if (!parent)
		css->flags |= CSS_NO_REF;
	ret = kshim_css_create(css, pcss, fs_ss);
	if (ret) {
		css->cgroup = NULL;
		fs_ss->css_free(css);
	}
	return ret;
}

int kshim_cgroupfs_mount(struct cgroup_subsys *ss, const char *name)
{
	struct cgroup *root;
	int ret;

	if (fs_root)
		return -EBUSY;
	/* cgroup_init() names each subsystem from its SUBSYS() entry */
	ss->name = ss->legacy_name = name;
	fs_ss = ss;
	/* cgroup_init(): a controller disabled on the command line shows no files */
	if (static_branch_likely(&memory_cgrp_subsys_enabled_key))
		cgroup_add_dfl_cftypes(ss, ss->dfl_cftypes);
	/* a new world's kernfs: the root's node is 1 again */
	kernfs_ids = 1;
	root = cgroup_new(NULL, "", 0);
	if (!root)
		return -ENOMEM;
	ret = cgroup_attach_css(root, NULL);
	if (ret) {
		kfree(root);
		return ret;
	}
	fs_root = root;
	return 0;
}

static struct cgroup *child_named(struct cgroup *parent, const char *name, size_t len)
{
	struct cgroup *c;

	list_for_each_entry(c, &parent->kshim_children, kshim_sibling)
		if (strlen(c->kshim_name) == len && !memcmp(c->kshim_name, name, len))
			return c;
	return NULL;
}

/* the directory at path; *last gets the last component when want_parent */
static struct cgroup *lookup(const char *path, bool want_parent, const char **last,
			     size_t *last_len)
{
	struct cgroup *cgrp = fs_root;

	while (cgrp && *path) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path);

		if (!len) {
			path++;
			continue;
		}
		if (want_parent && !path[len]) {
			*last = path;
			*last_len = len;
			return cgrp;
		}
		cgrp = child_named(cgrp, path, len);
		path += len;
	}
	if (want_parent)
		return NULL;
	return cgrp;
}

int kshim_cgroupfs_mkdir(const char *path)
{
	struct cgroup *parent, *cgrp;
	const char *name;
	size_t len;
	int ret;

	mutex_lock(&cgroupfs_mutex);
	parent = fs_root ? lookup(path, true, &name, &len) : NULL;
	ret = -ENOENT;
	if (!parent)
		goto out;
	ret = -EINVAL;
	if (len >= sizeof(parent->kshim_name))
		goto out;
	ret = -EEXIST;
	if (child_named(parent, name, len))
		goto out;
	ret = -ENOMEM;
	cgrp = cgroup_new(parent, name, len);
	if (!cgrp)
		goto out;
	ret = cgroup_attach_css(cgrp, parent);
	if (ret) {
		kfree(cgrp);
		goto out;
	}
	list_add_tail(&cgrp->kshim_sibling, &parent->kshim_children);
out:
	mutex_unlock(&cgroupfs_mutex);
	return ret;
}

/* cgroup_destroy_locked(): unlink the directory, kill (offline) the css */
static void destroy(struct cgroup *cgrp)
{
	list_del_init(&cgrp->kshim_sibling);
	kshim_css_kill(cgrp->subsys[0]);
}

int kshim_cgroupfs_rmdir(const char *path)
{
	struct cgroup *cgrp;
	int ret = 0;

	mutex_lock(&cgroupfs_mutex);
	cgrp = fs_root ? lookup(path, false, NULL, NULL) : NULL;
	if (!cgrp)
		ret = -ENOENT;
	else if (cgrp == fs_root)
		ret = -EBUSY;
	else if (!list_empty(&cgrp->kshim_children))
		ret = -EBUSY;
	else
		destroy(cgrp);
	mutex_unlock(&cgroupfs_mutex);
	return ret;
}

static void destroy_subtree(struct cgroup *cgrp)
{
	struct cgroup *c, *tmp;

	list_for_each_entry_safe(c, tmp, &cgrp->kshim_children, kshim_sibling)
		destroy_subtree(c);
	if (cgrp != fs_root)
		destroy(cgrp);
}

void kshim_cgroupfs_rmdir_all(void)
{
	mutex_lock(&cgroupfs_mutex);
	if (fs_root)
		destroy_subtree(fs_root);
	mutex_unlock(&cgroupfs_mutex);
}

void kshim_cgroupfs_umount(void)
{
	mutex_lock(&cgroupfs_mutex);
	if (fs_root) {
		destroy_subtree(fs_root);
		/*
		 * The root is never offlined in the kernel; here it is, last:
		 * CSS_NO_REF makes css_get/put no-ops, so the kill alone
		 * releases it, whatever still points at it.
		 */
		kshim_css_kill(fs_root->subsys[0]);
		fs_root = NULL;
	}
	memset(cft_sets, 0, sizeof(cft_sets));
	fs_ss = NULL;
	mutex_unlock(&cgroupfs_mutex);
}

struct cgroup_subsys_state *kshim_cgroupfs_css(const char *path)
{
	struct cgroup *cgrp;

	mutex_lock(&cgroupfs_mutex);
	cgrp = fs_root ? lookup(path, false, NULL, NULL) : NULL;
	mutex_unlock(&cgroupfs_mutex);
	return cgrp ? cgrp->subsys[0] : NULL;
}

static size_t path_of(struct cgroup *cgrp, char *buf, size_t size)
{
	size_t n;

	if (!cgrp->kshim_parent)
		return 0;
	n = path_of(cgrp->kshim_parent, buf, size);
	return n + scnprintf(buf + n, size - n, "/%s", cgrp->kshim_name);
}

int cgroup_path(struct cgroup *cgrp, char *buf, size_t buflen)
{
	if (!path_of(cgrp, buf, buflen))
		strscpy(buf, "/", buflen);
	return strlen(buf);
}

static int list_walk(struct cgroup *cgrp, const char *prefix, char (*paths)[128], int n, int i)
{
	struct cgroup *c;
	char buf[128];

	if (i < n)
		snprintf(paths[i], 128, "%s", prefix);
	i++;
	list_for_each_entry(c, &cgrp->kshim_children, kshim_sibling) {
		snprintf(buf, sizeof(buf), "%s%s%s", prefix, *prefix ? "/" : "", c->kshim_name);
		i = list_walk(c, buf, paths, n, i);
	}
	return i;
}

int kshim_cgroupfs_list(char (*paths)[128], int n)
{
	int i = 0;

	mutex_lock(&cgroupfs_mutex);
	if (fs_root)
		i = list_walk(fs_root, "", paths, n, 0);
	mutex_unlock(&cgroupfs_mutex);
	return i;
}

/* "memory.max" -> the cftype "max" of the mounted controller */
static struct cftype *find_cft(const char *file, bool root)
{
	size_t n = strlen(fs_ss->name);
	struct cftype *cft;
	int i;

	if (strncmp(file, fs_ss->name, n) || file[n] != '.')
		return NULL;
	file += n + 1;
	for (i = 0; i < CFT_SETS && cft_sets[i]; i++)
		for (cft = cft_sets[i]; cft->name[0]; cft++) {
			if (strcmp(cft->name, file))
				continue;
			if ((root && (cft->flags & CFTYPE_NOT_ON_ROOT)) ||
			    (!root && (cft->flags & CFTYPE_ONLY_ON_ROOT)))
				return NULL;
			return cft;
		}
	return NULL;
}

/*
 * a cgroup by its id (the kernfs node's, cgroup_id()): referenced by its
 * css, which the directory's struct cgroup lives as long as
 */
static struct cgroup *find_id(struct cgroup *cgrp, u64 id)
{
	struct cgroup *c, *found;

	if (cgrp->kn && cgrp->kn->id == id)
		return cgrp;
	list_for_each_entry(c, &cgrp->kshim_children, kshim_sibling) {
		found = find_id(c, id);
		if (found)
			return found;
	}
	return NULL;
}

struct cgroup *cgroup_get_from_id(u64 id)
{
	struct cgroup *cgrp;

	mutex_lock(&cgroupfs_mutex);
	cgrp = fs_root ? find_id(fs_root, id) : NULL;
	if (cgrp && !css_tryget(cgrp->subsys[0]))
		cgrp = NULL;
	mutex_unlock(&cgroupfs_mutex);
	return cgrp ? cgrp : ERR_PTR(-ENOENT);
}

struct cgroup_subsys_state *cgroup_get_e_css(struct cgroup *cgrp, struct cgroup_subsys *ss)
{
	struct cgroup_subsys_state *css = cgrp->subsys[0];

	if (!css || css->ss != ss)
		return NULL;
	css_get(css);
	return css;
}

void cgroup_put(struct cgroup *cgrp)
{
	css_put(cgrp->subsys[0]);
}

/* an open control file and the struct file it is (of->file: its f_flags) */
struct kshim_open_file {
	struct kernfs_open_file of;
	struct file file;
};

struct kernfs_open_file *kshim_cgroupfs_open(const char *path, const char *file, int *err)
{
	struct kernfs_open_file *of = NULL;
	struct kshim_open_file *f;
	struct cgroup *cgrp;
	struct cftype *cft;
	int ret = -ENOENT;

	mutex_lock(&cgroupfs_mutex);
	cgrp = fs_root ? lookup(path, false, NULL, NULL) : NULL;
	cft = cgrp ? find_cft(file, cgrp == fs_root) : NULL;
	if (!cft)
		goto out;
	ret = -ENOMEM;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		goto out;
	of = &f->of;
	of->file = &f->file;
	of->kshim_css = cgrp->subsys[0];
	of->kshim_cft = cft;
	/* the open file pins the css, as an open kernfs file pins its cgroup */
	css_get(of->kshim_css);
	ret = cft->open ? cft->open(of) : 0;
	if (ret) {
		css_put(of->kshim_css);
		kfree(of);
		of = NULL;
	}
out:
	mutex_unlock(&cgroupfs_mutex);
	if (err)
		*err = ret;
	return of;
}

static ssize_t write_num(struct kernfs_open_file *of, char *buf)
{
	struct cftype *cft = of->kshim_cft;
	int ret;

	if (cft->write_u64) {
		unsigned long long v;

		/* cgroup_file_write(): kstrtoull takes one trailing '\n', no blanks */
		ret = kstrtoull(buf, 0, &v);
		return ret ? ret : cft->write_u64(of->kshim_css, cft, v);
	}
	if (cft->write_s64) {
		long long v;

		ret = kstrtoll(buf, 0, &v);
		return ret ? ret : cft->write_s64(of->kshim_css, cft, v);
	}
	return -EINVAL;
}

ssize_t kshim_cgroupfs_fwrite(struct kernfs_open_file *of, const char *ubuf, size_t len)
{
	struct cftype *cft = of->kshim_cft;
	ssize_t ret;
	char *buf;

	if (!cft->write && !cft->write_u64 && !cft->write_s64)
		return -EACCES;
	if (len > PAGE_SIZE)
		return -E2BIG;
	/* cgroup_file_write() returns 0 for an empty write: no handler runs */
	if (!len)
		return 0;
	buf = kmalloc(len + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, ubuf, len);
	buf[len] = '\0';
	/* cgroup_file_write(): ->write's return as it is, else "ret ?: nbytes" */
	if (cft->write) {
		ret = cft->write(of, buf, len, 0);
	} else {
		ret = write_num(of, buf);
		if (!ret)
			ret = len;
	}
	kfree(buf);
	return ret;
}

ssize_t kshim_cgroupfs_fread(struct kernfs_open_file *of, char *buf, size_t size)
{
	struct cftype *cft = of->kshim_cft;
	struct seq_file m = { .buf = buf, .size = size, .private = of };
	int ret = 0;

	if (!size)
		return -EINVAL;
	of->seq_file = &m;
	if (cft->seq_show)
		ret = cft->seq_show(&m, NULL);
	else if (cft->read_u64)
		seq_printf(&m, "%llu\n", cft->read_u64(of->kshim_css, cft));
	else if (cft->read_s64)
		seq_printf(&m, "%lld\n", cft->read_s64(of->kshim_css, cft));
	else	/* kernfs_fop_open() refuses to open it for reading */
		ret = -EACCES;
	of->seq_file = NULL;
	if (ret)
		return ret;
	if (seq_has_overflowed(&m))
		return -EOVERFLOW;
	buf[m.count] = '\0';
	return m.count;
}

void kshim_cgroupfs_close(struct kernfs_open_file *of)
{
	if (!of)
		return;
	if (of->kshim_cft->release)
		of->kshim_cft->release(of);
	css_put(of->kshim_css);
	kfree(of);
}
