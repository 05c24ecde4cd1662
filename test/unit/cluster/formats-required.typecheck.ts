// Compiled by formats-required.test.ts (not run): each @ts-expect-error marks a caller that drops
// `formats`, which must not compile. Were `formats` optional again, the marks would be unused (TS2578).
import { incompatibility } from '../../../src/cluster/protocol.js';
import type { WatchContext } from '../../../src/cluster/watch.js';

const me = { protocol: 2, simgrep: '0.1.0', model: 'm', formats: 'f' };
const { formats: _dropped, ...noFormats } = me;
export const both = incompatibility(me, me);
export const fromOldCoordinator = incompatibility({ ...noFormats, formats: undefined }, me);
// @ts-expect-error the job's formats dropped
export const noJobFormats = incompatibility(noFormats, me);
// @ts-expect-error the worker's formats dropped
export const noWorkerFormats = incompatibility(me, noFormats);
// @ts-expect-error the worker's formats are never undefined
export const undefinedWorkerFormats = incompatibility(me, { ...noFormats, formats: undefined });
export const watchMe: WatchContext['me'] = me;
// @ts-expect-error the watch's own formats dropped
export const watchNoFormats: WatchContext['me'] = noFormats;
