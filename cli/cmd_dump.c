/* SPDX-License-Identifier: MIT */
/*
 * `hipgrain dump`: the traces as decoded events, one line each.  The graph
 * is babeltrace2's own reading (source.ctf.fs per trace, utils.muxer), the
 * plugin's filter (plugin/, linked in, not loaded) and a sink of ours
 * (cli_dump.c), or babeltrace2's sink.ctf.fs for --ctf (cli_ctf.c).  The
 * graph runs here rather than in the babeltrace2 CLI: the filter needs no
 * plugin path wherever hipgrain is installed, the traces are found as
 * for the text, and a failure is said in hipgrain's words.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "an_inputs.h"
#include "an_meta.h"
#include "an_packets.h"
#include "an_tool.h"
#include "an_reader.h"
#include "bp_decode.h"
#include "cli.h"
#include "cli_ctf.h"
#include "cli_dump.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hipgrain dump [--format text|json] [-o FILE] [--event NAME]...\n"
		"                     [--pid PID] [--rank RANK] [--address ADDR] TRACE...\n"
		"       hipgrain dump --ctf OUTDIR TRACE...\n\n"
		"Print the events of hipgrain traces, one line each, with alloc, free\n"
		"and launch decoded and every code named.\n\n"
		"  --format text|json  one line of text (default) or one JSON object an event\n"
		"  -o, --output FILE   write to FILE, not standard output\n"
		"  -e, --event NAME    only events NAME (alloc, hipgrain:launch, kfd_*);\n"
		"                      repeat for several\n"
		"  --all               LTTng's own events too (statedump, dl)\n"
		"  -p, --pid PID       only the events of process PID\n"
		"  -r, --rank RANK     only the events of MPI rank RANK\n"
		"  -a, --address ADDR  only the allocations holding ADDR and the events\n"
		"                      that touched them or ADDR\n"
		"  --ctf OUTDIR        write the decoded events as a CTF trace into OUTDIR\n"
		"                      (new or empty), for babeltrace2 and Trace Compass\n"
		"                      without hipgrain's plugin; no filter applies\n"
		"  -h, --help          this help\n\n"
		"Exit status: 0 done, 1 an input or the output could not be read or\n"
		"written, 64 bad usage.\n");
}

static void cli_bt_error(const char *what)
{
	const bt_error *e = bt_current_thread_take_error();

	fprintf(stderr, "hipgrain dump: %s", what);
	if (e && bt_error_get_cause_count(e))
		fprintf(stderr, ": %s", bt_error_cause_get_message(
						bt_error_borrow_cause_by_index(e, 0)));
	fputc('\n', stderr);
	if (e)
		bt_error_release(e);
}

/* A component of class `cls` of plugin `plugin`, or of ours (decode). */
static int cli_add(bt_graph *g, const char *plugin, const char *cls,
		   const char *name, const bt_value *params, const void **comp)
{
	const bt_plugin *pl = NULL;
	int rc = -1;

	if (!strcmp(plugin, "hipgrain")) {
		bt_component_class_filter *fc = bp_decode_class();

		rc = !fc || bt_graph_add_filter_component(
				    g, fc, name, params, BT_LOGGING_LEVEL_NONE,
				    (const bt_component_filter **)comp);
		bt_component_class_filter_put_ref(fc);
		return rc ? -1 : 0;
	}
	if (bt_plugin_find(plugin, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE,
			   &pl) != BT_PLUGIN_FIND_STATUS_OK)
		return -1;
	if (!strcmp(plugin, "ctf"))
		rc = bt_graph_add_source_component(
			g, bt_plugin_borrow_source_component_class_by_name_const(pl, cls),
			name, params, BT_LOGGING_LEVEL_NONE,
			(const bt_component_source **)comp) ? -1 : 0;
	else
		rc = bt_graph_add_filter_component(
			g, bt_plugin_borrow_filter_component_class_by_name_const(pl, cls),
			name, params, BT_LOGGING_LEVEL_NONE,
			(const bt_component_filter **)comp) ? -1 : 0;
	bt_plugin_put_ref(pl);
	return rc;
}

