import { describe, expect, it } from 'vitest';
import { splitIdentifier, tokenizeIdentifiers } from '../../../bench/quality/identifiers.js';

describe('BM25 identifier tokens', () => {
  it('expands camelCase and snake_case identifiers, keeps the whole token first', () => {
    expect(tokenizeIdentifiers('def getHTTPResponse(self, max_retries=3):')).toEqual([
      'def', 'gethttpresponse', 'get', 'http', 'response', 'self', 'max_retries', 'max', 'retries',
    ]);
  });

  it('splits acronyms before a capitalised word, and digit runs', () => {
    expect(splitIdentifier('XMLParser')).toEqual(['xmlparser', 'xml', 'parser']);
    expect(splitIdentifier('parseJSON5Data')).toEqual(['parsejson5data', 'parse', 'json', '5', 'data']);
  });

  it('a snake_case token is split on underscores only', () => {
    expect(splitIdentifier('user_ID2')).toEqual(['user_id2', 'user', 'id2']);
    expect(splitIdentifier('get_HTTPResponse')).toEqual(['get_httpresponse', 'get', 'httpresponse']);
  });

  it('single-part identifiers stay whole', () => {
    expect(splitIdentifier('simple')).toEqual(['simple']);
    expect(splitIdentifier('HTTP')).toEqual(['http']);
    expect(splitIdentifier('_private')).toEqual(['_private']);
    expect(splitIdentifier('__init__')).toEqual(['__init__']);
  });

  it('ignores numbers, punctuation and non-ASCII letters', () => {
    expect(tokenizeIdentifiers('42 + 3.14 -> café; "how are routes registered?"')).toEqual(['caf', 'how', 'are', 'routes', 'registered']);
  });
});
