// A type name as agents and users write it (left37): ripgrep's names in any case, and the common names
// of their languages, mean ripgrep's type; an unknown one is refused with the list.
import { describe, expect, it } from 'vitest';
import { canonicalType, extensionsWithTypes, FILE_TYPES, TYPE_ALIASES } from '../../../src/sources/file-types.js';
import { checkFilterValues } from '../../../src/sources/filter-options.js';

describe('canonicalType', () => {
  const rows: [string, string | undefined][] = [
    ['py', 'py'], ['Python', 'py'], ['PYTHON', 'py'], [' python ', 'py'],
    ['TypeScript', 'ts'], ['TS', 'ts'], ['tsx', 'ts'], ['JS', 'js'], ['JavaScript', 'js'],
    ['C++', 'cpp'], ['cpp', 'cpp'], ['C#', 'cs'], ['CSharp', 'cs'], ['golang', 'go'], ['Go', 'go'],
    ['Rust', 'rust'], ['rs', 'rust'], ['Markdown', 'markdown'], ['MD', 'md'], ['yml', 'yaml'], ['Bash', 'sh'], ['shell', 'sh'],
    ['cobol', undefined], ['pythn', undefined], ['', undefined], ['constructor', undefined], ['__proto__', undefined],
  ];
  it.each(rows)('%j -> %j', (name, want) => expect(canonicalType(name)).toBe(want));

  it('every alias names one of ripgrep\'s types, and none hides one', () => {
    for (const [alias, type] of Object.entries(TYPE_ALIASES)) {
      expect(Object.hasOwn(FILE_TYPES, type), alias).toBe(true);
      expect(Object.hasOwn(FILE_TYPES, alias), alias).toBe(false);
    }
  });

  it('an alias keeps the same files as ripgrep\'s name, in every surface\'s check', () => {
    expect(extensionsWithTypes(undefined, ['Python', 'C++'])).toEqual(extensionsWithTypes(undefined, ['py', 'cpp']));
    for (const surface of ['cli', 'library', 'param'] as const) expect(() => checkFilterValues({ types: ['TypeScript'], typesNot: ['JSON', 'golang'] }, surface)).not.toThrow();
    expect(() => checkFilterValues({ types: ['Pythn'] }, 'param')).toThrow(/^unknown file type "Pythn" \(types\); known types: c, cpp, .*, yaml \(any case; also .*python.*\)$/);
  });
});
