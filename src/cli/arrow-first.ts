// Imported first by the CLI, before anything that loads LanceDB or arrow: simgrep's own processes
// load apache-arrow from its single-file build (src/index/single-file-arrow.ts), and only when they
// open an index or a collection (a search never needs arrow).
import { preferSingleFileArrow } from '../index/single-file-arrow.js';

preferSingleFileArrow();
