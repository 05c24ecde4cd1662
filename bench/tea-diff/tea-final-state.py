# Runs one workflow under The Edge Agent's own Python engine (installed by the user outside this
# repository) and prints {"ok", "state", "error", "node"} as JSON: the reference side of tea-diff.
# Usage: python tea-final-state.py WORKFLOW.yaml '{"input": "state"}'
import json
import sys

from the_edge_agent import YAMLEngine


def main():
    path, initial = sys.argv[1], json.loads(sys.argv[2] if len(sys.argv) > 2 else "{}")
    out = {"ok": False, "state": None, "error": None, "node": None}
    try:
        graph = YAMLEngine().load_from_file(path)
        # As TEA's CLI does: the workflow's initial_state, then the input over it.
        import yaml
        doc = yaml.safe_load(open(path, encoding="utf-8"))
        if isinstance(doc, dict) and isinstance(doc.get("initial_state"), dict):
            initial = {**doc["initial_state"], **initial}
        for event in graph.invoke(initial):
            if event.get("type") == "final":
                out.update(ok=True, state=event["state"])
            elif event.get("type") == "error":
                out.update(error=event.get("error"), node=event.get("node"), state=event.get("state"))
            elif event.get("type") in ("interrupt", "validation_error", "http_response"):
                out.update(error="stopped: %s" % event.get("type"), node=event.get("node"), state=event.get("state"))
    except Exception as e:  # a load error (unknown action, bad YAML) is a result too
        out["error"] = "%s: %s" % (type(e).__name__, e)
    print(json.dumps(out, default=lambda v: v.to_dict() if hasattr(v, "to_dict") else str(v)))


main()
