#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The man pages keep up with the code: every option `hipgrain CMD --help`
prints is in hipgrain-CMD.1 and vice versa (run, report, scan, dump), and every
variable of the environment table (common/hg_env.h) is in hipgrain.1.

usage: test_man.py HIPGRAIN MANDIR HG_ENV_H
"""
import os
import re
import subprocess
import sys

HG, MANDIR, ENV_H = sys.argv[1:4]
OPT_RE = re.compile(r'(?<![\w-])(--[a-z][a-z-]+|-[a-zA-Z])\b')


def fail(msg):
    print('FAIL:', msg)
    sys.exit(1)


def help_options(cmd):
    p = subprocess.run([HG, cmd, '--help'], capture_output=True, text=True)
    if p.returncode != 0:
        fail(f'hipgrain {cmd} --help: exit {p.returncode}')
    opts = set()
    for line in p.stdout.splitlines():
        if re.match(r'\s+-', line):  # the option table: first column only
            opts |= set(OPT_RE.findall(re.split(r'\s{2,}', line.strip())[0]))
    return opts


def man_options(cmd, text):
    """Options the page defines: its OPTIONS section's item headings."""
    sect = re.search(r'^# OPTIONS\n(.*?)^# ', text, re.M | re.S)
    if not sect:
        fail(f'hipgrain-{cmd}.1.scd has no OPTIONS section')
    heads = re.findall(r'^\*(-[^\n]*)$', sect.group(1), re.M)
    return {o for h in heads for o in OPT_RE.findall(h)}


def env_names():
    names = re.findall(r'X\(\w+, "([A-Z_]+)", HG_ENV_', open(ENV_H).read())
    if len(names) < 5:
        fail(f'could not read the environment table from {ENV_H}')
    return names


def main():
    main_page = open(os.path.join(MANDIR, 'hipgrain.1.scd')).read()
    for cmd in ('run', 'report', 'scan', 'dump'):
        page = open(os.path.join(MANDIR, f'hipgrain-{cmd}.1.scd')).read()
        helped, documented = help_options(cmd), man_options(cmd, page)
        if not helped:
            fail(f'no options found in hipgrain {cmd} --help')
        if helped - documented:
            fail(f'in --help but not in hipgrain-{cmd}.1: '
                 f'{sorted(helped - documented)}')
        if documented - helped:
            fail(f'in hipgrain-{cmd}.1 but not in --help: '
                 f'{sorted(documented - helped)}')
        print('ok', cmd, len(helped), 'options')
    # One exit-status scheme: every page and --help of report and scan
    # gives 0, 1, 2 and 64, and hipgrain(1) says why.
    for name, cmd in (('hipgrain.1.scd', []), ('hipgrain-report.1.scd',
                      ['report']), ('hipgrain-scan.1.scd', ['scan'])):
        page = open(os.path.join(MANDIR, name)).read()
        sect = re.search(r'^# EXIT STATUS\n(.*?)^# ', page, re.M | re.S)
        codes = set(re.findall(r'\*(\d+)\*', sect.group(1))) if sect else set()
        if not {'0', '1', '2', '64'} <= codes:
            fail(f'{name}: EXIT STATUS gives {sorted(codes)}, not 0, 1, 2, 64')
        h = subprocess.run([HG] + cmd + ['--help'], capture_output=True,
                           text=True).stdout
        said = re.search(r'Exit status[^:]*: (.*)', h, re.S)
        if not said or not all(re.search(r'\b%s\b' % c, said.group(1))
                               for c in ('0', '1', '2', '64')):
            fail(f"hipgrain {' '.join(cmd)} --help: no exit statuses 0, 1, 2, 64")
    if 'Why this scheme' not in main_page:
        fail('hipgrain.1 does not say why the exit statuses are what they are')
    print('ok exit statuses')
    missing = [n for n in env_names() if n not in main_page]
    if missing:
        fail(f'environment variables missing from hipgrain.1: {missing}')
    print('ok', len(env_names()), 'variables')


main()
