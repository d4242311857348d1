#!/usr/bin/env python3
"""Write build.ninja for ptxpose.

The source lists come from the tree (every .c under the module folders), so a
new file needs only `./configure.py` (ninja reruns it when this file changes).
Fuzz targets are every fuzz/fuzz_NAME.c (defining LLVMFuzzerTestOneInput):
`ninja fuzz` builds each into build/fuzz/NAME with clang and libFuzzer,
linked with the library compiled the same way; `ninja` alone leaves them out
(clang is installed by `./build.sh fuzz`, which also runs them).
The result is checked in; review it like any other generated file.
`./configure.py --check` exits 1 if the checked-in build.ninja is stale.
"""
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys

MODULES = ['common', 'loader', 'gen', 'lib', 'rig', 'emu', 'inspect', 'cli']
# Files compiled into the binary as C strings (build/embed/FILE.c defines SYMBOL).
EMBED = {'lib/model_params.tsv': 'model_params_tsv', 'lib/model_params_h200.tsv': 'model_params_h200_tsv'}
# The committed kernels, compiled into the library (lib/kreg.h): their text
# and the registers ptxas reports for sm_90 when the build runs.
KERNELS_C = 'build/embed/ptx_kernels.c'
PTXAS_DEFAULT = '/usr/local/cuda/bin/ptxas'

LUA_INC = '/usr/include/lua5.4'
LUA_LIB = '/usr/lib/x86_64-linux-gnu/liblua5.4.a'
CUDA_INC = '/usr/local/cuda/include'
COMMIT_H = 'build/gen/commit.h'
FAKE_CUDA = ['tests/fakecuda/libcuda.c', 'tests/fakecuda/stream.c', 'loader/meta.c', 'common/elem.c']  # meta: the grid rules, written once
FAKES = {
    # the fake driver and cuBLAS of tests/fakecuda, for t0410: sources,
    # headers, flags; cuda11.0/ is a driver without cuGraphInstantiateWithFlags
    'build/fakecuda/libcuda.so.1': (FAKE_CUDA, ['tests/fakecuda/fake.h'], ''),
    'build/fakecuda/cuda11.0/libcuda.so.1': (FAKE_CUDA, ['tests/fakecuda/fake.h'], '-DFAKECUDA_CUDA_11_0'),
    'build/fakecuda/libcublas.so.13': (['tests/fakecuda/libcublas.c'], [], '-ldl'),
}
# The commit the binary embeds (common/version.c): build-aux/commit.sh writes
# the header when what it says changes (restat), with a depfile of what can
# change it, so a build after a commit recompiles one file and a build with
# nothing to do runs nothing.

FLAGS = ('-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror '
         '-Wshadow -Wstrict-prototypes -Wno-unused-parameter -fPIC -fvisibility=hidden -I. '
         f'-I{LUA_INC} -I{CUDA_INC}')
