# SPDX-License-Identifier: GPL-2.0-only
# Run in a guest of tools/tb vm (docs/fidelity.md, "7.3"): the same reads and
# the same selftests with the data disk's readahead as the kernel sets it and
# with read_ahead_kb = 0, which leaves the page cache in order-0 folios.
# /data/test_memcontrol is the oracle's build of the selftests (--put).
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
echo 16384 > $T/buffer_size_kb
# enabled once: toggling a tracepoint patches kernel text, which TCG guests
# have been seen to crash on
echo 1 > $T/events/filemap/mm_filemap_add_to_page_cache/enable
echo n > /sys/kernel/mm/lru_gen/enabled
cg=/sys/fs/cgroup/t
for ra in $(cat /sys/block/vda/queue/read_ahead_kb) 0; do
	echo $ra > /sys/block/vda/queue/read_ahead_kb
	echo "== read_ahead_kb $ra"
	mkdir $cg
	echo 30M > $cg/memory.max
	truncate -s 50M /data/f
	echo > $T/trace
	sh -c "echo \$\$ > $cg/cgroup.procs; exec dd if=/data/f of=/dev/null bs=4k 2>/dev/null"
	echo "50M read 4k at a time in a 30M memcg: $(grep '^max' $cg/memory.events)," \
		"$(grep '^pgsteal ' $cg/memory.stat)"
	echo "  folios added to the page cache, by order:" \
		$(grep -o 'order=[0-9]*' $T/trace | sort -t= -k2 -n | uniq -c)
	rm /data/f
	rmdir $cg
	[ -x /data/test_memcontrol ] &&
		/data/test_memcontrol 2>&1 | grep -E '@@FIG.*(events|memory.current)|^(ok|not ok) [0-9]+ test_memcg_(min|low|max)$'
done
