/* SPDX-License-Identifier: MIT */
/*
 * Which frame of a call site a finding names (an_site_text).  A program
 * built without -g has no lines, while glibc with its debug symbols has
 * them: the site is the program's function, never __libc_start_call_main.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_fmt.h"
#include "an_json.h"
#include "an_output.h"
#include "an_sym.h"

static int failed;

static void expect(const char *what, const struct an_frame *f, int n,
		   const char *want)
{
	char buf[256];

	an_site_text(f, n, buf, sizeof(buf));
	if (strcmp(buf, want)) {
		printf("not ok - %s: got \"%s\", want \"%s\"\n", what, buf, want);
		failed = 1;
	} else {
		printf("ok - %s\n", what);
	}
}

static void check(const char *what, int cond)
{
	printf("%sok - %s\n", cond ? "" : "not ", what);
	failed |= !cond;
}

int main(void)
{
	char fn_user[] = "void testcase<int>(int)", fn_main[] = "main",
	     fn_libc[] = "__libc_start_call_main",
	     f_libc[] = "../sysdeps/nptl/libc_start_call_main.h",
	     f_user[] = "/src/app.cpp", f_hip[] = "/usr/include/hip/amd_detail/x.h";
	struct an_frame nodebug[] = {
		{.function = fn_user},
		{.function = fn_main},
		{.function = fn_libc, .file = f_libc, .line = 58, .system = true},
	};
	struct an_frame debug[] = {
		{.function = fn_user, .file = f_user, .line = 12},
		{.function = fn_libc, .file = f_libc, .line = 58, .system = true},
	};
	struct an_frame header[] = {
		{.function = fn_user, .file = f_hip, .line = 3, .inlined = true},
		{.function = fn_main, .file = f_user, .line = 40},
	};
	struct an_frame only_libc[] = {
		{.function = fn_libc, .file = f_libc, .line = 58, .system = true},
	};

	expect("program without -g over glibc with debug symbols", nodebug, 3,
	       "void testcase<int>(int)");
	check("no frame with a line for a program without -g",
	      an_site_frame(nodebug, 3) == -1);
	expect("program with -g", debug, 2, "app.cpp:12 (void testcase<int>(int))");
	expect("HIP header inlined into the program", header, 2,
	       "app.cpp:40 (main)");
	expect("nothing but glibc", only_libc, 1,
	       "libc_start_call_main.h:58 (__libc_start_call_main)");
	check("system objects: /usr/lib, /lib64",
	      an_path_is_system("/usr/lib/x86_64-linux-gnu/libc.so.6") &&
		      an_path_is_system("/lib64/ld-linux-x86-64.so.2"));
	check("not system: /usr/libexec, the program, none",
	      !an_path_is_system("/usr/libexec/x") &&
		      !an_path_is_system("/work/build/app") &&
		      !an_path_is_system(NULL));
	{
		char *json = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&json, &len);

		an_json_site(m, header, 2);
		an_json_frames(m, header, 2);
		fclose(m);
		check("JSON: the site is the user's frame, the header's frame "
		      "is marked",
		      json && strstr(json, ",\"site\":{\"function\":\"main\","
					   "\"file\":\"/src/app.cpp\",\"line\":40") &&
			      strstr(json, "\"line\":3,\"address\":\"0x0\","
					   "\"inlined\":true,"
					   "\"runtime_header\":true}"));
		free(json);
	}
	printf("1..8\n");
	return failed;
}
