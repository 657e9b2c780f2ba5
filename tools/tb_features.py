#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tb_features.py - what a kernel tree has, by feature, and which suites run on it.

The one place that knows kernel versions.  FEATURES names each piece of mm
that moved between versions, how to detect it in a tree (a file, a function
definition, a macro, a struct member) and when it changed; SUITES names the
features each test suite needs and why.  The build (CMakeLists.txt, through
`tb_features.py cmake`), tools/kextract (manifest lines `if FEATURE ...`),
`tools/tb doctor` and `tools/tb run` all read this table, so a new kernel
version is taught here, once, not by copying manifests.

Usage:
  tb_features.py cmake TREE OUT [--before TREE] [--variants-off A,B]
                                                  write OUT (a cmake file) and
                                                  OUT.json for the tools
  tb_features.py list TREE                        the tree's features, one a line
"""
import json
import os
import re
import sys


class Feature:
    """A feature of a tree: `probe` is (kind, file, name[, member]).

    file may be a tuple of files: the feature is present when the first
    file that has it does (7.0 moved declarations of linux/swap.h to
    mm/internal.h: a probe names both, older first).
    kinds: file (the file exists), func (a function definition), macro
    (#define NAME), struct (struct NAME {), member (a member of a struct),
    word (the identifier appears outside comments), regex (a match outside
    comments).
    """

    def __init__(self, name, probe, since, what):
        self.name, self.probe, self.since, self.what = name, probe, since, what


FEATURES = [
    Feature('cgroup_refcnt_h', ('file', 'include/linux/cgroup_refcnt.h'), '6.10',
            'css_get/css_put in linux/cgroup_refcnt.h (before: in linux/cgroup.h)'),
    Feature('shrinker_c', ('file', 'mm/shrinker.c'), '6.7',
            'the shrinker in mm/shrinker.c, shrinker_alloc/shrinker_register '
            '(before: in mm/vmscan.c, register_shrinker)'),
    Feature('memcontrol_v1_c', ('file', 'mm/memcontrol-v1.c'), '6.11',
            'memcg v1 split out of mm/memcontrol.c into mm/memcontrol-v1.c'),
    Feature('page_counter_protection',
            ('func', 'mm/page_counter.c', 'page_counter_calculate_protection'), '6.12',
            'effective min/low computed in mm/page_counter.c '
            '(before: mem_cgroup_calculate_protection in mm/memcontrol.c)'),
    Feature('page_counter_protection_support',
            ('member', 'include/linux/page_counter.h', 'page_counter', 'protection_support'),
            '6.10', 'a counter tracks protected usage only with protection_support '
            '(before: every counter)'),
    Feature('page_counter_track_failcnt',
            ('member', 'include/linux/page_counter.h', 'page_counter', 'track_failcnt'),
            '6.14', 'page_counter counts failcnt only when asked (track_failcnt)'),
    Feature('page_counter_local_watermark',
            ('member', 'include/linux/page_counter.h', 'page_counter', 'local_watermark'),
            '6.12', 'a second peak (local_watermark) for memory.peak resets'),
    Feature('pte_offset_map_nolock', ('word', 'include/linux/mm.h', '__pte_offset_map'),
            '6.5', 'pte_offset_map() and friends (pte_offset_map_nolock(), 6.13\'s _ro_ and '
            '_rw_nolock()) in linux/mm.h over mm/pgtable-generic.c\'s __pte_offset_map() '
            '(before: arch macros)'),
    Feature('pmdp_get_lockless', ('func', 'include/linux/pgtable.h', 'pmdp_get_lockless_sync'),
            '6.5', 'pmdp_get_lockless()/_sync() in linux/pgtable.h'),
    Feature('mglru_memcg', ('struct', 'include/linux/mmzone.h', 'lru_gen_memcg'), '6.3',
            'the multi-gen LRU keeps a per-node memcg LRU (struct lru_gen_memcg, '
            'lru_gen_online_memcg)'),
    Feature('lru_gen_shrink_node', ('func', 'mm/vmscan.c', 'lru_gen_shrink_node'), '6.3',
            'the multi-gen LRU reclaims a node in lru_gen_shrink_node(), which skips '
            'reclaim that may not write (a watermark boost\'s)'),
    Feature('lru_gen_folio', ('struct', 'include/linux/mmzone.h', 'lru_gen_folio'), '6.3',
            'struct lru_gen_folio (before: struct lru_gen_struct)'),
    Feature('max_page_order', ('macro', 'include/linux/mmzone.h', 'MAX_PAGE_ORDER'), '6.8',
            'MAX_PAGE_ORDER/NR_PAGE_ORDERS (before: MAX_ORDER, one more)'),
    Feature('promo_wmark', ('word', 'include/linux/mmzone.h', 'promo_wmark_pages'), '6.0',
            'the NUMA-balancing promotion watermark'),
    Feature('lru_refs_flags', ('macro', 'include/linux/mmzone.h', 'LRU_REFS_FLAGS'), '6.12.115',
            'LRU_REFS_FLAGS in linux/mmzone.h and folio_clear_lru_refs() (MGLRU tier flags; '
            'before: LRU_REFS_FLAGS in mm/vmscan.c)'),
    Feature('swappiness_range', ('macro', ('include/linux/swap.h', 'mm/internal.h'),
                                     'MAX_SWAPPINESS'), '6.8',
            'MIN_SWAPPINESS/MAX_SWAPPINESS (memory.reclaim swappiness=)'),
    Feature('gfp_has_io_fs', ('func', 'include/linux/gfp.h', 'gfp_has_io_fs'), '6.5',
            'gfp_has_io_fs()'),
    Feature('huge_zero_folio', ('func', 'include/linux/huge_mm.h', 'is_huge_zero_folio'),
            '6.8', 'is_huge_zero_folio()'),
    Feature('mk_pte_generic', ('func', 'include/linux/mm.h', 'mk_pte'), '7.2',
            'mk_pte() in linux/mm.h over pfn_pte() (before: each arch\'s)'),
    Feature('folio_split_nonuniform', ('func', 'mm/huge_memory.c', 'folio_split'), '7.2',
            'folio_split() (a non-uniform split) beside __split_huge_page_to_list_to_order() '
            '(before: split_huge_page_to_list_to_order(), can_split_folio())'),
    Feature('collapse_scan_result', ('func', 'mm/khugepaged.c', 'collapse_scan_file'), '7.2',
            'khugepaged\'s scan as collapse_*() returning enum scan_result, '
            'madvise_collapse(vma, start, end, lock_dropped) '
            '(before: hpage_collapse_*(), madvise_collapse(vma, prev, start, end))'),
    Feature('pte_swp_uffd_any', ('func', 'include/linux/userfaultfd_k.h', 'pte_swp_uffd_any'),
            '7.3', 'pte_swp_uffd_any(): a swap pte\'s uffd state, marker or bit (the collapse reads it)'),
    Feature('collapse_needs_writable_pte', ('word', 'mm/khugepaged.c', 'SCAN_PAGE_RO'), '<7.2',
            'the collapse scan refuses a PMD range with no present writable pte (SCAN_PAGE_RO)'),
    Feature('khugepaged_mm_slot', ('word', 'mm/khugepaged.c', 'khugepaged_mm_slot'), '6.3',
            'struct khugepaged_mm_slot around mm/mm_slot.h\'s (7.2: struct mm_slot alone)'),
    Feature('folio_get_anon_vma_const',
            ('regex', ('include/linux/rmap.h', 'mm/internal.h'),
             r'folio_get_anon_vma\(const struct folio'), '7.2',
            'folio_get_anon_vma() of a const folio, declared in mm/internal.h'),
    Feature('thp_folio_split', ('func', 'mm/huge_memory.c', '__folio_unqueue_deferred_split'),
            '6.12', 'the folio split, deferred split queue and per-size (mTHP) settings of '
            'mm/huge_memory.c that the world builds THP on (before: built without '
            'CONFIG_TRANSPARENT_HUGEPAGE)'),
    Feature('ra_order_in_state', ('member', 'include/linux/fs.h', 'file_ra_state', 'order'),
            '6.16', 'readahead keeps its folio order in struct file_ra_state: a synchronous '
            'read starts at order 0 and each asynchronous window adds 2, its size cut to the '
            'order\'s alignment (before: page_cache_ra_order() took the order of the folio '
            'that triggered it, plus 2, the first window already large)'),
    Feature('ext4_large_folios',
            ('regex', 'fs/ext4/inode.c',
             r'\b(ext4_should_enable_large_folio|ext4_set_inode_mapping_order)\b'), '6.16',
            'ext4 gives a regular file large folios (ext4_set_inode_mapping_order()): '
            'the oracle guest\'s files are read in folios of up to 2 MiB (before: order 0)'),
    Feature('exec_folio_order', ('func', 'include/linux/pgtable.h', 'exec_folio_order'), '6.16',
            'the folio order an architecture asks for executable mappings, which '
            'do_sync_mmap_readahead() reads a VM_EXEC fault at'),
    Feature('vma_end_pgoff', ('func', 'include/linux/mm.h', 'vma_end_pgoff'), '7.3',
            'do_sync_mmap_readahead() keeps the read of a VM_EXEC fault within its vma'),
    Feature('pgdat_deferred_split_queue',
            ('member', 'include/linux/mmzone.h', 'pglist_data', 'deferred_split_queue'), '5.4',
            'THP\'s deferred split queue per node in pglist_data (7.2: a list_lru)'),
    Feature('zero_pfn_func', ('func', 'include/linux/pgtable.h', 'zero_pfn'), '7.2',
            'zero_pfn() of an address (before: the variable zero_pfn)'),
    Feature('vma_alloc_folio_hugepage',
            ('regex', 'include/linux/gfp.h',
             r'vma_alloc_folio_noprof\(gfp_t gfp, int order, struct vm_area_struct \*vma,\s*unsigned long addr, bool hugepage'),
            '6.10', 'vma_alloc_folio() takes a hugepage argument (gone in 6.13)'),
    Feature('swap_large_on_any_blkdev',
            ('regex', 'mm/swapfile.c', r'if \(order && !\(si->flags & SWP_BLKDEV\)\)'), '6.14',
            'a large folio gets swap slots on any block device (before: a non-rotational '
            'one with clusters)'),
    Feature('map_unused_to_zeropage',
            ('func', 'mm/migrate.c', 'try_to_map_unused_to_zeropage'), '6.12',
            'the split of an anonymous THP maps its zero-filled pages to the shared zero page'),
    Feature('map_unused_to_zeropage_old_pte',
            ('regex', 'mm/migrate.c',
             r'try_to_map_unused_to_zeropage\(struct page_vma_mapped_walk \*pvmw,\s*struct folio \*folio, pte_t old_pte'),
            '6.12', 'try_to_map_unused_to_zeropage() takes the migration entry\'s pte '
            '(its soft-dirty and uffd-wp bits: 6.12.118 and 7.3 have it, not every 6.12.y)'),
    Feature('remove_migration_ptes_ttu',
            ('regex', 'include/linux/rmap.h',
             r'remove_migration_ptes\(struct folio \*src, struct folio \*dst,\s*enum ttu_flags'),
            '7.2', 'remove_migration_ptes() takes ttu_flags (before: int RMP_* flags)'),
    Feature('file_thp_enabled_h', ('func', 'include/linux/huge_mm.h', 'file_thp_enabled'),
            '6.8', 'file_thp_enabled() in linux/huge_mm.h (7.2: in mm/huge_memory.c)'),
    Feature('leafops_h', ('file', 'include/linux/leafops.h'), '7.2',
            'softleaf_t entries of linux/leafops.h (before: linux/swapops.h\'s)'),
    Feature('fmode_noreuse', ('macro', 'include/linux/fs.h', 'FMODE_NOREUSE'), '6.3',
            'FMODE_NOREUSE and vma_has_recency() (MADV/fadvise NOREUSE)'),
    Feature('folio_flush_mapping', ('func', 'include/linux/pagemap.h', 'folio_flush_mapping'),
            '6.4', 'folio_flush_mapping()'),
    Feature('memory_tier_late_init', ('func', 'mm/memory-tiers.c', 'memory_tier_late_init'),
            '6.10', 'memory tiers set in a late initcall (the world builds tiers and demotes)'),
    Feature('new_folio_t', ('word', 'include/linux/migrate.h', 'new_folio_t'), '6.4',
            'migrate_pages() takes new_folio_t/free_folio_t'),
    Feature('cgroup_of_peak', ('struct', 'include/linux/cgroup-defs.h', 'cgroup_of_peak'),
            '6.12', 'per-open-file memory.peak (struct cgroup_of_peak)'),
    Feature('css_nr_descendants',
            ('member', 'include/linux/cgroup-defs.h', 'cgroup_subsys_state', 'nr_descendants'),
            '6.10', 'a css counts its live descendants (nr_descendants)'),
    Feature('base_small_bool',
            ('regex', 'include/linux/xarray.h', r'IS_ENABLED\(CONFIG_BASE_SMALL\)'), '6.9',
            'CONFIG_BASE_SMALL a bool (before: an int, always defined, 0 here)'),
    Feature('folio_order_member',
            ('member', 'include/linux/mm_types.h', 'folio', '_folio_order'), '<6.6',
            'struct folio has _folio_order and _total_mapcount (6.6: the order in '
            '_flags_1, 6.10: _large_mapcount/_entire_mapcount)'),
    Feature('folio_nr_pages_member',
            ('member', 'include/linux/mm_types.h', 'folio', '_nr_pages'), '6.15',
            'a large folio\'s page count is folio->_nr_pages (before: _folio_nr_pages)'),
    Feature('folio_mapcount_ptr', ('func', 'include/linux/mm_types.h', 'folio_mapcount_ptr'),
            '<6.2', 'folio_mapcount_ptr() in linux/mm_types.h'),
    Feature('current_objcg', ('func', 'mm/memcontrol.c', 'current_objcg_update'), '6.9',
            'a task caches its objcg (task->objcg, set by the controller\'s fork and '
            'attach); before: looked up from current at every kernel charge'),
    Feature('memcg_kmem_online', ('func', 'include/linux/memcontrol.h', 'memcg_kmem_online'),
            '6.6', 'memcg_kmem_online() (before: memcg_kmem_enabled(), CONFIG_MEMCG_KMEM)'),
    Feature('memcg_flush_last_time', ('word', 'mm/memcontrol.c', 'flush_last_time'), '6.8',
            'the memcg stats flush remembers its last time, flush_last_time '
            '(before: its next time, flush_next_time)'),
] + [
    # memcontrol.h helpers memcontrol.c and reclaim reach (the memcg world)
    Feature(name, ('word', 'include/linux/memcontrol.h', name), since, name + '()')
    for name, since in [('folio_memcg_charged', '6.12'), ('mem_cgroup_unprotected', '6.8'),
                        ('mem_cgroup_uncharge_folios', '6.8'),
                        ('mem_cgroup_tryget_online', '6.3'), ('mem_cgroup_tryget', '6.3'),
                        ('mem_cgroup_flush_stats_ratelimited', '6.2'),
                        ('memcg1_soft_limit_reclaim', '6.11'),
                        ('mem_cgroup_set_socket_pressure', '6.12.115'),
                        # and helpers older trees have there
                        ('page_memcg', '<6.12'), ('mod_memcg_lruvec_state', '<6.12'),
                        ('MEM_CGROUP_ID_MAX', '<6.12')]
] + [
    # mm/memcontrol.c functions the test bed names that older trees lack
    Feature(name, ('func', 'mm/memcontrol.c', name), since, name + '() in mm/memcontrol.c')
    for name, since in [('mem_cgroup_cancel_charge', '>6.1'), ('__mod_objcg_mlstate', '>6.1'),
                        ('__lruvec_stat_mod_folio', '>6.1'), ('lruvec_page_state', '>6.1'),
                        ('do_flush_stats', '>6.1'), ('get_mem_cgroup_from_folio', '>6.1')]
] + [
    # lib/find_bit.c's searches that find.h gained after 6.1
    Feature(name, ('word', 'lib/find_bit.c', name), since, name + '() in lib/find_bit.c')
    for name, since in [('_find_first_and_and_bit', '6.11'), ('_find_next_or_bit', '6.5'),
                        ('__find_nth_and_andnot_bit', '6.5')]
] + [
    Feature('mm_account_reclaimed_pages',
            ('word', 'include/linux/swap.h', 'mm_account_reclaimed_pages'), '6.4',
            'mm_account_reclaimed_pages() (before: current->reclaim_state)'),
    Feature('workingset_test_recent',
            ('word', ('include/linux/swap.h', 'mm/internal.h'), 'workingset_test_recent'), '6.3',
            'workingset_test_recent() (refault distance test of the workingset)'),
    Feature('lru_note_cost_rotations',
            ('regex', 'mm/vmscan.c',
             r'lru_note_cost(_unlock_irq)?\([^;]*nr_scanned - nr_reclaimed\)|PGROTATE_ANON'), '>6.1',
            'the reclaim cost of an LRU counts rotations (lru_note_cost() with '
            'nr_scanned - nr_reclaimed of shrink_inactive_list(), nr_rotated of '
            'shrink_active_list(); 7.3: prepare_scan_control() reads PGROTATE_ANON/FILE) '
            'beside the IO (before: only the pages written out and restored refaults)'),
    Feature('lru_gen_refault_activate',
            ('regex', 'mm/workingset.c', r'WORKINGSET_ACTIVATE_BASE \+ type'), '>6.1',
            "lru_gen_refault() counts every refault of its lruvec in workingset_refault "
            "and a recent one in workingset_activate (before: only a recent one, in "
            "workingset_refault, none in workingset_activate)"),
    Feature('lru_note_cost_refault', ('word', 'include/linux/swap.h', 'lru_note_cost_refault'),
            '6.4', 'lru_note_cost_refault() (before: lru_note_cost_folio)'),
    Feature('lruvec_node_congested', ('word', 'include/linux/mmzone.h', 'LRUVEC_NODE_CONGESTED'),
            '6.4', 'LRUVEC_NODE_CONGESTED and LRUVEC_CGROUP_CONGESTED (before: one '
            'LRUVEC_CONGESTED)'),
    Feature('folio_deactivate', ('word', ('include/linux/swap.h', 'mm/internal.h'),
                                     'folio_deactivate'), '6.3',
            'folio_deactivate() (before: deactivate_page)'),
    Feature('reclaim_swappiness_arg',
            ('regex', ('include/linux/swap.h', 'mm/internal.h'),
             r'try_to_free_mem_cgroup_pages\([^;]*swappiness'),
            '>6.1', 'try_to_free_mem_cgroup_pages() takes the swappiness of memory.reclaim'),
    Feature('cgroup_memory_nobpf', ('word', 'mm/memcontrol.c', 'cgroup_memory_nobpf'), '>6.1',
            'the cgroup.memory=nobpf boot option'),
    Feature('memcg_v1_events_target',
            ('word', 'include/linux/memcontrol.h', 'mem_cgroup_events_target'), '<6.11',
            'v1\'s event ratelimit targets (thresholds, soft limit tree) in linux/memcontrol.h'),
    Feature('vma_flags_union',
            ('member', 'include/linux/mm_types.h', 'vm_area_struct', '__vm_flags'), '6.3',
            'vm_flags is read-only, written through __vm_flags (vm_flags_set())'),
    Feature('look_around_bool', ('regex', 'include/linux/mmzone.h', r'bool\s+lru_gen_look_around'),
            '>6.1', 'lru_gen_look_around() says whether the pte was young (before: the '
            'rmap tests the pte young, calls it, then clears the young bit itself)'),
    Feature('mglru_walk_get_next_mm', ('func', 'mm/vmscan.c', 'get_next_mm'), '>6.1',
            'the multi-gen LRU\'s walk takes each mm of the list (get_next_mm()); before, '
            'should_skip_mm() left out an mm of fewer than MIN_LRU_BATCH pages'),
    Feature('swapin_uncharge_nr',
            ('regex', 'include/linux/memcontrol.h',
             r'void\s+mem_cgroup_swapin_uncharge_swap\(swp_entry_t \w+, unsigned int'),
            '>6.1', 'mem_cgroup_swapin_uncharge_swap() takes the number of entries'),
    Feature('swapin_thp', ('func', 'mm/memory.c', 'can_swapin_thp'), '6.12',
            'do_swap_page() swaps in a large folio (an mTHP size enabled for the vma, '
            'whose aligned range of ptes holds contiguous swap entries) from a '
            'SWP_SYNCHRONOUS_IO device (before: order 0 only)'),
    Feature('swapin_reads_swap_map', ('func', 'mm/memory.c', 'non_swapcache_batch'), '6.12',
            'the large swap-in skips the swap cache and reads the slots\' SWAP_HAS_CACHE '
            'in si->swap_map itself (since: the folio is allocated in the swap cache, '
            'swapin_sync())'),
    Feature('swapin_sync', ('func', 'mm/memory.c', 'thp_swapin_suitable_orders'), '>6.12',
            'do_swap_page() takes the large orders from thp_swapin_suitable_orders() and '
            'swapin_sync() allocates the folio in the swap cache, falling back order by '
            'order (MTHP_STAT_SWPIN_FALLBACK; before: alloc_swap_folio(), outside the '
            'swap cache, for a slot of swap count 1)'),
    Feature('madvise_behavior_arg',
            ('regex', 'mm/madvise.c', r'static long madvise_cold\(struct madvise_behavior \*'),
            '>6.12', 'madvise_cold() and madvise_pageout() take the struct madvise_behavior '
            'of the call, its range and vma (before: vma, prev, start, end)'),
    Feature('mm_id', ('word', 'include/linux/mm_types.h', 'mm_id_t'), '6.15',
            'CONFIG_MM_ID, which THP selects: a large folio records the mms that map it '
            '(folio->_mm_ids), so folio_maybe_mapped_shared() tells an exclusive large '
            'folio from a shared one (before: the page mapcounts alone)'),
    Feature('free_swap_and_cache_nr', ('func', 'mm/swapfile.c', 'free_swap_and_cache_nr'),
            '6.10', 'a batch of swap ptes lets go of its slots with free_swap_and_cache_nr() '
            '(before: free_swap_and_cache() of one entry)'),
    Feature('swap_put_entries_direct', ('func', 'mm/swapfile.c', 'swap_put_entries_direct'),
            '>6.12', 'ptes let go of their slots with swap_put_entries_direct() '
            '(before: free_swap_and_cache_nr())'),
    Feature('folio_mapcount_util', ('func', 'mm/util.c', 'folio_mapcount'), '<6.12',
            'folio_mapcount() out of line in mm/util.c (since: inline in linux/mm.h)'),
    Feature('file_owner_or_capable', ('func', 'include/linux/fs.h', 'file_owner_or_capable'),
            '6.13', 'MADV_PAGEOUT asks file_owner_or_capable() whether a file\'s pages are '
            'the task\'s to page out (also 6.1.187 and 6.12.107 on; before: '
            'inode_owner_or_capable() of the initial user namespace or the no-op idmap)'),
    Feature('clear_nonpresent_ptes', ('func', 'include/linux/pgtable.h', 'clear_nonpresent_ptes'),
            '7.3', 'clear_nonpresent_ptes() clears a batch of non-present ptes (before: '
            'clear_not_present_full_ptes(), with the gather\'s fullmm)'),
    Feature('print_bad_page_map', ('func', 'mm/memory.c', 'print_bad_page_map'), '>6.12',
            'vm_normal_page() reports a bad entry of any level with print_bad_page_map() '
            '(before: print_bad_pte())'),
    Feature('print_bad_page_map_bytes',
            ('regex', 'mm/memory.c', r'unsigned long addr, const void \*entry, size_t entry_size'),
            '7.3', 'print_bad_page_map() takes the entry\'s bytes and size (before: its value '
            'as an unsigned long long)'),
    Feature('swapin_maps_cached_large',
            ('regex', 'mm/memory.c', r'folio_test_large\(folio\) && folio_test_swapcache\(folio\)\) \{'),
            '6.10', 'do_swap_page() maps a large folio found in the swap cache whole when its '
            'ptes are its swap entries in order (swap_pte_batch())'),
    Feature('swapin_skips_swapcache',
            ('regex', 'mm/memory.c', r'SWP_SYNCHRONOUS_IO\)\s*&&\s*__swap_count\(entry\) == 1'),
            '<7.3', 'do_swap_page() reads a slot only its pte holds (__swap_count() 1) on a '
            'SWP_SYNCHRONOUS_IO device into a new folio outside the swap cache, held by '
            'swapcache_prepare() meanwhile, and frees the slot at once (since: every '
            'swap-in goes through the swap cache; gone between 6.12 and 7.3)'),
    Feature('swapin_frees_sync_swapcache',
            ('regex', 'mm/memory.c', r'should_try_to_free_swap\(struct swap_info_struct'),
            '>6.12', 'should_try_to_free_swap() always frees the swap cache of a folio swapped '
            'in from a SWP_SYNCHRONOUS_IO device (before: only when swap is full, the vma '
            'locked, or a write by the sole user)'),
    Feature('mthp_stat_swpin', ('word', 'include/linux/huge_mm.h', 'MTHP_STAT_SWPIN'), '>6.12',
            'per-size swap-in counters (hugepages-<size>kB/stats/swpin, swpin_fallback, '
            'swpin_fallback_charge)'),
    Feature('memcg_pswp', ('regex', 'mm/memcontrol.c', r'\n\tPSWPIN,\n\tPSWPOUT,'), '>6.12',
            'memory.stat counts pswpin and pswpout (mm/page_io.c\'s memcg events)'),
    Feature('below_min_target',
            ('regex', 'include/linux/memcontrol.h', r'bool\s+mem_cgroup_below_min\(struct mem_cgroup \*target'),
            '>6.1', 'mem_cgroup_below_min/low() take the reclaim target (and say no for it)'),
    Feature('totalreserve_in_page_alloc',
            ('regex', 'mm/page_alloc.c', r'\nunsigned long totalreserve_pages\b'), '<6.12',
            'totalreserve_pages defined in mm/page_alloc.c (since: mm/show_mem.c)'),
    Feature('folio_mapped_util', ('func', 'mm/util.c', 'folio_mapped'), '<6.12',
            'folio_mapped() in mm/util.c (since: inline in linux/mm.h)'),
    Feature('memcg_oom_skip_bail', ('word', 'mm/memcontrol.c', 'MMF_OOM_SKIP'), '6.12.117',
            'try_charge_memcg() fails a reaped OOM victim\'s charge before reclaim '
            '(before: it reclaims, passes the OOM as dying and reclaims again; 6.1 and '
            '6.12 up to 6.12.115 have no MMF_OOM_SKIP test there)'),
    Feature('context_analysis_h', ('file', 'include/linux/compiler-context-analysis.h'), '7.0',
            'lock annotations (__must_hold(), __context_unsafe(), context_lock_struct()) '
            'in linux/compiler-context-analysis.h (before: a few sparse macros)'),
    Feature('memcg_handle_over_high_wrapper',
            ('func', 'mm/memcontrol.c', '__mem_cgroup_handle_over_high'), '7.0',
            'mem_cgroup_handle_over_high() is an inline test in memcontrol.h around '
            'memcontrol.c\'s __mem_cgroup_handle_over_high() (before: the function itself)'),
    Feature('alloc_flags_slowpath', ('func', 'mm/page_alloc.c', 'alloc_flags_slowpath'), '7.3',
            'the slow path\'s allocation flags are alloc_flags_slowpath() '
            '(before: gfp_to_alloc_flags())'),
    Feature('zone_watermark_ok_safe', ('func', 'mm/page_alloc.c', 'zone_watermark_ok_safe'),
            '<7.0', 'zone_watermark_ok_safe() (since: gone; kswapd reads the watermarks '
            'with zone_watermark_ok())'),
    Feature('lru_note_cost',
            ('regex', 'mm/swap.c', r'\nvoid lru_note_cost(_unlock_irq)?\('), '<7.3',
            'the classic LRU\'s reclaim cost is the lruvec\'s anon_cost and file_cost, '
            'noted by mm/swap.c\'s lru_note_cost() (since: struct lru_cost in the '
            'lruvec, kept by mm/vmscan.c)'),
    Feature('lru_note_cost_unlock_irq', ('func', 'mm/swap.c', 'lru_note_cost_unlock_irq'),
            '7.2', 'the reclaim cost is noted by lru_note_cost_unlock_irq(), called with '
            'the lruvec locked and under RCU, both of which it drops (before: '
            'lru_note_cost(), which takes each lruvec\'s lock itself)'),
    Feature('memcg_max_event_on_reject',
            ('regex', 'mm/memcontrol.c', r'ret = -ENOMEM;\s*goto out;'), '6.12.118',
            'try_charge_memcg() raises the max event for a charge it rejects without '
            'reclaim (a non-blocking one, a reaped OOM victim\'s), not only for a forced one'),
    Feature('memcg_protection_path',
            ('func', 'mm/memcontrol.c', 'mem_cgroup_calculate_protection_path'), '6.12.118',
            'MGLRU\'s shrink_one() computes the effective protection along the path from '
            'the root for every memcg it visits outside kswapd (before: it read what the '
            'last reclaim that walked the memcg left in elow/emin)'),
    Feature('mglru_memcg_reclaim_no_abort',
            ('regex', 'mm/vmscan.c',
             r'if \(!root_reclaim\(sc\)\)\s*return false;\s*if \(sc->nr_reclaimed >= max\('),
            '<6.12.118',
            'MGLRU\'s should_abort_scan() never stops a memcg reclaim (since: it stops one '
            'that reclaimed nr_to_reclaim, as a global one)'),
    Feature('mem_cgroup_idr', ('word', 'mm/memcontrol.c', 'mem_cgroup_idr'), '<6.12',
            'memcg ids in an IDR (since: the XArray mem_cgroup_ids)'),
    Feature('memcg_iter_atomic_generation',
            ('regex', 'include/linux/memcontrol.h', r'atomic_t\s+generation;'), '>6.1',
            'mem_cgroup_iter(): a shared walk that wraps starts a new generation, '
            'also without prev (before: only a walk with prev that reaches the end)'),
    Feature('memcg_oom_passes_dying', ('regex', 'mm/memcontrol.c',
                                       r'task_is_dying\(\) \|\| out_of_memory'), '<7.2',
            'mem_cgroup_out_of_memory() says true for a dying task without calling '
            'out_of_memory() (since: out_of_memory()\'s task_will_free_mem() marks it '
            'a victim)'),
    Feature('over_high_skips_dying', ('regex', 'mm/memcontrol.c', r'if \(task_is_dying\(\)\)'),
            '>6.1', 'mem_cgroup_handle_over_high() leaves a dying task alone (before: it '
            'reclaims and sleeps like any other)'),
    Feature('memcg_stat_swp_zero', ('word', 'mm/memcontrol.c', 'SWPOUT_ZERO'), '>6.1',
            'memory.stat counts swpin_zero and swpout_zero, its last events'),
    Feature('memcg_stats_index', ('word', 'mm/memcontrol.c', 'mem_cgroup_stats_index'), '6.11',
            'memcg stats in arrays of the tracked items only: an untracked item WARNs '
            '(before: arrays of every item)'),
    Feature('memcg_swap_peak', ('regex', 'mm/memcontrol.c', r'"swap\.peak"'), '6.5',
            'memory.swap.peak'),
    Feature('memcg_stat_pgdemote', ('word', 'mm/memcontrol.c', 'PGDEMOTE_KSWAPD'), '>6.1',
            'memory.stat counts demotions (pgdemote_kswapd, ...)'),
    Feature('reclaim_quarter_batches',
            ('regex', ('mm/memcontrol.c', 'mm/vmscan.c'), r'nr_to_reclaim - nr_reclaimed\) / 4'),
            '>6.1',
            'memory.reclaim asks reclaim for a quarter of what is left per call '
            '(before: all of it)'),
    Feature('extfrag_threshold_extern',
            ('word', 'include/linux/compaction.h', 'sysctl_extfrag_threshold'), '<6.12',
            'vm.extfrag_threshold\'s variable declared in linux/compaction.h, defined '
            'after compaction_suitable() reads it (since: static, before it, in mm/compaction.c)'),
    Feature('free_area_empty', ('func', ('mm/internal.h', 'mm/page_alloc.h'), 'free_area_empty'),
            '6.2', 'free_area_empty() in mm/internal.h (7.0: mm/page_alloc.h)'),
    Feature('account_freepages', ('func', 'mm/page_alloc.c', 'account_freepages'), '6.10',
            'the buddy free lists count NR_FREE_PAGES themselves (account_freepages()); '
            'before, rmqueue_buddy() counted what __rmqueue_smallest() took'),
    Feature('folios_put_refs', ('word', 'mm/swap.c', 'folios_put_refs'), '>6.1',
            'folios_put_refs() (before: release_pages() of pages)'),
    Feature('folio_mark_lazyfree', ('word', 'mm/swap.c', 'folio_mark_lazyfree'), '>6.1',
            'folio_mark_lazyfree() (before: mark_page_lazyfree())'),
    Feature('lru_gen_attr_rw', ('regex', 'mm/vmscan.c', r'__ATTR_RW\(min_ttl_ms\)'), '>6.1',
            'the multi-gen LRU\'s sysfs files by __ATTR_RW (min_ttl_ms_show(), ...; '
            'before: __ATTR() with show_min_ttl(), ...)'),
    Feature('folio_swap_member', ('regex', 'include/linux/mm_types.h', r'swp_entry_t\s+swap;'),
            '>6.1', 'a swap cache folio keeps its entry in folio->swap (before: '
            'folio->private, folio_swap_entry())'),
    Feature('folio_isolate_lru_bool', ('regex', 'mm/internal.h', r'bool\s+folio_isolate_lru\('),
            '>6.1', 'folio_isolate_lru() returns bool (before: int, 0 or -EBUSY)'),
    Feature('page_flags_idle', ('regex', 'include/linux/page-flags.h', r'FOLIO_FLAG_FALSE\(idle\)'),
            '>6.1', 'linux/page-flags.h defines folio_test_idle() without '
            'CONFIG_PAGE_IDLE_FLAG (before: linux/page_idle.h)'),
    Feature('pagewalk_hugepd', ('word', 'mm/pagewalk.c', 'hugepd_t'), '<6.12',
            'mm/pagewalk.c walks hugepd entries (hugepd_t from linux/hugetlb.h)'),
    Feature('folio_set_order', ('func', 'mm/internal.h', 'folio_set_order'), '>6.1',
            'folio_set_order() in mm/internal.h'),
    Feature('hw_pte_young_config',
            ('regex', 'include/linux/pgtable.h', r'IS_ENABLED\(CONFIG_ARCH_HAS_HW_PTE_YOUNG\)'),
            '>6.1', 'linux/pgtable.h\'s arch_has_hw_pte_young() says yes with '
            'CONFIG_ARCH_HAS_HW_PTE_YOUNG (before: no, unless the arch overrides it, as x86 does)'),
    Feature('nonleaf_pmd_young_no_pfn',
            ('regex', 'mm/vmscan.c', r'pmdp_test_and_clear_young\(vma, addr, pmd \+ i\);\s*'
             r'goto next;\s*\}\s*pfn = get_pmd_pfn'), '>6.1',
            'walk_pmd_range_locked() clears a non-leaf pmd\'s accessed bit without '
            'get_pmd_pfn() (before: get_pmd_pfn() first, which WARNs unless the pfn of the '
            'pte table is valid)'),
    Feature('lru_gen_evict_trace',
            ('regex', 'mm/vmscan.c',
             r'trace_mm_vmscan_lru_shrink_inactive\(pgdat->node_id,\s*(type_)?scanned, reclaimed'),
            '>6.1', 'evict_folios() reports each batch with the classic LRU\'s '
            'mm_vmscan_lru_shrink_inactive trace event (before: no trace event)'),
    Feature('memcgs_need_aging',
            ('member', 'mm/vmscan.c', 'scan_control', 'memcgs_need_aging'), '<6.3',
            'lru_gen_age_node() skips the memcgs (and the min_ttl OOM kill) when the '
            'last eviction reclaimed a batch without needing aging, and at the first call '
            'of each balance_pgdat() (sc->memcgs_need_aging)'),
    Feature('lru_gen_wakes_flushers',
            ('regex', 'mm/vmscan.c',
             r'sc->nr\.unqueued_dirty && sc->nr\.unqueued_dirty == sc->nr\.file_taken'
             r'|handle_reclaim_writeback\(isolated,'), '6.12.107',
            'the multi-gen LRU wakes the flushers when the page cache folios an eviction took '
            'were all dirty and not queued for writeback (7.2: evict_folios() calls '
            'handle_reclaim_writeback(), as shrink_inactive_list() does, for each batch) '
            '(before, 6.1 and 6.12 up to 6.12.95: no path of its reclaim wakes the flushers)'),
    Feature('mglru_sort_lets_dirty_through',
            ('regex', 'mm/vmscan.c', r'if \(zone > sc->reclaim_idx\) \{[^}]*\}\s*return false;\s*\}'),
            '6.12.115',
            'the multi-gen LRU\'s sort_folio() lets locked, dirty and writeback folios '
            'through to shrink_folio_list(), which keeps a locked one, marks a dirty one '
            'PG_reclaim and waits on one under writeback as any reclaim does (before: '
            'folio_inc_gen() moves each to the next generation with PG_reclaim, its refs, '
            'PG_referenced and PG_workingset cleared: never isolated, no eviction event)'),
    Feature('mglru_unevictable_generic_cull',
            ('regex', 'mm/vmscan.c', r'if \(!folio_evictable\(folio\)\)\s*return false;'),
            '6.12.115, 6.1.192',
            'the multi-gen LRU\'s sort_folio() lets an unevictable folio through: '
            'shrink_folio_list() activates it and move_folios_to_lru() culls it (pgscan, '
            'pgactivate, an eviction event) (before: sort_folio() moves it to the '
            'unevictable list itself, counted as sorted: pgrefill)'),
    Feature('mglru_activate_clears_refs',
            ('regex', 'mm/vmscan.c', r'folio_clear_lru_refs\(folio\);\s*folio_activate\(folio\);'),
            '6.12.115',
            'the multi-gen LRU\'s look-around clears the refs, PG_referenced and '
            'PG_workingset of a folio it activates, and lru_gen_add_folio() clears the '
            'refs and PG_referenced of an active one (before: an activated folio keeps them)'),
    Feature('mglru_sort_dirty_lazyfree',
            ('regex', 'mm/vmscan.c',
             r'type == LRU_GEN_FILE && folio_test_anon\(folio\) && folio_test_dirty\(folio\)'),
            '<6.12',
            'the multi-gen LRU\'s sort_folio() moves a dirty lazyfree folio (written again '
            'after MADV_FREE) to the anon list, swap-backed (6.1; 6.12 has no such case: '
            'such a folio is a dirty one of the file type)'),
    Feature('mglru_v1_writeback_throttle',
            ('regex', 'mm/vmscan.c',
             r'sc->nr\.unqueued_dirty == sc->nr\.file_taken\) \{[^}]*'
             r'if \(!writeback_throttling_sane\(sc\)\)\s*'
             r'reclaim_throttle\(pgdat, VMSCAN_THROTTLE_WRITEBACK\)'
             r'|handle_reclaim_writeback\(isolated,'), '6.12.117',
            'the multi-gen LRU\'s evict_folios() throttles on writeback after waking the '
            'flushers when reclaim is not writeback_throttling_sane() (cgroup v1, or memcg '
            'reclaim without CONFIG_CGROUP_WRITEBACK), as shrink_inactive_list() does '
            '(7.2: through handle_reclaim_writeback()) (before: it only wakes the flushers; '
            'nothing on its memcg reclaim path throttles)'),
    Feature('unmap_poisoned_folio', ('word', 'mm/internal.h', 'unmap_poisoned_folio'), '>6.1',
            'unmap_poisoned_folio() (shrink_folio_list() unmaps a hwpoisoned folio)'),
    # 7.x, as Debian's 7.2.13 and 7.3.4 have them (the first trees known to;
    # their tarballs carry no history to date them closer)
    Feature('memcg_private_id',
            ('func', 'mm/memcontrol.c', 'mem_cgroup_from_private_id'), '7.2',
            'a memcg\'s own small id (swap entries, workingset shadows, list_lru\'s '
            'index) is mem_cgroup_private_id()/mem_cgroup_from_private_id(), and '
            'mem_cgroup_id() is its cgroup\'s 64-bit id, cgroup_id() (before: '
            'mem_cgroup_id()/mem_cgroup_from_id() were the small id)'),
    Feature('mod_objcg_state', ('func', 'mm/memcontrol.c', 'mod_objcg_state'), '<7.2',
            'the slab hooks account an object\'s vmstat bytes with mod_objcg_state(), '
            'which takes the per-CPU stock over for the objcg (since: '
            '__account_obj_stock() on a slot of the stock the charge locked)'),
    Feature('memcg_stock_slots', ('macro', 'mm/memcontrol.c', 'NR_MEMCG_STOCK'), '7.2',
            'the per-CPU charge stock caches pages of NR_MEMCG_STOCK memcgs, and the '
            'object stock is a struct obj_stock_pcp of its own with NR_OBJ_STOCK objcg '
            'slots (before: one memcg_stock_pcp, one cached memcg and one objcg)'),
    Feature('memcg_cachep',
            ('regex', 'mm/memcontrol.c', r'static struct kmem_cache \*memcg_cachep;'), '7.2',
            'struct mem_cgroup and its per-node info come from slab caches of their own '
            '(memcg_cachep, memcg_pn_cachep; before: kmalloc)'),
    Feature('memcg_stock_frees_empty_slot',
            ('regex', 'mm/memcontrol.c', r'if \(!stock_pages\) \{\s*css_put\(&memcg->css\);'),
            '7.3', 'consume_stock() lets go of a stock slot\'s memcg when a charge takes '
            'its last page (before: the slot keeps the memcg, at 0 pages, until drained '
            'or replaced)'),
    Feature('memcg_charge_nospin',
            ('regex', 'mm/memcontrol.c', r'bool allow_spinning = gfpflags_allow_spinning\(gfp_mask\);'),
            '7.2', 'try_charge_memcg() knows a charge that may not spin (no __GFP_RECLAIM '
            'bit: kmalloc_nolock(), alloc_pages_nolock()): it charges no batch and its '
            'max event notifies no memory.events file (before: such a charge was any '
            'other that may not block)'),
    Feature('list_lru_cb_no_lock',
            ('regex', 'include/linux/list_lru.h',
             r'\(\*list_lru_walk_cb\)\(struct list_head \*item,\s*struct list_lru_one \*list,'
             r'\s*void \*cb_arg\)'), '7.2',
            'a list_lru walk callback gets no lock argument (before: the list\'s spinlock)'),
    Feature('demotion_allowed_mask',
            ('regex', 'include/linux/memory-tiers.h',
             r'int next_demotion_node\(int node, const nodemask_t \*allowed_mask\)'), '7.2',
            'next_demotion_node() picks among the allowed targets the caller passes, '
            'the closest allowed node when no preferred one is (before: any preferred one)'),
    Feature('node_notify', ('struct', 'include/linux/node.h', 'node_notify'), '7.2',
            'memory hotplug tells a node\'s first memory added and last removed to the '
            'node notifier (struct node_notify), which mm/memory-tiers.c listens to '
            '(before: the memory notifier\'s status_change_nid)'),
    Feature('kswapd_clear_hopeless', ('func', 'mm/vmscan.c', 'kswapd_clear_hopeless'), '7.2',
            'kswapd_clear_hopeless() resets a node\'s kswapd_failures with a reason '
            '(before: callers wrote pgdat->kswapd_failures = 0)'),
    Feature('kswapd_try_clear_hopeless', ('func', 'mm/vmscan.c', 'kswapd_try_clear_hopeless'),
            '7.2', 'reclaim\'s progress resets a node\'s kswapd_failures only when the node is '
            'balanced (kswapd_try_clear_hopeless()) (before: any progress of shrink_node(), '
            'direct reclaim\'s too, revived a hopeless node\'s kswapd)'),
    Feature('kswapd_boost_no_failure',
            ('regex', 'mm/vmscan.c', r'if \(!sc\.nr_reclaimed && !boosted\)'), '7.2',
            'a boosted balance_pgdat() run that reclaims nothing is no kswapd failure '
            '(before: counted in kswapd_failures as any other)'),
    Feature('zone_reclaimable_no_free',
            ('regex', 'mm/vmscan.c',
             r'!zone_reclaimable_pages\(zone\) && zone_page_state_snapshot\(zone, NR_FREE_PAGES\)'),
            '7.2', 'zone_reclaimable_pages() counts LRU pages only, and allow_direct_reclaim() '
            'leaves out a zone with none but free pages: no pfmemalloc reserve there, direct '
            'reclaim is not throttled (before: such a zone\'s free pages were its reclaimable '
            'pages, so its reserve throttled direct reclaim until kswapd gave up)'),
    Feature('lruvec_stat_mod_folio', ('func', 'mm/memcontrol.c', 'lruvec_stat_mod_folio'),
            '7.2', 'memcg\'s stat updates disable irqs themselves: mod_lruvec_state(), '
            'lruvec_stat_mod_folio(), count_memcg_events() and mod_memcg_state() are '
            'memcontrol.c\'s (before: its __ variants, which callers wrapped with irqs off)'),
    Feature('vma_flags_bitmap', ('word', 'include/linux/mm_types.h', 'vma_flags_t'), '7.2',
            'a vma\'s flags are a bitmap, vma->flags, whose first word vm_flags reads '
            '(before: vm_flags, written through __vm_flags)'),
    Feature('memcg_offline_resets_high',
            ('regex', 'mm/memcontrol.c', r'mem_cgroup_css_offline\(struct cgroup_subsys_state \*css\)\s*\{'
                                         r'[^}]*page_counter_set_high\(&memcg->swap, PAGE_COUNTER_MAX\)'),
            '6.12 (not 6.1, 7.3)', 'mem_cgroup_css_offline() puts memory.high and '
            'memory.swap.high back to max (else: a removed memcg keeps them)'),
    Feature('mglru_dying_fake_progress',
            ('regex', 'mm/vmscan.c',
             r'fatal_signal_pending\(current\)\)\s*\{\s*sc->nr_reclaimed \+= MIN_LRU_BATCH'),
            '<6.3', 'the multi-gen LRU\'s should_abort_scan() counts MIN_LRU_BATCH pages '
            'reclaimed for a task with a fatal signal: an OOM-killed charger\'s '
            'try_charge_memcg() retries until the oom_reaper frees its memory (since: no '
            'such count)'),
    Feature('reclaim_stat_pageout',
            ('member', 'include/linux/vmstat.h', 'reclaim_stat', 'nr_pageout'), '<7.3',
            'struct reclaim_stat counts the folios shrink_folio_list() wrote out, which '
            'the mm_vmscan_lru_shrink_inactive event reports (since: not counted)'),
    Feature('vmpressure_order',
            ('regex', 'include/linux/vmpressure.h', r'void vmpressure\(gfp_t gfp, int order'),
            '7.2', 'vmpressure() takes the reclaim\'s order'),
    Feature('defrag_mode', ('regex', 'mm/page_alloc.c', r'\nint defrag_mode;'), '7.2',
            'vm.defrag_mode: kswapd reclaims free pageblocks for a high order and the '
            'allocator falls back to another migratetype less'),
    Feature('swap_table', ('file', 'mm/swap_table.h'), '7.2',
            'the swap cache is each swap cluster\'s table: reclaim locks a folio\'s '
            'cluster to take it out (__swap_cache_del_folio(), which frees the slots '
            'no pte holds) and puts an anon folio in with folio_alloc_swap(); memcg '
            'records a slot\'s memcg by cluster and uncharges it by id (before: an '
            'address_space, __delete_from_swap_cache(), put_swap_folio(), add_to_swap(), '
            'swap_cgroup_record())'),
    Feature('swap_writeout', ('word', 'mm/swap.h', 'swap_writeout'), '7.2',
            'pageout() writes a swap cache folio with swap_writeout() (before: the '
            'swap cache\'s ->writepage)'),
    Feature('swap_cache_del_swapout',
            ('regex', 'mm/swap.h', r'void __swap_cache_del_folio\([^;]*bool swapout\)'), '7.3',
            '__swap_cache_del_folio() moves a swapped-out folio\'s cgroup v1 memsw charge '
            'itself (its swapout argument; before: __remove_mapping() calls '
            '__memcg1_swapout() under the cluster lock first)'),
    Feature('swap_ops', ('file', 'include/linux/swap_ops.h'), '7.3',
            'a swap device has swap_ops (SWAP_OPS_F_REQUIRE_NOFS for a swap file '
            'reclaim must keep out of the filesystem of) and pageout() plugs its '
            'writes in a swap_io_ctx that shrink_folio_list() submits (before: '
            'folio_swap_flags() & SWP_FS_OPS, a swap_iocb plug)'),
    Feature('vmpressure_prio', ('func', 'mm/vmpressure.c', 'vmpressure_prio'), '<7.3',
            'vmpressure_prio() in mm/vmpressure.c (since: cgroup v1\'s, in '
            'mm/memcontrol-v1.c; a no-op without CONFIG_MEMCG_V1)'),
    Feature('memcg_local_stats_v1',
            ('regex', 'mm/memcontrol.c',
             r'#ifdef CONFIG_MEMCG_V1\s*unsigned long memcg_page_state_local\('), '7.2',
            'a memcg\'s own counts, without its descendants\', are read by '
            'memcg_page_state_local() and memcg_events_local() only with cgroup v1 '
            '(the v2 world reads a node item\'s with lruvec_page_state_local())'),
    Feature('debugfs_aux', ('word', 'include/linux/debugfs.h', 'debugfs_get_aux_num'), '7.2',
            'a debugfs file keeps an aux value its operations read back '
            '(debugfs_create_file_aux_num(), debugfs_get_aux_num())'),
    Feature('memcg_flush_force',
            ('regex', 'mm/memcontrol.c',
             r'void __mem_cgroup_flush_stats\(struct mem_cgroup \*memcg, bool force\)'), '7.2',
            'a forced flush of a memcg subtree\'s stats is __mem_cgroup_flush_stats(memcg, '
            'true) (before: do_flush_stats(memcg))'),
    Feature('reclaim_stat_proactive', ('word', 'include/linux/mmzone.h', 'PGSTEAL_PROACTIVE'),
            '7.2', 'proactive reclaim (memory.reclaim) counts its scans and steals as '
            'pgscan_proactive/pgsteal_proactive (before: as direct reclaim\'s)'),
    Feature('proactive_reclaim_restarts',
            ('regex', ('mm/vmscan.c', 'mm/memcontrol.c'),
             r'if \(signal_pending\(current\)\)\s*return -ERESTARTSYS;'), '7.2',
            'memory.reclaim interrupted by a signal returns -ERESTARTSYS, which the signal '
            'layer restarts or turns into -EINTR (before: -EINTR)'),
    Feature('kmem_uncharge_skips_root',
            ('regex', 'mm/memcontrol.c', r'if \(!mem_cgroup_is_root\(memcg\)\)\s*refill_stock\('),
            '7.2', 'obj_cgroup_uncharge_pages() and memcg_uncharge_kmem() leave the root '
            'memcg\'s counter alone: the kmem pages of an objcg reparented to the root stay '
            'in its usage (before: refill_stock() of the root, which gave them back)'),
    Feature('lru_folio_reparent', ('func', 'mm/swap.c', 'lru_reparent_memcg'), '7.2',
            'a folio is charged through an objcg (folio->memcg_data), and offlining a memcg '
            'moves its LRU folios and objcgs to the parent: they are reclaimed and uncharged '
            'there, while the dying memcg\'s own counter keeps what they charged (before: a '
            'folio points at its memcg, which keeps its folios until they are freed)'),
    Feature('objcg_per_node',
            ('member', 'include/linux/memcontrol.h', 'mem_cgroup_per_node', 'objcg'), '7.2',
            'a memcg has an objcg per node (nodeinfo[nid]->objcg), which a task on that '
            'node charges (before: one, memcg->objcg)'),
    Feature('kswapd_failures_atomic', ('regex', 'include/linux/mmzone.h', r'atomic_t\s+kswapd_failures'),
            '7.2', 'a node\'s kswapd_failures is an atomic_t'),
    Feature('mm_flags_bitmap', ('word', 'include/linux/mm_types.h', 'mm_flags_t'), '7.2',
            'an mm\'s MMF_* flags are a bitmap, mm_flags_t, tested with mm_flags_test() '
            '(before: an unsigned long)'),
    Feature('memdesc_flags', ('word', 'include/linux/mm_types.h', 'memdesc_flags_t'), '7.2',
            'page->flags is a memdesc_flags_t, its word page->flags.f'),
    Feature('folio_mapping_anon', ('macro', 'include/linux/page-flags.h', 'FOLIO_MAPPING_ANON'),
            '7.2', 'FOLIO_MAPPING_ANON and FOLIO_MAPPING_FLAGS (before: PAGE_MAPPING_*)'),
    Feature('migratepage_success', ('macro', 'include/linux/migrate.h', 'MIGRATEPAGE_SUCCESS'),
            '<7.2', 'MIGRATEPAGE_SUCCESS (since: 0)'),
    Feature('migrate_reason_enum',
            ('regex', 'include/linux/migrate.h',
             r'int migrate_pages\([^;]*enum migrate_reason reason'), '7.3',
            'migrate_pages() takes an enum migrate_reason (before: an int)'),
    Feature('look_around_nr',
            ('regex', 'include/linux/mmzone.h',
             r'bool lru_gen_look_around\(struct page_vma_mapped_walk \*pvmw, unsigned int nr\)'),
            '7.2', 'lru_gen_look_around() takes the number of ptes the folio\'s batch maps; '
            'the rmap clears a batch\'s accessed bits with clear_flush_young_ptes_notify()'),
    Feature('aops_writepage',
            ('member', 'include/linux/fs.h', 'address_space_operations', 'writepage'), '<7.2',
            'reclaim\'s pageout() writes a dirty file folio with its mapping\'s '
            '->writepage() (since: only shmem and swap cache folios; the others are '
            'left to the flushers, and writeback_control has no for_reclaim)'),
    Feature('css_rstat', ('word', 'include/linux/cgroup.h', 'css_rstat_flush'), '7.2',
            'rstat is by css: css_rstat_updated(), css_rstat_flush() (before: by cgroup)'),
    Feature('pgdat_dirty', ('word', 'include/linux/mmzone.h', 'PGDAT_DIRTY'), '<7.2',
            'kswapd flags a node whose inactive file tail was all unqueued dirty '
            '(PGDAT_DIRTY) and then writes page cache marked for reclaim itself (since: '
            'reclaim writes back no page cache but shmem\'s)'),
    Feature('lru_tier_workingset',
            ('regex', 'include/linux/mm_inline.h', r'lru_tier_from_refs\(int refs, bool workingset\)'),
            '7.2', 'a folio\'s multi-gen LRU tier is from its refs and PG_workingset (the '
            'last tier), lru_tier_from_refs(refs, workingset)'),
    Feature('lru_gen_folio_seq', ('func', 'include/linux/mm_inline.h', 'lru_gen_folio_seq'),
            '7.2', 'the multi-gen LRU adds a folio at lru_gen_folio_seq(): an active one '
            '(PG_active, set while isolated) in the second youngest generation, the youngest '
            'if PG_workingset too; evict_folios() activates a rejected folio only when it '
            'would go back to the oldest generation (before: an active folio goes to the '
            'youngest generation, and every rejected folio is activated)'),
    Feature('mglru_evict_budget',
            ('regex', 'mm/vmscan.c', r'static int evict_folios\(unsigned long nr_to_scan,'),
            '7.2', 'MGLRU\'s try_to_shrink_lruvec() evicts a lruvec in batches of at most '
            'its evictable size >> priority (evict_folios(nr_to_scan)): a lruvec takes a few '
            'pages at the first priorities that scan it (before: any positive nr_to_scan '
            'evicts a whole batch, MIN_LRU_BATCH isolated of up to MAX_LRU_BATCH scanned)'),
    Feature('lru_gen_evict_rotations',
            ('regex', 'mm/vmscan.c', r'if \(nr_isolated > total_reclaimed\)'),
            '7.3', 'MGLRU\'s evict_folios() counts the folios it isolated and did not free '
            'in the lruvec\'s PGROTATE_ANON/FILE, which prepare_scan_control() folds into '
            'the reclaim cost (before: the multi-gen LRU counts no rotation)'),
    Feature('mglru_proportional_protection',
            ('regex', 'mm/vmscan.c', r'nr_to_scan = apply_proportional_protection\(memcg, sc, evictable\)'),
            '7.2', 'MGLRU\'s get_nr_to_scan() scales a memcg\'s scan by its usage above its '
            'protection (apply_proportional_protection(), as the classic LRU\'s '
            'get_scan_count()) (before: a memcg not below its memory.min is scanned whole)'),
    Feature('lru_gen_aging_eexist',
            ('regex', 'mm/vmscan.c', r'force_scan\) \? 0 : -EEXIST;'),
            '7.2', 'the lru_gen debugfs aging command ages at max_seq for any seq up to it '
            '(inc_max_seq() folds a full set of generations in with inc_min_seq()) and fails '
            'with -EEXIST when try_to_inc_max_seq() did not age (before: 0 at once for an older '
            'seq, -ERANGE with MAX_NR_GENS generations unless force_scan)'),
    Feature('swappiness_anon_only',
            ('macro', ('mm/internal.h', 'include/linux/swap.h'), 'SWAPPINESS_ANON_ONLY'), '7.2',
            'a swappiness of MAX_SWAPPINESS + 1 (SWAPPINESS_ANON_ONLY) reclaims anon only: '
            'memory.reclaim\'s swappiness=max, and the lru_gen debugfs commands take it '
            '(before: above MAX_SWAPPINESS is -EINVAL)'),
    Feature('lru_gen_types_apart',
            ('regex', 'mm/vmscan.c', r'if \(n < MIN_NR_GENS \|\| n > MAX_NR_GENS\)'), '7.2',
            'seq_is_valid(): each type has MIN_NR_GENS to MAX_NR_GENS generations, the anon '
            'and file min_seq apart (try_to_inc_min_seq() ties them only around max_seq - '
            'MIN_NR_GENS) (before: the file type never has more generations than anon)'),
    Feature('reclaim_laptop_mode', ('regex', 'mm/vmscan.c', r'may_writepage = !laptop_mode'),
            '<7.2', 'reclaim honours vm.laptop_mode: kswapd and direct reclaim may not write '
            'until their priority is below DEF_PRIORITY - 2 (since: vm.laptop_mode is '
            'deprecated and ignored, reclaim may write from its first pass on)'),
    Feature('memparse_saturates', ('word', 'lib/cmdline.c', 'check_shl_overflow'), '7.2',
            'memparse() gives ULLONG_MAX when its suffix\'s shift overflows and takes a '
            'suffix only after a number (before: the shift wraps, a bare suffix is 0)'),
    Feature('shrinker_nokmem_put',
            ('regex', 'mm/shrinker.c',
             r'SHRINKER_NONSLAB\)\)\s*\{\s*clear_bit\(offset, unit->map\);\s*shrinker_put\(shrinker\);'),
            '7.2', 'shrink_slab_memcg() without kmem accounting clears a slab shrinker\'s bit '
            'and puts the reference it took (before: it kept both)'),
    Feature('parse_integer_saturates',
            ('regex', 'lib/kstrtox.c', r'check_mul_overflow\(res, base, &res\)'), '7.2',
            'lib/kstrtox.c\'s _parse_integer() gives ULLONG_MAX on overflow, which '
            'simple_strtoull() and memparse() return (before: the value wraps)'),
    Feature('list_lru_alloc_table', ('word', 'mm/list_lru.c', 'list_lru_memcg_table'), '<7.2',
            'memcg_list_lru_alloc() first allocates a table of the ancestors it fills '
            '(since: it allocates one list at a time, from the farthest ancestor without one)'),
    Feature('list_lru_kmemcg_id_reparent',
            ('regex', 'mm/list_lru.c', r'WRITE_ONCE\(child->kmemcg_id, parent->kmemcg_id\)'),
            '<7.2', 'memcg_reparent_list_lrus() gives a removed memcg and its descendants '
            'their parent\'s kmemcg_id, which memcg_list_lru_alloc() reads again after '
            'xas_nomem() (since: the ids stay; a dying memcg\'s objects go to its nearest '
            'live ancestor\'s list)'),
    Feature('memcg_event_sock_throttled', ('word', 'mm/memcontrol.c', 'MEMCG_SOCK_THROTTLED'),
            '7.2', 'memory.events counts sock_throttled, its last key'),
    Feature('reclaim_stats_per_node', ('word', 'include/linux/mmzone.h', 'PGSCAN_KSWAPD'),
            '7.2', 'pgscan_*, pgsteal_* and pgrefill are node stat items (memory.numa_stat '
            'ends with pgrefill; before: vm events)'),
    Feature('mglru_age_at_three_gens',
            ('regex', 'mm/vmscan.c',
             r'return evictable_min_seq\(min_seq, swappiness\) \+ MIN_NR_GENS == max_seq;'),
            '7.2', 'MGLRU\'s should_run_aging() ages a lruvec left with MIN_NR_GENS + 1 '
            'generations at any priority below DEF_PRIORITY, and one with MIN_NR_GENS always '
            '(before: from the young and old pages of the generations left)'),
    Feature('mglru_evict_zero_at_min_gens',
            ('regex', 'mm/vmscan.c',
             r'if \(get_nr_gens\(lruvec, !swappiness\) == MIN_NR_GENS\)\s*scanned = 0;'),
            '<7.2', 'MGLRU\'s evict_folios() reports and traces 0 scanned when its type is left '
            'with MIN_NR_GENS generations (since: the pages scanned of the type it isolated '
            'from, in its retry too)'),
    Feature('lru_gen_refault_activate_in_fault',
            ('regex', 'mm/workingset.c',
             r'if \(lru_gen_in_fault\(\)\)\s*mod_lruvec_state\(lruvec, WORKINGSET_ACTIVATE_BASE'),
            '7.2', 'lru_gen_refault() counts workingset_activate only for a PG_workingset folio '
            'refaulting in a page fault, which folio_add_lru() activates (before: every recent '
            'refault)'),
    Feature('mglru_type_by_all_tiers',
            ('regex', 'mm/vmscan.c',
             r'read_ctrl_pos\(lruvec, LRU_GEN_ANON, MAX_NR_TIERS, swappiness, &sp\);'),
            '7.2', 'MGLRU\'s get_type_to_scan() compares the refaults of all tiers of anon with '
            'those of file, and get_tier_idx() protects a tier against the same type\'s tier 0 '
            '(before: tier 0 of each type, and the chosen type\'s tiers against the other '
            'type\'s tier 0)'),
    Feature('lru_gen_fault_referenced',
            ('regex', ('mm/swap.c', 'mm/folio.c'),
             r'else if \(!folio_test_referenced\(folio\)\)\s*folio_mark_accessed\(folio\);'),
            '7.2', 'with MGLRU on, folio_add_lru() in a page fault marks a folio accessed '
            '(PG_referenced) and sets PG_active only on a PG_workingset one: faulted anon goes '
            'to the second youngest generation, page cache to the second oldest (before: every '
            'folio added in a fault is PG_active, in the youngest generation)'),
    Feature('look_around_skips_isolated',
            ('regex', 'mm/vmscan.c', r'if \(folio_lru_gen\(folio\) < 0\)\s*return NULL;'),
            '7.2', 'MGLRU\'s get_pfn_folio() passes over a folio off the generations (isolated): '
            'the look-around leaves the ptes of the eviction\'s own batch young, and each '
            'young folio of it runs a look-around of its own (before: the first one cleared '
            'its neighbours\' ptes, isolated or not)'),
    Feature('lru_gen_debugfs_target_memcg',
            ('regex', 'mm/vmscan.c', r'sc->target_mem_cgroup = memcg;'),
            '7.2', 'the lru_gen debugfs commands run as the memcg\'s own reclaim '
            '(sc->target_mem_cgroup): folio_referenced() looks only at the mms of that memcg '
            '(before: a global reclaim\'s rmap, every mm)'),
    Feature('walk_locked_table_to_filter',
            ('regex', 'mm/vmscan.c', r'if \(!spin_trylock\(ptl\)\) \{\s*pte_unmap\(pte\);\s*return true;'),
            '7.2', 'MGLRU\'s walk_pte_range() that cannot take a page table\'s lock reports the '
            'table walked: walk_pmd_range() adds it, unread, to the next Bloom filter '
            '(MM_NONLEAF_ADDED) (before: left out of the filter)'),
    Feature('lru_gen_set_refs_promotes',
            ('regex', 'mm/vmscan.c',
             r'if \(folio_lru_refs\(folio\) > 1\)\s*set_mask_bits\(&folio->flags(\.f)?, LRU_REFS_FLAGS, BIT\(PG_workingset\)\);'),
            '7.2', 'lru_gen_set_refs() promotes a young folio accessed more than once: its refs '
            'and PG_referenced give way to PG_workingset, and the look-around without a walk '
            'activates it so (before: activated with its flags cleared, or kept as they were)'),
    Feature('mul_u64_add_u64_div_u64',
            ('word', 'include/linux/math64.h', 'mul_u64_add_u64_div_u64'), '7.2',
            'linux/math64.h builds mul_u64_u64_div_u64() on mul_u64_add_u64_div_u64(), '
            'the one the arch provides (before: the arch\'s mul_u64_u64_div_u64())'),
    Feature('mglru_isolate_swap_constrained',
            ('regex', 'mm/vmscan.c', r'__GFP_IO\)\)? &&\s*\(+folio_test_dirty\(folio\)'),
            '<7.2', 'the multi-gen LRU\'s isolate_folio() refuses, without __GFP_IO, an anon '
            'folio not in the swap cache or a dirty anon one (6.1: any dirty one, and without '
            'may_writepage too) (since: it isolates them, and shrink_folio_list() keeps them)'),
    Feature('lru_gen_tier_gain_2_3',
            ('regex', 'mm/vmscan.c', r'read_ctrl_pos\(lruvec, type, 0, 2, &sp\)'), '7.2',
            'get_tier_idx() protects a tier while its refault rate is above 3/2 of tier 0\'s '
            '(gains 2:3; before: 1:2, above twice tier 0\'s)'),
    Feature('lru_gen_debugfs_proactive',
            ('regex', 'mm/vmscan.c',
             r'\.reclaim_idx = MAX_NR_ZONES - 1,\s*\.gfp_mask = GFP_KERNEL,\s*\.proactive = true,'),
            '7.2', 'the lru_gen debugfs commands reclaim as proactive reclaim (sc->proactive: '
            'pgscan_proactive, pgsteal_proactive) (before: as direct reclaim)'),
    Feature('lru_gen_age_at_three_gens',
            ('regex', 'mm/vmscan.c',
             r'return evictable_min_seq\(min_seq, swappiness\) \+ MIN_NR_GENS == max_seq;'),
            '7.2', 'should_run_aging() ages a lruvec left with MIN_NR_GENS + 1 generations at any '
            'priority below DEF_PRIORITY, and its eviction goes on (before: only when the '
            'youngest generation held over 1/MIN_NR_GENS of its pages or the oldest under '
            '1/(MIN_NR_GENS + 2), and the lruvec was then left for that priority)'),
    Feature('lru_gen_inc_min_seq_protects',
            ('regex', 'mm/vmscan.c',
             r'list_move_tail\(&folio->lru, &lrugen->folios\[new_gen\]\[type\]\[zone\]\);\s*'
             r'if \(refs \+ workingset != BIT\(LRU_REFS_WIDTH\) \+ 1\)'),
            '7.2', 'inc_min_seq() counts each folio it moves on from a retired generation as '
            'protected in its tier, which the carry-over then averages (before: not counted)'),
]

# Suites: ctest names (exact, or a prefix ending in '*'), the features they
# need, and the reason printed when one is missing (the feature's text is
# appended).

class Variant:
    """A change that is in no tree (mm/variants/), built beside the real code
    it hooks when the tree has `needs`. Its feature, variant_<name>, is on
    when the tree has `needs` and the build does not leave the variant out
    (TB_VARIANTS_OFF: `tools/tb compare` leaves a variant out of the after
    side when the patch changes what it replaces). The functions it
    replaces are its manifests' `if variant_<name> wrap` names, and
    `routes`: functions whose calls it redirects by macro."""

    def __init__(self, name, needs, path, seed, kfile, routes=()):
        self.name, self.needs, self.path, self.seed = name, needs, path, seed
        self.kfile, self.routes = kfile, tuple(routes)

    @property
    def feature(self):
        return 'variant_' + self.name


VARIANTS = [
    Variant('global_shrink_priority', 'shrinker_c', 'mm/variants/global_shrink_priority.c',
            '000', 'mm/vmscan.c', routes=('shrink_node_memcgs',)),
    Variant('memcg_iter', 'mglru_memcg', 'mm/variants/memcg_iter_shrink_many.c',
            '002', 'mm/vmscan.c'),
]


def variant_features(found, off=()):
    """{variant_<name>: on} for a tree's detect() result"""
    return {v.feature: bool(found[v.needs][0]) and v.name not in off for v in VARIANTS}


SUITES = [
    ('shim', ['test_shim_*', 'test_failfast'], [], ''),
    ('tools', ['kextract', 'mutate_operators', 'tb_features'], [], ''),
    ('page_counter', ['test_page_counter', 'test_page_counter_stress'], [], ''),
    ('page_counter_fuzz', ['replay_page_counter*'],
     ['page_counter_protection', 'page_counter_local_watermark'],
     'the harness checks the protection sums and local_watermark'),
    ('shrinker', ['test_shrinker', 'test_shrinker_expand', 'test_shrinker_stress',
                  'replay_shrinker*'],
     ['shrinker_c'], 'the suite drives mm/shrinker.c'),
    ('list_lru', ['test_list_lru', 'test_shrinker_trees', 'test_lru_stress'], [], ''),
    ('list_lru_fuzz', ['replay_list_lru*'], ['shrinker_c'],
     'the harness runs both trees\' list_lru.c, the main tree\'s with mm/shrinker.c'),
    ('memcg', ['test_memcg_*', 'replay_memcg*'], [], ''),
    ('reclaim', ['test_reclaim_*', 'test_memcontrol_selftests*', 'replay_reclaim*'], [], ''),
]

# Kernel files that moved, by the name the project uses (the older one):
# the tree's file is the first of the names that exists.  Feature probes,
# the build (TB_FILE_<name> in cmake) and the kfile: labels all resolve
# through tree_file(), so a moved file is one line here.
MOVED = {
    'mm/swap.c': ('mm/swap.c', 'mm/folio.c'),  # 7.3: the LRU and folio_batch code
}


def tree_file(tree, path):
    """path as this tree names it (MOVED), or path itself."""
    for p in MOVED.get(path, (path,)):
        if os.path.exists(os.path.join(tree, p)):
            return p
    return path


COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
_texts = {}


def _text(tree, path):
    path = tree_file(tree, path)
    key = os.path.join(tree, path)
    if key not in _texts:
        try:
            with open(key, errors='replace') as f:
                _texts[key] = COMMENT.sub(' ', f.read())
        except OSError:
            _texts[key] = None
    return _texts[key]


def _struct_body(text, tag):
    m = re.search(r'\bstruct\s+%s\s*\{' % re.escape(tag), text)
    if not m:
        return None
    depth, i = 1, m.end()
    while i < len(text) and depth:
        depth += {'{': 1, '}': -1}.get(text[i], 0)
        i += 1
    return text[m.end():i]


def probe(tree, f):
    """(present, detail): detail names the file and symbol looked for."""
    if isinstance(f.probe[1], tuple):
        res = None
        for path in f.probe[1]:
            res = probe(tree, Feature(f.name, (f.probe[0], path) + tuple(f.probe[2:]),
                                      f.since, f.what))
            if res[0]:
                return res
        return res
    kind, path = f.probe[0], tree_file(tree, f.probe[1])
    if kind == 'file':
        return os.path.exists(os.path.join(tree, path)), path
    text = _text(tree, path)
    name = f.probe[2]
    detail = '%s: %s' % (path, name.replace('\\', ''))
    if text is None:
        return False, '%s (file missing)' % path
    if kind == 'func':
        ok = re.search(r'\n([A-Za-z_][^\n;=(]*[ \t*])?%s\([^;{]*\)[ \t\n]*\{' % name, text)
    elif kind == 'macro':
        ok = re.search(r'^\s*#\s*define\s+%s\b' % name, text, re.M)
    elif kind == 'struct':
        ok = _struct_body(text, name) is not None
    elif kind == 'member':
        body = _struct_body(text, name)
        detail = '%s: struct %s.%s' % (path, name, f.probe[3])
        ok = body is not None and re.search(r'\b%s\b' % f.probe[3], body)
    elif kind == 'regex':
        ok = re.search(name, text)
    elif kind == 'word':
        ok = re.search(r'\b%s\b' % name, text)
    else:
        raise ValueError(kind)
    return bool(ok), detail


def tree_version(tree):
    try:
        with open(os.path.join(tree, 'Makefile')) as f:
            head = f.read(400)
    except OSError:
        return None
    v = [re.search(r'^%s = (\d+)' % k, head, re.M) for k in
         ('VERSION', 'PATCHLEVEL', 'SUBLEVEL')]
    return '.'.join(m.group(1) for m in v) if all(v) else None


def detect(tree):
    """{feature name: (present, detail)} for tree."""
    return {f.name: probe(tree, f) for f in FEATURES}


def by_name(name):
    return next(f for f in FEATURES if f.name == name)


def suites(tree, found=None):
    """[(suite, tests, supported, reason)] for tree."""
    found = found or detect(tree)
    out = []
    for name, tests, needs, why in SUITES:
        missing = [n for n in needs if not found[n][0]]
        reason = ''
        if missing:
            f = by_name(missing[0])
            reason = '%s lacks %s (%s, since %s); %s' % (
                tree_version(tree) or 'the tree', found[f.name][1], f.what, f.since, why)
        out.append((name, tests, not missing, reason))
    return out


def _cmake_str(s):
    return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"')


def write_cmake(tree, out, before=None, variants_off=()):
    unknown = [n for n in variants_off if n not in {v.name for v in VARIANTS}]
    if unknown:
        raise SystemExit('tb_features.py: TB_VARIANTS_OFF names no variant: %s (have: %s)'
                         % (', '.join(unknown), ', '.join(v.name for v in VARIANTS)))
    found = detect(tree)
    vfound = variant_features(found, variants_off)
    have = [n for n, (ok, _) in found.items() if ok] + [n for n, on in vfound.items() if on]
    lines = ['# generated by tools/tb_features.py from %s' % tree,
             'set(TB_FEATURES %s)' % _cmake_str(';'.join(have))]
    for f in FEATURES:
        lines.append('set(TB_HAVE_%s %d)' % (f.name, 1 if found[f.name][0] else 0))
    for path in MOVED:
        lines.append('set(TB_FILE_%s %s)' % (re.sub(r'\W', '_', path),
                                            _cmake_str(tree_file(tree, path))))
    for n, on in vfound.items():
        lines.append('set(TB_HAVE_%s %d)' % (n, 1 if on else 0))
    if before:
        bfound = detect(before)
        lines.append('set(TB_FEATURES_BEFORE %s)' % _cmake_str(';'.join(
            [n for n, (ok, _) in bfound.items() if ok] +
            [n for n, on in variant_features(bfound, variants_off).items() if on])))
    js = {'tree': tree, 'version': tree_version(tree), 'features': have,
          'variants_off': list(variants_off), 'suites': []}
    for name, tests, ok, reason in suites(tree, found):
        lines.append('set(TB_SUITE_SKIP_%s %s)' % (name, _cmake_str(reason)))
        js['suites'].append({'suite': name, 'tests': tests, 'supported': ok,
                             'reason': reason})
    text = '\n'.join(lines) + '\n'
    old = None
    if os.path.exists(out):
        with open(out) as f:
            old = f.read()
    if old != text:  # unchanged: no reconfigure loop
        with open(out, 'w') as f:
            f.write(text)
    with open(out + '.json', 'w') as f:
        json.dump(js, f, indent=1)


def main(argv):
    if len(argv) >= 3 and argv[0] == 'cmake':
        before, off, rest = None, (), argv[3:]
        while len(rest) >= 2 and rest[0] in ('--before', '--variants-off'):
            if rest[0] == '--before':
                before = rest[1]
            else:
                off = tuple(n for n in re.split(r'[,;]', rest[1]) if n)
            rest = rest[2:]
        write_cmake(argv[1], argv[2], before, off)
        return 0
    if len(argv) == 2 and argv[0] == 'list':
        for n, (ok, d) in detect(argv[1]).items():
            print('%-30s %-4s %s' % (n, 'yes' if ok else 'no', d))
        return 0
    print(__doc__.split('Usage:')[1], file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
