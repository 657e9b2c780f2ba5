// SPDX-License-Identifier: GPL-2.0-only
/*
 * Virtual CPUs and per-CPU memory. Each CPU has an owner lock taken by the
 * first non-preemptible section of a task on it; static per-CPU variables
 * are copied from the "kshim_percpu" section at boot; dynamic areas come
 * from a reserved region where CPU c's copy sits c units above CPU 0's.
 */
#include <linux/percpu.h>
#include <linux/percpu-refcount.h>
#include <linux/sched.h>
#include <kshim/testbed.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include <unistd.h>

__thread struct kshim_task_ctx kshim_ctx;
unsigned int kshim_nr_cpus = 1;
long kshim_pcpu_static_off[KSHIM_MAX_CPUS];
char *kshim_pcpu_dyn_base;

/* Guarantees the section exists even when no per-CPU variable is linked. */
static DEFINE_PER_CPU(long, kshim_pcpu_anchor);

/*
 * Owner locks: a futex word each (0 free, 1 owned, 2 owned with waiters),
 * so an uncontended section costs one compare-and-swap and one exchange
 * rather than a pthread mutex's calls: preempt_disable() is on every
 * per-CPU fast path of the code under test.
 */
static int cpu_owner[KSHIM_MAX_CPUS];

/*
 * The sections of static per-CPU variables: the executable's (this file's
 * bounds) and each shared object's that registered its own (the kernel
 * libraries of the plain test build), with their copies per CPU.
 */
#define PCPU_MODULES 32
static struct pcpu_module {
	char *start, *stop;
	long *off;
	char *copy[KSHIM_MAX_CPUS];
} pcpu_modules[PCPU_MODULES];
static unsigned int nr_pcpu_modules;

/* before main() for a shared object (its constructor), at boot for ours */
void kshim_percpu_module(char *start, char *stop, long *off)
{
	if (nr_pcpu_modules == PCPU_MODULES) {
		fprintf(stderr, "kshim: more than %d per-CPU sections\n", PCPU_MODULES);
		abort();
	}
	pcpu_modules[nr_pcpu_modules++] = (struct pcpu_module){
		.start = start, .stop = stop, .off = off };
}

static void owner_wait(int *w)
{
	int c = __atomic_exchange_n(w, 2, __ATOMIC_ACQUIRE);

	while (c) {
		syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
		c = __atomic_exchange_n(w, 2, __ATOMIC_ACQUIRE);
	}
}