# libptxpose: loader/ (the small loader), lib/ on it, and what it needs of common/ (not Lua: the generator is a
# tool). Built -fPIC with hidden visibility; only what include/ptxpose.h
# marks PTXPOSE_API is exported (lib/ptxpose.map says so to the linker too),
# and the static library is one relocatable object whose hidden symbols are
# made local, so that its only globals are ptxpose_ too.
LIB_COMMON = ['common/cache.c', 'common/cache_entry.c', 'common/elem.c', 'common/fsio.c', 'common/strbuf.c', 'common/version.c', 'common/nd.c']
LIB_LIBS = '-ldl -lm -lpthread'
# Programs that use the library through include/ptxpose.h alone, linked with
# build/libptxpose.a (which has nothing else to link with).
# the XLA FFI handler of ptxpose.jax (python/xla/ffi_permute.cc): C++ against jaxlib's FFI headers
# (build.sh puts jax and jaxlib in .deps/py) and the shared library, beside which it is found
XLA_HANDLER = ('python/xla/ffi_permute.cc', 'build/libptxpose_xla.so', '.deps/py/jaxlib/include')
PUBLIC_PROGRAMS = {'bench/overhead.c': ['common/elem.c']}  # each with the tool sources it also takes
# The tools (build/ptxpose): their own folders, linked with libptxpose.a, which
# gives them include/ptxpose.h and include/ptxpose_tools.h and makes every
# other symbol local; so loader/'s format code and common/ are compiled into
# the tool as well (a second, private copy).
TOOL_MODULES = ['common', 'gen', 'rig', 'emu', 'inspect', 'cli']
LOADER_FORMAT = ['loader/abi.c', 'loader/meta.c', 'loader/pxfile.c', 'loader/status.c']
# What rig/ still takes from below the API (the driver through loader/cu.h,
# the problem check of lib/model.h), compiled into the tool until rig reaches
# them through ptxpose_driver_symbol and include/ptxpose_tools.h.
TOOL_PENDING = []
# Unit tests also built with ThreadSanitizer, with the sources they test
# (LIBRARY: libptxpose, built so: a test of the public API alone links
# build/tsan/libptxpose.a; LIBRARY in a list: its sources with the others).
LIBRARY = 'libptxpose'
TSAN = {'pool_unit': ['common/pool.c'], 'vfy_unit': ['rig/vfy.c', 'rig/vfy_cmp.c', 'rig/vfy_copy.c', 'rig/hostmem.c', 'rig/shape.c', 'rig/shape_nd.c', 'rig/vfy_nd.c', 'rig/nd_ref.c', 'common/ndspec.c', 'common/pool.c', LIBRARY], 'cache_threads': ['common/cache.c', 'common/cache_entry.c'], 'api_threads': LIBRARY, 'api_reentry': LIBRARY}
# The sanitizer builds take line tables alone (-g1): their reports' stacks
# name file and line, and they compile a fifth faster (`ninja test` builds them)
TSAN_FLAGS = '-O1 -g1 -fsanitize=thread'
VARIANTS = {
    '': '-O2 -g',
    'asan/': '-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined '
             '-fno-sanitize-recover=undefined',
}
# libFuzzer targets: clang, the fuzzer's coverage, ASan and UBSan (an abort).
FUZZ_FLAGS = ('-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined '
              '-fno-sanitize-recover=undefined')


def sources():
    out = []
    for m in MODULES:
        out += sorted(glob.glob(f'{m}/*.c'))
    return out + [embedded(f) for f in EMBED] + [KERNELS_C]


def c_string(data):
    """Lines of a C string literal holding data (bytes)."""
    lines = []
    for line in data.splitlines(keepends=True) or [b'']:
        esc = ''.join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\?' else f'\\{b:03o}' for b in line)
        lines.append(f'\t"{esc}"')
    return lines


def write_atomic(dst, text):
    os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
    with open(dst + '.tmp', 'w') as f:
        f.write(text)
    os.replace(dst + '.tmp', dst)


def embedded(path):
    return f'build/embed/{path.replace(".", "_")}.c'


def embed(src, dst, sym):
    """Write dst: a C source defining `const char sym[]` with src's bytes."""
    data = open(src, 'rb').read()
    lines = [f'/* Generated by configure.py from {src}: edit that, not this file. */',
             f'extern const char {sym}[];', f'const char {sym}[] ='] + c_string(data)
    lines[-1] += ';'
    write_atomic(dst, '\n'.join(lines) + '\n')


def find_ptxas():
    """ptxas for the register counts: $PTXPOSE_PTXAS, PATH, the toolkit; or None."""
    env = os.environ.get('PTXPOSE_PTXAS')
    for cand in ([env] if env else []) + [shutil.which('ptxas'), PTXAS_DEFAULT]:
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


