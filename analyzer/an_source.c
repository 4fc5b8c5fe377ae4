/* SPDX-License-Identifier: MIT */
/*
 * A CTF source in a graph, and what libbabeltrace2 says went wrong: the
 * reader and the probes (an_probe.c) both build on these, so they live in
 * neither.
 */
#include <babeltrace2/babeltrace.h>
#include <stdio.h>
#include <string.h>

#include "an_source.h"

/* Prints the causes of the current thread's error, newest last. */
void an_print_bt_error(FILE *err, const char *what)
{
	const bt_error *e = bt_current_thread_take_error();
	uint64_t n = e ? bt_error_get_cause_count(e) : 0;

	fprintf(err, "hipgrain report: %s", what);
	/* Cause 0 is the innermost, most specific one; outer ones add noise. */
	for (uint64_t i = 0; i < n && i < 2; i++) {
		const char *m =
			bt_error_cause_get_message(bt_error_borrow_cause_by_index(e, i));

		fprintf(err, "%s %s", i ? ";" : ":", m);
	}
	fputc('\n', err);
	if (e)
		bt_error_release(e);
}

static const bt_component_class_source *an_ctf_class(const bt_plugin **pl)
{
	if (bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE,
			   pl) != BT_PLUGIN_FIND_STATUS_OK)
		return NULL;
	return bt_plugin_borrow_source_component_class_by_name_const(*pl, "fs");
}

const bt_component_source *an_add_source(bt_graph *g, const char *dir,
						const char *name)
{
	const bt_plugin *pl = NULL;
	const bt_component_class_source *cls = an_ctf_class(&pl);
	bt_value *params = bt_value_map_create();
	bt_value *inputs = NULL;
	const bt_component_source *src = NULL;

	if (!cls || !params ||
	    bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) ||
	    bt_value_array_append_string_element(inputs, dir))
		goto end;
	if (bt_graph_add_source_component(g, cls, name, params,
					  BT_LOGGING_LEVEL_NONE, &src))
		src = NULL;
end:
	bt_value_put_ref(params);
	bt_plugin_put_ref(pl);
	return src;
}

void an_reader_crashed(FILE *err, const char *dir, int sig)
{
	bt_current_thread_clear_error(); /* what it left is not worth reading */
	fprintf(err, "hipgrain report: %s: the trace reader (libbabeltrace2) "
		     "crashed on damaged data (%s)\n", dir, strsignal(sig));
}
