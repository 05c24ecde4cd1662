# A .po file's translated messages as JSON [{msgid, msgstr}] (for manpage-probe.py): python3 bench/prose/po2json.py X.po > X.json
import sys, json, re
def unq(s):
    s = s.strip()
    assert s.startswith('"') and s.endswith('"'), s
    return bytes(s[1:-1], 'utf-8').decode('unicode_escape').encode('latin-1').decode('utf-8')
def parse(path):
    entries=[]; cur={}; key=None
    for line in open(path, encoding='utf-8'):
        line=line.rstrip('\n')
        if line.startswith('msgid '): 
            if cur.get('msgid') is not None and 'msgstr' in cur: entries.append(cur)
            cur={'msgid':unq(line[6:])}; key='msgid'
        elif line.startswith('msgid_plural '): cur['plural']=unq(line[13:]); key='plural'
        elif line.startswith('msgstr[0] '): cur['msgstr']=unq(line[10:]); key='msgstr'
        elif line.startswith('msgstr[') : key=None
        elif line.startswith('msgstr '): cur['msgstr']=unq(line[7:]); key='msgstr'
        elif line.startswith('"') and key: cur[key]+=unq(line)
        elif line.startswith('msgctxt'): 
            if cur.get('msgid') is not None and 'msgstr' in cur: entries.append(cur)
            cur={}; key=None
    if cur.get('msgid') is not None and 'msgstr' in cur: entries.append(cur)
    return [e for e in entries if e['msgid'] and e.get('msgstr')]
json.dump(parse(sys.argv[1]), sys.stdout, ensure_ascii=False)
