// apache-arrow, the copy LanceDB uses. LanceDB is CommonJS and requires the package's CommonJS build;
// an ESM import of the package would load its ESM build as well: a second copy of every class and
// ~170 ms more for every process that opens an index (measured: LanceDB with its arrow ~190 ms, the
// ESM arrow on top ~170 ms). So simgrep requires the CommonJS build too; types come from the package.
import { createRequire } from 'node:module';

export const arrow: typeof import('apache-arrow') = createRequire(import.meta.url)('apache-arrow');
