# The differential check of issue 29: runs The Edge Agent's own Python engine and `simgrep run` side by
# side on every workflow of TEA's examples/ and docs/ (YAML files, and ```yaml blocks of the docs' .md
# pages, with a top-level nodes: list), compares the final states and writes the table to RESULTS.md.
# A workflow simgrep refuses before its first node (an LLM or other outside service, Prolog/Lua code,
# a node kind it lacks) is out of scope and counted by reason; every other one is run by both engines.
# TEA is not part of simgrep: install it yourself, outside the repository (see RESULTS.md).
# Usage: python3 bench/tea-diff/tea-diff.py --tea-src DIR --tea-python VENV/bin/python [--simgrep dist/src/cli/main.js]
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
NODES = re.compile(r"^nodes:", re.M)
FENCE = re.compile(r"^```ya?ml\s*\n(.*?)^```", re.M | re.S)


def collect(src, work):
    found = []
    for top in ("examples", "docs"):
        for root, _, files in os.walk(os.path.join(src, top)):
            for f in sorted(files):
                p = os.path.join(root, f)
                rel = os.path.relpath(p, src)
                try:
                    text = open(p, encoding="utf-8").read()
                except (UnicodeDecodeError, OSError):
                    continue
                if f.endswith((".yaml", ".yml")) and NODES.search(text):
                    found.append((rel, p))
                elif f.endswith(".md"):
                    for i, m in enumerate(FENCE.finditer(text)):
                        if NODES.search(m.group(1)):
                            out = os.path.join(work, rel.replace("/", "__") + "__block%d.yaml" % (i + 1))
                            open(out, "w", encoding="utf-8").write(m.group(1))
                            found.append(("%s#block%d" % (rel, i + 1), out))
    return sorted(found)


def run(cmd, cwd, env=None, timeout=180):
    t0 = time.time()
    try:
        r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout, r.stderr, time.time() - t0
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout, time.time() - t0


def strip_timing(v):
    if isinstance(v, list):
        return [strip_timing(x) for x in v]
    if isinstance(v, dict):
        return {k: strip_timing(x) for k, x in v.items() if k != "timing_ms"}
    return v


def first_line(s):
    s = (s or "").strip().splitlines()
    return s[0] if s else ""


