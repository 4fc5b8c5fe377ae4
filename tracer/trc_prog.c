/* SPDX-License-Identifier: MIT */
/*
 * Finding the program the way execvp(3) would, and refusing the ones the
 * preload cannot enter: a static binary has no dynamic loader to honour
 * LD_PRELOAD, and a set-uid/set-gid one runs in secure mode, where the
 * loader drops it.  Running them untraced would produce an empty trace
 * that looks like a clean bill of health.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trc_int.h"

static bool runnable(const char *p, int *why)
{
	struct stat st;

	if (stat(p, &st) < 0) {
		*why = errno;
		return false;
	}
	if (S_ISDIR(st.st_mode)) {
		*why = EISDIR;
		return false;
	}
	if (access(p, X_OK) < 0) {
		*why = EACCES;
		return false;
	}
	return true;
}

/* 0 found; else the errno that explains it (ENOENT, EACCES or EISDIR). */
static int search(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH");
	int seen = ENOENT, why;

	if (strchr(name, '/')) {
		snprintf(path, len, "%s", name);
		return runnable(path, &why) ? 0 : why;
	}
	if (!dirs)
		dirs = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = dirs;; p++) {
		size_t n = strcspn(p, ":");

		/* An empty PATH entry means the current directory. */
		snprintf(path, len, "%.*s/%s", (int)(n ? n : 1), n ? p : ".",
			 name);
		if (runnable(path, &why))
			return 0;
		if (why == EACCES || (why == EISDIR && seen != EACCES))
			seen = why;
		p += n;
		if (!*p)
			break;
	}
	return seen;
}

int trc_prog_find_quiet(const char *name, char *path, size_t len)
{
	return search(name, path, len) ? -1 : 0;
}

int trc_prog_find(const char *name, char *path, size_t len)
{
	int e = *name ? search(name, path, len) : ENOENT;

	if (e == 0)
		return 0;
	if (e == EACCES || e == EISDIR) {
		trc_err("%s: %s", name, e == EISDIR ? "a directory, not a program"
						     : "not executable (permission denied)");
		return TRC_EXIT_NOEXEC;
	}
	trc_err("%s: %s", name, e == ENOENT ? "not found" : strerror(e));
	return TRC_EXIT_NOTFOUND;
}

/* Whether the ELF image has a PT_INTERP: -1 unreadable, 0 no, 1 yes. */
static int has_interp(int fd, const unsigned char *id)
{
	bool is64 = id[EI_CLASS] == ELFCLASS64;
	Elf64_Ehdr e64;
	Elf32_Ehdr e32;
	size_t phoff, phnum, phentsize;

	if (is64 ? pread(fd, &e64, sizeof(e64), 0) != sizeof(e64)
		 : pread(fd, &e32, sizeof(e32), 0) != sizeof(e32))
		return -1;
	phoff = is64 ? e64.e_phoff : e32.e_phoff;
	phnum = is64 ? e64.e_phnum : e32.e_phnum;
	phentsize = is64 ? e64.e_phentsize : e32.e_phentsize;
	if (phentsize < (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)))
		return -1;
	for (size_t i = 0; i < phnum; i++) {
		Elf64_Phdr p64;
		Elf32_Phdr p32;
		off_t at = (off_t)(phoff + i * phentsize);

		if (is64 ? pread(fd, &p64, sizeof(p64), at) != sizeof(p64)
			 : pread(fd, &p32, sizeof(p32), at) != sizeof(p32))
			return -1;
		if ((is64 ? p64.p_type : p32.p_type) == PT_INTERP)
			return 1;
	}
	return 0;
}

static int vet_image(const char *path, int fd)
{
	unsigned char id[EI_NIDENT] = {0};
	int interp;

	if (pread(fd, id, sizeof(id), 0) < 2) {
		trc_err("%s: cannot execute: empty or unreadable file", path);
		return TRC_EXIT_NOEXEC;
	}
	if (id[0] == '#' && id[1] == '!')
		return 0; /* the interpreter is what gets preloaded */
	if (memcmp(id, ELFMAG, SELFMAG)) {
		trc_err("%s: cannot execute: not an ELF binary or script",
			path);
		return TRC_EXIT_NOEXEC;
	}
	interp = has_interp(fd, id);
	if (interp < 0) {
		trc_err("%s: cannot execute: malformed ELF header", path);
		return TRC_EXIT_NOEXEC;
	}
	if (!interp) {
		trc_err("%s: statically linked: LD_PRELOAD cannot enter it, so "
			"nothing could be traced; refusing to run it",
			path);
		return TRC_EXIT_NOEXEC;
	}
	return 0;
}

int trc_prog_vet(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int rc;

	if (fd < 0 || fstat(fd, &st) < 0) {
		trc_err("%s: cannot read: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return TRC_EXIT_NOEXEC;
	}
	/* Only an identity change puts the loader in secure mode. */
	if (((st.st_mode & S_ISUID) && st.st_uid != getuid()) ||
	    ((st.st_mode & S_ISGID) && st.st_gid != getgid())) {
		trc_err("%s: set-uid/set-gid: the dynamic loader ignores "
			"LD_PRELOAD for it, so nothing could be traced; "
			"refusing to run it",
			path);
		close(fd);
		return TRC_EXIT_NOEXEC;
	}
	rc = vet_image(path, fd);
	close(fd);
	return rc;
}
