// Awaits a promise that must reject with a SimgrepError and returns its code and message.
import { SimgrepError } from '../../src/errors.js';

export async function simgrepFailure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SimgrepError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a SimgrepError');
}
