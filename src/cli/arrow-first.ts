// Imported first by the CLI, before anything that loads LanceDB or arrow: marks this process as
// simgrep's own, so that LanceDB's dependencies load the lean way (src/workspace/store/lancedb.ts), and only
// when it opens an index or a collection (a search never needs them).
import { markOwnProcess } from '../workspace/store/own-process.js';

markOwnProcess();
