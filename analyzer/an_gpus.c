/* SPDX-License-Identifier: MIT */
#include "an_gpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_link.h"
#include "an_output.h"

/* Each process's line by text(), the processes sharing one counted on
 * the first: how many lines. */
static size_t line_up(const struct an_ctx *c, struct an_gpu_line **out,
		      const char *(*text_of)(const struct an_proc *, char *, size_t))
{
	struct an_proc **v;
	size_t n = an_procs_sorted(c, &v), k = 0;
	struct an_gpu_line *l = calloc(n ? n : 1, sizeof(*l));

	*out = l;
	for (size_t i = 0; l && i < n; i++) {
		char text[sizeof(l->text)];
		size_t j = 0;

		if (!text_of(v[i], text, sizeof(text))[0])
			continue;
		while (j < k && strcmp(l[j].text, text))
			j++;
		if (j < k) {
			l[j].others++;
			continue;
		}
		l[k].first = v[i];
		memcpy(l[k++].text, text, sizeof(text));
	}
	free(v);
	return k;
}

/* The facts a process's verdicts rest on, "" where it touched no GPU. */
static const char *judged_text(const struct an_proc *p, char *buf, size_t cap)
{
	struct an_machine m;

	buf[0] = '\0';
	if (!p->have_device && !p->vgpu[0] && !p->ntopo)
		return buf;
	an_link_facts(p, &m);
	return an_link_text(&m, buf, cap);
}

size_t an_judged_lines(const struct an_ctx *c, struct an_gpu_line **out)
{
	return line_up(c, out, judged_text);
}

const char *an_gpu_text(const struct an_proc *p, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (p->vgpu[0] && p->vgpu_exec)
		snprintf(buf, cap, "virtual %s: kernels ran on hipgrain's "
				   "interpreter with the product's memory "
				   "semantics", p->vgpu);
	else if (p->vgpu[0])
		snprintf(buf, cap, "virtual %s: kernels were not executed",
			 p->vgpu);
	else if (p->have_device)
		snprintf(buf, cap, "%s%s%s%s", p->arch, p->dev_name[0] ? " (" : "",
			 p->dev_name, p->dev_name[0] ? ")" : "");
	else if (p->no_gpu)
		snprintf(buf, cap, "no usable GPU: no kernel ran");
	return buf;
}

/* The product: a node profile's ("4xMI250X") without its count, else
 * what the runtime named the device. */
static const char *an_gpu_product(const struct an_proc *p)
{
	const char *v = p->vgpu, *x = v + strspn(v, "0123456789");

	if (*v)
		return x != v && *x == 'x' ? x + 1 : v;
	return p->dev_name;
}

const char *an_gpu_name(const struct an_proc *p, uint32_t gpu_id, uint8_t slot,
			char *buf, size_t cap)
{
	const char *prod = an_gpu_product(p);
	unsigned i = slot - 1u;

	if (!slot)
		snprintf(buf, cap, "the GPU of driver id %u", gpu_id);
	/* An MI250X card is two GCDs, each its own GPU: the driver lists a
	 * card's two together. */
	else if (strstr(prod, "MI250"))
		snprintf(buf, cap, "GPU %u (%s, card %u's %s GCD)", i, prod,
			 i / 2, i % 2 ? "second" : "first");
	else if (*prod)
		snprintf(buf, cap, "GPU %u (%s)", i, prod);
	else
		snprintf(buf, cap, "GPU %u", i);
	return buf;
}

size_t an_gpu_lines(const struct an_ctx *c, struct an_gpu_line **out)
{
	return line_up(c, out, an_gpu_text);
}

bool an_gpus_mixed(const struct an_ctx *c)
{
	struct an_gpu_line *l;
	size_t n = an_gpu_lines(c, &l);

	free(l);
	return n > 1;
}

/* Failed calls alike in processes with a GPU and in those without stay
 * apart: only the latter failed for want of one. */
static void an_fails_settle(struct an_ctx *c)
{
	struct an_fail *kept = NULL, **tail = &kept;

	for (struct an_fail *f = c->fails, *next; f; f = next) {
		struct an_fail *m = kept;

		next = f->next;
		f->no_gpu = f->proc && f->proc->no_gpu && !f->proc->have_device;
		f->proc = NULL;
		while (m && (m->api != f->api || m->rc != f->rc ||
			     m->no_gpu != f->no_gpu))
			m = m->next;
		if (m) {
			m->count += f->count;
			free(f);
			continue;
		}
		f->next = NULL;
		*tail = f;
		tail = &f->next;
	}
	c->fails = kept;
}

void an_gpus_settle(struct an_ctx *c)
{
	struct an_proc **v;
	size_t n = an_procs_sorted(c, &v);

	an_fails_settle(c);
	for (size_t i = 0; i < n; i++)
		if (v[i]->vgpu[0]) {
			memcpy(c->vgpu, v[i]->vgpu, sizeof(c->vgpu));
			c->vgpu_exec = v[i]->vgpu_exec;
			snprintf(c->vgpu_why, sizeof(c->vgpu_why), "%s",
				 v[i]->vgpu_why ? v[i]->vgpu_why : "");
			break;
		}
	free(v);
}
