#!/usr/bin/env node
// The simgrep command's entry: an MCP front's engine is started (mcp-early.ts) before the rest of the
// CLI (cli.ts) is loaded, so the engine's own start overlaps the front's.
import { startEngineEarly } from './mcp-early.js';

startEngineEarly(process.argv.slice(2));
await import('./cli.js');
