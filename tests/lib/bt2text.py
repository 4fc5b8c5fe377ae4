# SPDX-License-Identifier: MIT
"""What the real `babeltrace2` CLI prints (sink.text.pretty), read back into
Python values: one dict per event with 'event' (its name), the context
fields and the payload's.  Enumerations read as (value, labels)."""
import os
import re
import subprocess

_TOKEN = re.compile(r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<num>-?(?:0x[0-9A-Fa-f]+|'
                    r'\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))|(?P<unk><unknown>)|'
                    r'(?P<name>[A-Za-z_][\w]*)|(?P<p>[{}\[\]()=:,]))')


class _Reader:
    def __init__(self, text):
        self.toks = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                if text[pos:].strip() == '':
                    break
                raise ValueError('cannot read %r' % text[pos:pos + 40])
            kind = m.lastgroup
            self.toks.append((kind, m.group(kind)))
            pos = m.end()
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, want=None):
        t = self.peek()
        if want is not None and t[1] != want:
            raise ValueError('expected %r, got %r' % (want, t))
        self.i += 1
        return t

    def value(self):
        kind, v = self.peek()
        if v == '{':
            return self.struct()
        if v == '[':
            return self.array()
        if v == '(':
            return self.enum()
        self.take()
        if kind == 'str':
            return bytes(v[1:-1], 'utf-8').decode('unicode_escape')
        if kind == 'num':
            return float(v) if '.' in v or 'e' in v.lower() and \
                not v.lower().startswith('0x') else int(v, 0)
        raise ValueError('unexpected %r' % v)

    def struct(self):
        self.take('{')
        d = {}
        while self.peek()[1] != '}':
            name = self.take()[1]
            self.take('=')
            d[name] = self.value()
            if self.peek()[1] == ',':
                self.take()
        self.take('}')
        return d

    def array(self):
        self.take('[')
        out = []
        while self.peek()[1] != ']':
            self.take('[')
            self.take()
            self.take(']')
            self.take('=')
            out.append(self.value())
            if self.peek()[1] == ',':
                self.take()
        self.take(']')
        return out

    def enum(self):
        self.take('(')
        labels = []
        if self.peek()[1] == '{':
            self.take()
            while self.peek()[1] != '}':
                labels.append(self.value())
                if self.peek()[1] == ',':
                    self.take()
            self.take('}')
        elif self.peek()[0] == 'unk':
            self.take()
        else:
            labels.append(self.value())
        self.take(':')
        self.take('container')
        self.take('=')
        v = self.value()
        self.take(')')
        return Enum(v, labels)


class Enum(int):
    """An enumeration's value (an int) with its labels."""
    def __new__(cls, v, labels):
        o = int.__new__(cls, v)
        o.labels = labels
        return o


# [time] (+delta) host name: { ... }, ...; a trace with no clock has no
# time, one without a hostname no host.
_LINE = re.compile(r'^(?:\[[^\]]*\] )?(?:\([^)]*\) )?(?:\S+ )?'
                   r'(?P<name>[\w:]+): (?P<rest>\{.*)$')


def parse(text):
    """Events of babeltrace2's pretty text."""
    out = []
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        r = _Reader(m.group('rest'))
        d = {'event': m.group('name')}
        while r.peek()[0] is not None:
            d.update(r.struct())
            if r.peek()[1] == ',':
                r.take()
        out.append(d)
    return out


def env():
    """The environment of a babeltrace2 that loads a sanitized plugin
    (HG_BT2_PRELOAD: the sanitizer's runtime, which must come first)."""
    e = dict(os.environ)
    if e.get('HG_BT2_PRELOAD'):
        e['LD_PRELOAD'] = e['HG_BT2_PRELOAD']
        e['ASAN_OPTIONS'] = 'detect_leaks=0:abort_on_error=1'
    return e


def run(trace, plugin_dir=None, components=(), check=True):
    """babeltrace2 [--plugin-path DIR] TRACE [-c COMPONENT...]: (rc, stdout,
    stderr)."""
    argv = ['babeltrace2']
    if plugin_dir:
        argv += ['--plugin-path', plugin_dir]
    argv.append(trace)
    for c in components:
        argv += ['-c', c]
    p = subprocess.run(argv, capture_output=True, text=True,
                       errors='replace', env=env())
    if check and p.returncode:
        raise RuntimeError('%s: %s' % (' '.join(argv), p.stderr.strip()))
    return p.returncode, p.stdout, p.stderr
