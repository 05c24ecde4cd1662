#!/usr/bin/env python3
"""The seeds' line search in Python, as a reference for simgrep's `mode: line` (issue 29).

Embeds each line alone the way Python model2vec's StaticModel.encode does (tokenize without special
tokens, drop the unknown id, truncate to max_length tokens, look rows up through `mapping`, scale by
`weights`, mean, L2-normalise with model2vec's +1e-32) and ranks lines by cosine distance
1 - dot(q, l) / (|q| |l|), as semtools' search_documents does (a zero vector is at distance 1).

It first checks itself against the Python model2vec outputs in ../shared/fixtures/model2vec
(embeddings_short.json, embeddings_long.json, embeddings_vocab_quantized.json), so what it prints is
what model2vec would give. Needs numpy, safetensors and tokenizers (pip install them in a venv).

Usage: model2vec-line-search.py FIXTURES_DIR MODEL_NAME QUERY < lines.txt
Prints JSON: [{"line": 0-based index, "text": ..., "distance": ...}, ...] sorted ascending.
"""
import json
import sys
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer


class Model:
    def __init__(self, d: Path):
        tensors = load_file(str(d / "model.safetensors"))
        self.embeddings = tensors.get("embeddings", tensors.get("embedding.weight"))
        self.weights = tensors.get("weights")
        self.mapping = tensors.get("mapping")
        self.tokenizer = Tokenizer.from_file(str(d / "tokenizer.json"))
        cfg = json.loads((d / "config.json").read_text())
        self.normalize = cfg.get("normalize", True)
        tok = json.loads((d / "tokenizer.json").read_text())
        unk = tok["model"].get("unk_token")
        self.unk_id = self.tokenizer.token_to_id(unk) if isinstance(unk, str) else (unk if isinstance(unk, int) else None)
        vocab = self.tokenizer.get_vocab()
        self.median_token_length = int(np.median([len(t) for t in vocab]))

    def encode(self, texts, max_length=512):
        texts = [t[: max_length * self.median_token_length] for t in texts]
        out = []
        for enc in self.tokenizer.encode_batch(texts, add_special_tokens=False):
            ids = [i for i in enc.ids if i != self.unk_id][:max_length]
            if not ids:
                out.append(np.zeros(self.embeddings.shape[1]))
                continue
            rows = self.embeddings[self.mapping[ids]] if self.mapping is not None else self.embeddings[ids]
            if self.weights is not None:
                rows = rows * self.weights[ids][:, None]
            out.append(rows.mean(0))
        out = np.stack(out)
        if self.normalize:
            out = out / (np.linalg.norm(out, axis=1, keepdims=True) + 1e-32)
        return out


def check(fixtures: Path):
    long_text = " ".join(["hello"] * 1000)
    for model, text, name in [("float32", "hello world", "embeddings_short.json"), ("float32", long_text, "embeddings_long.json"), ("vocab-quantized", long_text, "embeddings_vocab_quantized.json")]:
        got = Model(fixtures / f"test-model-{model}").encode([text])[0]
        want = np.array(json.loads((fixtures / name).read_text())[0])
        assert np.allclose(got, want, rtol=1e-5, atol=1e-7), (name, got[:4], want[:4])


def cosine_distance(a, b):
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    if na == 0 or nb == 0:
        return 1.0
    return float(1.0 - np.dot(a, b) / (na * nb))


def main():
    fixtures, model_name, query = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    check(fixtures)
    model = Model(fixtures / f"test-model-{model_name}")
    lines = sys.stdin.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    q = model.encode([query])[0]
    vecs = model.encode(lines)
    ranked = sorted(({"line": i, "text": t, "distance": cosine_distance(q, v)} for i, (t, v) in enumerate(zip(lines, vecs))), key=lambda r: (r["distance"], r["line"]))
    print(json.dumps(ranked, indent=1))


if __name__ == "__main__":
    main()
