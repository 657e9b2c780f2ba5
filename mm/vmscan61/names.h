/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The "before" tree's symbol namespace. Force-included (first) into every
 * translation unit compiled against the 6.1 tree, so its global names get
 * a k61_ prefix and link beside 6.12's mm/shrinker.c and mm/list_lru.c in
 * one binary. check_names.py fails the build if a 6.1 library defines a
 * global symbol without the prefix, i.e. if a name is missing here.
 */
#ifndef _TB_K61_NAMES_H
#define _TB_K61_NAMES_H
/* mm/vmscan.c: the shrinker part */
#define shrinker_list k61_shrinker_list
#define shrinker_rwsem k61_shrinker_rwsem
#define prealloc_shrinker k61_prealloc_shrinker
#define free_prealloced_shrinker k61_free_prealloced_shrinker
#define register_shrinker_prepared k61_register_shrinker_prepared
#define register_shrinker k61_register_shrinker
#define unregister_shrinker k61_unregister_shrinker
#define synchronize_shrinkers k61_synchronize_shrinkers
#define alloc_shrinker_info k61_alloc_shrinker_info
#define free_shrinker_info k61_free_shrinker_info
#define set_shrinker_bit k61_set_shrinker_bit
#define reparent_shrinker_deferred k61_reparent_shrinker_deferred
#define expand_shrinker_info k61_expand_shrinker_info
#define shrink_slab k61_shrink_slab
#define shrink_slab_memcg k61_shrink_slab_memcg
#define do_shrink_slab k61_do_shrink_slab
#define shrinker_nr_max k61_shrinker_nr_max
#define shrinker_idr k61_shrinker_idr
/* mm/list_lru.c */
#define list_lru_add k61_list_lru_add
#define list_lru_del k61_list_lru_del
#define list_lru_isolate k61_list_lru_isolate
#define list_lru_isolate_move k61_list_lru_isolate_move
#define list_lru_count_one k61_list_lru_count_one
#define list_lru_count_node k61_list_lru_count_node
#define list_lru_walk_one k61_list_lru_walk_one
#define list_lru_walk_one_irq k61_list_lru_walk_one_irq
#define list_lru_walk_node k61_list_lru_walk_node
#define __list_lru_init k61___list_lru_init
#define list_lru_destroy k61_list_lru_destroy
#define memcg_list_lru_alloc k61_memcg_list_lru_alloc
#define memcg_reparent_list_lrus k61_memcg_reparent_list_lrus
#endif
