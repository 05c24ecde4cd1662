// A search's results with every distance rounded to 1e-6: how the equivalence tests compare an indexed
// answer with a scan's (the last float bits may differ between the paths; nothing else may).
import type { SearchResponse } from '../../src/searcher/api.js';

export const rounded = (r: SearchResponse) => r.results.map((x) => ({ ...x, distance: Math.round(x.distance * 1e6) / 1e6, matches: x.matches.map((m) => ({ ...m, distance: Math.round(m.distance * 1e6) / 1e6 })) }));
