/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test bed's cgroupfs: a cgroup v2 hierarchy of one controller whose
 * directories are addressed by path ("" is the root, then "a", "a/b")
 * and whose control files are the controller's own cftype handlers,
 * called as kernfs and kernel/cgroup call them.
 */
#ifndef _KSHIM_CGROUPFS_H
#define _KSHIM_CGROUPFS_H
#include <linux/types.h>
struct cgroup_subsys;
struct cgroup_subsys_state;
struct kernfs_open_file;

/* mount the hierarchy of controller ss, named name ("memory") */
int kshim_cgroupfs_mount(struct cgroup_subsys *ss, const char *name);
/* rmdir everything below the root (each released once unreferenced) */
void kshim_cgroupfs_rmdir_all(void);
/* rmdir everything below the root, then release the root css */
void kshim_cgroupfs_umount(void);
int kshim_cgroupfs_mkdir(const char *path);
int kshim_cgroupfs_rmdir(const char *path);
struct cgroup_subsys_state *kshim_cgroupfs_css(const char *path);
/* paths of every directory, pre-order; returns the count (max n written) */
int kshim_cgroupfs_list(char (*paths)[128], int n);

/* an open control file: writes and reads go through the same handle */
struct kernfs_open_file *kshim_cgroupfs_open(const char *path, const char *file, int *err);
ssize_t kshim_cgroupfs_fwrite(struct kernfs_open_file *of, const char *buf, size_t len);
ssize_t kshim_cgroupfs_fread(struct kernfs_open_file *of, char *buf, size_t size);
void kshim_cgroupfs_close(struct kernfs_open_file *of);
#endif
