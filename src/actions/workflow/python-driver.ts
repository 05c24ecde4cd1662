// The Python side of an inline `run:` block, shipped as source so the bundled CLI carries it. It runs
// the block as The Edge Agent's run_inline does (yaml_nodes.py): `state`, `variables`, `settings`,
// `data`, `json`, `datetime`, `actions`, and TEA's keyword arguments (`node`, `config`,
// `parallel_results` at a fan-in) in scope, the body wrapped in a function when it contains
// `return`, else its new local names are the result. The state comes back too: TEA hands the block
// the state dict itself, so a block that changes it in place (state["n"] = 1) changes the run's
// state. The protocol is JSON lines on the process's original stdin/stdout; the block's own print() goes to stderr so it cannot corrupt the protocol.
export const PYTHON_DRIVER = String.raw`
import json, os, sys, traceback

_proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
sys.stdout = sys.stderr
_proto_in = sys.stdin
_next_id = [0]


def _send(msg):
    _proto_out.write(json.dumps(msg, default=_not_json) + "\n")
    _proto_out.flush()


def _not_json(v):
    raise TypeError("a value of type %s cannot leave a run: block (state is JSON: use dicts, lists, strings, numbers, booleans and None)" % type(v).__name__)


class _ActionFailed(Exception):
    pass


class _Actions(dict):
    """actions["ns.name"](state=..., **params): the call goes back to simgrep's engine (one model load)."""

    def __init__(self, names):
        super().__init__({n: self._make(n) for n in names})

    @staticmethod
    def _make(name):
        def call(state=None, **params):
            _next_id[0] += 1
            cid = _next_id[0]
            _send({"call": name, "id": cid, "state": dict(state) if state is not None else {}, "params": params})
            line = _proto_in.readline()
            if not line:
                raise _ActionFailed("simgrep closed the action channel")
            reply = json.loads(line)
            if "error" in reply:
                raise _ActionFailed(reply["error"])
            return reply["result"]
        return call


class _ParallelFlowResult(dict):
    """TEA's ParallelFlowResult reads a branch's state keys through r[key] as well as its own fields."""

    def __getitem__(self, key):
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        st = dict.get(self, "state")
        if isinstance(st, dict) and key in st:
            return st[key]
        raise KeyError(key)

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key):
        st = dict.get(self, "state")
        return dict.__contains__(self, key) or (isinstance(st, dict) and key in st)

    def __getattr__(self, key):
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        raise AttributeError(key)


def main():
    job = json.loads(_proto_in.readline())
    code = job["code"]
    state = job["state"]
    if isinstance(state.get("parallel_results"), list):
        state["parallel_results"] = [_ParallelFlowResult(r) if isinstance(r, dict) else r for r in state["parallel_results"]]
    g = {
        "state": state,
        "variables": job["variables"],
        "settings": job["settings"],
        "data": job["data"],
        # What TEA's graph passes a node function as keyword arguments (stategraph.py).
        "config": {},
        "node": job["node"],
        "json": json,
        "requests": None,
        "datetime": None,
        "actions": _Actions(job["actions"]),
        "__builtins__": __builtins__,
    }
    if "parallel_results" in state:
        g["parallel_results"] = state["parallel_results"]
    if "datetime" in code:
        import datetime
        g["datetime"] = datetime
    try:
        if "return" in code:
            body = "\n".join("    " + line for line in code.split("\n"))
            loc = {}
            exec("def __run_func__():\n" + body + "\n__result__ = __run_func__()", g, loc)
            result = loc.get("__result__", {})
        else:
            loc = {}
            exec(code, g, loc)
            result = {k: v for k, v in loc.items() if not k.startswith("_")}
    except BaseException as e:
        _send({"error": "%s: %s" % (type(e).__name__, e), "traceback": traceback.format_exc()})
        return
    try:
        # TEA hands the block the state itself: what the block changes in it stays changed.
        _send({"done": result, "state": state})
    except (TypeError, ValueError) as e:
        _send({"error": "the block returned %s" % e, "traceback": ""})


main()
`;
