// Once per test run: every cache, data and config directory that simgrep, the Hugging Face cache and
// the libraries below them default to (~/.cache/simgrep, ~/.local/share/simgrep, ~/.cache/huggingface,
// onnxruntime's ~/.cache/Microsoft) points into one temp dir, so no test writes into the user's caches
// (npm test used to fill ~/.cache/simgrep). A test that needs its own dirs still sets them. The
// cloud SDKs never look for instance metadata off this machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const DIRS = ['SIMGREP_CACHE_DIR', 'SIMGREP_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'HF_HOME', 'HF_HUB_CACHE'];

export default function setup(): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'simgrep-test-home-'));
  // Set here, before the test workers start: they and the CLIs they spawn inherit it.
  for (const name of DIRS) process.env[name] = path.join(root, name.toLowerCase());
  // The AWS SDK's credential chain ends at EC2 instance metadata (169.254.169.254): no test may send
  // traffic there. The tests of that provider serve it on 127.0.0.1 and turn it back on.
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  return () => rmSync(root, { recursive: true, force: true });
}
