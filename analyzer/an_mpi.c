/* SPDX-License-Identifier: MIT */
/* --mpi through Open MPI's C API, found at run time (an_mpi.h). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "an_judge.h"
#include "an_mpi.h"

/* Open MPI's handles are pointers to its objects; a status starts with
 * the source and the tag (its mpi.h, ompi_status_public_t). */
typedef void *an_mpi_h;
struct an_mpi_status {
	int source, tag, error;
	int pad[5];
};

#define AN_MPI_TAG_RESULT 1
#define AN_MPI_TAG_DONE 2
#define AN_MPI_ANY_SOURCE (-1)
#define AN_MPI_COMM_TYPE_SHARED 0

static struct {
	void *lib;
	int (*init)(int *, char ***);
	int (*finalize)(void);
	int (*rank)(an_mpi_h, int *);
	int (*size)(an_mpi_h, int *);
	int (*split_type)(an_mpi_h, int, int, an_mpi_h, an_mpi_h *);
	int (*split)(an_mpi_h, int, int, an_mpi_h *);
	int (*bcast)(void *, int, an_mpi_h, int, an_mpi_h);
	int (*allreduce)(const void *, void *, int, an_mpi_h, an_mpi_h,
			 an_mpi_h);
	int (*send)(const void *, int, an_mpi_h, int, int, an_mpi_h);
	int (*probe)(int, int, an_mpi_h, struct an_mpi_status *);
	int (*get_count)(const struct an_mpi_status *, an_mpi_h, int *);
	int (*recv)(void *, int, an_mpi_h, int, int, an_mpi_h,
		    struct an_mpi_status *);
	an_mpi_h world, byte, u64, op_min, info_null;
	int me, n;
} M;

static bool an_mpi_sym(void **slot, const char *name)
{
	*slot = dlsym(M.lib, name);
	return *slot != NULL;
}

static bool an_mpi_load(void)
{
	M.lib = dlopen("libmpi.so.40", RTLD_NOW | RTLD_GLOBAL);
	return M.lib && an_mpi_sym((void **)&M.init, "MPI_Init") &&
	       an_mpi_sym((void **)&M.finalize, "MPI_Finalize") &&
	       an_mpi_sym((void **)&M.rank, "MPI_Comm_rank") &&
	       an_mpi_sym((void **)&M.size, "MPI_Comm_size") &&
	       an_mpi_sym((void **)&M.split_type, "MPI_Comm_split_type") &&
	       an_mpi_sym((void **)&M.split, "MPI_Comm_split") &&
	       an_mpi_sym((void **)&M.bcast, "MPI_Bcast") &&
	       an_mpi_sym((void **)&M.allreduce, "MPI_Allreduce") &&
	       an_mpi_sym((void **)&M.send, "MPI_Send") &&
	       an_mpi_sym((void **)&M.probe, "MPI_Probe") &&
	       an_mpi_sym((void **)&M.get_count, "MPI_Get_count") &&
	       an_mpi_sym((void **)&M.recv, "MPI_Recv") &&
	       an_mpi_sym(&M.world, "ompi_mpi_comm_world") &&
	       an_mpi_sym(&M.byte, "ompi_mpi_byte") &&
	       an_mpi_sym(&M.u64, "ompi_mpi_uint64_t") &&
	       an_mpi_sym(&M.op_min, "ompi_mpi_op_min") &&
	       an_mpi_sym(&M.info_null, "ompi_mpi_info_null");
}

int an_mpi_start(FILE *err)
{
	if (!an_mpi_load()) {
		fprintf(err, "hipgrain report: --mpi: cannot use Open MPI "
			     "(libmpi.so.40): %s\n",
			M.lib ? "it lacks a function hipgrain calls" : dlerror());
		return -1;
	}
	if (M.init(NULL, NULL) || M.rank(M.world, &M.me) ||
	    M.size(M.world, &M.n)) {
		fprintf(err, "hipgrain report: --mpi: MPI_Init failed\n");
		return -1;
	}
	return M.me;
}

void an_mpi_end(void)
{
	if (M.finalize)
		M.finalize();
}

/* FNV-1a over the inputs' names: whether every rank found the same. */
static uint64_t an_mpi_list_hash(char **inputs, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ n;

	for (size_t i = 0; i < n; i++)
		for (const char *s = inputs[i];; s++) {
			h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
			if (!*s)
				break;
		}
	return h;
}

/* Which inputs are this rank's: part of parts, numbered within node. */
struct an_mpi_share {
	uint64_t node; /* 0 when every rank found every input, else the
			* world rank of the first rank sharing these */
	int part, parts;
};

/* Whether every rank of comm found the inputs its first rank found. */
static int an_mpi_same(an_mpi_h comm, uint64_t h, uint64_t *all)
{
	uint64_t h0 = h, same;

	if (M.bcast(&h0, 1, M.u64, 0, comm))
		return -1;
	same = h0 == h;
	return M.allreduce(&same, all, 1, M.u64, M.op_min, comm) ? -1 : 0;
}