def ptxas_regs(ptxas, path):
    """Registers a thread of path's kernel for sm_90 (ptxas -v), or 0."""
    if not ptxas:
        return 0
    try:
        p = subprocess.run([ptxas, '-arch=sm_90', '-v', '-o', os.devnull, path], capture_output=True, text=True,
                           timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    m = re.search(r'Used (\d+) registers', p.stdout + p.stderr)
    return int(m.group(1)) if p.returncode == 0 and m else 0


def fnv1a64(data):
    """FNV-1a, 64 bits: common/cache.h's cache_hash (keep in sync), so that the
    library need not hash the built-in kernels' texts when it starts."""
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h


def embed_kernels(dst, files):
    """Write dst: kreg_builtins[] (lib/kreg.h), one entry a PTX file, in order, with
    the text's hash."""
    ptxas = find_ptxas()
    out = ['/* Generated by configure.py from the PTX files of ptx/ (registers: ptxas -v for sm_90,',
           ' * 0 where ptxas was missing): regenerate those, not this file. */', '#include "lib/kreg.h"', '']
    entries = []
    # ptxas once a file, as many at a time as there are processors (a fresh
    # build waits on these: 185 runs took 12 s one at a time on 2 cores)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        regs = list(pool.map(lambda path: ptxas_regs(ptxas, path), files))
    for i, path in enumerate(files):
        data = open(path, 'rb').read()
        out += [f'static const char ptx_{i}[] ='] + c_string(data)
        out[-1] += ';'
        entries.append(f'\t{{"{os.path.basename(path)}", {regs[i]}, {len(data)}, ptx_{i}, '
                       f'0x{fnv1a64(data):016x}ull}},')
    out += ['', 'const kreg_builtin kreg_builtins[] = {'] + entries + ['\t{NULL, 0, 0, NULL, 0},', '};',
            f'const size_t kreg_nbuiltins = {len(files)};', '']
    write_atomic(dst, '\n'.join(out))


def api_only(path):
    """Whether a program includes of the tree only include/ (the public API), and
    headers of its own folder or tests/ that do the same: then it links libptxpose.a.
    A program that is not there (the sdist holds the library alone) does not."""
    if not os.path.exists(path):
        return False
    for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', open(path).read(), re.M):
        own = inc if '/' in inc else os.path.join(os.path.dirname(path), inc)
        if own.startswith('include/'):
            continue
        if not (own.startswith('tests/') or os.path.dirname(own) == os.path.dirname(path)) or \
                not os.path.exists(own) or not api_only(own):
            return False
    return True


def library_sources(srcs):
    """Of srcs, what libptxpose is compiled from."""
    return [s for s in srcs if s.startswith(('lib/', 'loader/', 'build/')) or s in LIB_COMMON]


def library_inputs():
    """Every file of the tree that building the library (`ninja lib`) reads: its
    sources and the headers they include, the embedded files and kernels, the
    build's own files. The Python package's sdist holds these (python/wheelbuild.py)."""
    seen, todo = set(), [s for s in library_sources(sources()) if not s.startswith('build/')]
    while todo:
        path = todo.pop()
        if path in seen or path.startswith('build/') or not os.path.exists(path):
            continue  # build/gen/commit.h is made by the build
        seen.add(path)
        for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', open(path).read(), re.M):
            todo.append(inc if '/' in inc else os.path.join(os.path.dirname(path), inc))
    seen.update(EMBED)
    seen.update(glob.glob('ptx/*.ptx'))
    seen.update(['configure.py', 'build.ninja', ABI_H, 'lib/ptxpose.map', 'build-aux/commit.sh',
                 'build-aux/ninja.sh'])
    return sorted(seen)


def version():
    """(major, minor, patch) from include/ptxpose.h, the one place they are kept."""
    text = open('include/ptxpose.h').read()
    return tuple(re.search(rf'#define PTXPOSE_VERSION_{k} (\d+)', text).group(1) for k in ('MAJOR', 'MINOR', 'PATCH'))


ABI_H = 'loader/abi.h'
ABI_PY = 'python/ptxpose/_abi.py'


def abi_py():
    """python/ptxpose/_abi.py: kernel ABI v2's, v3's and v4's parameter lists, read from loader/abi.h (their one copy)."""
    text = open(ABI_H).read()
    version = re.search(r'#define ABI_VERSION (\d+)', text).group(1)
    version3 = re.search(r'#define ABI_VERSION_V3 (\d+)', text).group(1)
    version4 = re.search(r'#define ABI_VERSION_V4 (\d+)', text).group(1)
    v2, rest = text.split('#define ABI_PARAMS_V3(X)', 1)
    v3, v4 = rest.split('#define ABI_PARAMS_V4(X)', 1)
    line = r'X\((\w+), ([ub]\d+), (\d+), "([^"]*)"\)'
    lines = [f'"""Kernel ABI v{version}, v{version3} and v{version4}: the parameters ptxpose kernels take, in order.', '',
             f'Generated by configure.py from {ABI_H}: edit that, not this file.', '"""',
             f'VERSION = {version}', 'PARAMS = (  # (name, PTX type, bytes, what it is)']
    lines += [f'    ({n!r}, {t!r}, {b}, {w!r}),' for n, t, b, w in re.findall(line, v2)]
    lines += [')', 'NAMES = tuple(p[0] for p in PARAMS)']
    for ver, prev, name, part in ((version3, version, 'PARAMS_V3', v3), (version4, version3, 'PARAMS_V4', v4)):
        base = 'PARAMS' if ver == version3 else 'PARAMS_V3'
        lines += [f'VERSION_V{ver} = {ver}',
                  f'# v{ver}: v{prev}\'s, then these (a b8 entry of more than a byte is an 8-byte aligned array)',
                  f'{name} = {base} + (']
        lines += [f'    ({n!r}, {t!r}, {b}, {w!r}),' for n, t, b, w in re.findall(line, part)]
        lines += [')']
    return '\n'.join(lines) + '\n'


def main():
    if sys.argv[1:2] == ['--embed']:
        embed(*sys.argv[2:5])
        return 0
    if sys.argv[1:2] == ['--embed-kernels']:
        embed_kernels(sys.argv[2], sys.argv[3:])
        return 0
    if sys.argv[1:2] == ['--library-inputs']:
        print('\n'.join(library_inputs()))
        return 0
    srcs = sources()
    lib = [s for s in srcs if not s.startswith('cli/')]
    tool = [s for s in srcs if s.split('/')[0] in TOOL_MODULES] + LOADER_FORMAT + TOOL_PENDING
    library = library_sources(srcs)
    major, minor, patch = version()
    # While MAJOR is 0 every MINOR may change the ABI (0.3 grew ptxpose_plan_info),
    # so the soname carries it: libptxpose.so.0.MINOR; from 1.0, libptxpose.so.MAJOR.
    soname = f'libptxpose.so.{major}' if major != '0' else f'libptxpose.so.0.{minor}'
    so = f'build/libptxpose.so.{major}.{minor}.{patch}'
    units = sorted(glob.glob('tests/unit/*.c'))
    w = []
    p = w.append
    p('# Generated by ./configure.py: edit that, not this file.')
    p('ninja_required_version = 1.10')
    p(f'flags = {FLAGS}')
    p(f'lualib = {LUA_LIB}')
    p('libs = -ldl -lm')
    p('')
    p('rule cc')
    p('  command = cc -MMD -MF $out.d $flags $vflags -c $in -o $out')
    p('  depfile = $out.d')
    p('  deps = gcc')
    p('  description = CC $out')
    p('rule link')
    p('  command = cc $vflags $in $lualib $libs -o $out')
    p('  description = LINK $out')
    p('rule configure')
    p('  command = python3 configure.py')
    p('  generator = 1')
    p('  description = CONFIGURE')
    p('rule embed')
    p('  command = python3 configure.py --embed $in $out $sym')
    p('  description = EMBED $out')
    p('rule embed_kernels')
    p('  command = python3 configure.py --embed-kernels $out $in')
    p('  description = EMBED $out')
    p('rule gen')
    p('  command = build/ptxpose gen --force --out ptx scripts/variants.lua')
    p('  description = GEN ptx/')
    p('  pool = console')
    p('rule fuzzcc')
    p('  command = clang -MMD -MF $out.d $flags $fuzzflags -c $in -o $out')
    p('  depfile = $out.d')
    p('  deps = gcc')
    p('  description = FUZZCC $out')
    p('rule fuzzlink')
    p('  command = clang $fuzzflags -fsanitize=fuzzer $in $lualib $libs -o $out')
    p('  description = FUZZLINK $out')
    p('rule commit')
    p('  command = sh build-aux/commit.sh $out')
    p('  depfile = $out.d')
    p('  deps = gcc')
    p('  description = COMMIT $out')
    p('  restat = 1')
    p('rule fakelib')
    p('  command = cc $flags -O1 -shared -fPIC -fvisibility=hidden $in -o $out $fakeflags')
    p('  description = FAKE $out')
    p('rule solib')
    p(f'  command = cc -shared -Wl,-soname,$soname -Wl,--version-script=lib/ptxpose.map $in {LIB_LIBS} -o $out')
    p('  description = SOLIB $out')
    p('rule staticlib')
    p('  command = ld -r -o $out.o $in && objcopy --localize-hidden $out.o && rm -f $out && ar rcs $out $out.o && '
      'rm -f $out.o')
    p('  description = AR $out')
    p('rule ar')
    p('  command = rm -f $out && ar rcs $out $in')
    p('  description = AR $out')
    p('rule publink')
    p(f'  command = cc $vflags $in {LIB_LIBS} -o $out')
    p('  description = LINK $out')
    p('rule toollink')
    p(f'  command = cc $vflags $in $lualib {LIB_LIBS} -o $out')
    p('  description = LINK $out')
    p('rule symlink')
    p('  command = ln -sfn $target $out')
    p('  description = LN $out')
    p('rule install')
    p('  command = sh build-aux/install.sh')
    p('  description = INSTALL')
    p('  pool = console')
    p('rule xlaffi')
    p('  command = c++ -std=c++17 -O2 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden -MMD -MF $out.d '
      '-I. -isystem $jaxinc $in -o $out -Lbuild -l:$soname -Wl,-rpath,\'$$ORIGIN\'')
    p('  depfile = $out.d')
    p('  deps = gcc')
    p('  description = CXX $out')
    p('rule prove')
    # the slowest first: once build/prove-state has their times by those,
    # before it does (a fresh clone; prove would say that a selection by
    # state is empty) by the committed list tests/slow-first; one job more
    # than processors, since a few tests mostly wait (gen's time limits).
    # python3 found once a run: build/python/python3 execs the interpreter
    # PATH names (the tests start it some 200 times; through a pyenv shim,
    # a bash script, each start cost 0.08 CPU-seconds more)
    p('  command = rm -rf build/tool-cache build/python && mkdir -p build/python && '
      'py=$$(python3 -c \'import sys; print(sys.executable)\' 2>/dev/null); '
      '{ [ -z "$$py" ] || { printf \'#!/bin/sh\\nexec \\047%s\\047 "$$@"\\n\' "$$py" >build/python/python3 && '
      'chmod +x build/python/python3; }; } && '
      'PATH=$$PWD/build/python:$$PATH prove -j$$(($$(nproc) + 1)) --state=$$(test -s build/prove-state && echo slow,)save '
      '--statefile=build/prove-state $proveflags $$(sed \'/^#/d\' tests/slow-first) tests/')
    p('  description = PROVE tests/')
    p('  pool = console')
    p('')
    p(f'build build.ninja: configure configure.py {ABI_H}')
    p('build always: phony')
    p(f'build {COMMIT_H}: commit | build-aux/commit.sh')
    for out, (ins, hdrs, fakeflags) in FAKES.items():
        p(f'build {out}: fakelib ' + ' '.join(ins) + (' | ' + ' '.join(hdrs) if hdrs else ''))
        if fakeflags:
            p(f'  fakeflags = {fakeflags}')
    p('')
    for f, sym in EMBED.items():
        p(f'build {embedded(f)}: embed {f} | configure.py')
        p(f'  sym = {sym}')
    p(f'build {KERNELS_C}: embed_kernels ' + ' '.join(sorted(glob.glob('ptx/*.ptx'))) + ' | configure.py')
    p('')
    for prefix, vflags in VARIANTS.items():
        objs = {}
        for s in srcs:
            o = f'build/{prefix}obj/{s.removeprefix("build/")[:-2]}.o'
            objs[s] = o
            p(f'build {o}: cc {s}' + (f' || {COMMIT_H}' if s == 'common/version.c' else ''))
            p(f'  vflags = {vflags}')
        libo = ' '.join(objs[s] for s in library)
        p(f'build build/{prefix}libptxpose.a: staticlib {libo}')
        p(f'build build/{prefix}ptxpose: toollink ' + ' '.join(objs[s] for s in tool) + f' build/{prefix}libptxpose.a')
        p(f'  vflags = {vflags}')
        if not prefix:
            p(f'build {so}: solib {libo} | lib/ptxpose.map')
            p(f'  soname = {soname}')
            p(f'build build/{soname}: symlink {so}')
            p(f'  target = {os.path.basename(so)}')
            p(f'build {XLA_HANDLER[1]}: xlaffi {XLA_HANDLER[0]} | build/{soname}')
            p(f'  jaxinc = {XLA_HANDLER[2]}')
            p(f'  soname = {soname}')
            p(f'build build/libptxpose.so: symlink build/{soname}')
            p(f'  target = {soname}')
            # programs of the public API alone, linked with the static library
            for b in PUBLIC_PROGRAMS:
                o = f'build/obj/{b[:-2]}.o'
                p(f'build {o}: cc {b}')
                p(f'  vflags = {vflags}')
                extra = ' '.join(f'build/obj/{e[:-2]}.o' for e in PUBLIC_PROGRAMS[b])
                p(f'build build/{b[:-2]}: publink {o} {extra} build/libptxpose.a')
                p(f'  vflags = {vflags}')
        # the unit tests link from an archive of the tools' objects (each takes
        # the few it needs: a link costs a third of one with them all)
        units_a = f'build/{prefix}obj/units.a'
        p(f'build {units_a}: ar ' + ' '.join(objs[s] for s in lib))
        for u in units:
            name = os.path.basename(u)[:-2]
            o = f'build/{prefix}obj/{u[:-2]}.o'
            p(f'build {o}: cc {u}')
            p(f'  vflags = {vflags}')
            # a unit test of the public API alone links the library
            if api_only(u):
                p(f'build build/{prefix}tests/{name}: publink {o} build/{prefix}libptxpose.a')
            else:
                p(f'build build/{prefix}tests/{name}: link {o} {units_a}')
            p(f'  vflags = {vflags}')
        p('')
    tsan_built = set()
    tsan_lib = [f'build/tsan/obj/{s.removeprefix("build/")[:-2]}.o' for s in library]
    p('build build/tsan/libptxpose.a: staticlib ' + ' '.join(tsan_lib))
    for name, deps in TSAN.items():
        objs = []
        api = deps == LIBRARY and api_only(f'tests/unit/{name}.c')
        srcs_of = library if deps == LIBRARY else [x for d in deps for x in (library if d == LIBRARY else [d])]
        for s in [f'tests/unit/{name}.c'] + srcs_of:
            o = f'build/tsan/obj/{s.removeprefix("build/")[:-2]}.o'
            objs.append(o)
            if o in tsan_built:
                continue
            tsan_built.add(o)
            p(f'build {o}: cc {s}' + (f' || {COMMIT_H}' if s == 'common/version.c' else ''))
            p(f'  vflags = {TSAN_FLAGS}')
        if api:
            p(f'build build/tsan/tests/{name}: publink {objs[0]} build/tsan/libptxpose.a')
        else:
            p(f'build build/tsan/tests/{name}: link ' + ' '.join(objs))
        p(f'  vflags = {TSAN_FLAGS}')
    p('')
    fuzzers = sorted(glob.glob('fuzz/fuzz_*.c'))
    if fuzzers:
        names = [os.path.basename(f)[len('fuzz_'):-2] for f in fuzzers]
        p(f'fuzzflags = {FUZZ_FLAGS}')
        fobjs = {s: f'build/fuzz/obj/{s[:-2]}.o' for s in lib + fuzzers}
        for s in lib + fuzzers:
            p(f'build {fobjs[s]}: fuzzcc {s}')
        libf = ' '.join(fobjs[s] for s in lib)
        # a target of the public API alone links the library, built the fuzzer's way
        p('build build/fuzz/libptxpose.a: staticlib ' + ' '.join(fobjs[s] for s in library))
        for f, name in zip(fuzzers, names):
            p(f'build build/fuzz/{name}: fuzzlink {fobjs[f]} ' + ('build/fuzz/libptxpose.a' if api_only(f) else libf))
        p('build fuzz: phony ' + ' '.join(f'build/fuzz/{n}' for n in names))
        p('')
    libs = [so, f'build/{soname}', 'build/libptxpose.so', 'build/libptxpose.a']
    alls = ['build/ptxpose', 'build/asan/ptxpose', 'build/asan/libptxpose.a'] + libs + [XLA_HANDLER[1]] + [f'build/{b[:-2]}' for b in PUBLIC_PROGRAMS] + list(FAKES) + [f'build/tsan/tests/{n}' for n in TSAN]
    for prefix in VARIANTS:
        alls += [f'build/{prefix}tests/{os.path.basename(u)[:-2]}' for u in units]
    # `ninja main`: what ./build.sh's main job runs; `ninja lib`: the library
    # for install; `ninja` (all): those and the sanitizer and test binaries
    p('build main: phony build/ptxpose')
    p('build lib: phony ' + ' '.join(libs))
    p('build all: phony ' + ' '.join(alls))
    p('build ptx: gen scripts/variants.lua | build/ptxpose')
    p('build test: prove | all')
    p('build install: install | build/ptxpose ' + ' '.join(libs) + ' always')
    p('default all')
    text = '\n'.join(w) + '\n'
    outputs = {'build.ninja': text, ABI_PY: abi_py()}
    if '--check' in sys.argv[1:]:
        for path, want in outputs.items():
            current = open(path).read() if os.path.exists(path) else ''
            if current != want:
                print(f'{path} is stale: run ./configure.py and commit it', file=sys.stderr)
                return 1
        return 0
    for path, want in outputs.items():
        # build.ninja always (ninja reruns this while it is older than an input);
        # the rest only when it changes
        if path == 'build.ninja' or not os.path.exists(path) or open(path).read() != want:
            write_atomic(path, want)


if __name__ == '__main__':
    sys.exit(main())