static bt_graph_simple_sink_component_consume_func_status
cli_consume(bt_message_iterator *it, void *data)
{
	bt_message_array_const msgs;
	uint64_t n;
	bt_message_iterator_next_status st = bt_message_iterator_next(it, &msgs, &n);

	if (st == BT_MESSAGE_ITERATOR_NEXT_STATUS_END)
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	if (st == BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN)
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	if (st != BT_MESSAGE_ITERATOR_NEXT_STATUS_OK)
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	for (uint64_t i = 0; i < n; i++) {
		if (bt_message_get_type(msgs[i]) == BT_MESSAGE_TYPE_EVENT)
			cli_dump_event(data, msgs[i]);
		else if (bt_message_get_type(msgs[i]) ==
			 BT_MESSAGE_TYPE_STREAM_BEGINNING)
			cli_dump_stream(data, msgs[i]);
		bt_message_put_ref(msgs[i]);
	}
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* source → muxer input port *nin, for every output port of the source. */
static int cli_source(bt_graph *g, const char *dir, size_t i,
		      const bt_component_filter *mux, uint64_t *nin)
{
	bt_value *params = bt_value_map_create(), *inputs = NULL;
	const bt_component_source *src = NULL;
	char name[32];
	int rc = -1;

	snprintf(name, sizeof(name), "src%zu", i);
	if (params && !bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) &&
	    !bt_value_array_append_string_element(inputs, dir) &&
	    !cli_add(g, "ctf", "fs", name, params, (const void **)&src)) {
		rc = 0;
		for (uint64_t k = 0; !rc && k < bt_component_source_get_output_port_count(src);
		     k++, (*nin)++)
			rc = bt_graph_connect_ports(
				     g, bt_component_source_borrow_output_port_by_index_const(src, k),
				     bt_component_filter_borrow_input_port_by_index_const(mux, *nin),
				     NULL) ? -1 : 0;
	}
	bt_value_put_ref(params);
	return rc;
}

static int cli_build(bt_graph *g, char **dirs, size_t n, struct cli_dump *d,
		     const char *ctf)
{
	const bt_component_filter *mux = NULL, *dec = NULL;
	const bt_component_sink *sink = NULL;
	uint64_t nin = 0;

	if (cli_add(g, "utils", "muxer", "muxer", NULL, (const void **)&mux) ||
	    cli_add(g, "hipgrain", "decode", "decode", NULL, (const void **)&dec))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (cli_source(g, dirs[i], i, mux, &nin))
			return -1;
	return (ctf ? cli_ctf_sink(g, ctf, false, &sink)
		    : bt_graph_add_simple_sink_component(g, "dump", NULL, cli_consume,
							 NULL, d, &sink)) ||
	       bt_graph_connect_ports(
		       g, bt_component_filter_borrow_output_port_by_name_const(mux, "out"),
		       bt_component_filter_borrow_input_port_by_name_const(dec, "in"), NULL) ||
	       bt_graph_connect_ports(
		       g, bt_component_filter_borrow_output_port_by_name_const(dec, "out"),
		       bt_component_sink_borrow_input_port_by_name_const(sink, "in"), NULL)
		       ? -1 : 0;
}

/*
 * What `hipgrain report` checks before babeltrace reads a trace: metadata
 * that would hang it, packets whose sizes would make it index a stream
 * file without end.  dump has no salvage: such a trace is refused.
 */
static int cli_checked(char **dirs, size_t n)
{
	an_tool = "hipgrain dump";
	for (size_t i = 0; i < n; i++)
		if (!an_meta_ok(dirs[i], stderr) || !an_pkt_dir(dirs[i], stderr))
			return -1;
	return 0;
}

/* The trace directories under the paths; -1 (said) when one has none. */
static int cli_traces(char **paths, int n, char ***dirs, size_t *ndirs)
{
	for (int i = 0; i < n; i++) {
		size_t before = *ndirs;
		int rc = an_find_traces(paths[i], dirs, ndirs);

		if (rc || *ndirs == before) {
			fprintf(stderr, "hipgrain dump: %s: %s\n", paths[i],
				rc ? strerror(-rc) : "no CTF trace there");
			return -1;
		}
	}
	return 0;
}