void kshim_cpu_own(void)
{
	int *w = &cpu_owner[kshim_ctx.cpu], c = 0;

	if (!__atomic_compare_exchange_n(w, &c, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		owner_wait(w);
}

void kshim_cpu_release(void)
{
	int *w = &cpu_owner[kshim_ctx.cpu];

	if (__atomic_exchange_n(w, 0, __ATOMIC_RELEASE) == 2)
		syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void kshim_cpu_switch(int cpu)
{
	if (kshim_atomic_depth())
		kshim_context_violation(__FILE__, __LINE__, __func__,
					"CPU switch inside a non-preemptible section");
	kshim_ctx.cpu = cpu;
}

void kshim_percpu_boot(unsigned int nr_cpus)
{
	static bool registered;
	unsigned int c, m;

	(void)kshim_pcpu_anchor;
	if (!registered) {
		kshim_percpu_module(__start_kshim_percpu, __stop_kshim_percpu,
				    kshim_pcpu_static_off);
		registered = true;
	}
	kshim_nr_cpus = nr_cpus;
	for (c = 0; c < nr_cpus; c++)
		cpu_owner[c] = 0;
	for (m = 0; m < nr_pcpu_modules; m++) {
		struct pcpu_module *pm = &pcpu_modules[m];
		size_t sz = pm->stop - pm->start;

		for (c = 0; c < nr_cpus; c++) {
			pm->copy[c] = aligned_alloc(64, (sz + 63) & ~63UL);
			memcpy(pm->copy[c], pm->start, sz);
			pm->off[c] = pm->copy[c] - pm->start;
		}
	}
	if (!kshim_pcpu_dyn_base) {
		kshim_pcpu_dyn_base = mmap(NULL, KSHIM_PCPU_UNIT * KSHIM_MAX_CPUS,
					   PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (kshim_pcpu_dyn_base == MAP_FAILED) {
			perror("kshim: per-CPU region");
			abort();
		}
	}
}

void kshim_percpu_teardown(void)
{
	unsigned int c, m;

	for (m = 0; m < nr_pcpu_modules; m++) {
		for (c = 0; c < kshim_nr_cpus; c++) {
			free(pcpu_modules[m].copy[c]);
			pcpu_modules[m].copy[c] = NULL;
		}
	}
}

/*
 * First-fit allocator over unit 0 of the dynamic region. Freed chunks are
 * kept on a free list and found again by offset through a hash: a memcg
 * allocates and frees a dozen per-CPU areas, and walking every chunk made
 * memcg churn quadratic (a third of test_memcg_iter_stress). Each CPU's
 * copy is zeroed on allocation as the kernel does.
 */
struct pcpu_chunk {
	size_t off, size;
	bool used;
	struct pcpu_chunk *next;		/* every chunk */
	struct pcpu_chunk *hnext;		/* same hash bucket */
	struct pcpu_chunk *fnext, **fpprev;	/* free list */
};
#define PCPU_HASH_BITS	12
static struct pcpu_chunk *chunks, *free_chunks;
static struct pcpu_chunk *by_off[1 << PCPU_HASH_BITS];
static size_t dyn_top;
static unsigned long pcpu_live;
static pthread_mutex_t pcpu_lock = PTHREAD_MUTEX_INITIALIZER;

static struct pcpu_chunk **pcpu_bucket(size_t off)
{
	return &by_off[(off / 8) & ((1 << PCPU_HASH_BITS) - 1)];
}

static void pcpu_free_add(struct pcpu_chunk *c)
{
	c->fnext = free_chunks;
	if (free_chunks)
		free_chunks->fpprev = &c->fnext;
	c->fpprev = &free_chunks;
	free_chunks = c;
}

static void pcpu_free_del(struct pcpu_chunk *c)
{
	*c->fpprev = c->fnext;
	if (c->fnext)
		c->fnext->fpprev = c->fpprev;
}

static struct pcpu_chunk *pcpu_find_free(size_t size, size_t align)
{
	struct pcpu_chunk *c;

	for (c = free_chunks; c; c = c->fnext)
		if (c->size >= size && !(c->off & (align - 1)))
			return c;
	return NULL;
}

static struct pcpu_chunk *pcpu_new(size_t size, size_t align)
{
	struct pcpu_chunk *c;
	size_t off = (dyn_top + align - 1) & ~(align - 1);

	if (off + size > KSHIM_PCPU_UNIT)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		abort();
	c->off = off;
	c->size = size;
	dyn_top = off + size;
	c->next = chunks;
	chunks = c;
	c->hnext = *pcpu_bucket(off);
	*pcpu_bucket(off) = c;
	return c;
}

void *kshim_alloc_percpu(size_t size, size_t align, gfp_t gfp,
			 const char *file, int line, const char *func)
{
	struct pcpu_chunk *c;
	unsigned int cpu;
	void *p;

	if (gfp & __GFP_DIRECT_RECLAIM)
		kshim_might_sleep(file, line, func);
	/* as heap_alloc(): __GFP_NOFAIL is no fault point */
	if (!(gfp & __GFP_NOFAIL) && kshim_should_fail(file, line, func, size))
		return NULL;
	if (align < 8)
		align = 8;
	size = (size + 7) & ~7UL;
	pthread_mutex_lock(&pcpu_lock);
	c = pcpu_find_free(size, align);
	if (c) {
		pcpu_free_del(c);
	} else {
		c = pcpu_new(size, align);
		if (!c) {
			pthread_mutex_unlock(&pcpu_lock);
			return NULL;
		}
	}
	c->used = true;
	pcpu_live++;
	pthread_mutex_unlock(&pcpu_lock);
	p = kshim_pcpu_dyn_base + c->off;
	for (cpu = 0; cpu < KSHIM_MAX_CPUS; cpu++)
		if (cpu < kshim_nr_cpus)
			memset(kshim_pcpu_ptr(p, cpu), 0, c->size);
	return p;
}

void kshim_free_percpu(void *ptr)
{
	struct pcpu_chunk *c;
	size_t off;

	if (!ptr)
		return;
	off = (char *)ptr - kshim_pcpu_dyn_base;
	pthread_mutex_lock(&pcpu_lock);
	for (c = *pcpu_bucket(off); c; c = c->hnext) {
		if (c->off == off && c->used) {
			c->used = false;
			pcpu_free_add(c);
			pcpu_live--;
			pthread_mutex_unlock(&pcpu_lock);
			return;
		}
	}
	pthread_mutex_unlock(&pcpu_lock);
	kshim_bug(__FILE__, __LINE__, "free_percpu of an unknown pointer");
}

unsigned long kshim_percpu_live(void)
{
	return __atomic_load_n(&pcpu_live, __ATOMIC_RELAXED);
}

void kshim_percpu_release_all(void)
{
	struct pcpu_chunk *c;

	pthread_mutex_lock(&pcpu_lock);
	while ((c = chunks)) {
		chunks = c->next;
		free(c);
	}
	free_chunks = NULL;
	memset(by_off, 0, sizeof(by_off));
	dyn_top = 0;
	pcpu_live = 0;
	pthread_mutex_unlock(&pcpu_lock);
}

/*
 * percpu_ref's per-CPU counter, which the kernel's percpu_ref_init()
 * allocates and percpu_ref_exit() frees: a ref never exited leaks an area
 * (kshim_world_check() counts them). Never a fault point here.
 */
void kshim_percpu_ref_alloc(struct percpu_ref *ref, gfp_t gfp)
{
	ref->kshim_data = alloc_percpu_gfp(unsigned long, gfp | __GFP_NOFAIL);
	BUG_ON(!ref->kshim_data);
}

void kshim_percpu_ref_free(struct percpu_ref *ref)
{
	free_percpu(ref->kshim_data);
	ref->kshim_data = NULL;
}
