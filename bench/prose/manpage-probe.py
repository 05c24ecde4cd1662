# Builds trial35's man-page probe (bench/prose/manpage-probe.mjs) from Debian packages, offline once fetched,
# in a data folder DATA of your choosing (any empty folder; below, DATA stands for it):
#   apt-get update && apt-get download manpages-fr manpages-pl manpages-uk manpages-nl manpages-pt-br manpages-ja manpages-id
#   for f in *.deb; do dpkg-deb -x $f DATA/x; done
#   render each coreutils page (ls cp mv rm chmod chown date df du sort touch mkdir ln tail head wc cut tr uniq
#   stat split od install dd) of LANG and of English (/usr/share/man/man1, the coreutils package) with
#   MANWIDTH=2000 man -l -E UTF-8 PAGE.1.gz | col -b | expand > DATA/man/LANG/PAGE.txt
#   msgunfmt /usr/share/locale/LANG/LC_MESSAGES/coreutils.mo -o DATA/po/LANG.coreutils.po, then
#   po2json (a .po's msgid/msgstr pairs as JSON) into DATA/po/LANG.coreutils.json
#   python3 bench/prose/manpage-probe.py DATA fr ja pl nl uk id pt_BR   -> DATA/probe.json
# An item: an option of a page whose English man page text equals one --help msgid's line (help2man copies
# --help), the query that msgid's translation, the labels the translated man page's lines of that option;
# items whose two translations are the same words are left out (counted).
# Probe: a coreutils man page translated by manpages-l10n (GPL-3+) against the same option's --help text
# translated by the Translation Project in coreutils.mo (GPL-3+): two independent translations of one text.
import json, re, os, sys, glob, collections
OPT = re.compile(r'^\s{1,8}((?:-[\w?],?\s*)?(?:--[\w-]+(?:\[?=[^\s\]]+\]?)?)?|-[\w?](?:\s+[A-Z]+)?)(?:,\s*(--[\w-]+(?:\[?=[^\s\]]+\]?)?))?(?=\s{2,}|\s*$)(.*)$')
def flags_of(s):
    return tuple(sorted(set(re.findall(r'(?<![\w-])(--?[\w][\w-]*)', s))))
def help_pairs(lang):
    """flagset -> set of (english, translated) descriptions from coreutils.mo's --help texts."""
    out = collections.defaultdict(set)
    for e in json.load(open(os.path.join(DATA, 'po', f'{lang}.coreutils.json'))):
        ids, strs = e['msgid'].split('\n'), e['msgstr'].split('\n')
        def opts(lines):
            res = []; cur = None
            for ln in lines:
                m = re.match(r'^\s{1,6}(-[^\s].*?)(?:\s{2,}(\S.*))?$', ln)
                if m and (m.group(1).startswith('-')):
                    cur = [flags_of(m.group(1)), m.group(2) or '']; res.append(cur)
                elif cur and ln.strip() and re.match(r'^\s{8,}', ln):
                    cur[1] = (cur[1] + ' ' + ln.strip()).strip()
                else: cur = None
            return res
        a, b = opts(ids), opts(strs)
        bm = {f: d for f, d in b}
        for f, d in a:
            if f and f in bm and bm[f] and d: out[f].add((d, bm[f]))
    return out
def man_entries(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    ents = []; i = 0
    while i < len(lines):
        ln = lines[i]
        m = re.match(r'^ {7}(-\S.*?)(?:\s{2,}(\S.*))?$', ln)
        if m and len(ln) < 400:
            lab = [i]; desc = m.group(2) or ''
            j = i + 1
            while j < len(lines) and re.match(r'^ {14}\S', lines[j]):
                lab.append(j); desc += ' ' + lines[j].strip(); j += 1
            f = flags_of(m.group(1))
            if f and desc.strip(): ents.append((f, lab, desc.strip()))
            i = j
        else: i += 1
    return ents
if len(sys.argv) < 3 or not os.path.isdir(sys.argv[1]):
    sys.exit('usage: python3 bench/prose/manpage-probe.py DATA LANG... (DATA: the folder holding man/ and po/; writes DATA/probe.json)')
DATA = sys.argv[1]
res = {}
for lang in sys.argv[2:]:
    hp = help_pairs(lang)
    items = []; same = 0
    for path in sorted(glob.glob(os.path.join(glob.escape(DATA), 'man', lang, '*.txt'))):
        ents = man_entries(path)
        fl = collections.Counter(f for f, _, _ in ents)
        for f, lab, desc in ents:
            if fl[f] != 1 or f not in hp: continue
            en = {fl2: d for fl2, _, d in man_entries(os.path.join(DATA, 'man', 'en', os.path.basename(path)))}.get(f)
            if en is None: continue
            norm = lambda x: re.sub(r'\W', '', x.lower())
            trans = {t for e, t in hp[f] if norm(e) == norm(en)}
            if len(trans) != 1: continue  # no --help text with the man page's English, or several
            q = next(iter(trans)).strip(); eng = en
            if re.sub(r'\W', '', q.lower()) == re.sub(r'\W', '', desc.lower()): same += 1; continue
            items.append({'file': path, 'q': q, 'eng': eng, 'labels': lab, 'desc': desc})
    res[lang] = items
    print(lang, len(items), 'identical skipped', same, file=sys.stderr)
json.dump(res, open(os.path.join(DATA, 'probe.json'), 'w'), ensure_ascii=False, indent=0)