def reason_of(message):
    m = re.search(r"(action \"(\w+)[^\"]*\" needs an outside service|inline code in \w+ is not supported|key \"[^\"]+\" is not supported|unknown action \"[^\"]+\"|top-level key \"[^\"]+\" is not supported|node type \"[^\"]+\" is not supported|not valid YAML)", message)
    if not m:
        return re.sub(r"^node [^:]+: ", "", first_line(message))[:100]
    if m.group(2):
        return "action %s.* needs an outside service" % m.group(2)
    return m.group(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tea-src", required=True)
    ap.add_argument("--tea-python", required=True)
    ap.add_argument("--simgrep", default=os.path.join(HERE, "..", "..", "dist", "src", "cli", "main.js"))
    ap.add_argument("--out", default=os.path.join(HERE, "RESULTS.md"))
    ap.add_argument("--input", default="{}")
    a = ap.parse_args()
    src = os.path.abspath(a.tea_src)
    work = tempfile.mkdtemp(prefix="tea-diff-")
    home = tempfile.mkdtemp(prefix="tea-diff-home-")
    env = dict(os.environ, SIMGREP_HOME=home)
    # TEA's semtools.search runs the `semtools` CLI: simgrep is that CLI when started under the name
    # (issue 29 section 3), so a symlink on TEA's PATH lets TEA's own action search with simgrep.
    shim = tempfile.mkdtemp(prefix="tea-diff-bin-")
    os.symlink(os.path.abspath(a.simgrep), os.path.join(shim, "semtools"))
    tea_env = dict(env, PATH=shim + os.pathsep + os.environ.get("PATH", ""))
    rows, refused = [], collections.Counter()
    flows = collect(src, work)
    scope = json.loads(subprocess.run(["node", os.path.join(HERE, "scope.mjs")], input="\n".join(p for _, p in flows), capture_output=True, text=True, check=True).stdout)
    for name, path in flows:
        if scope[path] is not None:
            refused[reason_of(scope[path])] += 1
            continue
        sc, sout, serr, st = run(["node", os.path.abspath(a.simgrep), "run", path, "-i", a.input, "--offline"], src, env)
        tc, tout, terr, tt = run([a.tea_python, os.path.join(HERE, "tea-final-state.py"), path, a.input], src, tea_env)
        try:
            tea = json.loads(tout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            tea = {"ok": False, "state": None, "error": first_line(terr) or "no output", "node": None}
        mine = json.loads(sout) if sout.strip() else None
        s_ok = sc == 0
        if tea["ok"] and s_ok and strip_timing(tea["state"]) == strip_timing(mine):
            verdict, why = "same", ""
        elif not tea["ok"] and not s_ok and strip_timing(tea["state"] or {}) == strip_timing(mine or {}):
            verdict, why = "same (both stop)", "TEA: %s / simgrep: %s" % (first_line(tea["error"])[:80], first_line(serr.split(": ", 2)[-1])[:80])
        else:
            ts, ms = tea["state"] or {}, mine or {}
            keys = sorted(k for k in set(ts) | set(ms) if strip_timing(ts.get(k)) != strip_timing(ms.get(k)))
            verdict = "differs"
            notes = ["TEA's %s failed: %s" % (k, first_line(str(ts[k].get("error")))[:90]) for k in keys if isinstance(ts.get(k), dict) and ts[k].get("success") is False]
            if not tea["ok"] and "Unknown action" in str(tea["error"]):
                verdict = "TEA lacks the action"
            text = open(path, encoding="utf-8").read()
            if re.search(r"\b(random|time\.time|datetime\.now|uuid|timestamp)\b", text):
                notes.append("the workflow uses random numbers or the clock")
            why = "TEA %s, simgrep %s; keys differing: %s%s" % ("ok" if tea["ok"] else "stops: " + first_line(tea["error"])[:80], "ok" if s_ok else "stops: " + first_line(serr.split(": ", 2)[-1])[:80], ", ".join(keys[:6]), "; " + "; ".join(notes) if notes else "")
        rows.append((name, verdict, why, tt, st))
        print(name, verdict, why, file=sys.stderr)
    same = sum(1 for r in rows if r[1].startswith("same"))
    lacks = sum(1 for r in rows if r[1] == "TEA lacks the action")
    lines = [
        "# simgrep run vs The Edge Agent: the differential check (issue 29)",
        "",
        "Every workflow in TEA's `examples/` and `docs/` (YAML files and ```yaml blocks of the docs' pages with",
        "a top-level `nodes:`), run by TEA's own Python engine and by `simgrep run`, input `%s`, both from the" % a.input,
        "root of TEA's snapshot; final states compared (`timing_ms` of parallel results left out). TEA's",
        "`semtools.search` runs the `semtools` CLI: the harness puts a `semtools` symlink to simgrep's CLI on",
        "TEA's PATH, so TEA's own action searches through simgrep's semtools drop-in.",
        "",
        "Command (TEA installed outside the repository, e.g. `python3 -m venv /work/tea-venv && /work/tea-venv/bin/pip",
        "install --no-deps <snapshot>/python` plus its dependencies; simgrep built with `npm run build`):",
        "",
        "```sh",
        "python3 bench/tea-diff/tea-diff.py --tea-src /work/tea-src --tea-python /work/tea-venv/bin/python",
        "```",
        "",
        "## Summary",
        "",
        "| | workflows |",
        "|---|---|",
        "| found | %d |" % len(flows),
        "| out of scope (simgrep refuses before the first node, reason below) | %d |" % sum(refused.values()),
        "| in scope, run by both | %d |" % len(rows),
        "| same final state (or both stop at the same node with the same state) | %d |" % same,
        "| TEA lacks the action (simgrep's own, e.g. search.semantic) | %d |" % lacks,
        "| differ | %d |" % (len(rows) - same - lacks),
        "",
        "## In scope",
        "",
        "| workflow | verdict | why | TEA s | simgrep s |",
        "|---|---|---|---|---|",
    ]
    for name, verdict, why, tt, st in rows:
        lines.append("| `%s` | %s | %s | %.1f | %.1f |" % (name, verdict, why.replace("|", "\\|"), tt, st))
    lines += ["", "## Out of scope, by reason", "", "| reason | workflows |", "|---|---|"]
    for reason, n in refused.most_common():
        lines.append("| %s | %d |" % (reason.replace("|", "\\|"), n))
    open(a.out, "w", encoding="utf-8").write("\n".join(lines) + "\n")
    print("wrote %s: %d found, %d in scope, %d same" % (a.out, len(flows), len(rows), same), file=sys.stderr)


main()
