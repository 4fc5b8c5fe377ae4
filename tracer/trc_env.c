/* SPDX-License-Identifier: MIT */
/*
 * The traced program's environment: our preload first in LD_PRELOAD (then
 * LTTng's dlopen tracker, then whatever the user preloaded), and the
 * LTTng-UST settings that make start-up and --lossless behave.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hg_config.h"
#include "hg_env.h"
#include "trc_int.h"

#define PRELOAD_NAME "libhipgrain-preload.so"
#define VGPU_NAME "libhipgrain-vgpu.so"
/* lttng_ust_dl:* events (dlopen/dlclose) for symbolisation.  Children that
 * fork without exec are re-registered by the preload's own fork(), which
 * does what liblttng-ust-fork.so would: preloading both would run the
 * fork handlers twice.  liblttng-ust-fd.so keeps programs that close
 * descriptors they do not own (MPI launchers close every descriptor in the
 * child they fork) from closing lttng-ust's: without it lttng-ust aborts on
 * its fd tracker's assertion when the number comes back. */
#define UST_HELPERS "liblttng-ust-dl.so.1 liblttng-ust-fd.so.1"

extern char **environ;

/* The build tree (bin next to DIR/) first, then the install. */
static int find_lib(const char *dir, const char *name, char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		snprintf(buf, len, "%s/../%s/%s", dirname(exe), dir, name);
		if (access(buf, R_OK) == 0)
			return 0;
	}
	snprintf(buf, len, "%s/%s", HG_LIBDIR, name);
	if (access(buf, R_OK) == 0)
		return 0;
	trc_err("cannot find %s (looked next to the hipgrain executable in "
		"../%s/ and in %s)", name, dir, HG_LIBDIR);
	return -1;
}

static int find_preload(char *buf, size_t len)
{
	if (hg_env_isset(HG_ENV_PRELOAD_LIB)) {
		snprintf(buf, len, "%s", hg_env_get(HG_ENV_PRELOAD_LIB));
		if (access(buf, R_OK) == 0)
			return 0;
		trc_err("HIPGRAIN_PRELOAD_LIB=%s: %s", buf, strerror(errno));
		return -1;
	}
	if (find_lib("preload", PRELOAD_NAME, buf, len) == 0)
		return 0;
	trc_err("set HIPGRAIN_PRELOAD_LIB to use another preload object");
	return -1;
}

static bool env_is(const char *entry, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(entry, name, n) && entry[n] == '=';
}

/* NAME=a b c d, the NULL parts left out. */
static char *join(const char *name, const char *const part[4])
{
	char *s = NULL;

	if (asprintf(&s, "%s=%s%s%s%s%s%s%s", name, part[0],
		     part[1] ? " " : "", part[1] ? part[1] : "",
		     part[2] ? " " : "", part[2] ? part[2] : "",
		     part[3] ? " " : "", part[3] ? part[3] : "") < 0)
		return NULL;
	return s;
}

static int usable(const char *lib)
{
	if (!strpbrk(lib, " :"))
		return 0;
	trc_err("%s: LD_PRELOAD cannot carry a path with ':' or ' '", lib);
	return -1;
}

/* The virtual GPU comes after the preload, so that the preload's driver
 * front end sees each call before the device answers it. */
char **trc_env_build(bool lossless, bool vgpu)
{
	const char *user = getenv("LD_PRELOAD");
	char lib[PATH_MAX], vlib[PATH_MAX];
	size_t n = 0, k = 0;
	char **env;

	if (find_preload(lib, sizeof(lib)) < 0 || usable(lib) < 0)
		return NULL;
	if (vgpu && (find_lib("vgpu", VGPU_NAME, vlib, sizeof(vlib)) < 0 ||
		     usable(vlib) < 0))
		return NULL;
	while (environ[n])
		n++;
	env = calloc(n + TRC_ENV_SPARE, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!env_is(environ[i], "LD_PRELOAD") &&
		    !env_is(environ[i], "LTTNG_UST_REGISTER_TIMEOUT") &&
		    !env_is(environ[i], "LTTNG_UST_ALLOW_BLOCKING"))
			env[k++] = strdup(environ[i]);
	env[k++] = join("LD_PRELOAD",
			(const char *const[4]){lib, UST_HELPERS,
					       vgpu ? vlib : NULL,
					       user && *user ? user : NULL});
	/* Wait for the session daemon's go-ahead: no early event is lost. */
	env[k++] = strdup("LTTNG_UST_REGISTER_TIMEOUT=-1");
	if (lossless)
		env[k++] = strdup("LTTNG_UST_ALLOW_BLOCKING=1");
	for (size_t i = 0; i < k; i++)
		if (!env[i]) {
			trc_err("out of memory");
			trc_env_free(env);
			return NULL;
		}
	return env;
}

int trc_env_put(char **env, const char *name, const char *value)
{
	size_t i = 0;
	char *s = NULL;

	if (asprintf(&s, "%s=%s", name, value) < 0)
		return -1;
	while (env[i] && !env_is(env[i], name))
		i++;
	free(env[i]);
	env[i] = s;
	return 0;
}

void trc_env_free(char **env)
{
	if (!env)
		return;
	for (size_t i = 0; env[i]; i++)
		free(env[i]);
	free(env);
}