static int an_mpi_share(char **inputs, size_t n, struct an_mpi_share *s)
{
	uint64_t h = an_mpi_list_hash(inputs, n), all = 0;
	an_mpi_h local, group;

	if (an_mpi_same(M.world, h, &all))
		return -1;
	*s = (struct an_mpi_share){0, M.me, M.n};
	if (all)
		return 0;
	/* Node-local traces: a node's ranks that found the same inputs share
	 * them; a rank whose inputs are its own (mpirun's MPMD form, or a
	 * directory each rank fills) judges all of them. */
	if (M.split_type(M.world, AN_MPI_COMM_TYPE_SHARED, M.me, M.info_null,
			 &local) ||
	    M.split(local, (int)(h & 0x7fffffff), M.me, &group) ||
	    an_mpi_same(group, h, &all))
		return -1;
	*s = (struct an_mpi_share){(uint64_t)M.me, 0, 1};
	if (!all) /* two lists alike in the colour's bits: each rank alone */
		return 0;
	if (M.rank(group, &s->part) || M.size(group, &s->parts))
		return -1;
	return M.bcast(&s->node, 1, M.u64, 0, group) ? -1 : 0;
}

struct an_mpi_got {
	uint64_t key;
	char *name;
	struct an_wbuf b;
};

struct an_mpi_root {
	struct an_mpi_got *v;
	size_t n;
};

static int an_mpi_keep(struct an_mpi_root *r, const uint8_t *p, size_t n)
{
	struct an_rbuf rb = {.p = p, .end = p + n};
	struct an_mpi_got *g = realloc(r->v, (r->n + 1) * sizeof(*g));

	if (!g)
		return -1;
	r->v = g;
	g = &r->v[r->n];
	*g = (struct an_mpi_got){.key = an_r_u64(&rb), .name = an_r_str(&rb)};
	if (rb.bad || !g->name) {
		free(g->name);
		return -1;
	}
	an_w_bytes(&g->b, rb.p, (size_t)(rb.end - rb.p));
	r->n++;
	return g->b.failed ? -1 : 0;
}

/* Rank 0: every other rank's results, until each says it is done. */
static int an_mpi_gather(struct an_mpi_root *r)
{
	struct an_mpi_status st;
	int done = 0, len;

	while (done < M.n - 1) {
		uint8_t *buf;

		if (M.probe(AN_MPI_ANY_SOURCE, AN_MPI_ANY_SOURCE, M.world, &st) ||
		    M.get_count(&st, M.byte, &len) || len < 0)
			return -1;
		buf = malloc(len ? (size_t)len : 1);
		if (!buf || M.recv(buf, len, M.byte, st.source, st.tag, M.world,
				   &st)) {
			free(buf);
			return -1;
		}
		if (st.tag == AN_MPI_TAG_DONE)
			done++;
		else if (an_mpi_keep(r, buf, (size_t)len)) {
			free(buf);
			return -1;
		}
		free(buf);
	}
	return 0;
}

/* One result as a message: its key, its input's name, its bytes; sent to
 * rank 0, or kept on rank 0 as if received. */
static int an_mpi_send(struct an_mpi_root *r, uint64_t key, const char *name,
		       const struct an_wbuf *res)
{
	struct an_wbuf m = {0};
	int rc;

	an_w_u64(&m, key);
	an_w_str(&m, name);
	an_w_bytes(&m, res->p, res->n);
	if (m.failed || m.n > INT32_MAX)
		rc = -1;
	else if (M.me)
		rc = M.send(m.p, (int)m.n, M.byte, 0, AN_MPI_TAG_RESULT, M.world);
	else
		rc = an_mpi_keep(r, m.p, m.n);
	an_wbuf_free(&m);
	return rc;
}

static int an_mpi_cmp(const void *a, const void *b)
{
	const struct an_mpi_got *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* This rank's share judged: sent to rank 0, or kept there. */
static int an_mpi_mine(struct an_tally *t, size_t n,
		       const struct an_fate *fates,
		       const struct an_mpi_share *s, struct an_mpi_root *r)
{
	int rc = 0;

	for (size_t i = (size_t)s->part; i < n && !rc; i += (size_t)s->parts) {
		struct an_wbuf b = {0};
		uint64_t key = s->node << 32 | i;

		an_judge(t->c->opts, t->inputs[i], &fates[i], &b);
		rc = b.failed ? -1 : an_mpi_send(r, key, t->inputs[i], &b);
		an_wbuf_free(&b);
	}
	return rc;
}

static void an_mpi_merge(struct an_tally *t, struct an_mpi_root *r)
{
	qsort(r->v, r->n, sizeof(*r->v), an_mpi_cmp);
	for (size_t i = 0; i < r->n; i++)
		an_tally_merge_named(t, r->v[i].name, r->v[i].b.p, r->v[i].b.n);
}

int an_mpi_judge_all(struct an_tally *t, size_t n,
		     const struct an_fate *fates)
{
	struct an_mpi_root r = {0};
	struct an_mpi_share s;
	int rc = an_mpi_share(t->inputs, n, &s);

	if (!rc)
		rc = an_mpi_mine(t, n, fates, &s, &r);
	if (M.me) {
		/* Done, even after a failure: rank 0 must not wait forever. */
		if (M.send("", 0, M.byte, 0, AN_MPI_TAG_DONE, M.world))
			rc = -1;
	} else if (!rc) {
		rc = an_mpi_gather(&r);
	}
	if (rc)
		fprintf(t->err, "hipgrain report: --mpi: rank %d could not "
				"send or receive the traces' results\n", M.me);
	else if (!M.me)
		an_mpi_merge(t, &r);
	for (size_t i = 0; i < r.n; i++) {
		free(r.v[i].name);
		an_wbuf_free(&r.v[i].b);
	}
	free(r.v);
	if (rc || t->bad)
		return -1;
	if (M.me)
		return 2;
	return t->any ? 0 : 1;
}
