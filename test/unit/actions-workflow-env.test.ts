// Regression (issue 28, item 3): `env` in workflow templates exposed every variable of the process
// (tokens, passwords). Now a template sees only the names the workflow declares (top-level env:) or
// the user allows (simgrep run --env); every other name is an error that says how to allow it.
import { describe, expect, it } from 'vitest';
import { parseWorkflow } from '../../src/actions/workflow/workflow.js';
import { parseAllowedEnv, parseEnvDeclaration, templateEnv } from '../../src/actions/workflow/workflow-env.js';
import { renderValue } from '../../src/actions/workflow/templates.js';

const source = { HOME: '/home/u', LANG: 'C', SECRET_TOKEN: 's3cr3t', AWS_SECRET_ACCESS_KEY: 'k' };
const render = (t: string, env: ReturnType<typeof templateEnv>) => renderValue(t, { state: {}, variables: {}, settings: {}, env });

describe('workflow env: declared names only', () => {
  it('env shows exactly the declared and allowed names; a secret nobody named is absent', () => {
    const env = templateEnv(parseEnvDeclaration(['HOME', 'UNSET_ONE'], 'wf'), ['LANG'], source);
    expect(render('{{ env | dump }}', env)).toBe('{"HOME":"/home/u","LANG":"C"}');
    expect(render('{{ env.keys() | sort | join(",") }}', env)).toBe('HOME,LANG');
    expect(render('{{ env.HOME }}', env)).toBe('/home/u');
    expect(render('{{ env.get("SECRET_TOKEN", "none") }}', env)).toBe('none');
  });

  it('reading an undeclared name is an error that says how to allow it', () => {
    const env = templateEnv(parseEnvDeclaration(['HOME'], 'wf'), [], source);
    expect(() => render('{{ env.SECRET_TOKEN }}', env)).toThrow('env.SECRET_TOKEN is not available: a workflow sees only the environment variables it declares (top-level env: [SECRET_TOKEN]) or that the command line allows (simgrep run --env SECRET_TOKEN)');
    expect(() => render('{{ env["AWS_SECRET_ACCESS_KEY"] }}', env)).toThrow(/env.AWS_SECRET_ACCESS_KEY is not available/);
  });

  it('a declared but unset name is undefined (| default applies); a mapping gives defaults', () => {
    const env = templateEnv(parseEnvDeclaration({ API_URL: 'http://127.0.0.1:1', MISSING: null, HOME: 'x' }, 'wf'), [], source);
    expect(render('{{ env.API_URL }}', env)).toBe('http://127.0.0.1:1');
    expect(render('{{ env.HOME }}', env)).toBe('/home/u');
    expect(render('{{ env.MISSING | default("d") }}', env)).toBe('d');
  });

  it('with no declaration and no --env, env is empty', () => {
    const wf = parseWorkflow('nodes:\n  - name: a\n', 'wf.yaml');
    expect(render('{{ env | dump }}', templateEnv(wf.env, [], source))).toBe('{}');
  });

  it('a workflow declares env: at its top level; bad names are refused with the place', () => {
    expect(parseWorkflow('env: [HOME, LANG]\nnodes:\n  - name: a\n', 'wf.yaml').env).toEqual({ names: ['HOME', 'LANG'], defaults: {} });
    expect(() => parseWorkflow('env: [HOME, "A-B"]\nnodes:\n  - name: a\n', 'wf.yaml')).toThrow('wf.yaml: env: "A-B" is not an environment variable name');
    expect(() => parseWorkflow('env: HOME\nnodes:\n  - name: a\n', 'wf.yaml')).toThrow('wf.yaml: env: must be a list of variable names');
    expect(() => parseWorkflow('env: {A: [1]}\nnodes:\n  - name: a\n', 'wf.yaml')).toThrow('the default of A must be');
    expect(parseAllowedEnv('HOME, LANG,')).toEqual(['HOME', 'LANG']);
    expect(() => parseAllowedEnv('HOME,__proto__')).toThrow('--env: "__proto__" is not an environment variable name');
  });
});
