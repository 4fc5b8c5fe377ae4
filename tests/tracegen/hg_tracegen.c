/* SPDX-License-Identifier: MIT */
/*
 * hg_tracegen SCRIPT: emits the `hipgrain` events a script describes, so rule
 * tests are short scripts instead of GPU programs.  Test-only, never
 * installed.
 *
 *   # comment
 *   alloc id=1 api=20 addr=0x7f0000000000 size=4096 mem=1 gran=1
 *   repeat 1000          lines up to the matching `end` run 1000 times;
 *   launch handle=%i     %i becomes the innermost iteration (from 1)
 *   end
 *   cpu 1                the events after it are written on CPU 1, into
 *                        that CPU's stream (exit 77 if there is no CPU 1)
 *   exit normal=0        the process's own `exit` event, in place of the
 *                        one written after the last line
 *   noexit               no `exit` event after the last line, as for a
 *                        process killed or whose trace was cut
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg.h"

struct tg_script {
	char **lines;
	size_t n;
};

static int tg_load(FILE *f, struct tg_script *s)
{
	char *line = NULL;
	size_t cap = 0, alloc = 0;

	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\r\n")] = '\0';
		if (s->n == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			char **grown = realloc(s->lines, alloc * sizeof(*grown));
			if (!grown)
				return -ENOMEM;
			s->lines = grown;
		}
		s->lines[s->n++] = strdup(line);
	}
	free(line);
	return 0;
}

/* Replaces each %i of src by iter into dst. */
static void tg_subst(const char *src, unsigned long iter, char *dst, size_t cap)
{
	size_t o = 0;

	for (; *src && o + 24 < cap; src++) {
		if (src[0] == '%' && src[1] == 'i') {
			o += (size_t)snprintf(dst + o, cap - o, "%lu", iter);
			src++;
		} else {
			dst[o++] = *src;
		}
	}
	dst[o] = '\0';
}

/* Index of the `end` matching the `repeat` at i, or s->n if none. */
static size_t tg_block_end(const struct tg_script *s, size_t i)
{
	int depth = 0;

	for (; i < s->n; i++) {
		if (!strncmp(s->lines[i], "repeat ", 7))
			depth++;
		else if (!strcmp(s->lines[i], "end") && --depth == 0)
			return i;
	}
	return s->n;
}

/* Moves this thread to cpu, whose per-CPU buffer then takes its events. */
static int tg_cpu(unsigned long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (cpu < CPU_SETSIZE)
		CPU_SET(cpu, &set);
	if (cpu >= CPU_SETSIZE || sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "hg_tracegen: cannot run on CPU %lu: %s\n", cpu,
			strerror(cpu >= CPU_SETSIZE ? EINVAL : errno));
		return -1;
	}
	return 0;
}

static int tg_run(const struct tg_script *s, size_t from, size_t to,
		  unsigned long iter)
{
	char buf[8192];
	struct tg_line l;

	for (size_t i = from; i < to; i++) {
		const char *src = s->lines[i];

		if (!strncmp(src, "repeat ", 7)) {
			unsigned long n = strtoul(src + 7, NULL, 0);
			size_t end = tg_block_end(s, i);

			for (unsigned long k = 1; k <= n; k++) {
				int rc = tg_run(s, i + 1, end, k);

				if (rc)
					return rc;
			}
			i = end;
			continue;
		}
		if (src[strspn(src, " \t")] == '#')
			continue;
		if (!strncmp(src, "cpu ", 4)) {
			if (tg_cpu(strtoul(src + 4, NULL, 0)))
				return 77;
			continue;
		}
		tg_subst(src, iter, buf, sizeof(buf));
		if (tg_tokenise(buf, &l) || (*l.event && tg_emit(&l))) {
			fprintf(stderr, "hg_tracegen: line %zu: cannot read '%s'\n",
				i + 1, src);
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct tg_script s = {0};
	FILE *f = argc > 1 && strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
	int rc;

	if (!f) {
		perror(argv[1]);
		return 1;
	}
	rc = tg_load(f, &s) ? -1 : tg_run(&s, 0, s.n, 0);
	if (!rc && !tg_noexit && tg_had_process) {
		char name[] = "exit";
		struct tg_line end = {.event = name};

		tg_emit(&end);
	}
	if (f != stdin)
		fclose(f);
	for (size_t i = 0; i < s.n; i++)
		free(s.lines[i]);
	free(s.lines);
	return rc == 77 ? 77 : rc ? 1 : 0;
}