static int cli_dump_run(struct cli_dump *d, char **paths, int n,
			const char *ctf)
{
	char **dirs = NULL;
	size_t ndirs = 0;
	bt_graph *g = NULL;
	bt_graph_run_status st = BT_GRAPH_RUN_STATUS_ERROR;

	if (cli_traces(paths, n, &dirs, &ndirs) || cli_checked(dirs, ndirs) ||
	    (ctf && cli_ctf_outdir(ctf)))
		goto end;
	bt_current_thread_clear_error();
	/* MIP 0: sink.ctf.fs writes it as CTF 1.8, which every reader reads. */
	g = bt_graph_create(0);
	if (!g || cli_build(g, dirs, ndirs, d, ctf)) {
		cli_bt_error(ctf ? "cannot write the decoded trace"
				 : "cannot read the traces");
		goto end;
	}
	do
		st = bt_graph_run(g);
	while (st == BT_GRAPH_RUN_STATUS_AGAIN);
	if (st != BT_GRAPH_RUN_STATUS_OK)
		cli_bt_error(ctf ? "writing the decoded trace stopped early"
				 : "reading stopped early");
end:
	bt_graph_put_ref(g);
	for (size_t i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	return st == BT_GRAPH_RUN_STATUS_OK ? 0 : -1;
}

/* One option into d; -1 for a bad value. */
static int cli_dump_opt(struct cli_dump *d, int c, const char *arg,
			const char **output, const char **ctf)
{
	char *end;

	switch (c) {
	case 'c':
		*ctf = arg;
		return 0;
	case 'f':
		d->json = !strcmp(arg, "json");
		return d->json || !strcmp(arg, "text") ? 0 : -1;
	case 'o':
		*output = arg;
		return 0;
	case 'e':
		if (d->nevents == CLI_DUMP_MAX_EVENTS)
			return -1;
		d->events[d->nevents++] = arg;
		return 0;
	case 'p':
		d->pid = strtoll(arg, &end, 10);
		return *arg && !*end && d->pid >= 0 ? 0 : -1;
	case 'r':
		d->rank = arg;
		return 0;
	default: /* 'a' */
		errno = 0;
		d->address = strtoull(arg, &end, 0);
		d->has_address = true;
		return *arg && !*end && !errno ? 0 : -1;
	}
}

int cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"event", required_argument, NULL, 'e'},
		{"pid", required_argument, NULL, 'p'},
		{"rank", required_argument, NULL, 'r'},
		{"address", required_argument, NULL, 'a'},
		{"ctf", required_argument, NULL, 'c'},
		{"all", no_argument, NULL, 'A'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	struct cli_dump d = {.pid = -1};
	const char *output = NULL, *ctf = NULL;
	struct cli_out out;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":ho:e:p:r:a:", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return CLI_EXIT_OK;
		}
		if (c == '?' || c == ':')
			return cli_bad_option("dump", argv, c);
		if (c == 'A') {
			d.all = true;
			continue;
		}
		if (cli_dump_opt(&d, c, optarg, &output, &ctf))
			return cli_bad_value("dump", longopts, c, optarg);
	}
	if (optind >= argc)
		return cli_missing("dump", "TRACE", "a trace directory that "
						    "'hipgrain run' wrote");
	if (ctf && (d.json || output || d.nevents || d.pid >= 0 || d.rank ||
		    d.has_address))
		return cli_conflict("dump", "--ctf writes every event into a trace: "
					    "no --format, -o or filter with it");
	if (ctf) {
		rc = cli_dump_run(&d, argv + optind, argc - optind, ctf);
		if (!rc)
			fprintf(stderr, "hipgrain dump: decoded trace written to %s\n", ctf);
		return rc ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
	}
	if (!cli_out_open(&out, "dump", output))
		return CLI_EXIT_FAILURE;
	d.out = out.f;
	rc = cli_dump_run(&d, argv + optind, argc - optind, NULL);
	cli_dump_fini(&d);
	if (cli_out_close(&out, !rc) || rc)
		return CLI_EXIT_FAILURE;
	/* A misspelt name would print nothing and look like an answer. */
	if (cli_dump_unmatched(&d)) {
		fprintf(stderr, "hipgrain dump: --event '%s': no event of these "
				"traces is called that (hipgrain-events(7) lists "
				"them)\n", cli_dump_unmatched(&d));
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}
