/* SPDX-License-Identifier: MIT */
#include "cli_ctf.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cli_ctf_err(const char *dir, const char *what, const char *why)
{
	fprintf(stderr, "hipgrain dump: --ctf %s: %s%s\n", dir, what, why);
	return -1;
}

int cli_ctf_outdir(const char *dir)
{
	DIR *d;
	struct dirent *e;
	bool empty = true;

	if (!mkdir(dir, 0777))
		return 0;
	if (errno != EEXIST)
		return cli_ctf_err(dir, "cannot make the directory: ", strerror(errno));
	if (!(d = opendir(dir)))
		return cli_ctf_err(dir, "cannot read the directory: ", strerror(errno));
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	/* The sink would mix its files with what is there, or stop half
	 * way on a name it finds taken. */
	if (!empty)
		return cli_ctf_err(dir, "exists and is not empty (the decoded "
					"trace needs a directory of its own)", "");
	if (access(dir, W_OK | X_OK))
		return cli_ctf_err(dir, "cannot write there: ", strerror(errno));
	return 0;
}

int cli_ctf_sink(bt_graph *g, const char *dir, bool single,
		 const bt_component_sink **sink)
{
	const bt_plugin *pl = NULL;
	const bt_component_class_sink *cls;
	bt_value *params = bt_value_map_create();
	int rc = -1;

	if (params && !bt_value_map_insert_string_entry(params, "path", dir) &&
	    !bt_value_map_insert_bool_entry(params, "assume-single-trace", single) &&
	    /* It would say on stdout what it made; the caller says it. */
	    !bt_value_map_insert_bool_entry(params, "quiet", BT_TRUE) &&
	    /* babeltrace2 2.1's sink writes CTF 2 unless told, which needs
	     * MIP 1; 2.0's knows CTF 1.8 alone and no such parameter. */
	    (bt_get_maximal_mip_version() < 1 ||
	     !bt_value_map_insert_string_entry(params, "ctf-version", "1")) &&
	    bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE,
			   &pl) == BT_PLUGIN_FIND_STATUS_OK &&
	    (cls = bt_plugin_borrow_sink_component_class_by_name_const(pl, "fs")))
		rc = bt_graph_add_sink_component(g, cls, "ctf-out", params,
						 BT_LOGGING_LEVEL_NONE, sink)
			? -1 : 0;
	bt_plugin_put_ref(pl);
	bt_value_put_ref(params);
	return rc;
}
