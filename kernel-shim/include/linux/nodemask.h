/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_NODEMASK_H
#define _KSHIM_LINUX_NODEMASK_H
/* Nodes 0..nr_node_ids-1 exist and have memory; the world sets the count. */
#include <linux/numa.h>
#include <linux/bitmap.h>
typedef struct { unsigned long bits[BITS_TO_LONGS(MAX_NUMNODES)]; } nodemask_t;
#define node_isset(node, mask) test_bit((node), (mask).bits)
#define node_set(node, mask) __set_bit((node), (mask).bits)
#define NODE_MASK_NONE ((nodemask_t) { { [0 ... BITS_TO_LONGS(MAX_NUMNODES) - 1] = 0UL } })
extern unsigned int nr_node_ids;
extern unsigned int nr_online_nodes;
#define for_each_node(node) for ((node) = 0; (node) < (int)nr_node_ids; (node)++)
#define for_each_online_node(node) for_each_node(node)
#define for_each_node_state(node, state) for_each_node(node)
#define node_online(node) ((unsigned int)(node) < nr_node_ids)
#define num_online_nodes() nr_node_ids
#define first_online_node 0
#define next_online_node(nid) ((nid) + 1 < (int)nr_node_ids ? (nid) + 1 : MAX_NUMNODES)
#define first_memory_node first_online_node
#define next_memory_node(nid) next_online_node(nid)
enum node_states {
	N_POSSIBLE,
	N_ONLINE,
	N_NORMAL_MEMORY,
	N_HIGH_MEMORY = N_NORMAL_MEMORY,
	N_MEMORY,
	N_CPU,
	N_GENERIC_INITIATOR,
	NR_NODE_STATES
};
/*
 * A bit of the state's mask, as the kernel reads it: a node id out of
 * range is its callers' to refuse (it reads past the mask).
 */
extern nodemask_t node_states[NR_NODE_STATES];
#define node_state(node, state) node_isset((node), node_states[state])
#include <linux/random.h>	/* node_random() */
#include <kgen/nodemask.h>
#endif
