import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeMainReport, writeResultsSection } from '../../../bench/results.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
const tempFile = () => { const d = mkdtempSync(path.join(os.tmpdir(), 'simgrep-results-')); dirs.push(d); return path.join(d, 'RESULTS.md'); };
const section = (name: string, body: string) => `<!-- ${name}:begin (written by x) -->\n${body}\n<!-- ${name}:end -->\n`;

describe('bench/RESULTS.md writers', () => {
  it('a throughput report replaces the old one and keeps every section the other harnesses wrote', () => {
    const file = tempFile();
    writeFileSync(file, `# old report\nold rows\n\n${section('index', 'index rows')}\n${section('agents', 'agent rows')}`);
    writeMainReport(file, '# new report\nnew rows\n');
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(`# new report\nnew rows\n\n${section('index', 'index rows')}\n${section('agents', 'agent rows')}`);
  });

  it('a section written again replaces itself only', () => {
    const file = tempFile();
    writeMainReport(file, '# report\n');
    writeResultsSection(file, 'index', section('index', 'first'));
    writeResultsSection(file, 'ann', section('ann', 'ann rows'));
    writeResultsSection(file, 'index', section('index', 'second'));
    writeMainReport(file, '# report again\n');
    expect(readFileSync(file, 'utf8')).toBe(`# report again\n\n${section('index', 'second')}\n${section('ann', 'ann rows')}`);
  });
});
