// Imported first by the CLI, before anything that loads LanceDB or arrow: simgrep's own processes
// load apache-arrow from its single-file build (src/index/single-file-arrow.ts).
import { useSingleFileArrow } from '../index/single-file-arrow.js';

useSingleFileArrow();
