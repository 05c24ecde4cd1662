# Copies built quality-bench corpora as hard links, keeping only the files semble indexes: its code
# extensions (as bench/quality/bm25.ts lists them), <= 1 MB; --no-cc also drops .cc/.cxx/.hxx (semble's
# published run indexed abseil-cpp without them). Usage: code-only-corpora.py SRC_CORPORA DST_CORPORA NAME... [--no-cc]
import os, shutil, subprocess, sys
src, dst = sys.argv[1], sys.argv[2]
drop_cc = '--no-cc' in sys.argv
CODE = ('.py','.pyi','.js','.mjs','.cjs','.jsx','.ts','.mts','.cts','.tsx','.java','.php','.rb','.rs','.cs','.kt','.kts','.scala','.ex','.exs','.swift','.c','.h','.cc','.cpp','.cxx','.hpp','.hxx','.hs','.zig','.sh','.bash','.zsh','.lua')
names = [n for n in sys.argv[3:] if not n.startswith('--')]
for name in names:
    d = os.path.join(dst, name)
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run(['cp', '-al', os.path.join(src, name), d], check=True)
    kept = dropped = 0
    for dp, dn, fn in os.walk(d):
        for f in fn:
            p = os.path.join(dp, f)
            if f == '.pinned.json' and dp == d: continue
            keep = f.endswith(CODE) and os.path.getsize(p) <= 1_000_000
            if drop_cc and f.endswith(('.cc', '.cxx', '.hxx')): keep = False
            if keep: kept += 1
            else: os.unlink(p); dropped += 1
    print(name, 'kept', kept, 'dropped', dropped)
